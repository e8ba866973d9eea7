/**
 * The runner group routes an enterprise and an organization both have (list, create, get, update,
 * delete; the members a `selected` group chooses; its runners), made by one factory from what
 * differs between the two (GroupScope): the path and documentation, the policies, the owner,
 * which groups a path may name, how a group is shown, whether its members are organizations or
 * repositories, and the audit log.
 */
import * as v from 'valibot';
import { notFound, unprocessable } from '../../model/errors';
import { created, noContent, ok, type Reply } from '../../http/reply';
import { idParam, route, type Context, type ResourceGuard, type RouteDeclaration } from '../../http/route';
import { isoSeconds } from '../../time';
import { runner } from './render';
import { deleteGroup, groupValues, ownerRunners, removeGroupRunner, setGroupRunners, type GroupInput } from './service';
import type { RunnerGroupRow, RunnerOwner, RunnerRow } from './store';

/** A route's policy fields: who may call it and what it guards (the enterprise or the organization). */
export type GroupPolicy = Pick<RouteDeclaration, 'access' | 'permissions' | 'scopes' | 'tokens' | 'errorResource'> & {
	resource: ResourceGuard;
};

/** The body of a create or an update: the group's fields, its runners and (create) its members. */
type GroupBody = GroupInput & { runners?: number[] } & Record<string, unknown>;

/** The members a group with `selected` visibility chooses: an enterprise's organizations, an organization's repositories. */
export interface GroupMembers {
	/** The path segment and the list's key: 'organizations' or 'repositories'. */
	name: 'organizations' | 'repositories';
	/** One, as documentation anchors name it: 'organization' or 'repository'. */
	noun: 'organization' | 'repository';
	/** The body field that names them: 'selected_organization_ids' or 'selected_repository_ids'. */
	field: string;
	/** The path parameter of one: '{org_id}' or '{repository_id}'. */
	param: string;
	/** Members are kept only while the visibility is `selected`: set on creation only then, cleared when it changes. */
	whileSelected: boolean;
	/** The ids a body names. @throws DomainError 422 naming `field` for an id that is not the owner's */
	resolve(ctx: Context, ids: number[]): number[];
	/** The member the path names. @throws DomainError 404 */
	one(ctx: Context): number;
	/** A page of a group's members as GitHub shows them. */
	page(ctx: Context, groupId: number): { items: unknown[]; total: number };
	add(ctx: Context, groupId: number, id: number): void;
	remove(ctx: Context, groupId: number, id: number): void;
	clear(ctx: Context, groupId: number): void;
}

/** What differs between an enterprise's runner groups and an organization's. */
export interface GroupScope {
	/** The collection's path, e.g. '/orgs/{org}/actions/runner-groups'. */
	base: string;
	/**
	 * The documentation page and the owner its anchors name ('enterprise': …#get-a-self-hosted-runner-group-for-an-enterprise).
	 */
	docs: { page: string; owner: 'enterprise' | 'organization' };
	/** Reads; the writes of groups and their members; the writes of their runners. */
	policy: { read: GroupPolicy; write: GroupPolicy; runners: GroupPolicy };
	/** The list's query (its filter). */
	listQuery: v.GenericSchema<unknown, Record<string, unknown>>;
	createBody: v.GenericSchema<unknown, GroupBody>;
	updateBody: v.GenericSchema<unknown, GroupBody>;
	/** The owner of the groups the path names. */
	owner(ctx: Context): RunnerOwner;
	/** One page of the groups the list answers, its query's filter applied. */
	list(ctx: Context): { rows: RunnerGroupRow[]; total: number };
	/**
	 * The group {runner_group_id}.
	 * @param options.inherited a group the enterprise shares with the organization may be named (reads)
	 * @throws DomainError 404; 403 for a shared group where only the organization's own may be changed
	 */
	group(ctx: Context, options: { inherited: boolean }): RunnerGroupRow;
	/** A group as GitHub shows it. */
	render(ctx: Context, group: RunnerGroupRow): unknown;
	members: GroupMembers;
	/** Records the audit-log event `action` of a change (an enterprise's groups record none). */
	audit(ctx: Context, action: string): void;
}

