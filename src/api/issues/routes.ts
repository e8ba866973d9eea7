/**
 * Issues (GitHub's issues API; spec document 2: every pull request is an issue, numbered with the
 * repository's issues): create, get, list with filters, update, lock and unlock, an issue's labels
 * and assignees. Anyone who can see a repository with issues turned on may open an issue; labels,
 * assignees and milestones given by callers without push access are dropped, as GitHub does.
 */
import * as v from 'valibot';
import { forbidden, invalidField, notFound } from '../../model/errors';
import { created, noContent, ok, paged } from '../../http/reply';
import { route, type Context } from '../../http/route';
import { timestampParam } from '../../http/validation';
import { isoSeconds } from '../../time';
import { atLeast } from '../../auth/repo-permissions';
import { label } from '../labels/render';
import { simpleUser } from '../users/render';
import { issueBodyField } from '../markdown/body';
import type { IssueRow } from './store';
import { issueSnapshot, recordIssueChanges } from './events';
import { reopenPull } from '../pulls/service';
import {
	assignableScope,
	canTriage,
	ensureLabels,
	issueRepository,
	loadIssue,
	MAX_ASSIGNEES,
	renderIssues,
	resolveAssignees,
	resolveMilestone,
	type IssueScope,
} from './service';

/** Reading issues: Issues or Pull requests (read), either suffices; public repositories without a token. */
export const ISSUES_READ = {
	access: 'public' as const,
	resource: { repo: 'read' as const },
	permissions: [{ issues: 'read' as const }, { pull_requests: 'read' as const }],
};
/**
 * Changing issues: Issues or Pull requests (write). Anyone who can read a repository opens issues
 * and comments in it (classic `public_repo` on public repositories); triage changes need triage.
 */
export const ISSUES_WRITE = {
	access: 'authenticated' as const,
	resource: { repo: 'read' as const },
	permissions: [{ issues: 'write' as const }, { pull_requests: 'write' as const }],
	// public_repo: issues and comments on public repositories (the guard hides private ones from it).
	scopes: ['repo', 'public_repo'],
};
/** Changing an issue's labels and assignees: triage access. */
const ISSUES_TRIAGE = { ...ISSUES_WRITE, resource: { repo: 'triage' as const } };
/** Locking and unlocking conversations: push access. */
const ISSUES_LOCK = { ...ISSUES_WRITE, resource: { repo: 'push' as const } };

const MAX_TITLE = 256;

const title = v.pipe(
	v.union([v.string(), v.number()], 'title must be a string'),
	v.transform((value) => String(value).trim()),
	v.minLength(1, "title can't be blank"),
	v.maxLength(MAX_TITLE, `title is longer than ${MAX_TITLE} characters`),
);
const labelInput = v.array(v.union([v.string(), v.object({ name: v.optional(v.string()) })]));
const milestone = v.nullable(v.union([v.string(), v.number()]));

const createBody = v.object({
	title,
	body: v.optional(issueBodyField),
	assignee: v.optional(v.nullable(v.string())),
	assignees: v.optional(v.array(v.string())),
	labels: v.optional(labelInput),
	milestone: v.optional(milestone),
	type: v.optional(v.nullable(v.string())),
});
const updateBody = v.object({
	title: v.optional(title),
	body: v.optional(issueBodyField),
	assignee: v.optional(v.nullable(v.string())),
	assignees: v.optional(v.array(v.string())),
	state: v.optional(v.picklist(['open', 'closed'], 'state must be open or closed')),
	state_reason: v.optional(
		v.nullable(
			v.picklist(
				['completed', 'not_planned', 'duplicate', 'reopened'],
				'state_reason must be completed, not_planned, duplicate or reopened',
			),
		),
	),
	duplicate_issue_id: v.optional(v.nullable(v.number())),
	labels: v.optional(labelInput),
	milestone: v.optional(milestone),
	type: v.optional(v.nullable(v.string())),
});
const listQuery = v.object({
	milestone: v.optional(v.string()),
	state: v.optional(v.picklist(['open', 'closed', 'all'], 'state must be open, closed or all'), 'open'),
	assignee: v.optional(v.string()),
	creator: v.optional(v.string()),
	mentioned: v.optional(v.string()),
	labels: v.optional(v.string()),
	type: v.optional(v.string()),
	sort: v.optional(v.picklist(['created', 'updated', 'comments'], 'sort must be created, updated or comments'), 'created'),
	direction: v.optional(v.picklist(['asc', 'desc'], 'direction must be asc or desc'), 'desc'),
	since: v.optional(timestampParam('since')),
});
const lockBody = v.object({
	lock_reason: v.optional(
		v.picklist(['off-topic', 'too heated', 'resolved', 'spam'], 'lock_reason must be off-topic, too heated, resolved or spam'),
	),
});
/** Add or set labels: `labels` (names or {name} objects; GitHub also takes them bare, see arrayBody). */
const labelsBody = v.object({ labels: v.optional(labelInput, []) });
const assigneesBody = v.object({ assignees: v.optional(v.array(v.string()), []) });

