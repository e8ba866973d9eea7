/**
 * GraphQL's lockLockable and unlockLockable (gh issue lock / unlock, gh pr lock / unlock) over REST's
 * PUT and DELETE /repos/{owner}/{repo}/issues/{issue_number}/lock, for issues and pull requests.
 * https://docs.github.com/graphql/reference/mutations#locklockable
 */
import { TypedError } from './errors';
import { call, get, type GraphContext } from './resolve';

// biome-ignore lint/suspicious/noExplicitAny: arguments are validated by graphql-js against the schema
type Args = Record<string, any>;

const notFound = (id: unknown) => new TypedError('NOT_FOUND', `Could not resolve to a node with the global id of '${id}'`);

/** /repos/{owner}/{repo}/issues/{number} and the GraphQL type of an issue or pull request node id. @throws TypedError NOT_FOUND */
function lockablePath(g: GraphContext, id: unknown): { path: string; type: 'Issue' | 'PullRequest' } {
	const m = /^0\d+:(Issue|PullRequest)(\d{1,15})$/.exec(Buffer.from(String(id), 'base64').toString());
	const { stores } = g.ctx.app;
	const issue = m ? stores.issues.byId(Number(m[2])) : undefined;
	const repo = issue && stores.repos.byId(issue.repo_id);
	const owner = repo && stores.accounts.byId(repo.owner_id);
	if (!m || !issue || !repo || !owner) throw notFound(id);
	return {
		path: `/repos/${encodeURIComponent(owner.login)}/${encodeURIComponent(repo.name)}/issues/${issue.number}`,
		type: m[1] as 'Issue' | 'PullRequest',
	};
}

/** The record as the caller now reads it, typed for the Lockable interface. */
function record(g: GraphContext, path: string, type: string) {
	return { ...get(g, path), __typename: type };
}

/** The viewer as the payload's `actor`. */
const actor = (g: GraphContext) => ({ ...get(g, '/user'), __typename: 'User' });

/** GitHub's LockReason → REST's lock_reason. */
const LOCK_REASONS: Record<string, string> = { OFF_TOPIC: 'off-topic', TOO_HEATED: 'too heated', RESOLVED: 'resolved', SPAM: 'spam' };

export const LOCKABLE_MUTATIONS: Record<string, (source: unknown, args: Args, g: GraphContext) => unknown> = {
	lockLockable: (_s, { input }, g) => {
		const { path, type } = lockablePath(g, input.lockableId);
		const reason = input.lockReason ? LOCK_REASONS[String(input.lockReason)] : undefined;
		call(g, 'PUT', `${path}/lock`, { body: reason ? { lock_reason: reason } : {} });
		return { clientMutationId: input.clientMutationId ?? null, actor: actor(g), lockedRecord: record(g, path, type) };
	},
	unlockLockable: (_s, { input }, g) => {
		const { path, type } = lockablePath(g, input.lockableId);
		call(g, 'DELETE', `${path}/lock`);
		return { clientMutationId: input.clientMutationId ?? null, actor: actor(g), unlockedRecord: record(g, path, type) };
	},
};
