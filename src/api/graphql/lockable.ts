/**
 * GraphQL's lockLockable and unlockLockable (gh issue lock / unlock, gh pr lock / unlock): REST's
 * PUT and DELETE /repos/{owner}/{repo}/issues/{issue_number}/lock — their access (push access),
 * their reasons and the issue service setIssueLock — for issues and pull requests.
 * https://docs.github.com/graphql/reference/mutations#locklockable
 */
import type { Route } from '../../http/route';
import { setIssueLock } from '../issues/workflows';
import { MUTATION_POLICIES } from './mutation-access';
import { guarded, issueByNumber, type GraphContext } from './resolve';
import { actorPayload, issueTarget } from './targets';

// biome-ignore lint/suspicious/noExplicitAny: arguments are validated by graphql-js against the schema
type Args = Record<string, any>;

/** GitHub's LockReason → REST's lock_reason. */
const LOCK_REASONS: Record<string, string> = { OFF_TOPIC: 'off-topic', TOO_HEATED: 'too heated', RESOLVED: 'resolved', SPAM: 'spam' };

/** Locks (a reason or none) or unlocks the issue or pull request of node `id`; the record as it now is. */
function setLock(g: GraphContext, route: Route, id: unknown, lock: boolean, reason: string | null) {
	const { admitted, scope, issue } = issueTarget(g, route, id);
	guarded(undefined, () => setIssueLock(admitted, scope, issue, lock, reason));
	return issueByNumber(g, scope.owner.login, scope.repo.name, issue.number);
}

export const LOCKABLE_MUTATIONS: Record<string, (source: unknown, args: Args, g: GraphContext) => unknown> = {
	lockLockable: (_s, { input }, g) => {
		const reason = input.lockReason ? (LOCK_REASONS[String(input.lockReason)] ?? null) : null;
		const lockedRecord = setLock(g, MUTATION_POLICIES.lock, input.lockableId, true, reason);
		return { clientMutationId: input.clientMutationId ?? null, actor: actorPayload(g), lockedRecord };
	},
	unlockLockable: (_s, { input }, g) => {
		const unlockedRecord = setLock(g, MUTATION_POLICIES.unlock, input.lockableId, false, null);
		return { clientMutationId: input.clientMutationId ?? null, actor: actorPayload(g), unlockedRecord };
	},
};
