/**
 * Creating organizations (`gitstead admin create-org`) and deleting them (DELETE /orgs/{org}).
 */
import type { App } from '../../app';
import { events } from '../../events/catalog';
import { createDefaultGroup } from '../runner-groups/service';
import { isoSeconds } from '../../time';
import { assertLogin, assertLoginFree } from '../users/service';
import type { AccountRow } from '../../model/rows';
import { notFound, PermanentTaskError, validationFailed, type ValidationItem } from '../../model/errors';
import type { OrgAccess, Viewer } from '../../auth/access/types';
import { boundAccountId, reachesAccount } from '../../auth/principal';
import { orgSimple } from '../../model/render';
import { orgFull } from './render';
import { deleteForksWithoutAccess } from '../repos/service';
import { MEMBER_POLICIES, ORG_FLAGS, type MemberPolicy, type OrgFlag, type OrgSettings, type OrgTextField } from '../users/store';

/** A range of a list: at most `limit` items from `offset` (0-based). */
export interface ListRange {
	limit: number;
	offset: number;
}

/**
 * GET /orgs/{org}: GitHub's organization-full as the admitted caller sees it (members see the
 * private counts and policies, owners the billing email, flags and plan).
 */
export function organizationProfile(app: App, access: OrgAccess) {
	const { org } = access;
	return orgFull(app.urls, org, app.stores.accounts.counts(org.id), access, app.stores.accounts.seats(org.id));
}

/**
 * GET /user/orgs: the authenticated user's organizations (organization-simple, by id), concealed
 * memberships included; a token bound to one account (fine-grained, user-to-server) lists only the
 * organization it reaches.
 */
export function listOwnOrganizations(viewer: Viewer, range: ListRange) {
	const user = viewer.principal.user!;
	const { rows, total } = viewer.app.stores.orgs.ofUser({
		userId: user.id,
		orgId: boundAccountId(viewer.principal),
		publicOnly: false,
		limit: range.limit,
		offset: range.offset,
	});
	return { items: rows.map((org) => orgSimple(viewer.app.urls, org)), total };
}

/**
 * GET /users/{username}/orgs: a user's organizations (organization-simple, by id): public
 * memberships, and concealed ones only to the user with a token that reaches the user's own account.
 * @throws DomainError 404 when no user has the login
 */
export function listUserOrganizations(viewer: Viewer, login: string, range: ListRange) {
	const user = viewer.app.stores.accounts.user(login);
	if (!user) throw notFound();
	const self = !viewer.publicView && viewer.principal.user?.id === user.id && reachesAccount(viewer.principal, user.id);
	const { rows, total } = viewer.app.stores.orgs.ofUser({
		userId: user.id,
		publicOnly: !self,
		limit: range.limit,
		offset: range.offset,
	});
	return { items: rows.map((org) => orgSimple(viewer.app.urls, org)), total };
}

/**
 * Creates an organization with `ownerId` as its first owner, and its Default runner group.
 * @throws DomainError 422 for an invalid or taken login.
 */
export function createOrganization(
	app: App,
	input: { login: string; ownerId: number; enterpriseId?: number | null; name?: string | null },
): AccountRow {
	assertLogin(input.login, 'Organization', 'login');
	return app.transaction(() => {
		assertLoginFree(app, input.login, 'Organization', 'login');
		const now = isoSeconds(app.clock());
		const id = app.stores.accounts.insert({
			login: input.login,
			type: 'Organization',
			name: input.name ?? null,
			enterpriseId: input.enterpriseId ?? null,
			now,
		});
		app.stores.memberships.insert({ orgId: id, userId: input.ownerId, role: 'admin', state: 'active', inviterId: null, now });
		// Its Default self-hosted runner group, as every organization has.
		createDefaultGroup(app, { org: id }, now);
		return app.stores.accounts.byId(id)!;
	});
}

