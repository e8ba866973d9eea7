/**
 * Access of GraphQL fields: each field that reads or changes a resource states the route access of
 * the REST resource it serves (the same declarations the REST routes spread: REPOSITORY_READ,
 * ISSUES_READ, PULLS_READ …), and the HTTP layer admits the caller to it with the rules a REST
 * request gets (src/http/pipeline.ts admitAs: token kinds, scopes, fine-grained and app
 * permissions, then the resource guard of src/http/guards.ts). Nothing here decides a rule itself.
 *
 * Answers are memoized per GraphQL request: a query naming one repository in twenty places runs
 * the guard once per policy.
 */
import { admitAs } from '../../http/pipeline';

export { policy };
import type { Context, GuardedContext, Route } from '../../http/route';
import { policy } from '../../http/policy';
import type { RepoAccess } from '../../auth/access/types';
import { ISSUES_READ, ISSUES_WRITE } from '../issues/access';
import { PULLS_READ } from '../pulls/access';
import { REPOSITORY_READ } from '../repos/access';
import { AUTHENTICATED_USER } from '../users/access';

/** The policies of the fields served from stores (by the REST resource they read). */
export const POLICIES = {
	repository: policy({ ...REPOSITORY_READ, method: 'GET', path: '/repos/{owner}/{repo}', docs: 'repos/repos#get-a-repository' }),
	issues: policy({ ...ISSUES_READ, method: 'GET', path: '/repos/{owner}/{repo}/issues', docs: 'issues/issues#list-repository-issues' }),
	pulls: policy({ ...PULLS_READ, method: 'GET', path: '/repos/{owner}/{repo}/pulls', docs: 'pulls/pulls#list-pull-requests' }),
	labels: policy({
		...ISSUES_READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/labels',
		docs: 'issues/labels#list-labels-for-a-repository',
	}),
	viewer: policy(AUTHENTICATED_USER),
	createIssue: policy({
		...ISSUES_WRITE,
		permissions: [{ issues: 'write' }],
		method: 'POST',
		path: '/repos/{owner}/{repo}/issues',
		docs: 'issues/issues#create-an-issue',
	}),
	updateIssue: policy({
		...ISSUES_WRITE,
		method: 'PATCH',
		path: '/repos/{owner}/{repo}/issues/{issue_number}',
		docs: 'issues/issues#update-an-issue',
	}),
	comment: policy({
		...ISSUES_WRITE,
		method: 'POST',
		path: '/repos/{owner}/{repo}/issues/{issue_number}/comments',
		docs: 'issues/comments#create-an-issue-comment',
	}),
};

/**
 * Per-request memo of admissions, by policy (two policies may share a method and path yet differ
 * in access) and parameters: a refusal is remembered as well as a success.
 */
const admissions = new WeakMap<Context, Map<Route, Map<string, { ctx: GuardedContext } | { error: unknown }>>>();

/**
 * The caller admitted to `route` for the resource `params` name, once per request.
 * @throws the refusal a REST request would get (DomainError 401, 403, 404; HttpError 301/307 for a moved repository)
 */
export function admit(parent: Context, route: Route, params: Record<string, string>): GuardedContext {
	let routes = admissions.get(parent);
	if (!routes) admissions.set(parent, (routes = new Map()));
	let memo = routes.get(route);
	if (!memo) routes.set(route, (memo = new Map()));
	const key = JSON.stringify(params);
	let entry = memo.get(key);
	if (!entry) {
		try {
			entry = { ctx: admitAs(parent, route, params) };
		} catch (error) {
			entry = { error };
		}
		memo.set(key, entry);
	}
	if ('error' in entry) throw entry.error;
	return entry.ctx;
}

/**
 * The repository `owner`/`name` under `route` (a repository policy): its rows and the caller's
 * permission. A name the repository had before a rename resolves to it where it is now, as
 * GitHub's GraphQL does (for callers who may read it; the guard decides).
 * @throws the guard's refusal (DomainError 404 for a repository the caller cannot see)
 */
export function repositoryAccess(parent: Context, route: Route, owner: string, name: string): GuardedContext & { repo: RepoAccess } {
	const { stores } = parent.app;
	const account = stores.accounts.byLogin(owner);
	if (account && !stores.repos.byOwnerAndName(account.id, name)) {
		const moved = stores.repos.redirected(account.id, name);
		const movedOwner = moved && stores.accounts.byId(moved.owner_id);
		if (moved && movedOwner) return repositoryAccess(parent, route, movedOwner.login, moved.name);
	}
	return admit(parent, route, { owner, repo: name }) as GuardedContext & { repo: RepoAccess };
}
