/**
 * Shared rules of the issue routes: the repository with issues enabled, one issue by number,
 * batch rendering, and the assignee and label inputs (GitHub's issues API).
 */
import type { App } from '../../app';
import { gone, invalidField, notFound, validationFailed } from '../../model/errors';
import type { Caller } from '../../auth/caller';
import type { RepoAccess } from '../../auth/access/types';
import { atLeast, basePermission, REPO_PERMISSIONS } from '../../model/repo-permissions';
import type { LabelRow, AccountRow, MilestoneRow, IssueRow, RepositoryRow } from '../../model/rows';
import { Associations } from './association';
import { repositoryPaths, type RepositoryPaths } from '../../model/render';
import { milestone } from '../../model/render';
import { issue } from './render';
import { renderBody } from '../../model/markdown/render';
import type { AssignableScope } from './store';

/** GitHub allows at most ten assignees on an issue. */
export const MAX_ASSIGNEES = 10;

/**
 * What the path-parsing helpers read of a front end's request: the app, the repository its guard
 * loaded (`repo`) and the path parameters. A REST or web context satisfies it.
 */
export interface RequestParts {
	app: App;
	repo: RepoAccess;
	params: Record<string, string>;
}

/** A repository's issue context: access, paths for URLs, and author associations. */
export interface IssueScope extends RepoAccess {
	paths: RepositoryPaths;
	associations: Associations;
}

/** The issue context of a repository the caller reached with `access` (outside a route: services, tests). */
export function issueScope(app: App, access: RepoAccess): IssueScope {
	// Named field by field: an object spread makes a new map for each scope in V8 here, and every
	// property read of it then misses its inline cache (measured with node --log-ic).
	return {
		repo: access.repo,
		owner: access.owner,
		permission: access.permission,
		paths: repositoryPaths(app.urls, access.owner.login, access.repo.name),
		associations: new Associations(app, access.repo, access.owner),
	};
}

/**
 * The issue context of a repository for a change made outside a request (pushes, reference writes,
 * background tasks): no caller, so no permission.
 * @returns null when the repository's owner no longer exists
 */
export function eventScope(app: App, repo: RepositoryRow): IssueScope | null {
	const owner = app.stores.accounts.byId(repo.owner_id);
	return owner ? issueScope(app, { repo, owner, permission: null }) : null;
}

/** 410 as GitHub answers when a repository has issues turned off. */
export const issuesDisabled = () => gone('Issues are disabled for this repo');

/**
 * The issue context of the repository the route's guard loaded (ctx.repo).
 * @param options.allowDisabled answer even when issues are turned off (routes that reach pull requests)
 * @throws DomainError 410 when issues are turned off
 */
export function issueRepository(ctx: Pick<RequestParts, 'app' | 'repo'>, options: { allowDisabled?: boolean } = {}): IssueScope {
	if (!options.allowDisabled && ctx.repo.repo.has_issues === 0) throw issuesDisabled();
	return issueScope(ctx.app, ctx.repo);
}

/** Parses a path's issue_number. @throws DomainError 404 when it is not a number or no such issue exists */
export function loadIssue(ctx: Pick<RequestParts, 'app' | 'params'>, access: RepoAccess): IssueRow {
	const number = /^\d{1,10}$/.test(ctx.params.issue_number) ? Number(ctx.params.issue_number) : 0;
	const row = number ? ctx.app.stores.issues.byNumber(access.repo.id, number) : undefined;
	if (!row) throw notFound();
	// Pull requests stay reachable as issues when issues are turned off; plain issues do not.
	if (!row.pull_request && access.repo.has_issues === 0) throw issuesDisabled();
	return row;
}

/** Labels and assignee ids of the rows to render, when the caller has them (issue id → its rows). */
export interface KnownParts {
	labels: Map<number, LabelRow[]>;
	assignees: Map<number, number[]>;
}

/**
 * The single-issue render (raw body) the event of a change was recorded with, by the row object the
 * change returned: the answer to the same request renders exactly that (the change is done, the
 * row is the one it stored), so it is rendered once per write (rememberRendered, renderIssue).
 */
const renderedOnce = new WeakMap<IssueRow, unknown>();

/** Remembers `rendered` as the single-issue render of `row` with the raw body (recordIssueChanges). */
export function rememberRendered(row: IssueRow, rendered: unknown): void {
	renderedOnce.set(row, rendered);
}

/**
 * One issue as a single-issue answer (with closed_by) in the request's media type; `row` must be
 * current. The render its change's event was recorded with is reused when the media type is the
 * raw one (the default).
 */
export function renderIssue(ctx: Caller, scope: IssueScope, row: IssueRow): unknown {
	if (ctx.media === null) {
		const rendered = renderedOnce.get(row);
		if (rendered !== undefined) return rendered;
	}
	return renderIssues(ctx, scope, [row], true)[0];
}

/** An issue whose body was never rendered (or was edited since): body_html is null. */
const unrendered = (row: IssueRow) => row.body !== null && row.body_html === null;

