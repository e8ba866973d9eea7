/**
 * GitHub's simple-commit, the `head_commit` of a workflow run and of a check suite
 * (https://docs.github.com/rest/actions/workflow-runs#get-a-workflow-run): stored as JSON on the
 * run (taken from its commit when it is created, or as an import gives it) and rendered with the
 * row's head SHA as its id.
 */
import { isoSeconds } from '../time';

/** The stored form (a row's `head_commit` column, JSON): every field of simple-commit but its id. */
export interface StoredCommit {
	tree_id: string;
	message: string;
	/** ISO 8601, seconds. */
	timestamp: string;
	author: { name: string; email: string } | null;
	committer: { name: string; email: string } | null;
}

/** A person line of a parsed git commit (git's author/committer: name, email, epoch seconds). */
interface Ident {
	name: string;
	email: string;
	seconds: number;
}

/**
 * The stored form of a parsed git commit, as JSON: its timestamp is the committer's time, as
 * GitHub's head_commit.timestamp is.
 */
export function storedCommitJson(data: { tree: string; message: string; author: Ident; committer: Ident }): string {
	const commit: StoredCommit = {
		tree_id: data.tree,
		message: data.message,
		timestamp: isoSeconds(data.committer.seconds * 1000),
		author: { name: data.author.name, email: data.author.email },
		committer: { name: data.committer.name, email: data.committer.email },
	};
	return JSON.stringify(commit);
}

/**
 * The simple-commit record of a row's stored head commit.
 * @param headSha the row's head SHA (the record's id)
 * @param stored the row's `head_commit` JSON, or null
 * @returns null when the row stores none
 */
export function simpleCommit(headSha: string, stored: string | null) {
	if (stored === null) return null;
	const commit = JSON.parse(stored) as StoredCommit;
	return {
		id: headSha,
		tree_id: commit.tree_id,
		message: commit.message,
		timestamp: commit.timestamp,
		author: commit.author,
		committer: commit.committer,
	};
}
