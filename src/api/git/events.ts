/**
 * Domain events of references (GitHub's push, create and delete webhooks; PushEvent, CreateEvent
 * and DeleteEvent in the activity feeds), recorded through the event log by the reference writes
 * of src/api/git/writes.ts, inside their transaction.
 */
import type { App } from '../../app';
import { record } from '../../events/log';
import { isoSeconds } from '../../time';
import { inRepository } from '../../events/payloads';
import type { RepositoryRow } from '../../model/rows';
import type { AccountRow } from '../users/store';
import { parseCommit } from './objects';
import { isAncestor, peel } from './service';
import { enqueueCodeIndex } from '../../events/code-index';

/** GitHub lists at most 20 commits in a push's payload; `size` counts them all. */
const PAYLOAD_COMMITS = 20;
/** Commits walked at most to count a push (its `size` stops there). */
const MAX_WALK = 1000;
const ZERO = '0'.repeat(40);
/** Pull requests whose timelines a deleted branch is told in at most. */
const MAX_HEAD_EVENTS = 20;

/** The short ref name and its kind: refs/heads/main → main, branch. */
function refKind(name: string): { short: string; kind: 'branch' | 'tag' | null } {
	if (name.startsWith('refs/heads/')) return { short: name.slice(11), kind: 'branch' };
	if (name.startsWith('refs/tags/')) return { short: name.slice(10), kind: 'tag' };
	return { short: name.replace(/^refs\//, ''), kind: null };
}

/**
 * The commits a push brings: reachable from `head`, not from `before` (all of `head`'s history for
 * a new ref), oldest first, walked breadth-first up to MAX_WALK commits.
 */
function pushedCommits(app: App, repoId: number, before: string | null, head: string): { shas: string[]; complete: boolean } {
	// What `before` reaches, computed once (one walk of the commit graph), not per commit.
	const old = before ? new Set(app.stores.git.ancestors(repoId, before)) : new Set<string>();
	const seen = new Set<string>();
	const queue = [head];
	const shas: string[] = [];
	let at = 0;
	for (; at < queue.length && shas.length < MAX_WALK; at++) {
		const sha = queue[at];
		if (seen.has(sha) || old.has(sha)) continue;
		seen.add(sha);
		const meta = app.stores.git.meta(repoId, sha);
		if (!meta || meta.type !== 'commit') continue;
		shas.push(sha);
		queue.push(...app.stores.git.parents(repoId, sha));
	}
	return { shas: shas.reverse(), complete: at >= queue.length };
}

function commitSummaries(app: App, repo: RepositoryRow, owner: { login: string }, shas: string[]) {
	return shas.slice(-PAYLOAD_COMMITS).map((sha) => {
		const data = parseCommit(app.stores.git.object(repo.id, sha)!.content);
		return {
			sha,
			author: { email: data.author.email, name: data.author.name },
			message: data.message,
			distinct: true,
			url: app.urls.api(`/repos/${owner.login}/${repo.name}/commits/${sha}`),
		};
	});
}

/** True when a ref moved to a commit that does not descend from its old one (a forced push). */
function forcedMove(app: App, repoId: number, before: string | null, after: string | null): boolean {
	const from = before && peel(app, repoId, before, 'commit');
	const to = after && peel(app, repoId, after, 'commit');
	return !!from && !!to && !isAncestor(app, repoId, from, to);
}

/**
 * The push webhook's payload (without an action: push has none) for a reference moved from
 * `before` to `after`: the commits it brings (the last 20), pusher, repository, organization and
 * sender. Also what a repository hook's test delivery sends (POST …/hooks/{hook_id}/tests).
 * @param before the ref's commit before (null: the ref is new); @param after after (null: deleted)
 */
export function pushPayload(
	app: App,
	repo: RepositoryRow,
	ref: string,
	before: string | null,
	after: string | null,
	actorId: number | null,
): Record<string, unknown> {
	const owner = app.stores.accounts.byId(repo.owner_id)!;
	const { shas } = after ? pushedCommits(app, repo.id, before, after) : { shas: [] };
	return pushPayloadOf(app, repo, owner, ref, before, after, commitSummaries(app, repo, owner, shas), actorId);
}

function pushPayloadOf(
	app: App,
	repo: RepositoryRow,
	owner: AccountRow,
	ref: string,
	before: string | null,
	after: string | null,
	commits: ReturnType<typeof commitSummaries>,
	actorId: number | null,
): Record<string, unknown> {
	const pusher = actorId === null ? undefined : app.stores.accounts.byId(actorId);
	return {
		ref,
		before: before ?? ZERO,
		after: after ?? ZERO,
		created: before === null,
		deleted: after === null,
		forced: forcedMove(app, repo.id, before, after),
		base_ref: null,
		compare: app.urls.html(`/${owner.login}/${repo.name}/compare/${(before ?? ZERO).slice(0, 12)}...${(after ?? ZERO).slice(0, 12)}`),
		commits: commits.map((c) => ({ id: c.sha, tree_id: null, distinct: true, message: c.message, url: c.url, author: c.author })),
		head_commit: commits.length ? { id: commits[commits.length - 1].sha, message: commits[commits.length - 1].message } : null,
		pusher: pusher ? { name: pusher.login, email: pusher.email } : { name: 'gitstead', email: null },
		...inRepository(app, repo, actorId),
	};
}

/**
 * A reference moved (or was created or deleted): the push webhook, with PushEvent in the feeds
 * when commits arrived on an existing ref.
 * @param before the ref's commit before (null: the ref is new); @param after after (null: deleted)
 */
export function recordPush(
	app: App,
	repo: RepositoryRow,
	ref: string,
	before: string | null,
	after: string | null,
	actorId: number | null,
): void {
	const owner = app.stores.accounts.byId(repo.owner_id)!;
	// What POST …/hooks/{id}/tests sends again: the repository's latest push, whatever its ref.
	app.stores.git.setLatestPush(repo.id, { ref, before, after, pushedAt: isoSeconds(app.clock()) });
	// The code search index follows the default branch (indexed later, by a background task).
	if (ref === `refs/heads/${repo.default_branch}`) enqueueCodeIndex(app, repo.id);
	const { shas } = after ? pushedCommits(app, repo.id, before, after) : { shas: [] };
	const commits = commitSummaries(app, repo, owner, shas);
	const moved = before !== null && after !== null;
	// The event's row gets the next id: the push's id, as GitHub numbers pushes.
	const pushId = app.stores.events.latestId() + 1;
	record(app, {
		event: 'push',
		action: null,
		actorId,
		repo,
		feed: moved
			? {
					type: 'PushEvent',
					payload: {
						repository_id: repo.id,
						push_id: pushId,
						size: shas.length,
						distinct_size: shas.length,
						ref,
						head: after,
						before,
						commits,
					},
				}
			: undefined,
		webhook: () => pushPayloadOf(app, repo, owner, ref, before, after, commits, actorId),
	});
}

/** A branch or tag was created: the create webhook and CreateEvent; then the push. */
export function recordCreateRef(app: App, repo: RepositoryRow, ref: string, sha: string, actorId: number | null): void {
	const { short, kind } = refKind(ref);
	if (kind) {
		record(app, {
			event: 'create',
			action: null,
			actorId,
			repo,
			feed: {
				type: 'CreateEvent',
				payload: {
					ref: short,
					ref_type: kind,
					master_branch: repo.default_branch,
					description: repo.description,
					pusher_type: 'user',
				},
			},
			webhook: () => ({
				ref: short,
				ref_type: kind,
				master_branch: repo.default_branch,
				description: repo.description,
				pusher_type: 'user',
				...inRepository(app, repo, actorId),
			}),
		});
	}
	recordPush(app, repo, ref, null, sha, actorId);
}

/** A branch or tag was deleted: the delete webhook and DeleteEvent; then the push. */
export function recordDeleteRef(app: App, repo: RepositoryRow, ref: string, sha: string, actorId: number | null): void {
	const { short, kind } = refKind(ref);
	if (kind) {
		// The pull requests whose head this branch was, at that commit: "deleted the … branch" in their timelines.
		const heads = kind === 'branch' ? app.stores.pulls.byHeadAt(repo.id, short, sha, MAX_HEAD_EVENTS) : [];
		record(app, {
			event: 'delete',
			action: null,
			actorId,
			repo,
			timeline: heads.map((pull) => ({
				issueId: pull.id,
				repoId: pull.repo_id,
				event: 'head_ref_deleted',
				details: { branch: short },
			})),
			feed: { type: 'DeleteEvent', payload: { ref: short, ref_type: kind, pusher_type: 'user' } },
			webhook: () => ({
				ref: short,
				ref_type: kind,
				pusher_type: 'user',
				...inRepository(app, repo, actorId),
			}),
		});
	}
	recordPush(app, repo, ref, sha, null, actorId);
}