/** Assignee logins of a request: `assignees`, else the closing-down single `assignee`. */
function assigneeLogins(input: { assignee?: string | null; assignees?: string[] }): string[] | undefined {
	if (input.assignees !== undefined) return input.assignees;
	if (input.assignee !== undefined) return input.assignee === null ? [] : [input.assignee];
	return undefined;
}

/** One issue as a single-issue answer (with closed_by); `row` must be current. */
function one(ctx: Context, scope: IssueScope, row: IssueRow) {
	return renderIssues(ctx, scope, [row], true)[0];
}

function issueLabels(ctx: Context, scope: IssueScope, row: IssueRow) {
	return (ctx.app.stores.labels.forIssues([row.id]).get(row.id) ?? []).map((l) => label(scope.paths.api, l));
}

/**
 * A triage change to an issue (labels, assignees; the route's guard requires triage access): the
 * issue (issues may be off for pull requests), then `change` and updated_at in one transaction.
 */
function triageIssue(ctx: Context, change: (scope: IssueScope, row: IssueRow) => void): { scope: IssueScope; row: IssueRow } {
	const scope = issueRepository(ctx, { allowDisabled: true });
	const row = loadIssue(ctx, scope);
	const before = issueSnapshot(ctx, row);
	change(scope, row);
	ctx.app.stores.issues.touch(row.id, isoSeconds(ctx.now));
	recordIssueChanges(ctx, scope, before, ctx.app.stores.issues.byId(row.id)!);
	return { scope, row };
}

/** POST (add) and PUT (set) an issue's labels: the same rules, attach or replace. */
function labelsRoute(method: 'POST' | 'PUT', docs: string, change: 'attach' | 'replace') {
	return route({
		...ISSUES_TRIAGE,
		method,
		path: '/repos/{owner}/{repo}/issues/{issue_number}/labels',
		docs,
		errorResource: 'Label',
		body: labelsBody,
		arrayBody: 'labels',
		handler(ctx) {
			const { scope, row } = triageIssue(ctx, (scope, row) =>
				ctx.app.stores.labels[change](
					row.id,
					ensureLabels(ctx, scope, ctx.body.labels).map((l) => l.id),
				),
			);
			return ok(issueLabels(ctx, scope, row));
		},
	});
}

