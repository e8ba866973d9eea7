/**
 * What GraphQL mutations act on, named by global node id: the repository, issue or pull request
 * with the caller admitted to it under a REST route's access (src/api/graphql/access.ts `admit`),
 * as a request to that route is; and the payload objects mutations answer with, rendered by the
 * shared renderers from the stores (never by replaying REST).
 *
 * An id that is not a node id, names another type, or names something the caller may not see is
 * NOT_FOUND "Could not resolve to a node with the global id of '…'"; what the caller sees but may
 * not change is FORBIDDEN with REST's 403 message.
 */
import type { RepoAccess } from '../../auth/access/types';
import type { GuardedContext, Route } from '../../http/route';
import type { IssueRow, PullRow, RepositoryRow } from '../../model/rows';
import { issueRepository, loadIssue, type IssueScope } from '../issues/service';
import { loadPull } from '../pulls/service';
import { fullRepository } from '../repos/render';
import { privateUser, publicUser } from '../users/render';
import { admit } from './access';
import { TypedError } from './errors';
import { guarded, type GraphContext } from './resolve';

// biome-ignore lint/suspicious/noExplicitAny: sources are REST representations of many shapes
type Source = Record<string, any>;

/** A caller admitted to a repository route: the guard's context with the repository loaded. */
export type Admitted = GuardedContext & { repo: RepoAccess };

/** GitHub's NOT_FOUND message for a node id. */
export const nodeMessage = (id: unknown) => `Could not resolve to a node with the global id of '${id}'`;

/** NOT_FOUND for a node id. */
export const notFound = (id: unknown) => new TypedError('NOT_FOUND', nodeMessage(id));

/** The type and database id a global node id names (base64 of `0<length>:<Type><id>`). @throws TypedError NOT_FOUND */
export function decode(id: unknown): { type: string; id: number } {
	const m = /^0\d+:([A-Za-z]+)(\d{1,15})$/.exec(Buffer.from(String(id), 'base64').toString());
	if (!m) throw notFound(id);
	return { type: m[1], id: Number(m[2]) };
}

/** The repository row and owner login of a repository id. @throws TypedError NOT_FOUND */
function repositoryRows(g: GraphContext, repoId: number, id: unknown): { repo: RepositoryRow; owner: string } {
	const { stores } = g.ctx.app;
	const repo = stores.repos.byId(repoId);
	const owner = repo && stores.accounts.byId(repo.owner_id);
	if (!repo || !owner) throw notFound(id);
	return { repo, owner: owner.login };
}

/**
 * The repository of node `id` with the caller admitted to `route` for it.
 * @param params more path parameters of the route beside {owner} and {repo}
 * @throws TypedError NOT_FOUND; the route's refusal (FORBIDDEN …)
 */
export function repositoryTarget(g: GraphContext, route: Route, id: unknown, params: Record<string, string> = {}): Admitted {
	const node = decode(id);
	if (node.type !== 'Repository') throw notFound(id);
	const { repo, owner } = repositoryRows(g, node.id, id);
	return guarded(nodeMessage(id), () => admit(g.ctx, route, { ...params, owner, repo: repo.name }) as Admitted);
}

/** An issue (or pull request) and the caller admitted to its repository. */
export interface IssueTarget {
	admitted: Admitted;
	scope: IssueScope;
	issue: IssueRow;
}

/**
 * The issue or pull request of node `id` with the caller admitted to `route` (a REST issue route's
 * access, {issue_number} set) for it. Plain issues of a repository with issues turned off are
 * refused as REST refuses them (410: UNPROCESSABLE).
 * @throws TypedError NOT_FOUND for an id that names no issue the caller may see; the route's refusal (FORBIDDEN …)
 */
export function issueTarget(g: GraphContext, route: Route, id: unknown, kinds: string[] = ['Issue', 'PullRequest']): IssueTarget {
	const node = decode(id);
	const row = kinds.includes(node.type) ? g.ctx.app.stores.issues.byId(node.id) : undefined;
	if (!row) throw notFound(id);
	const { repo, owner } = repositoryRows(g, row.repo_id, id);
	return guarded(nodeMessage(id), () => {
		const admitted = admit(g.ctx, route, { owner, repo: repo.name, issue_number: String(row.number) }) as Admitted;
		const scope = issueRepository(admitted, { allowDisabled: true });
		return { admitted, scope, issue: loadIssue(admitted, scope) };
	});
}

/** A pull request and the caller admitted to its repository. */
export interface PullTarget {
	admitted: Admitted;
	scope: IssueScope;
	pull: PullRow;
}

