/**
 * GET /repos/{owner}/{repo}/languages: bytes of code per language in the default branch's tree,
 * as GitHub's linguist counts them, from the stored git objects. A file's language comes from its
 * name (linguist-languages: file names first, then extensions, ambiguous extensions settled as
 * below); only `programming` and `markup` languages count (data and prose do not, as on GitHub);
 * symbolic links, submodules and vendored folders (node_modules/, vendor/, …) are left out.
 *
 * Cost: the result depends on the tree's content only, so it is computed once per tree sha and
 * kept in a bounded least-recently-used map (shared by every repository with that tree); the walk
 * reads at most MAX_ENTRIES tree entries (a larger tree is counted up to there), each tree's blob
 * sizes in one query.
 */
import type { App } from '../../app';
import { MODE_TYPE, parseTree } from '../git/objects';
import { peel, resolveCommit } from '../git/service';
import type { RepositoryRow } from '../../model/rows';

interface Language {
	name: string;
	type: string;
	extensions?: string[];
	filenames?: string[];
}

// eslint-disable-next-line @typescript-eslint/no-require-imports

/** Tree entries walked per computation at most. */
export const MAX_ENTRIES = 50_000;
/** Trees whose result is remembered. */
const CACHE_LIMIT = 1_000;
/** Folders linguist treats as vendored code (not counted). */
const VENDORED = new Set(['node_modules', 'vendor', 'bower_components', 'third_party', 'Pods', 'Carthage']);
/** Extensions several languages claim, settled as linguist's heuristics settle ordinary files. */
const PREFERRED: Record<string, string> = {
	'.md': 'Markdown',
	'.h': 'C',
	'.m': 'Objective-C',
	'.pl': 'Perl',
	'.pm': 'Perl',
	'.r': 'R',
	'.sql': 'SQL',
	'.inc': 'PHP',
	'.cs': 'C#',
	'.fs': 'F#',
	'.v': 'Verilog',
	'.rs': 'Rust',
	'.t': 'Perl',
	'.html': 'HTML',
	'.asm': 'Assembly',
	'.d': 'D',
	'.f': 'Fortran',
	'.ml': 'OCaml',
	'.as': 'ActionScript',
	'.cl': 'OpenCL',
	'.l': 'Lex',
};
const TYPE_RANK: Record<string, number> = { programming: 0, markup: 1, data: 2, prose: 3 };

/** Lower-cased extension (and file name) → the language linguist would pick; built on first use (not at start). */
let byExtension: Map<string, Language> | null = null;
let byFilename = new Map<string, Language>();

function buildIndex(): Map<string, Language> {
	const LANGUAGES = require('linguist-languages') as Record<string, Language>;
	const extensions = new Map<string, Language>();
	byFilename = new Map<string, Language>();
	const candidates = new Map<string, Language[]>();
	for (const language of Object.values(LANGUAGES)) {
		for (const ext of language.extensions ?? []) {
			const key = ext.toLowerCase();
			candidates.set(key, [...(candidates.get(key) ?? []), language]);
		}
		for (const name of language.filenames ?? []) if (!byFilename.has(name)) byFilename.set(name, language);
	}
	for (const [ext, languages] of candidates) {
		const preferred = PREFERRED[ext] && languages.find((language) => language.name === PREFERRED[ext]);
		const primary = (language: Language) => (language.extensions?.[0]?.toLowerCase() === ext ? 0 : 1);
		const best =
			preferred ||
			[...languages].sort(
				(a, b) => primary(a) - primary(b) || (TYPE_RANK[a.type] ?? 9) - (TYPE_RANK[b.type] ?? 9) || a.name.localeCompare(b.name),
			)[0];
		extensions.set(ext, best);
	}
	return extensions;
}

/** The language a file name belongs to, if linguist knows one. */
export function languageOf(fileName: string): Language | undefined {
	byExtension ??= buildIndex();
	const named = byFilename.get(fileName);
	if (named) return named;
	// Longest extension first: "file.d.ts" tries ".d.ts", then ".ts".
	for (let dot = fileName.indexOf('.', 1); dot !== -1; dot = fileName.indexOf('.', dot + 1)) {
		const found = byExtension.get(fileName.slice(dot).toLowerCase());
		if (found) return found;
	}
	return undefined;
}

const cache = new Map<string, Record<string, number>>();

/** Bytes per counted language of a tree, largest first (walk bounded by MAX_ENTRIES). */
function treeLanguages(app: App, repoId: number, rootSha: string): Record<string, number> {
	const { git } = app.stores;
	const bytes = new Map<string, number>();
	const pending = [rootSha];
	let walked = 0;
	while (pending.length && walked < MAX_ENTRIES) {
		const tree = git.object(repoId, pending.shift()!);
		if (!tree || tree.type !== 'tree') continue;
		const entries = parseTree(tree.content).slice(0, MAX_ENTRIES - walked);
		walked += entries.length;
		const files: Array<{ sha: string; language: string }> = [];
		for (const entry of entries) {
			const type = MODE_TYPE[entry.mode];
			if (type === 'tree') {
				if (!VENDORED.has(entry.name)) pending.push(entry.sha);
			} else if (type === 'blob' && entry.mode !== '120000') {
				const language = languageOf(entry.name);
				if (language && (language.type === 'programming' || language.type === 'markup'))
					files.push({ sha: entry.sha, language: language.name });
			}
		}
		if (!files.length) continue;
		const sizes = new Map(git.metas(repoId, [...new Set(files.map((file) => file.sha))]).map((meta) => [meta.sha, meta.size]));
		for (const file of files) bytes.set(file.language, (bytes.get(file.language) ?? 0) + (sizes.get(file.sha) ?? 0));
	}
	return Object.fromEntries([...bytes].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
}

/**
 * The repository's languages: `{ "<language>": <bytes>, … }` (bytes of the files of each, largest
 * first) of its default branch's tree; `{}` for a repository without that branch.
 */
export function repositoryLanguages(app: App, repo: Pick<RepositoryRow, 'id' | 'default_branch'>): Record<string, number> {
	const commit = resolveCommit(app, repo, `refs/heads/${repo.default_branch}`);
	const tree = commit && peel(app, repo.id, commit, 'tree');
	if (!tree) return {};
	const known = cache.get(tree);
	if (known) {
		// Most recently used last.
		cache.delete(tree);
		cache.set(tree, known);
		return known;
	}
	const result = treeLanguages(app, repo.id, tree);
	if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
	cache.set(tree, result);
	return result;
}
