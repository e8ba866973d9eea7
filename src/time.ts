/** Time helpers. The app clock returns epoch milliseconds; tests inject their own. */

export type Clock = () => number;
export const systemClock: Clock = () => Date.now();

/** Epoch milliseconds → 'YYYY-MM-DDTHH:MM:SSZ' (the API's timestamp format). */
export function isoSeconds(ms: number): string {
	return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Epoch milliseconds → epoch seconds. */
export function epochSeconds(ms: number): number {
	return Math.floor(ms / 1000);
}