/**
 * The pull request of node `id` with the caller admitted to `route` (a REST pull request route's
 * access, {pull_number} set, and `params` for the route's other parameters) for it.
 * @throws TypedError NOT_FOUND; the route's refusal (FORBIDDEN …)
 */
export function pullTarget(g: GraphContext, route: Route, id: unknown, params: Record<string, string> = {}): PullTarget {
	const node = decode(id);
	const row = node.type === 'PullRequest' ? g.ctx.app.stores.issues.byId(node.id) : undefined;
	if (!row?.pull_request) throw notFound(id);
	const { repo, owner } = repositoryRows(g, row.repo_id, id);
	return guarded(nodeMessage(id), () => {
		const admitted = admit(g.ctx, route, { ...params, owner, repo: repo.name, pull_number: String(row.number) }) as Admitted;
		const scope = issueRepository(admitted, { allowDisabled: true });
		return { admitted, scope, pull: loadPull(admitted, scope) };
	});
}

/**
 * A Repository source as GET /repos/{owner}/{repo} renders it now (the row read again: a mutation
 * may just have changed it), with the admitted caller's permission (none for a public view).
 */
export function repositoryPayload(g: GraphContext, admitted: Admitted): Source {
	const { app } = g.ctx;
	const { owner, permission } = admitted.repo;
	const repo = app.stores.repos.byId(admitted.repo.repo.id) ?? admitted.repo.repo;
	return { ...fullRepository(app, repo, owner, admitted.publicView ? null : permission), __typename: 'Repository' };
}

/**
 * The account that acts (a payload's `actor`): the viewer as GET /user renders it, or the account
 * an installation acts as (GET /users/{username}); null when nobody acts.
 */
export function actorPayload(g: GraphContext): Source | null {
	const { app, principal } = g.ctx;
	const id = principal.user?.id ?? principal.actorId;
	const row = id === null || id === undefined ? undefined : app.stores.accounts.byId(id);
	if (!row) return null;
	const counts = app.stores.accounts.counts(row.id);
	const own = principal.user?.id === row.id;
	return {
		...(own ? privateUser(app.urls, row, counts) : publicUser(app.urls, row, counts)),
		// The schema served has no Bot type: an app's bot user answers as a User.
		__typename: row.type === 'Organization' ? 'Organization' : 'User',
	};
}

/**
 * Label names of label node ids of the repository `repoId` (a label of another repository is
 * NOT_FOUND, as GitHub answers).
 * @throws TypedError NOT_FOUND
 */
export function labelNames(g: GraphContext, ids: unknown[], repoId: number): string[] {
	return ids.map((id) => {
		const node = decode(id);
		const row = node.type === 'Label' ? g.ctx.app.stores.labels.byId(node.id) : undefined;
		if (!row || row.repo_id !== repoId) throw notFound(id);
		return row.name;
	});
}

/** Logins of user node ids. @throws TypedError NOT_FOUND */
export function logins(g: GraphContext, ids: unknown[]): string[] {
	return ids.map((id) => {
		const node = decode(id);
		const row = node.type === 'User' ? g.ctx.app.stores.accounts.byId(node.id) : undefined;
		if (!row) throw notFound(id);
		return row.login;
	});
}

/** Team slugs of team node ids. @throws TypedError NOT_FOUND */
export function teamSlugs(g: GraphContext, ids: unknown[]): string[] {
	return ids.map((id) => {
		const node = decode(id);
		const team = node.type === 'Team' ? g.ctx.app.stores.teams.byId(node.id) : undefined;
		if (!team) throw notFound(id);
		return team.slug;
	});
}

/** The number of the milestone a node id names, in the repository `repoId`. @throws TypedError NOT_FOUND */
export function milestoneNumber(g: GraphContext, id: unknown, repoId: number): number {
	const node = decode(id);
	const row = node.type === 'Milestone' ? g.ctx.app.stores.milestones.byId(node.id) : undefined;
	if (!row || row.repo_id !== repoId) throw notFound(id);
	return row.number;
}

/**
 * The fields of an issue edit (REST's names: title, body, labels, assignees, milestone, state) from
 * a createIssue / updateIssue / updatePullRequest input, node ids resolved in the repository `repoId`.
 */
export function issueInput(g: GraphContext, input: Source, repoId: number): Source {
	const body: Source = {};
	if (input.title != null) body.title = input.title;
	if (input.body !== undefined) body.body = input.body;
	if (input.labelIds) body.labels = labelNames(g, input.labelIds, repoId);
	if (input.assigneeIds) body.assignees = logins(g, input.assigneeIds);
	if (input.milestoneId !== undefined) body.milestone = input.milestoneId === null ? null : milestoneNumber(g, input.milestoneId, repoId);
	if (input.state) body.state = String(input.state).toLowerCase();
	return body;
}
