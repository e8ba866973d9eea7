/** A generated git history (bench/git-history.mjs): its bare repository, object count and packed size in bytes. */
export function generatedHistory(options?: { commits?: number; files?: number; seed?: number }): {
	dir: string;
	objects: number;
	sizePack: number;
};
