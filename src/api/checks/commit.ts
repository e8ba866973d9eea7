/**
 * The head commit of a check suite. A workflow run's suite carries the head_commit its run stored;
 * an app's suite (`check_suites`) stores none, but GitHub's CheckSuite requires `head_commit`
 * (simple-commit: id, tree_id, message, timestamp, author, committer), so it is read from the git
 * object of its head_sha.
 */
import { storedCommitJson } from '../../model/simple-commit';
import type { App } from '../../app';
import { parseCommit } from '../git/objects';
import type { SuiteRow } from './store';

/** The suite row with its head_commit (JSON) filled from the git commit when it has none stored and the repository holds the commit. */
export function withHeadCommit(app: App, repoId: number, row: SuiteRow): SuiteRow {
	if (row.head_commit !== null) return row;
	const object = app.stores.git.object(repoId, row.head_sha);
	if (!object || object.type !== 'commit') return row;
	const data = parseCommit(object.content);
	return { ...row, head_commit: storedCommitJson(data) };
}