export const issueRoutes = [
	route({
		...ISSUES_READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/issues',
		docs: 'issues/issues#list-repository-issues',
		errorResource: 'Issue',
		query: listQuery,
		pagination: true,
		handler(ctx) {
			const scope = issueRepository(ctx);
			const { query } = ctx;
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
			const { rows, total } = stores.issues.list({
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
				limit: ctx.page.perPage,
				offset: ctx.page.offset,
			});
			return paged(renderIssues(ctx, scope, rows), total);
		},
	}),
	route({
		...ISSUES_WRITE,
		permissions: [{ issues: 'write' }],
		method: 'POST',
		path: '/repos/{owner}/{repo}/issues',
		docs: 'issues/issues#create-an-issue',
		errorResource: 'Issue',
		body: createBody,
		handler(ctx) {
			const scope = issueRepository(ctx);
			const push = atLeast(scope.permission, 'push');
			const input = ctx.body;
			const milestone = push ? resolveMilestone(ctx, scope, input.milestone) : undefined;
			const now = isoSeconds(ctx.now);
			const { issues, labels } = ctx.app.stores;
			let row = issues.insert(
				{
					repo_id: scope.repo.id,
					title: input.title,
					body: input.body ?? null,
					user_id: ctx.principal.actorId!,
					pull_request: false,
				},
				now,
			);
			if (milestone) {
				issues.setMilestone(row.id, milestone.id);
				row = issues.byId(row.id)!;
			}
			if (push) {
				const logins = assigneeLogins(input);
				if (logins?.length)
					issues.replaceAssignees(
						row.id,
						resolveAssignees(ctx, scope, logins).map((a) => a.id),
					);
				if (input.labels?.length)
					labels.attach(
						row.id,
						ensureLabels(ctx, scope, input.labels).map((l) => l.id),
					);
			}
			const rendered = one(ctx, scope, row);
			recordIssueChanges(ctx, scope, null, row, rendered);
			return created(rendered, rendered.url);
		},
	}),
	route({
		...ISSUES_READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/issues/{issue_number}',
		docs: 'issues/issues#get-an-issue',
		// A matching If-None-Match is answered 304 before the issue is read or rendered, while nothing
		// the answer shows changed (src/db/change-counters.ts lists what counts).
		version: (ctx) => `${ctx.app.stores.changes.repositoryVersion(ctx.repo.repo.id, ctx.repo.owner.id)}:${ctx.params.issue_number}`,
		handler(ctx) {
			const scope = issueRepository(ctx, { allowDisabled: true });
			return ok(one(ctx, scope, loadIssue(ctx, scope)));
		},
	}),
	route({
		...ISSUES_WRITE,
		method: 'PATCH',
		path: '/repos/{owner}/{repo}/issues/{issue_number}',
		docs: 'issues/issues#update-an-issue',
		errorResource: 'Issue',
		body: updateBody,
		handler(ctx) {
			const scope = issueRepository(ctx, { allowDisabled: true });
			const current = loadIssue(ctx, scope);
			const before = issueSnapshot(ctx, current);
			const actor = ctx.principal.actorId!;
			const triage = canTriage(scope);
			if (!triage && current.user_id !== actor) {
				throw forbidden('Must be the author of the issue or have triage access to the repository to update it.');
			}
			const input = ctx.body;
			const milestone = triage ? resolveMilestone(ctx, scope, input.milestone) : undefined;
			const next: IssueRow = { ...current };
			if (input.title !== undefined) next.title = input.title;
			if (input.body !== undefined) next.body = input.body;
			const now = isoSeconds(ctx.now);
			if (input.state !== undefined && input.state !== current.state) {
				const reason = input.state_reason ?? null;
				if (input.state === 'closed') {
					if (reason === 'reopened')
						throw invalidField('Issue', 'state_reason', 'a closed issue cannot have the reason reopened');
					Object.assign(next, { state: 'closed', state_reason: reason ?? 'completed', closed_at: now, closed_by_id: actor });
				} else {
					if (reason && reason !== 'reopened')
						throw invalidField('Issue', 'state_reason', `an open issue cannot have the reason ${reason}`);
					// A pull request reopens only with its branches (the same rule as PATCH …/pulls/{n}).
					if (current.pull_request) {
						const pull = ctx.app.stores.pulls.byIssue(current.id);
						if (pull) reopenPull(ctx.app, pull.pr, pull.pr.base_ref, now);
					}
					Object.assign(next, { state: 'open', state_reason: 'reopened', closed_at: null, closed_by_id: null });
				}
			}
			const { issues, labels } = ctx.app.stores;
			if (milestone !== undefined) issues.setMilestone(current.id, milestone?.id ?? null);
			const updated = issues.update(next, now);
			if (triage) {
				const logins = assigneeLogins(input);
				if (logins !== undefined)
					issues.replaceAssignees(
						current.id,
						resolveAssignees(ctx, scope, logins).map((a) => a.id),
					);
				if (input.labels !== undefined)
					labels.replace(
						current.id,
						ensureLabels(ctx, scope, input.labels).map((l) => l.id),
					);
			}
			const rendered = one(ctx, scope, updated);
			recordIssueChanges(ctx, scope, before, updated, rendered);
			return ok(rendered);
		},
	}),
	route({
		...ISSUES_LOCK,
		method: 'PUT',
		path: '/repos/{owner}/{repo}/issues/{issue_number}/lock',
		docs: 'issues/issues#lock-an-issue',
		errorResource: 'Issue',
		body: lockBody,
		handler(ctx) {
			const scope = issueRepository(ctx, { allowDisabled: true });
			const row = loadIssue(ctx, scope);
			const before = issueSnapshot(ctx, row);
			ctx.app.stores.issues.setLock(row.id, true, ctx.body.lock_reason ?? null, isoSeconds(ctx.now));
			recordIssueChanges(ctx, scope, before, ctx.app.stores.issues.byId(row.id)!);
			return noContent();
		},
	}),
	route({
		...ISSUES_LOCK,
		method: 'DELETE',
		path: '/repos/{owner}/{repo}/issues/{issue_number}/lock',
		docs: 'issues/issues#unlock-an-issue',
		handler(ctx) {
			const scope = issueRepository(ctx, { allowDisabled: true });
			const row = loadIssue(ctx, scope);
			const before = issueSnapshot(ctx, row);
			ctx.app.stores.issues.setLock(row.id, false, null, isoSeconds(ctx.now));
			recordIssueChanges(ctx, scope, before, ctx.app.stores.issues.byId(row.id)!);
			return noContent();
		},
	}),
	route({
		...ISSUES_READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/issues/{issue_number}/labels',
		docs: 'issues/labels#list-labels-for-an-issue',
		pagination: true,
		handler(ctx) {
			const scope = issueRepository(ctx, { allowDisabled: true });
			const all = issueLabels(ctx, scope, loadIssue(ctx, scope));
			return paged(all.slice(ctx.page.offset, ctx.page.offset + ctx.page.perPage), all.length);
		},
	}),
	labelsRoute('POST', 'issues/labels#add-labels-to-an-issue', 'attach'),
	labelsRoute('PUT', 'issues/labels#set-labels-for-an-issue', 'replace'),
	route({
		...ISSUES_TRIAGE,
		method: 'DELETE',
		path: '/repos/{owner}/{repo}/issues/{issue_number}/labels',
		docs: 'issues/labels#remove-all-labels-from-an-issue',
		handler(ctx) {
			triageIssue(ctx, (_scope, row) => ctx.app.stores.labels.replace(row.id, []));
			return noContent();
		},
	}),
	route({
		...ISSUES_TRIAGE,
		method: 'DELETE',
		path: '/repos/{owner}/{repo}/issues/{issue_number}/labels/{name}',
		docs: 'issues/labels#remove-a-label-from-an-issue',
		handler(ctx) {
			const { scope, row } = triageIssue(ctx, (scope, row) => {
				const existing = ctx.app.stores.labels.byName(scope.repo.id, ctx.params.name);
				if (!existing || !ctx.app.stores.labels.detach(row.id, existing.id)) throw notFound('Label does not exist');
			});
			return ok(issueLabels(ctx, scope, row));
		},
	}),
	route({
		...ISSUES_TRIAGE,
		method: 'POST',
		path: '/repos/{owner}/{repo}/issues/{issue_number}/assignees',
		docs: 'issues/assignees#add-assignees-to-an-issue',
		errorResource: 'Issue',
		body: assigneesBody,
		handler(ctx) {
			const { scope, row } = triageIssue(ctx, (scope, row) => {
				const { issues } = ctx.app.stores;
				const current = issues.assignees([row.id]).get(row.id) ?? [];
				const added = resolveAssignees(ctx, scope, ctx.body.assignees).filter((a) => !current.includes(a.id));
				if (current.length + added.length > MAX_ASSIGNEES) {
					throw invalidField('Issue', 'assignees', `an issue can have at most ${MAX_ASSIGNEES} assignees`);
				}
				issues.addAssignees(
					row.id,
					added.map((a) => a.id),
				);
			});
			return created(one(ctx, scope, ctx.app.stores.issues.byId(row.id)!));
		},
	}),
	route({
		...ISSUES_TRIAGE,
		method: 'DELETE',
		path: '/repos/{owner}/{repo}/issues/{issue_number}/assignees',
		docs: 'issues/assignees#remove-assignees-from-an-issue',
		errorResource: 'Issue',
		body: assigneesBody,
		handler(ctx) {
			const { scope, row } = triageIssue(ctx, (_scope, row) => {
				const { accounts, issues } = ctx.app.stores;
				for (const login of ctx.body.assignees) {
					const account = accounts.user(login);
					if (account) issues.removeAssignee(row.id, account.id);
				}
			});
			return ok(one(ctx, scope, ctx.app.stores.issues.byId(row.id)!));
		},
	}),
	route({
		...ISSUES_READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/assignees',
		docs: 'issues/assignees#list-assignees',
		pagination: true,
		handler(ctx) {
			// The same statement decides GET …/assignees/{assignee} and the assignees an issue accepts.
			const { rows, total } = ctx.app.stores.issues.assignable(assignableScope(ctx.repo), ctx.page.perPage, ctx.page.offset);
			return paged(
				rows.map((account) => simpleUser(ctx.app.urls, account)),
				total,
			);
		},
	}),
	route({
		...ISSUES_READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/assignees/{assignee}',
		docs: 'issues/assignees#check-if-a-user-can-be-assigned',
		handler(ctx) {
			const scope = issueRepository(ctx, { allowDisabled: true });
			try {
				resolveAssignees(ctx, scope, [ctx.params.assignee]);
			} catch {
				throw notFound();
			}
			return noContent();
		},
	}),
];