/** Runner and member ids in bodies. */
export const ids = v.array(v.pipe(v.number(), v.integer()));

/** The body fields of a create and an update that both owners' groups take alike. */
export const groupSettings = {
	allows_public_repositories: v.optional(v.boolean()),
	restricted_to_workflows: v.optional(v.boolean()),
	selected_workflows: v.optional(v.array(v.string())),
};

/** The routes of `scope`'s runner groups, in the route table's order. */
export function groupRoutes(scope: GroupScope): RouteDeclaration[] {
	const { base, policy, members } = scope;
	const item = `${base}/{runner_group_id}`;
	const docs = documentation(scope);
	const group = (ctx: Context, inherited = false) => scope.group(ctx, { inherited });
	const requireSelected = (row: RunnerGroupRow) => {
		if (row.visibility !== 'selected')
			throw unprocessable(`The runner group must have visibility set to selected to choose its ${members.name}.`);
	};
	/** The owner's runner {runner_id}. */
	const ownRunner = (ctx: Context): RunnerRow => {
		const runnerId = idParam(ctx.params.runner_id);
		const found = runnerId === null ? undefined : ctx.app.stores.runnerGroups.runner(scope.owner(ctx), runnerId);
		if (!found) throw notFound();
		return found;
	};
	const membersChanged = `runner_group_${members.name}_updated`;
	return [
		route({
			...policy.read,
			method: 'GET',
			path: base,
			docs: docs.list,
			query: scope.listQuery,
			pagination: true,
			handler(ctx) {
				const { rows, total } = scope.list(ctx);
				return { status: 200, body: { total_count: total, runner_groups: rows.map((row) => scope.render(ctx, row)) }, total };
			},
		}),
		route({
			...policy.write,
			method: 'POST',
			path: base,
			docs: docs.create,
			body: scope.createBody,
			handler(ctx) {
				const { stores } = ctx.app;
				const owner = scope.owner(ctx);
				const values = groupValues(ctx.app, owner, ctx.body);
				const memberIds = members.resolve(ctx, (ctx.body[members.field] as number[] | undefined) ?? []);
				const runners = ownerRunners(ctx.app, owner, ctx.body.runners ?? [], 'runners');
				const row = stores.runnerGroups.insert(owner, values, false, isoSeconds(ctx.now));
				if (!members.whileSelected || row.visibility === 'selected') for (const id of memberIds) members.add(ctx, row.id, id);
				for (const r of runners) stores.runnerGroups.moveRunner(r.id, row.id);
				scope.audit(ctx, 'runner_group_created');
				return created(scope.render(ctx, row));
			},
		}),
		route({
			...policy.read,
			method: 'GET',
			path: item,
			docs: docs.get,
			handler: (ctx) => ok(scope.render(ctx, group(ctx, true))),
		}),
		route({
			...policy.write,
			method: 'PATCH',
			path: item,
			docs: docs.update,
			body: scope.updateBody,
			handler(ctx) {
				const row = group(ctx);
				const values = groupValues(ctx.app, scope.owner(ctx), ctx.body, row);
				const updated = ctx.app.stores.runnerGroups.update(row, values, isoSeconds(ctx.now));
				if (members.whileSelected && updated.visibility !== 'selected') members.clear(ctx, row.id);
				scope.audit(ctx, 'runner_group_updated');
				return ok(scope.render(ctx, updated));
			},
		}),
		route({
			...policy.write,
			method: 'DELETE',
			path: item,
			docs: docs.delete,
			handler(ctx) {
				deleteGroup(ctx.app, scope.owner(ctx), group(ctx));
				scope.audit(ctx, 'runner_group_removed');
				return noContent();
			},
		}),
		route({
			...policy.read,
			method: 'GET',
			path: `${item}/${members.name}`,
			docs: docs.listMembers,
			pagination: true,
			handler(ctx) {
				const { items, total } = members.page(ctx, group(ctx).id);
				return { status: 200, body: { total_count: total, [members.name]: items }, total };
			},
		}),
		route({
			...policy.write,
			method: 'PUT',
			path: `${item}/${members.name}`,
			docs: docs.setMembers,
			body: v.object({ [members.field]: ids }),
			handler(ctx) {
				const row = group(ctx);
				requireSelected(row);
				const chosen = members.resolve(ctx, ctx.body[members.field] as number[]);
				members.clear(ctx, row.id);
				for (const id of chosen) members.add(ctx, row.id, id);
				scope.audit(ctx, membersChanged);
				return noContent();
			},
		}),
		...(['PUT', 'DELETE'] as const).map((method) =>
			route({
				...policy.write,
				method,
				path: `${item}/${members.name}/${members.param}`,
				docs: method === 'PUT' ? docs.addMember : docs.removeMember,
				handler(ctx) {
					const row = group(ctx);
					const id = members.one(ctx);
					requireSelected(row);
					if (method === 'PUT') members.add(ctx, row.id, id);
					else members.remove(ctx, row.id, id);
					scope.audit(ctx, membersChanged);
					return noContent();
				},
			}),
		),
		route({
			...policy.read,
			method: 'GET',
			path: `${item}/runners`,
			docs: docs.listRunners,
			pagination: true,
			handler(ctx) {
				const row = group(ctx, true);
				return runnersReply(ctx, ctx.app.stores.runnerGroups.runners(row.id, ctx.page.perPage, ctx.page.offset));
			},
		}),
		route({
			...policy.runners,
			method: 'PUT',
			path: `${item}/runners`,
			docs: docs.setRunners,
			body: v.object({ runners: ids }),
			handler(ctx) {
				setGroupRunners(ctx.app, scope.owner(ctx), group(ctx), ctx.body.runners);
				scope.audit(ctx, 'runner_group_runners_updated');
				return noContent();
			},
		}),
		...(['PUT', 'DELETE'] as const).map((method) =>
			route({
				...policy.runners,
				method,
				path: `${item}/runners/{runner_id}`,
				docs: method === 'PUT' ? docs.addRunner : docs.removeRunner,
				handler(ctx) {
					const row = group(ctx);
					const found = ownRunner(ctx);
					// Added: the runner moves here; removed: it returns to the owner's default group.
					if (method === 'PUT') ctx.app.stores.runnerGroups.moveRunner(found.id, row.id);
					else removeGroupRunner(ctx.app, scope.owner(ctx), row, found);
					scope.audit(ctx, method === 'PUT' ? 'runner_group_runners_added' : 'runner_group_runner_removed');
					return noContent();
				},
			}),
		),
	];
}

