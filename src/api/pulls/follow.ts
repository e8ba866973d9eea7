/**
 * Pull requests follow their branches. The shared reference writes of src/api/git/writes.ts
 * (createRef, updateRef: every writer — the git refs API, contents, branch renames, releases,
 * later merges) call followRef after a branch moved, inside the same transaction, so:
 * - an open pull request whose head is that branch (of that repository, which may be a fork of the
 *   base repository: the new head's objects are fetched into the base repository) takes the new
 *   head_sha and records `pull_request` `synchronize` (with `before` and `after`; GitHub sends it
 *   when the head moves);
 * - an open pull request whose base is that branch takes the new base_sha (no event, as GitHub).
 * Both recompute the stored mergeability. A deleted head branch changes nothing: the pull request
 * stays open with its last head_sha (GitHub's behaviour); re-creating the branch moves the head
 * again. Merged and closed pull requests keep the shas they had. A renamed branch (followRename)
 * retargets the pull requests into it and closes those from it, as GitHub does.
 */
import type { App } from '../../app';
import type { RepositoryRow } from '../../model/rows';
import { eventScope, type IssueScope } from '../issues/service';
import { issueSnapshot, recordIssueChanges } from '../issues/events';
import { eventContext } from '../../auth/caller';
import { recordPullRequest } from './events';
import { isoSeconds } from '../../time';
import { fetchHead, refreshMergeability } from './service';
import { isAncestor } from '../git/service';

/**
 * Updates the open pull requests whose head or base is the branch `name` of `repo`, now at `sha`.
 * @param name the full reference name (only refs/heads/ names concern pull requests)
 * @param actorId who moved it (the synchronize event's sender)
 */
export function followRef(app: App, repo: RepositoryRow, name: string, sha: string, actorId: number | null): void {
	if (!name.startsWith('refs/heads/')) return;
	const branch = name.slice('refs/heads/'.length);
	const { pulls } = app.stores;
	for (const row of pulls.openByBase(repo.id, branch)) {
		if (row.pr.base_sha === sha) continue;
		pulls.setBase(row.id, branch, sha);
		refreshMergeability(app, { ...row.pr, base_sha: sha });
	}
	const ctx = eventContext(app, actorId);
	for (const row of pulls.openByHead(repo.id, branch)) {
		if (row.pr.head_sha === sha) continue;
		const before = row.pr.head_sha;
		const now = isoSeconds(app.clock());
		fetchHead(app, row.repo_id, repo.id, sha, now);
		pulls.setHead(row.id, sha);
		// A push updates the pull request (its updated_at), as on GitHub.
		app.stores.issues.touch(row.id, now);
		refreshMergeability(app, { ...row.pr, head_sha: sha });
		const scope = baseScope(app, repo, row.repo_id);
		// A head that no longer holds the old one was force-pushed (its timeline says so; GitHub's head_ref_force_pushed).
		const forced = !isAncestor(app, repo.id, before, sha);
		const timeline = forced
			? [{ issueId: row.id, event: 'head_ref_force_pushed', commitId: sha, details: { before, after: sha, branch } }]
			: [];
		if (scope) recordPullRequest(ctx, scope, row, 'synchronize', { before, after: sha }, undefined, timeline);
	}
}

/** The issue context of a pull request's base repository, for events outside a request. */
function baseScope(app: App, known: RepositoryRow, repoId: number): IssueScope | null {
	const base = repoId === known.id ? known : app.stores.repos.byId(repoId);
	return base ? eventScope(app, base) : null;
}

/**
 * A branch renamed (POST …/branches/{branch}/rename, src/api/branches/service.ts): as GitHub does,
 * open pull requests into it are retargeted to the new name (`edited` with changes.base.ref), and
 * open pull requests from it are closed (`closed`; their head branch no longer exists by that name).
 * @param now ISO timestamp
 */
export function followRename(app: App, repo: RepositoryRow, from: string, to: string, now: string, actorId: number | null): void {
	const { pulls, issues } = app.stores;
	const ctx = eventContext(app, actorId);
	for (const row of pulls.openByBase(repo.id, from)) {
		const scope = baseScope(app, repo, row.repo_id);
		const before = issueSnapshot(ctx, row);
		pulls.setBase(row.id, to, row.pr.base_sha);
		if (scope)
			recordIssueChanges(ctx, scope, before, issues.byId(row.id)!, undefined, {
				base: { ref: { from }, sha: { from: row.pr.base_sha } },
			});
	}
	for (const row of pulls.openByHead(repo.id, from)) {
		const scope = baseScope(app, repo, row.repo_id);
		const before = issueSnapshot(ctx, row);
		const closed = issues.update({ ...row, state: 'closed', state_reason: null, closed_at: now, closed_by_id: actorId }, now);
		if (scope) recordIssueChanges(ctx, scope, before, closed);
	}
}