/** Background task kind deleting the repositories of a large deleted organization (runOrganizationDeletionTask). */
export const ORG_DELETION_TASK = 'organization-deletion';
/** Organizations with at most this many repositories are deleted at once, in the request (about 0.4 ms each, measured). */
export const SYNC_DELETE_REPOSITORIES = 100;
/** Repositories deleted per transaction by the background task. */
export const DELETE_BATCH = 25;

/**
 * Deletes an organization (DELETE /orgs/{org}), inside the caller's transaction: `organization`
 * deleted is recorded first (its payload still has the organization), then the account row goes
 * and every row that names it cascades: teams, memberships, invitations, hooks, Actions settings,
 * runner groups and runners, and its repositories with their contents. Users' forks of its
 * repositories stay, without a parent, as on GitHub.
 *
 * An organization with more than SYNC_DELETE_REPOSITORIES repositories is gone at once all the
 * same, but its repositories are first parked (two statements) with a holder account nobody
 * belongs to (`deleted-organization-{id}`), private and without collaborators, and
 * ORG_DELETION_TASK deletes them DELETE_BATCH per transaction, then the holder: the writer is never
 * held for long.
 * @returns 'done', or 'queued' when repositories are left to the background task
 */
export function deleteOrganization(app: App, org: AccountRow, actorId: number | null): 'done' | 'queued' {
	events.orgDeleted(app, org, actorId);
	let result: 'done' | 'queued' = 'done';
	if (app.stores.orgs.repositoryCount(org.id) > SYNC_DELETE_REPOSITORIES) {
		const holderId = app.stores.accounts.insert({
			login: `deleted-organization-${org.id}`,
			type: 'Organization',
			now: isoSeconds(app.clock()),
		});
		app.stores.orgs.parkRepositories(org.id, holderId);
		app.tasks.enqueue(ORG_DELETION_TASK, { holderId });
		result = 'queued';
	}
	app.stores.accounts.removeOrganization(org.id);
	app.webhooks.invalidate();
	return result;
}

/**
 * Handler of ORG_DELETION_TASK: deletes the holder's repositories DELETE_BATCH per transaction
 * (each cascading to its contents), yielding between batches, then the holder.
 * @throws PermanentTaskError for a malformed payload
 */
export async function runOrganizationDeletionTask(app: App, payload: unknown): Promise<void> {
	const holderId = (payload as { holderId?: unknown } | null)?.holderId;
	if (typeof holderId !== 'number') throw new PermanentTaskError('malformed payload');
	for (;;) {
		const finished = app.transaction(() => {
			const ids = app.stores.orgs.repositoryIds(holderId, DELETE_BATCH);
			for (const id of ids) app.stores.repos.remove(id);
			if (ids.length < DELETE_BATCH) app.stores.accounts.removeOrganization(holderId);
			return ids.length < DELETE_BATCH;
		});
		if (finished) return;
		await new Promise((resolve) => setImmediate(resolve));
	}
}

/** PATCH /orgs/{org}'s input: absent fields stay as they are; null clears a text field. */
export type OrganizationUpdate = Partial<Record<OrgTextField, string | null>> &
	Partial<Record<MemberPolicy | OrgFlag | 'has_organization_projects' | 'has_repository_projects', boolean>> & {
		default_repository_permission?: 'read' | 'write' | 'admin' | 'none';
		members_allowed_repository_creation_type?: 'all' | 'private' | 'none';
	};

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const TWITTER = /^[A-Za-z0-9_]{1,15}$/;

/**
 * GitHub's validation of the profile fields of an update: email addresses, a Twitter username, an
 * http(s) custom link for push protection.
 * @throws DomainError 422 listing every invalid field
 */