/** The documentation URL of each operation: GitHub's anchors differ only by the owner and the members' noun. */
function documentation({ docs, members }: GroupScope) {
	const anchor = (text: string) => `${docs.page}#${text}`;
	const group = 'a-self-hosted-runner-group';
	const owner = docs.owner === 'enterprise' ? 'an-enterprise' : 'an-organization';
	const access = `${members.noun}-access`;
	return {
		list: anchor(`list-self-hosted-runner-groups-for-${owner}`),
		create: anchor(`create-${group}-for-${owner}`),
		get: anchor(`get-${group}-for-${owner}`),
		update: anchor(`update-${group}-for-${owner}`),
		delete: anchor(`delete-${group}-from-${owner}`),
		listMembers: anchor(`list-${access}-to-${group}-in-${owner}`),
		setMembers: anchor(`set-${access}-for-${group}-in-${owner}`),
		addMember: anchor(`add-${access}-to-${group}-in-${owner}`),
		removeMember: anchor(`remove-${access}-to-${group}-in-${owner}`),
		listRunners: anchor(`list-self-hosted-runners-in-a-group-for-${owner}`),
		setRunners: anchor(`set-self-hosted-runners-in-a-group-for-${owner}`),
		addRunner: anchor(`add-a-self-hosted-runner-to-a-group-for-${owner}`),
		removeRunner: anchor(`remove-a-self-hosted-runner-from-a-group-for-${owner}`),
	};
}

/** `{total_count, runners}` of a page of runners. */
export function runnersReply(ctx: Context, page: { rows: RunnerRow[]; total: number }): Reply {
	const labels = ctx.app.stores.runnerGroups.labels(page.rows.map((r) => r.id));
	return { status: 200, body: { total_count: page.total, runners: page.rows.map((r) => runner(r, labels)) }, total: page.total };
}