/**
 * The rows with their bodies' renderings (body_html, body_text) for the media types that show them
 * (text, html, full; a web page). An issue's Markdown body is rendered on the first read that asks
 * for it, not when it is written (most writers and readers take the raw body, GitHub's default
 * media type), and kept in its row for the next reads; an edit of the body drops it. Rows already
 * rendered come back as they are; the others as copies. Keeping a rendering that cannot be
 * written (a read-only or full database) is logged and skipped: the answer has it all the same.
 */
export function withRenderedBodies(app: App, rows: IssueRow[]): IssueRow[] {
	if (!rows.some(unrendered)) return rows;
	const fresh: IssueRow[] = [];
	const result = rows.map((row) => {
		if (!unrendered(row)) return row;
		const { html, text } = renderBody(row.body!);
		const rendered = { ...row, body_html: html, body_text: text };
		fresh.push(rendered);
		return rendered;
	});
	try {
		app.transaction(() => {
			for (const row of fresh)
				app.stores.issues.keepRendering(row.id, row.body!, { body_html: row.body_html!, body_text: row.body_text! });
		});
	} catch (error) {
		app.log.warn('issue body renderings not kept', { error });
	}
	return result;
}

/**
 * Renders issues with their labels, assignees and authors loaded in one query each.
 * @param media the body fields' media type (default: the request's; null for the raw body, as
 *   event payloads carry it)
 * @param known the rows' labels and assignees as the caller already read them (not read again)
 */
export function renderIssues(ctx: Caller, scope: IssueScope, rows: IssueRow[], single = false, media = ctx.media, known?: KnownParts) {
	const { stores } = ctx.app;
	if (media === 'text' || media === 'html' || media === 'full') rows = withRenderedBodies(ctx.app, rows);
	const ids = rows.map((row) => row.id);
	const labels = known?.labels ?? stores.labels.forIssues(ids);
	const assignees = known?.assignees ?? stores.issues.assignees(ids);
	const pulls = stores.pulls.forIssues(rows.flatMap((row) => (row.pull_request ? [row.id] : [])));
	const milestones = stores.milestones.mapByIds(rows.flatMap((row) => (row.milestone_id === null ? [] : [row.milestone_id])));
	const accounts = ctx.app.stores.accounts.mapByIds([
		...rows.map((row) => row.user_id),
		...[...milestones.values()].flatMap((m) => (m.creator_id === null ? [] : [m.creator_id])),
		...[...assignees.values()].flat(),
		...(single ? rows.flatMap((row) => (row.closed_by_id ? [row.closed_by_id] : [])) : []),
	]);
	const renderedMilestones = new Map(
		[...milestones.values()].map((m) => [
			m.id,
			milestone(ctx.app.urls, scope.paths, m, m.creator_id === null ? null : accounts.get(m.creator_id)),
		]),
	);
	return rows.map((row) => {
		const author = accounts.get(row.user_id)!;
		return issue(
			ctx.app.urls,
			scope.paths,
			row,
			{
				author,
				labels: labels.get(row.id) ?? [],
				assignees: (assignees.get(row.id) ?? []).map((id) => accounts.get(id)!),
				association: scope.associations.of(author),
				milestone: (row.milestone_id !== null && renderedMilestones.get(row.milestone_id)) || null,
				closedBy: single ? (row.closed_by_id ? (accounts.get(row.closed_by_id) ?? null) : null) : undefined,
				pull: pulls.has(row.id) ? { draft: pulls.get(row.id)!.draft === 1, merged_at: pulls.get(row.id)!.merged_at } : undefined,
			},
			media,
		);
	});
}

/**
 * Resolves assignee logins to accounts that can be assigned: the repository's owner, its
 * collaborators and members of its organization who can see it (GitHub's assignable users).
 * @throws DomainError 422 naming the first login that cannot be assigned, or more than ten
 */
export function resolveAssignees(ctx: Pick<Caller, 'app'>, scope: IssueScope, logins: string[]): AccountRow[] {
	const unique = [...new Map(logins.map((login) => [login.toLowerCase(), login])).values()];
	if (unique.length > MAX_ASSIGNEES) throw invalidField('Issue', 'assignees', `an issue can have at most ${MAX_ASSIGNEES} assignees`);
	const invalid = [];
	const accounts: AccountRow[] = [];
	for (const login of unique) {
		const account = ctx.app.stores.accounts.user(login);
		if (account && assignable(ctx.app, scope, account)) accounts.push(account);
		else invalid.push(login);
	}
	if (invalid.length) {
		throw validationFailed(invalid.map((login) => ({ resource: 'Issue', field: 'assignees', code: 'invalid' as const, value: login })));
	}
	return accounts;
}

