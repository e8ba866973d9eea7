/**
 * Branch protection enforced on reference writes. checkRefUpdate is the first of the rules the
 * application is wired with (App.refRules, src/compose.ts), which src/api/git/writes.ts runs from
 * its shared create/update/delete functions, so every path that moves a branch (the git refs API,
 * a branch rename, repository contents, later pull request merges) gets the same rules and
 * GitHub's 422 messages. `commitChecksPassed` is the one place required status checks are decided:
 * from commit statuses (by context) and check runs (workflow jobs and apps' check runs, by name).
 */
import type { App } from '../../app';
import { protectedBranch } from '../../model/errors';
import { reachable, walkCommits } from '../git/graph';
import { isAncestor, peel } from '../git/service';
import type { RefWriter } from '../../model/ref-rules';
import type { RepositoryRow } from '../../model/rows';
import type { ProtectionSettings } from './store';
import { checkImmutableTag } from '../immutable-releases/enforce';

/** Conclusions of a check run that satisfy a required check (GitHub's: success, neutral, skipped). */
const PASSING = new Set(['success', 'neutral', 'skipped']);

/** Commits a push's history rules (linear history, signatures) inspect at most. */
const MAX_PUSHED = 1000;

/** The state of one required context on a commit. */
export type CheckState = 'success' | 'failure' | 'pending' | 'expected';

/**
 * Whether the required contexts passed on `sha`. A context is reported by a commit status of that
 * context (its newest; GitHub's "Commit statuses") or a check run of that name (the newest workflow
 * job of the run's latest attempt, or an app's check run): it passes when either passed (status
 * `success`; check run completed with success, neutral or skipped), is 'pending' while either is
 * still running or pending, 'expected' when nothing of that name reported, 'failure' otherwise.
 * @returns passed, and the state of every context in the order given
 */
export function commitChecksPassed(
	app: App,
	repoId: number,
	sha: string,
	contexts: string[],
): { passed: boolean; states: Array<{ context: string; state: CheckState }> } {
	const runs = app.stores.branches.checkRuns(repoId, sha, contexts);
	const statuses = new Map(app.stores.statuses.latestByContext(repoId, sha).map((status) => [status.context, status.state]));
	const states = contexts.map((context) => {
		const run = runs.get(context);
		const fromRun: CheckState | null = !run
			? null
			: run.status !== 'completed'
				? 'pending'
				: PASSING.has(run.conclusion ?? '')
					? 'success'
					: 'failure';
		const status = statuses.get(context);
		const fromStatus: CheckState | null =
			status === undefined ? null : status === 'success' ? 'success' : status === 'pending' ? 'pending' : 'failure';
		const reported: CheckState[] = [];
		if (fromRun) reported.push(fromRun);
		if (fromStatus) reported.push(fromStatus);
		const state: CheckState =
			reported.length === 0
				? 'expected'
				: reported.includes('success')
					? 'success'
					: reported.includes('pending')
						? 'pending'
						: 'failure';
		return { context, state };
	});
	return { passed: states.every((s) => s.state === 'success'), states };
}

/** GitHub's message for required checks that have not passed on the new head. */
export function checksMessage(states: Array<{ context: string; state: CheckState }>): string {
	const failing = states.filter((s) => s.state !== 'success');
	const expected = failing.filter((s) => s.state === 'expected' || s.state === 'pending');
	if (failing.length === 1) {
		const [one] = failing;
		return `Required status check "${one.context}" ${one.state === 'failure' ? 'is failing' : 'is expected'}.`;
	}
	if (expected.length === failing.length) return `${failing.length} of ${states.length} required status checks are expected.`;
	return `${failing.length} of ${states.length} required status checks have not succeeded.`;
}

/** True when the actor may push to a branch whose pushes `restrictions` limits. */
function mayPush(app: App, settings: ProtectionSettings, actorId: number): boolean {
	const allowed = settings.restrictions!;
	if (allowed.users.includes(actorId)) return true;
	if (allowed.teams.some((team) => app.stores.teams.membership(team, actorId)?.state === 'active')) return true;
	return allowed.apps.some((id) => app.stores.apps.byId(id)?.bot_id === actorId);
}

/**
 * Refuses a reference change a branch's protection forbids (nothing for tags or unprotected
 * branches). `before` null: the branch is created; `after` null: it is deleted.
 * @throws DomainError 422 with GitHub's messages: "Cannot delete this protected branch",
 *   "Cannot force-push to this branch", "Cannot update a locked branch.", "You're not authorized to
 *   push to this branch.", "Cannot create ref due to creations being restricted.", "Changes must be made through a pull request.", "Required status check
 *   \"ci\" is expected.", "This branch must not contain merge commits.", "Commits must have
 *   verified signatures."
 */
export function checkRefUpdate(
	app: App,
	repo: RepositoryRow,
	name: string,
	before: string | null,
	after: string | null,
	writer: RefWriter,
): void {
	const repoId = repo.id;
	// The tags of immutable releases (src/api/immutable-releases/enforce.ts).
	checkImmutableTag(app, repoId, name, before, after);
	if (!name.startsWith('refs/heads/')) return;
	const protection = app.stores.branches.protection(repoId, name.slice('refs/heads/'.length));
	if (!protection) return;
	const settings = protection.settings;
	if (after === null) {
		if (!settings.allow_deletions) throw protectedBranch('Cannot delete this protected branch');
		return;
	}
	if (settings.lock_branch) throw protectedBranch('Cannot update a locked branch.');
	const from = before && peel(app, repoId, before, 'commit');
	const to = peel(app, repoId, after, 'commit');
	if (from && to && !settings.allow_force_pushes && !isAncestor(app, repoId, from, to))
		throw protectedBranch('Cannot force-push to this branch');
	const bypass = writer.admin && !settings.enforce_admins;
	if (bypass) return;
	// The branch was deleted (allow_deletions) and its protection kept: creating it again.
	if (before === null && settings.block_creations) throw protectedBranch('Cannot create ref due to creations being restricted.');
	if (settings.restrictions && writer.actorId !== null && !mayPush(app, settings, writer.actorId))
		throw protectedBranch("You're not authorized to push to this branch.");
	if (settings.required_pull_request_reviews && !writer.viaPullRequest)
		throw protectedBranch('Changes must be made through a pull request.');
	if (!to) return;
	const checks = settings.required_status_checks;
	if (checks?.contexts.length) {
		const result = commitChecksPassed(app, repoId, writer.checksSha ?? to, checks.contexts);
		if (!result.passed) throw protectedBranch(checksMessage(result.states));
	}
	if (settings.required_linear_history || settings.required_signatures) {
		const { commits } = walkCommits(app, repoId, to, { exclude: reachable(app, repoId, from ?? null), stopAfter: MAX_PUSHED });
		if (settings.required_linear_history && commits.some((c) => c.data.parents.length > 1))
			throw protectedBranch('This branch must not contain merge commits.');
		// Gitstead keeps no signing keys, so no signature verifies (see src/api/git/render.ts).
		if (settings.required_signatures && commits.length) throw protectedBranch('Commits must have verified signatures.');
	}
}
