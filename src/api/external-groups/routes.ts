/**
 * External groups (GitHub's REST "External groups": teams/external-groups): the organization's
 * imported groups, one group with its teams and members, and a team's link to a group. Every route
 * is for organization owners and their apps (the matrix's members write); members get 403,
 * everyone else 404.
 */
import * as v from 'valibot';
import { noContent, ok } from '../../http/reply';
import { idParam, route } from '../../http/route';
import { notFound } from '../../model/errors';
import { isoSeconds } from '../../time';
import { externalGroupFull, externalGroupSummary } from './render';
import { linkTeam, unlinkTeam } from './service';

const TEAM_LINK = '/orgs/{org}/teams/{team_slug}/external-groups';

export const externalGroupRoutes = [
	route({
		method: 'GET',
		path: '/orgs/{org}/external-groups',
		docs: 'teams/external-groups#list-external-groups-available-to-an-organization',
		permissions: 'matrix',
		access: 'authenticated',
		resource: { org: 'owner' },
		query: v.object({ display_name: v.optional(v.pipe(v.string(), v.maxLength(255))) }),
		pagination: true,
		handler(ctx) {
			const filter = ctx.query.display_name ? ctx.query.display_name : null;
			const { rows, total } = ctx.app.stores.externalGroups.page(ctx.org.org.id, filter, ctx.page.perPage, ctx.page.offset);
			return { status: 200, body: { groups: rows.map(externalGroupSummary) }, total };
		},
	}),
	route({
		method: 'GET',
		path: '/orgs/{org}/external-group/{group_id}',
		docs: 'teams/external-groups#get-an-external-group',
		permissions: 'matrix',
		access: 'authenticated',
		resource: { org: 'owner' },
		// per_page and page page the `members` array.
		pagination: true,
		handler(ctx) {
			const id = idParam(ctx.params.group_id);
			const group = id === null ? undefined : ctx.app.stores.externalGroups.byId(id);
			if (!group || group.org_id !== ctx.org.org.id) throw notFound();
			const { rows, total } = ctx.app.stores.externalGroups.membersPage(group.id, ctx.page.perPage, ctx.page.offset);
			return { status: 200, body: externalGroupFull(ctx.app, group, rows), total };
		},
	}),
	route({
		method: 'GET',
		path: TEAM_LINK,
		docs: 'teams/external-groups#list-a-connection-between-an-external-group-and-a-team',
		permissions: 'matrix',
		access: 'authenticated',
		resource: { team: 'owner' },
		handler(ctx) {
			const groupId = ctx.app.stores.externalGroups.linkOf(ctx.team.team.id);
			const group = groupId === null ? undefined : ctx.app.stores.externalGroups.byId(groupId);
			return ok({ groups: group ? [externalGroupSummary(group)] : [] });
		},
	}),
	route({
		method: 'PATCH',
		path: TEAM_LINK,
		docs: 'teams/external-groups#update-the-connection-between-an-external-group-and-a-team',
		permissions: 'matrix',
		access: 'authenticated',
		resource: { team: 'owner' },
		errorResource: 'ExternalGroup',
		body: v.object({ group_id: v.pipe(v.number(), v.integer()) }),
		handler(ctx) {
			const { team } = ctx;
			const group = linkTeam(ctx.app, team.org, team.team, ctx.body.group_id, team.actorId, isoSeconds(ctx.now));
			return ok(externalGroupFull(ctx.app, group, ctx.app.stores.externalGroups.members(group.id)));
		},
	}),
	route({
		method: 'DELETE',
		path: TEAM_LINK,
		docs: 'teams/external-groups#remove-the-connection-between-an-external-group-and-a-team',
		permissions: 'matrix',
		access: 'authenticated',
		resource: { team: 'owner' },
		handler(ctx) {
			unlinkTeam(ctx.app, ctx.team.org, ctx.team.team, ctx.team.actorId);
			return noContent();
		},
	}),
];