/** The repository as the assignable-users statement needs it (src/api/issues/store.ts). */
export function assignableScope(scope: RepoAccess): AssignableScope {
	const { repo, owner } = scope;
	const org = owner.type === 'Organization';
	const base = org ? basePermission(owner.default_repository_permission) : null;
	const reads = repo.visibility === 'public' || repo.visibility === 'internal';
	const memberRank = Math.max(base ? REPO_PERMISSIONS.indexOf(base) + 1 : 0, reads ? 1 : 0);
	return { repoId: repo.id, ownerId: owner.id, org: org ? 1 : 0, memberRank };
}

function assignable(app: App, scope: IssueScope, account: AccountRow): boolean {
	return app.stores.issues.isAssignable(assignableScope(scope), account.id);
}

/** Label names of an issue request (strings or {name} objects), distinct case-insensitively. */
export function labelNames(labels: Array<string | { name?: string }>): string[] {
	const names = new Map<string, string>();
	for (const item of labels) {
		const name = (typeof item === 'string' ? item : (item.name ?? '')).trim();
		if (!name) throw invalidField('Label', 'name', 'label names cannot be blank', 'missing_field');
		if (name.length > 50) throw invalidField('Label', 'name', `label "${name}" is longer than 50 characters`);
		if (!names.has(name.toLowerCase())) names.set(name.toLowerCase(), name);
	}
	return [...names.values()];
}

/** The labels named, created when missing (GitHub creates labels named on an issue). */
export function ensureLabels(ctx: Pick<Caller, 'app'>, scope: IssueScope, labels: Array<string | { name?: string }>): LabelRow[] {
	return ctx.app.stores.labels.ensure(scope.repo.id, labelNames(labels));
}

/**
 * The milestone an issue request names: its number (a number or a numeric string), or null for
 * none; undefined when the request does not name one.
 * @throws DomainError 422 invalid when the repository has no milestone with that number
 */
export function resolveMilestone(
	ctx: Pick<Caller, 'app'>,
	scope: IssueScope,
	value: string | number | null | undefined,
): MilestoneRow | null | undefined {
	if (value === undefined || value === null) return value;
	const text = String(value).trim();
	const row = /^\d{1,10}$/.test(text) ? ctx.app.stores.milestones.byNumber(scope.repo.id, Number(text)) : undefined;
	if (!row) throw validationFailed([{ resource: 'Issue', field: 'milestone', code: 'invalid', value }]);
	return row;
}

/** True when the caller may triage the repository's issues (labels, assignees, any issue's state). */
export function canTriage(scope: RepoAccess): boolean {
	return atLeast(scope.permission, 'triage');
}

/** A repository issue list's filters as GET …/issues takes them (strings as in the query). */
export interface IssueListQuery {
	milestone?: string;
	state: 'open' | 'closed' | 'all';
	assignee?: string;
	creator?: string;
	mentioned?: string;
	/** Comma-separated label names; an issue must carry all of them. */
	labels?: string;
	type?: string;
	sort: 'created' | 'updated' | 'comments';
	direction: 'asc' | 'desc';
	/** ISO timestamp: updated at or after. */
	since?: string;
}

/**
 * One page of a repository's issues and pull requests under GitHub's list filters: assignee and
 * milestone take a login or number, `*` (any) or `none`; an unknown user matches nothing.
 * @throws DomainError 422 invalid for a milestone the repository does not have
 */
export function listIssues(ctx: Pick<Caller, 'app'>, scope: IssueScope, query: IssueListQuery, page: { perPage: number; offset: number }) {
	const { stores } = ctx.app;
	const accountId = (login: string | undefined) => (login === undefined ? null : (stores.accounts.user(login)?.id ?? -1));
	let assignee: 'any' | 'none' | 'user' | null = null;
	if (query.assignee === '*') assignee = 'any';
	else if (query.assignee === 'none') assignee = 'none';
	else if (query.assignee !== undefined) assignee = 'user';
	// milestone: a number, '*' (any milestone) or 'none'; anything else, an unknown number
	// included, is GitHub's 422 invalid.
	let milestone: 'none' | 'any' | 'id' | null = null;
	let milestoneId: number | null = null;
	if (query.milestone === 'none' || query.milestone === '*') milestone = query.milestone === '*' ? 'any' : 'none';
	else if (query.milestone !== undefined) {
		milestone = 'id';
		milestoneId = resolveMilestone(ctx, scope, query.milestone)!.id;
	}
	const labels = query.labels
		? [
				...new Map(
					query.labels
						.split(',')
						.map((n) => n.trim())
						.filter(Boolean)
						.map((n) => [n.toLowerCase(), n]),
				).values(),
			]
		: [];
	return stores.issues.list({
		repoId: scope.repo.id,
		state: query.state,
		creatorId: accountId(query.creator),
		assignee,
		assigneeId: assignee === 'user' ? accountId(query.assignee) : null,
		mentioned: query.mentioned ?? null,
		labels,
		since: query.since ?? null,
		milestone,
		milestoneId,
		// No issue has a type: a type other than 'none' matches nothing.
		none: query.type !== undefined && query.type !== 'none',
		sort: query.sort,
		direction: query.direction,
		limit: page.perPage,
		offset: page.offset,
	});
}
