/**
 * Commit statuses (GitHub's "Commit statuses" REST API): creating one, and the combined status of a
 * commit. `latestStatusesByContext` is the one question branch protection (required status checks)
 * asks: what each context last said about a commit.
 */
import type { App } from '../../app';
import { unprocessable } from '../../model/errors';
import { resolveCommit, type GitRepository } from '../git/service';
import { recordStatus } from './events';
import type { CommitStatusRow, StatusState } from './store';
import type { RepositoryRow } from '../../model/rows';

/** GitHub's states of a commit status. */
export const STATUS_STATES = ['error', 'failure', 'pending', 'success'] as const satisfies readonly StatusState[];

/** GitHub's limit on the statuses of one commit and context. */
export const MAX_STATUSES_PER_CONTEXT = 1000;

/** GitHub's limit on a status description (longer ones are refused here: 422). */
export const MAX_DESCRIPTION = 1024;

/**
 * The newest status of each context of a commit, newest first: what branch protection's required
 * status checks compare against (a context is satisfied when its latest state is `success`).
 * @param sha the commit's full id (lower-case hex)
 */
export function latestStatusesByContext(app: App, repoId: number, sha: string): CommitStatusRow[] {
	return app.stores.statuses.latestByContext(repoId, sha);
}

/**
 * The combined state GitHub computes from the latest status per context: `failure` when any is
 * `error` or `failure`, `pending` when any is `pending` or there is none, `success` otherwise.
 */
export function combinedState(latest: readonly Pick<CommitStatusRow, 'state'>[]): 'failure' | 'pending' | 'success' {
	if (latest.some((s) => s.state === 'error' || s.state === 'failure')) return 'failure';
	if (latest.length === 0 || latest.some((s) => s.state === 'pending')) return 'pending';
	return 'success';
}

/** The commit a `{ref}` of the commit routes names: a full or abbreviated sha, a branch or a tag; null when unknown. */
export function commitOfRef(app: App, repo: GitRepository, ref: string): string | null {
	return resolveCommit(app, repo, ref);
}

export interface StatusInput {
	state: StatusState;
	target_url?: string | null;
	description?: string | null;
	context?: string;
}

/**
 * Creates a status for a commit and records the `status` event.
 * @param sha the commit as given in the path (a full or abbreviated id)
 * @param now ISO timestamp
 * @throws DomainError 422 "No commit found for SHA: <sha>" when it names no commit of the repository;
 *   422 when the commit has MAX_STATUSES_PER_CONTEXT statuses in that context already
 */
export function createStatus(
	app: App,
	repo: RepositoryRow,
	sha: string,
	input: StatusInput,
	creatorId: number | null,
	now: string,
): CommitStatusRow {
	const commit = /^[0-9a-f]{4,40}$/i.test(sha) ? resolveCommit(app, repo, sha) : null;
	if (!commit) throw unprocessable(`No commit found for SHA: ${sha}`);
	const context = input.context ?? 'default';
	if (app.stores.statuses.contextCount(repo.id, commit, context) >= MAX_STATUSES_PER_CONTEXT) {
		throw unprocessable('This SHA and context has reached the maximum number of statuses.');
	}
	const row = app.stores.statuses.insert({
		repo_id: repo.id,
		sha: commit,
		state: input.state,
		context,
		description: input.description ?? null,
		target_url: input.target_url || null,
		creator_id: creatorId,
		created_at: now,
	});
	recordStatus(app, repo, row, creatorId);
	return row;
}
