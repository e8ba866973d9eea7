/**
 * The code search index's rows (schema 36): which commit of a repository's default branch is
 * indexed (code_search_repos), its files (code_search_files) and their text (code_search_fts,
 * trigram). Written only by the indexing task (src/api/search/code-index.ts); searches read it
 * through the search store's statements.
 */
import type { DB } from '../../db/open';

/** A repository's index state. */
export interface CodeIndexState {
	repo_id: number;
	/** The commit whose tree is indexed (null: the branch had none). */
	commit_sha: string | null;
	files: number;
	/** 1 when files were left out (more than the index keeps per repository). */
	incomplete: number;
	/** ISO timestamp. */
	indexed_at: string;
}

/** A file as the index stores it. */
export interface CodeFileRow {
	id: number;
	repo_id: number;
	path: string;
	name: string;
	/** Lower-cased, without the dot; '' when none. */
	extension: string;
	language: string | null;
	/** Blob id. */
	sha: string;
	/** Bytes. */
	size: number;
	/** 1: a binary file, listed without text (never found). */
	binary: number;
}

/** A file to index, with its text (null: a binary file, listed so that it is not read again). */
export type NewCodeFile = Omit<CodeFileRow, 'id' | 'repo_id' | 'binary'> & { text: string | null };

/** Creates the code search store. */
export function createCodeSearchStore(db: DB) {
	const state = db.prepare('SELECT * FROM code_search_repos WHERE repo_id = ?');
	const indexed = db.prepare('SELECT path, sha FROM code_search_files WHERE repo_id = ?');
	const remove = db.prepare('DELETE FROM code_search_files WHERE repo_id = ? AND path = ?');
	const insertFile = db.prepare(
		'INSERT INTO code_search_files (repo_id, path, name, extension, language, sha, size, binary) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
	);
	const insertText = db.prepare('INSERT INTO code_search_fts (rowid, content) VALUES (?, ?)');
	const setState = db.prepare(`
		INSERT INTO code_search_repos (repo_id, commit_sha, files, incomplete, indexed_at)
		VALUES (@repo, @commit, (SELECT count(*) FROM code_search_files WHERE repo_id = @repo AND binary = 0), @incomplete, @now)
		ON CONFLICT (repo_id) DO UPDATE SET commit_sha = excluded.commit_sha, files = excluded.files,
		  incomplete = excluded.incomplete, indexed_at = excluded.indexed_at`);
	const text = db.prepare('SELECT content FROM code_search_fts WHERE rowid = ?').pluck();
	return {
		/** The repository's index state, or undefined when it was never indexed. */
		state: (repoId: number) => state.get(repoId) as CodeIndexState | undefined,
		/** The indexed files: path → blob id. */
		indexedFiles: (repoId: number) =>
			new Map((indexed.all(repoId) as Array<{ path: string; sha: string }>).map((r) => [r.path, r.sha])),
		/** Takes these paths out of the index. */
		removeFiles(repoId: number, paths: readonly string[]): void {
			for (const path of paths) remove.run(repoId, path);
		},
		/** Indexes files (a path indexed already is replaced); a binary one without text. */
		addFiles(repoId: number, files: readonly NewCodeFile[]): void {
			for (const file of files) {
				remove.run(repoId, file.path);
				const binary = file.text === null ? 1 : 0;
				const id = Number(
					insertFile.run(repoId, file.path, file.name, file.extension, file.language, file.sha, file.size, binary)
						.lastInsertRowid,
				);
				if (file.text !== null) insertText.run(id, file.text);
			}
		},
		/** Records the commit now indexed. @param now ISO timestamp */
		setState(repoId: number, commit: string | null, incomplete: boolean, now: string): void {
			setState.run({ repo: repoId, commit, incomplete: incomplete ? 1 : 0, now });
		},
		/** An indexed file's text. */
		text: (fileId: number) => text.get(fileId) as string | undefined,
	};
}
