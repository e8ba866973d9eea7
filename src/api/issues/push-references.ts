/**
 * Issues named by pushed commits: `referenced` events, and issues closed by commits that reach the
 * default branch with a closing keyword (GitHub's "Linking a pull request to an issue using a
 * keyword", https://docs.github.com/issues/tracking-your-work-with-issues/using-issues/linking-a-pull-request-to-an-issue).
 */
import type { App } from '../../app';
import type { RefUpdate } from '../../model/ref-rules';
import type { RepositoryRow } from '../../model/rows';
import { isoSeconds } from '../../time';
import { parseCommit } from '../git/objects';
import { eventContext } from '../../auth/caller';
import { closingReferences } from './closing-keywords';
import { issueSnapshot, recordIssueChanges } from './events';
import { eventScope } from './service';
import { recordCommitReferences } from './timeline';

/** Commits a push's issue references are read from at most (the newest first). */
const MAX_WALKED = 1000;

/**
 * What the commits a push brought say about issues (a push follower, App.pushFollowers, run after
 * the push's reference updates that went through): every commit newly on a pushed branch that
 * names `#N` records a `referenced` event on that issue or pull request (once per commit), and the
 * open issues that commits newly on the default branch name with a closing keyword are closed
 * (GitHub closes them when the commit reaches the default branch; the closed event names the
 * commit), each in its own transaction. At most MAX_WALKED commits are read per push.
 */
export function closeReferencedIssues(app: App, repo: RepositoryRow, updates: RefUpdate[], actorId: number | null): void {
	const owner = app.stores.accounts.byId(repo.owner_id);
	if (!owner) return;
	const branch = `refs/heads/${repo.default_branch}`;
	const closing = new Map<number, string>();
	const referencing: Array<{ sha: string; message: string }> = [];
	const seen = new Set<string>();
	for (const { ref, before, after } of updates) {
		if (!ref.startsWith('refs/heads/') || after === null) continue;
		// New commits: not in the branch before (a new branch: not in the default branch).
		const base = before ?? (ref === branch ? null : (app.stores.git.ref(repo.id, branch)?.sha ?? null));
		const old = base ? new Set(app.stores.git.ancestors(repo.id, base)) : new Set<string>();
		const stack = [after];
		while (stack.length && seen.size < MAX_WALKED) {
			const sha = stack.pop()!;
			if (seen.has(sha) || old.has(sha)) continue;
			seen.add(sha);
			const object = app.stores.git.object(repo.id, sha);
			if (!object || object.type !== 'commit') continue;
			const commit = parseCommit(object.content);
			referencing.push({ sha, message: commit.message });
			if (ref === branch) {
				for (const number of closingReferences(commit.message, owner.login, repo.name))
					if (!closing.has(number)) closing.set(number, sha);
			}
			stack.push(...commit.parents);
		}
	}
	const now = isoSeconds(app.clock());
	if (referencing.length) app.transaction(() => recordCommitReferences(app, repo, owner.login, referencing, actorId, now));
	if (!closing.size) return;
	const ctx = eventContext(app, actorId);
	const scope = eventScope(app, repo);
	if (!scope) return;
	for (const [number, sha] of closing) {
		app.transaction(() => {
			const issue = app.stores.issues.byNumber(repo.id, number);
			if (!issue || issue.pull_request || issue.state !== 'open') return;
			const snapshot = issueSnapshot(ctx, issue);
			const closed = app.stores.issues.update(
				{ ...issue, state: 'closed', state_reason: 'completed', closed_at: now, closed_by_id: actorId },
				now,
			);
			recordIssueChanges(ctx, scope, snapshot, closed, undefined, {}, sha);
		});
	}
}
