/**
 * Team rules shared by the team routes: slugs, privacy and nesting, creation and update, and the
 * serialized list form kept in the representation cache.
 */
import type { App } from '../../app';
import { forbidden, invalidField, unprocessable } from '../../model/errors';
import type { OrgAccess, TeamAccess, Viewer } from '../../auth/access/types';
import { permissionFlags, strongest, type RepoPermission } from '../../model/repo-permissions';
import { repositoryPermissions } from '../../auth/access/repos';
import { repository, simpleUser } from '../../model/render';
import { deleteForksWithoutAccess } from '../repos/service';
import type { RepositoryRow, AccountRow, TeamRow } from '../../model/rows';
import { teamVisible } from '../../auth/access/teams';
import { teamFullForm } from './render';
import { teamListForm } from '../../model/render';
import { events } from '../../events/catalog';

/**
 * GitHub's slug of a team name: accents dropped, lower-cased, every run of characters other than
 * letters, digits and '_' replaced by '-', no '-' at either end ("Justice League" → "justice-league").
 */
export function teamSlug(name: string): string {
	return name
		.normalize('NFKD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase()
		.replace(/[^a-z0-9_]+/g, '-')
		.replace(/^-+|-+$/g, '');
}

/** Cache scope of an organization's team list forms. */
export const teamScope = (orgId: number) => `teams:${orgId}`;

/**
 * A new or changed name's slug, unique in the organization.
 * @throws DomainError 422 for a name without letters or digits, or one already used.
 */
function uniqueSlug(app: App, orgId: number, name: string, exceptId: number | null): string {
	const slug = teamSlug(name);
	if (!slug || name.trim().length === 0) throw invalidField('Team', 'name', `"${name}" needs at least one letter or digit`);
	if (name.length > 255) throw invalidField('Team', 'name', 'name is longer than 255 characters');
	// Names equal but for case give equal slugs, so a free slug means a free name.
	const sameSlug = app.stores.teams.bySlug(orgId, slug);
	if (sameSlug && sameSlug.id !== exceptId) {
		throw invalidField('Team', 'name', `Name must be unique for this org; "${name}" (slug "${slug}") is taken`, 'already_exists');
	}
	return slug;
}

/**
 * Who creates or changes a team, as the routes know it: the organization standing and what the
 * caller may do with parents and repositories.
 */
export interface TeamEditor {
	/** The caller's standing in the team's organization. */
	access: OrgAccess;
	/**
	 * May make any team a parent: an organization owner, or an app with organization administration
	 * (write). Anyone else must maintain both the child and the parent team (GitHub's rule).
	 */
	anyParent: boolean;
	/** The caller's permission on a repository of the organization; null when the caller cannot see it. */
	repoPermission(repo: RepositoryRow): RepoPermission | null;
}

/**
 * The parent named by parent_team_id or parent_team_slug (the id wins when both are given),
 * checked: a team of the organization the caller can see (a team the caller cannot see is answered
 * exactly like one that does not exist), not the team itself or one of its descendants, not secret,
 * and one the caller may make a parent: an owner or app with organization administration, or a
 * maintainer of the parent (the routes already require a maintainer of the child on update; the
 * creator of a new team becomes its maintainer).
 * @param current the team's parent now (update) or null (create): keeping it needs no permission
 * @returns the parent, null to detach, undefined when neither field was given
 * @throws DomainError 422 naming the field; 403 when the caller may not make that team a parent.
 */
function resolveParent(
	app: App,
	editor: TeamEditor,
	input: { parent_team_id?: number | null; parent_team_slug?: string | null },
	teamId: number | null,
	current: number | null,
): TeamRow | null | undefined {
	const { org } = editor.access;
	let parent: TeamRow | undefined;
	let field = 'parent_team_id';
	if (input.parent_team_id !== undefined && input.parent_team_id !== null) {
		parent = app.stores.teams.byId(input.parent_team_id);
	} else if (input.parent_team_id === null) {
		return null;
	} else if (input.parent_team_slug !== undefined) {
		field = 'parent_team_slug';
		if (input.parent_team_slug === null) return null;
		parent = app.stores.teams.bySlug(org.id, input.parent_team_slug.toLowerCase());
	} else {
		return undefined; // not given
	}
	if (!parent || !teamVisible(app, editor.access, parent)) {
		throw invalidField('Team', field, `no team of ${org.login} matches the parent you gave`);
	}
	if (teamId !== null && (parent.id === teamId || app.stores.teams.ancestors(parent.id).includes(teamId))) {
		throw invalidField('Team', field, 'a team cannot be its own parent or the parent of one of its ancestors');
	}
	if (parent.privacy === 'secret') {
		throw invalidField('Team', field, `"${parent.name}" is secret; a parent team must be closed`);
	}
	if (parent.id !== current && !editor.anyParent) {
		const userId = editor.access.userId;
		const membership = userId === null ? undefined : app.stores.teams.membership(parent.id, userId);
		if (membership?.state !== 'active' || membership.role !== 'maintainer') {
			throw forbidden(
				`You must be an owner of ${org.login}, or a maintainer of both teams, to make ${parent.slug} the parent of a team.`,
			);
		}
	}
	return parent;
}

export interface CreateTeamInput {
	name: string;
	description?: string;
	maintainers?: string[];
	repo_names?: string[];
	privacy?: 'secret' | 'closed';
	notification_setting?: 'notifications_enabled' | 'notifications_disabled';
	permission?: 'pull' | 'push';
	parent_team_id?: number;
	parent_team_slug?: string;
	ldap_dn?: string;
}

/**
 * POST /orgs/{org}/teams: creates the team, its maintainers (the creator, editor.access.userId, among
 * them; null for an app) and its repository grants in one transaction. Every repository of
 * repo_names needs admin rights of the caller, as PUT …/teams/{team_slug}/repos/{owner}/{repo} does.
 * @param now ISO timestamp
 * @throws DomainError 422 for any invalid field (a repository or parent the caller cannot see is
 *   answered as one that does not exist); 403 for a repository the caller does not administer or a
 *   parent the caller may not use. Nothing is written then.
 */
export function createTeam(app: App, editor: TeamEditor, input: CreateTeamInput, now: string): TeamRow {
	const { stores } = app;
	const { org, userId: creatorId, actorId } = editor.access;
	if (input.ldap_dn !== undefined && !app.config.ldap.sync_enabled) {
		throw invalidField('Team', 'ldap_dn', 'LDAP synchronization is not enabled on this instance (config ldap.sync_enabled)');
	}
	const team = app.transaction(() => {
		const slug = uniqueSlug(app, org.id, input.name, null);
		const parent = resolveParent(app, editor, input, null, null) ?? null;
		const privacy = input.privacy ?? (parent ? 'closed' : 'secret');
		if (parent && privacy === 'secret') {
			throw invalidField('Team', 'privacy', 'a child team must be closed; secret applies only to teams without a parent');
		}
		const maintainers = (input.maintainers ?? []).map((login) => {
			const user = stores.accounts.user(login);
			const membership = user && stores.memberships.get(org.id, user.id);
			if (!user || membership?.state !== 'active') {
				throw invalidField('Team', 'maintainers', `${login} is not a member of ${org.login}`);
			}
			return user.id;
		});
		const repositories = (input.repo_names ?? []).map((fullName) => {
			const [ownerLogin, name, extra] = fullName.split('/');
			const repo =
				ownerLogin && name && extra === undefined && ownerLogin.toLowerCase() === org.login.toLowerCase()
					? stores.repos.byOwnerAndName(org.id, name)
					: undefined;
			const permission = repo ? editor.repoPermission(repo) : null;
			if (!repo || permission === null) throw invalidField('Team', 'repo_names', `${fullName} is not a repository of ${org.login}`);
			if (permission !== 'admin') throw forbidden(`You must have admin rights to ${fullName} to add it to a team.`);
			return repo.id;
		});
		const permission = input.permission ?? 'pull';
		const id = stores.teams.insert(
			{
				org_id: org.id,
				name: input.name,
				slug,
				description: input.description ?? null,
				privacy,
				notification_setting: input.notification_setting ?? 'notifications_enabled',
				permission,
				parent_id: parent?.id ?? null,
				ldap_dn: input.ldap_dn ?? null,
			},
			now,
		);
		const team = stores.teams.byId(id)!;
		events.team(app, 'created', org, team, actorId);
		for (const userId of new Set([...(creatorId !== null ? [creatorId] : []), ...maintainers])) {
			stores.teams.setMembership({ teamId: id, userId, role: 'maintainer', state: 'active', now });
			events.teamMembership(app, 'added', org, team, stores.accounts.byId(userId)!, actorId);
		}
		for (const repoId of repositories) {
			stores.teams.setGrant(id, repoId, permission as RepoPermission, now);
			events.teamRepository(app, 'added_to_repository', org, team, stores.repos.byId(repoId)!, actorId);
		}
		return team;
	});
	app.cache.invalidate(teamScope(org.id));
	return team;
}

export interface UpdateTeamInput {
	name?: string;
	description?: string | null;
	privacy?: 'secret' | 'closed';
	notification_setting?: 'notifications_enabled' | 'notifications_disabled';
	permission?: 'pull' | 'push' | 'admin';
	parent_team_id?: number | null;
	parent_team_slug?: string | null;
}

/**
 * PATCH a team (the routes have checked that the caller may edit it): omitted fields stay
 * unchanged; a new name gets a new slug.
 * @param now ISO timestamp
 * @throws DomainError 422 for an invalid combination (secret with a parent or children, cycles, ...);
 *   403 for a parent the caller may not use (resolveParent).
 */
export function updateTeam(app: App, editor: TeamEditor, team: TeamRow, input: UpdateTeamInput, now: string): TeamRow {
	const { org, actorId } = editor.access;
	const updated = app.transaction(() => {
		const next: TeamRow = { ...team };
		if (input.name !== undefined && input.name !== team.name) {
			next.slug = uniqueSlug(app, org.id, input.name, team.id);
			next.name = input.name;
		}
		if (input.description !== undefined) next.description = input.description;
		if (input.notification_setting !== undefined) next.notification_setting = input.notification_setting;
		if (input.permission !== undefined) next.permission = input.permission;
		const parent = resolveParent(app, editor, input, team.id, team.parent_id);
		if (parent !== undefined) next.parent_id = parent?.id ?? null;
		if (input.privacy !== undefined) next.privacy = input.privacy;
		// A secret team given a parent becomes closed unless the request insists on secret.
		else if (parent) next.privacy = 'closed';
		if (next.privacy === 'secret') {
			if (next.parent_id !== null) throw invalidField('Team', 'privacy', 'a child team must be closed');
			if (app.stores.teams.hasChildren(team.id)) throw invalidField('Team', 'privacy', 'a parent team cannot be secret');
		}
		app.stores.teams.update(next, now);
		const updated = app.stores.teams.byId(team.id)!;
		const changes: Record<string, { from: unknown }> = {};
		for (const key of ['name', 'description', 'privacy', 'notification_setting'] as const) {
			if (team[key] !== updated[key]) changes[key] = { from: team[key] };
		}
		if (team.parent_id !== updated.parent_id) {
			changes.parent = { from: team.parent_id };
			// Inherited repository access changed with the parent.
			deleteForksWithoutAccess(app, editor.access.org, editor.access.actorId);
		}
		if (Object.keys(changes).length) events.team(app, 'edited', org, updated, actorId, changes);
		return updated;
	});
	app.cache.invalidate(teamScope(org.id));
	return updated;
}

/**
 * DELETE a team. An owner's delete removes the child teams too (GitHub's rule); a maintainer's
 * moves them up to the deleted team's parent.
 */
export function deleteTeam(app: App, access: OrgAccess, team: TeamRow): void {
	app.transaction(() => {
		if (!access.admin) app.stores.teams.reparentChildren(team.id, team.parent_id);
		// The team and, for an owner, its descendants (deleted by the cascade).
		const deleted = [team, ...(access.admin ? app.stores.teams.descendants(team.id) : [])];
		app.stores.teams.remove(team.id);
		for (const gone of deleted) events.team(app, 'deleted', access.org, gone, access.actorId);
		deleteForksWithoutAccess(app, access.org, access.actorId);
	});
	app.cache.invalidate(teamScope(team.org_id));
}

/**
 * One page of the teams of an organization the viewer sees, in name order: owners and the app
 * see every team, members the closed teams and the secret teams they belong to. The order comes
 * from the representation cache; the viewer's memberships are read fresh.
 */
export function visibleTeams(
	app: App,
	orgId: number,
	viewer: { seeAll: boolean; userId: number | null },
	page: { limit: number; offset: number },
): { ids: number[]; total: number } {
	const scope = teamScope(orgId);
	let order = app.cache.get<Array<[number, 'secret' | 'closed']>>(scope, 'order');
	if (!order) app.cache.set(scope, 'order', (order = app.stores.teams.order(orgId)));
	let visible = order;
	if (!viewer.seeAll) {
		const mine = new Set(viewer.userId === null ? [] : app.stores.teams.userTeamIds(orgId, viewer.userId));
		visible = order.filter(([id, privacy]) => privacy === 'closed' || mine.has(id));
	}
	const ids: number[] = [];
	for (let i = page.offset; i < Math.min(visible.length, page.offset + page.limit); i++) ids.push(visible[i][0]);
	return { ids, total: visible.length };
}

/**
 * The version of an organization's team list as one viewer sees it (the ETag's source, read before
 * any rendering): the representation cache's generation of the organization's teams (every team
 * write invalidates it; another process's commit clears the cache) and which secret teams the
 * viewer sees (owners all, members their own).
 */
export function visibleTeamsVersion(app: App, orgId: number, viewer: { seeAll: boolean; userId: number | null }): string {
	const scope = teamScope(orgId);
	const sees = viewer.seeAll ? 'all' : viewer.userId === null ? 'closed' : app.stores.teams.userTeamIds(orgId, viewer.userId).join(',');
	return `${scope}:${app.cache.generation(scope)}:${sees}`;
}

/** Pages of list forms kept per organization (distinct pages: one per visibility and page size). */
const PAGES_PER_SCOPE = 256;

/**
 * JSON array of the list forms of `ids`, in order, as a Buffer ready to send. Whole pages and
 * single list forms come from the representation cache; missing list forms are loaded in one
 * query, rendered and cached.
 */
export function teamListJson(app: App, org: AccountRow, ids: number[]): Buffer {
	const scope = teamScope(org.id);
	const pageKey = `page:${ids.join(',')}`;
	const page = app.cache.get<Buffer>(scope, pageKey);
	if (page) return page;
	const parts: string[] = new Array(ids.length);
	let missing: number[] | null = null;
	for (let i = 0; i < ids.length; i++) {
		const cached = app.cache.get<string>(scope, String(ids[i]));
		if (cached === undefined) (missing ??= []).push(ids[i]);
		else parts[i] = cached;
	}
	if (missing) {
		const rows = new Map(app.stores.teams.byIds(missing).map((row) => [row.id, row]));
		const parentIds = [...rows.values()].map((row) => row.parent_id).filter((id): id is number => id !== null);
		const parents = new Map(app.stores.teams.byIds(parentIds).map((row) => [row.id, row]));
		for (let i = 0; i < ids.length; i++) {
			if (parts[i] !== undefined) continue;
			const row = rows.get(ids[i])!;
			const json = JSON.stringify(teamListForm(app.urls, org.login, row, row.parent_id ? parents.get(row.parent_id) : undefined));
			app.cache.set(scope, String(row.id), json);
			parts[i] = json;
		}
	}
	const body = Buffer.from(`[${parts.join(',')}]`);
	if ((app.cache.get<number>(scope, 'pages') ?? 0) < PAGES_PER_SCOPE) {
		app.cache.set(scope, 'pages', (app.cache.get<number>(scope, 'pages') ?? 0) + 1);
		app.cache.set(scope, pageKey, body);
	}
	return body;
}

/** A range of a list: at most `limit` items from `offset` (0-based). */
interface ListRange {
	limit: number;
	offset: number;
}

/**
 * GET /orgs/{org}/teams/{team_slug}/teams: one page of the team's child teams the admitted caller
 * sees (owners all, others the closed ones and the secret ones they belong to), by name.
 * @returns the child teams' ids and how many the caller sees in all
 */
export function listChildTeams(app: App, access: TeamAccess, range: ListRange): { ids: number[]; total: number } {
	return app.stores.teams.visibleChildren({
		parentId: access.team.id,
		seeAll: access.admin,
		userId: access.userId,
		limit: range.limit,
		offset: range.offset,
	});
}

/**
 * GET /orgs/{org}/teams/{team_slug}/members: one page of the team's active members, its child
 * teams' included (simple users with `role` and `inherited`), by account id. `role` keeps members
 * or maintainers; `membership` those of the team itself (`immediate`) or only through a child team
 * (`child`), as GitHub's GraphQL TeamMembershipType does.
 */
export function listTeamMembers(
	app: App,
	access: TeamAccess,
	filter: { role: 'all' | 'member' | 'maintainer'; membership: 'all' | 'immediate' | 'child' },
	range: ListRange,
) {
	const { rows, total } = app.stores.teams.members({
		teamId: access.team.id,
		role: filter.role,
		membership: filter.membership,
		limit: range.limit,
		offset: range.offset,
	});
	return {
		items: rows.map((row) => ({ ...simpleUser(app.urls, row), role: row.member_role, inherited: row.inherited === 1 })),
		total,
	};
}

/**
 * GET /orgs/{org}/teams/{team_slug}/repos: one page of the repositories the team (or an ancestor)
 * is granted that the caller may see, each with the team's strongest permission (`role_name`,
 * `permissions`), in grant order; a constant number of queries.
 */
export function listTeamRepositories(viewer: Viewer, access: TeamAccess, range: ListRange) {
	const { stores, urls } = viewer.app;
	const byRepo = new Map<number, { repo: RepositoryRow; permission: RepoPermission }>();
	for (const row of stores.teams.lineageRepositories(access.team.id)) {
		const seen = byRepo.get(row.id);
		byRepo.set(row.id, { repo: row, permission: strongest(seen?.permission, row.granted)! });
	}
	const owners = stores.accounts.mapByIds([...byRepo.values()].map((x) => x.repo.owner_id));
	// The caller's own permissions decide which repositories are listed.
	const mine = repositoryPermissions(
		viewer,
		[...byRepo.values()].map(({ repo }) => ({ repo, owner: owners.get(repo.owner_id)! })),
	);
	const visible = [...byRepo.values()].filter(({ repo }) => mine.get(repo.id) !== null);
	return {
		items: visible
			.slice(range.offset, range.offset + range.limit)
			.map(({ repo, permission }) => repository(urls, repo, owners.get(repo.owner_id)!, permission)),
		total: visible.length,
	};
}

/** The full form of a team, with fresh counts. */
export function teamFull(app: App, org: AccountRow, team: TeamRow) {
	const parent = team.parent_id !== null ? app.stores.teams.byId(team.parent_id) : undefined;
	return teamFullForm(app.urls, org, app.stores.accounts.counts(org.id), team, parent, {
		members: app.stores.teams.memberCount(team.id),
		repos: app.stores.teams.directRepoCount(team.id),
	});
}

/** @throws DomainError 422 when the repository is not the organization's and not a direct fork of one. */
export function assertOrganizationRepository(app: App, orgId: number, repo: { owner_id: number; fork_parent_id: number | null }): void {
	if (repo.owner_id === orgId) return;
	const parent = repo.fork_parent_id !== null ? app.stores.repos.byId(repo.fork_parent_id) : undefined;
	if (parent?.owner_id === orgId) return;
	throw unprocessable(
		"Validation Failed: the repository must belong to the team's organization or be a direct fork of one of its repositories.",
	);
}

/**
 * Makes a user an active member of a team (the team-membership service of the team routes and of
 * external-group sync): the role given (default: the one held, else member); records membership
 * added when the user was not an active member. The caller checks that the user is an active member
 * of the organization.
 * @param now ISO timestamp
 * @returns true when the user was not an active member before
 */
export function addTeamMember(
	app: App,
	org: AccountRow,
	team: TeamRow,
	user: AccountRow,
	role: 'member' | 'maintainer' | null,
	actorId: number | null,
	now: string,
): boolean {
	const before = app.stores.teams.membership(team.id, user.id);
	app.stores.teams.setMembership({ teamId: team.id, userId: user.id, role: role ?? before?.role ?? 'member', state: 'active', now });
	if (before?.state === 'active') return false;
	events.teamMembership(app, 'added', org, team, user, actorId);
	return true;
}

/**
 * Removes a user's membership of a team (pending or active); an active one records membership
 * removed. The caller then calls deleteForksWithoutAccess once (a removal can take read access away).
 * @returns true when an active membership was removed
 */
export function removeTeamMember(app: App, org: AccountRow, team: TeamRow, user: AccountRow, actorId: number | null): boolean {
	const before = app.stores.teams.membership(team.id, user.id);
	app.stores.teams.removeMembership(team.id, user.id);
	if (before?.state !== 'active') return false;
	events.teamMembership(app, 'removed', org, team, user, actorId);
	return true;
}

/**
 * GitHub's refusal of a direct membership change to a team whose members follow an external group
 * (the team routes' PUT and DELETE of memberships answer 403; the legacy members routes 404).
 * @throws DomainError 403 when the team is linked to an external group
 */
export function assertNotSynced(app: App, team: TeamRow): void {
	if (app.stores.externalGroups.linkOf(team.id) !== null) {
		throw forbidden('This team’s membership is synced with an external group; change the group’s members instead.');
	}
}

/**
 * PUT …/teams/{team}/memberships/{username} (a maintainer or owner acts through `access`): an active
 * member of the organization becomes an active team member with `role`; an organization owner
 * adding a non-member invites them to the organization (member_invited) and the team membership
 * stays pending until they accept.
 * @param now ISO timestamp
 * @returns the team membership's state
 * @throws DomainError 422 for an organization account, 403 when a non-owner adds a non-member
 */
export function setTeamMembership(
	app: App,
	access: TeamAccess,
	user: AccountRow,
	role: 'member' | 'maintainer',
	now: string,
): 'active' | 'pending' {
	if (user.type !== 'User')
		throw invalidField('TeamMember', 'username', `${user.login} is an organization; only users can be team members`);
	const { stores } = app;
	const { org, team } = access;
	return app.transaction(() => {
		const orgMembership = stores.memberships.get(org.id, user.id);
		if (orgMembership?.state === 'active') {
			addTeamMember(app, org, team, user, role, access.actorId, now);
			return 'active' as const;
		}
		if (!access.admin) throw forbidden(`Only owners of ${org.login} can add people who are not members of the organization.`);
		// An owner adding a non-member invites them to the organization; the team membership
		// stays pending until the invitation is accepted.
		if (!orgMembership) {
			stores.memberships.insert({ orgId: org.id, userId: user.id, role: 'member', state: 'pending', inviterId: access.userId, now });
		}
		stores.teams.setMembership({ teamId: team.id, userId: user.id, role, state: 'pending', now });
		// A new invitation to the organization (GitHub's organization member_invited).
		if (!orgMembership) events.orgMemberInvited(app, org, user, 'member', now, access.actorId);
		return stores.teams.membership(team.id, user.id)!.state;
	});
}

/**
 * Removes a user from a team: maintainers and owners remove anyone, members leave on their own.
 * Removing an active member deletes the private forks the removal took access to.
 * @throws DomainError 403 for a member removing someone else
 */
export function removeTeamMembership(app: App, access: TeamAccess, user: AccountRow): void {
	if (access.userId !== user.id && !access.manage) {
		throw forbidden(`You must be an organization owner or a maintainer of ${access.team.slug} to remove members.`);
	}
	app.transaction(() => {
		if (removeTeamMember(app, access.org, access.team, user, access.actorId)) deleteForksWithoutAccess(app, access.org, access.actorId);
	});
}

/**
 * The legacy PUT …/members/{username}: adds an active member of the organization (keeping a role held).
 * @param now ISO timestamp
 * @throws DomainError 422 unprocessable when the user is not an active member of the organization
 */
export function addOrganizationMemberToTeam(app: App, access: TeamAccess, user: AccountRow, now: string): void {
	if (app.stores.memberships.get(access.org.id, user.id)?.state !== 'active') {
		throw invalidField('TeamMember', 'username', `${user.login} is not a member of ${access.org.login}`, 'unprocessable');
	}
	app.transaction(() => addTeamMember(app, access.org, access.team, user, null, access.actorId, now));
}

/**
 * Gives a team a role on one of its organization's repositories, or changes it (GitHub's
 * add-or-update-team-repository-permissions): records team added_to_repository, or team edited
 * with the previous permissions. Runs in the caller's transaction; the caller checked that the
 * repository is the organization's (assertOrganizationRepository) and who may.
 * @param roleId a custom repository role whose base role is `permission` (null: none)
 * @param now ISO timestamp
 */
export function setTeamRepository(
	app: App,
	org: AccountRow,
	team: TeamRow,
	repo: RepositoryRow,
	role: { permission: RepoPermission; roleId: number | null },
	actorId: number | null,
	now: string,
): void {
	const before = app.stores.teams.grant(team.id, repo.id);
	app.stores.teams.setGrant(team.id, repo.id, role.permission, now, role.roleId);
	if (!before) events.teamRepository(app, 'added_to_repository', org, team, repo, actorId);
	else if (before !== role.permission) {
		const flags = permissionFlags(before);
		events.team(
			app,
			'edited',
			org,
			team,
			actorId,
			{ repository: { permissions: { from: { admin: flags.admin, pull: flags.pull, push: flags.push } } } },
			repo,
		);
	}
}

/**
 * Takes a repository from a team (GitHub's remove-a-repository-from-a-team): records team
 * removed_from_repository and deletes users' forks that lost read access. Runs in the caller's
 * transaction. @returns false when the team had no grant on it
 */
export function removeTeamRepository(app: App, org: AccountRow, team: TeamRow, repo: RepositoryRow, actorId: number | null): boolean {
	if (!app.stores.teams.removeGrant(team.id, repo.id)) return false;
	events.teamRepository(app, 'removed_from_repository', org, team, repo, actorId);
	deleteForksWithoutAccess(app, org, actorId);
	return true;
}