function checkProfile(body: OrganizationUpdate): void {
	const problems: ValidationItem[] = [];
	const invalid = (field: string, message: string) => problems.push({ resource: 'Organization', field, code: 'invalid', message });
	for (const field of ['email', 'billing_email'] as const) {
		const value = body[field];
		if (value && !EMAIL.test(value)) invalid(field, `${field} is not a valid email address`);
	}
	if (body.twitter_username && !TWITTER.test(body.twitter_username))
		invalid('twitter_username', 'twitter_username is not a valid Twitter username');
	const link = body.secret_scanning_push_protection_custom_link;
	if (link && !/^https?:\/\/[^\s]+$/.test(link))
		invalid('secret_scanning_push_protection_custom_link', 'secret_scanning_push_protection_custom_link must be an http(s) URL');
	for (const field of ['name', 'company', 'location', 'description', 'blog'] as const) {
		const value = body[field];
		if (value && value.length > (field === 'description' ? 160 : 255)) invalid(field, `${field} is too long`);
	}
	if (problems.length) throw validationFailed(problems);
}

/**
 * The members_can_* policies after an update: each given one, the others as they are. The older
 * members_allowed_repository_creation_type (all | private | none) sets the creation policies
 * unless they are given themselves.
 */
function policies(
	body: Partial<Record<MemberPolicy, boolean>> & { members_allowed_repository_creation_type?: 'all' | 'private' | 'none' },
	org: AccountRow,
) {
	const settings = Object.fromEntries(MEMBER_POLICIES.map((key) => [key, org[key]])) as Record<MemberPolicy, number>;
	const type = body.members_allowed_repository_creation_type;
	if (type !== undefined) {
		settings.members_can_create_repositories = type === 'none' ? 0 : 1;
		settings.members_can_create_public_repositories = type === 'all' ? 1 : 0;
		settings.members_can_create_private_repositories = type === 'none' ? 0 : 1;
	}
	for (const key of MEMBER_POLICIES) if (body[key] !== undefined) settings[key] = body[key] ? 1 : 0;
	return settings;
}

/**
 * Updates an organization's profile and settings (an owner; the route's guard checks it), records
 * the audit-log entry (GitHub's organization webhook has no action for settings) and, when the base
 * permission changes, deletes the forks members lost read access to.
 * @param now ISO timestamp
 * @returns the organization as stored
 * @throws DomainError 422 listing every invalid profile field
 */
export function updateOrganization(app: App, org: AccountRow, body: OrganizationUpdate, actorId: number | null, now: string): AccountRow {
	checkProfile(body);
	const flag = (value: boolean | undefined, current: number) => (value === undefined ? current : value ? 1 : 0);
	const text = (key: OrgTextField): string | null => (body[key] !== undefined ? (body[key] ?? null) : org[key]);
	const settings: OrgSettings = {
		name: text('name'),
		email: text('email'),
		company: text('company'),
		blog: text('blog'),
		location: text('location'),
		description: text('description'),
		billing_email: text('billing_email'),
		twitter_username: text('twitter_username'),
		secret_scanning_push_protection_custom_link: text('secret_scanning_push_protection_custom_link'),
		default_repository_permission: body.default_repository_permission ?? org.default_repository_permission,
		...policies(body, org),
		...(Object.fromEntries(ORG_FLAGS.map((key) => [key, flag(body[key], org[key])])) as Record<OrgFlag, number>),
		has_organization_projects: flag(body.has_organization_projects, org.has_organization_projects),
		has_repository_projects: flag(body.has_repository_projects, org.has_repository_projects),
	};
	return app.transaction(() => {
		app.stores.accounts.updateOrgSettings(org.id, settings, now);
		// GitHub reports settings to its audit log only (the organization webhook has no action for them).
		events.orgAudit(app, org, 'update', actorId);
		// A lower base permission may take members' read access to private repositories.
		if (settings.default_repository_permission !== org.default_repository_permission) {
			deleteForksWithoutAccess(app, app.stores.accounts.byId(org.id)!, actorId);
		}
		return app.stores.accounts.byId(org.id)!;
	});
}
