/**
 * The catalogue of domain events: one function per event and action that GitHub reports (webhook
 * payloads: https://docs.github.com/en/webhooks/webhook-events-and-payloads; activity-feed entries: GitHub's event types).
 * Each is called inside the transaction of the change it reports and records the event through the
 * one function of the log (src/events/log.ts); webhook payloads are built only when a hook listens.
 */
import type { App } from '../app';
import { repository } from '../model/render';
import { roleName, type RepoPermission } from '../model/repo-permissions';
import type { RepositoryRow, TeamRow, AccountRow } from '../model/rows';
import { record } from './log';
import { inOrganization, orgMembershipObject, sender, webhookTeam, webhookUser } from './payloads';
import { simpleUser } from '../model/render';

/** Legacy permission names of member events: maintain → write, triage → read. */
const LEGACY: Record<RepoPermission, string> = { pull: 'read', triage: 'read', push: 'write', maintain: 'write', admin: 'admin' };

function repositoryPayload(app: App, repo: RepositoryRow) {
	const owner = app.stores.accounts.byId(repo.owner_id)!;
	return {
		repository: repository(app.urls, repo, owner, null),
		...(owner.type === 'Organization' ? inOrganization(app, owner) : {}),
	};
}

export const events = {
	/** user created: an account was added (`gitstead admin create-user`). */
	userCreated(app: App, user: AccountRow): void {
		record(app, { event: 'user', action: 'created', actorId: null, webhook: () => ({ user: webhookUser(app, user) }) });
	},

	/** organization member_added / member_removed. */
	orgMember(
		app: App,
		action: 'member_added' | 'member_removed',
		org: AccountRow,
		user: AccountRow,
		role: string,
		actorId: number | null,
	): void {
		record(app, {
			event: 'organization',
			action,
			actorId,
			org,
			webhook: () => ({
				membership: orgMembershipObject(app, org, user, role, action === 'member_added' ? 'active' : 'inactive'),
				...inOrganization(app, org),
				...sender(app, actorId),
			}),
		});
	},

	/** organization member_invited. */
	orgMemberInvited(app: App, org: AccountRow, user: AccountRow, role: string, invitedAt: string, actorId: number | null): void {
		record(app, {
			event: 'organization',
			action: 'member_invited',
			actorId,
			org,
			webhook: () => {
				const inviter = actorId === null ? undefined : app.stores.accounts.byId(actorId);
				return {
					invitation: {
						id: user.id,
						node_id: Buffer.from(`04:OrganizationInvitation${org.id}:${user.id}`).toString('base64'),
						login: user.login,
						email: user.email,
						role: role === 'admin' ? 'admin' : 'direct_member',
						created_at: invitedAt,
						failed_at: null,
						failed_reason: null,
						inviter: inviter ? webhookUser(app, inviter) : null,
						team_count: app.stores.teams.membershipsInOrg(org.id, user.id).length,
						invitation_teams_url: app.urls.api(`/organizations/${org.id}/invitations/${user.id}/teams`),
					},
					user: webhookUser(app, user),
					...inOrganization(app, org),
					...sender(app, actorId),
				};
			},
		});
	},

	/**
	 * team created / deleted / edited (with `changes`). `repo`: the repository whose permission an
	 * edit changed, carried as the payload's `repository` (GitHub's team edited).
	 */
	team(
		app: App,
		action: 'created' | 'deleted' | 'edited',
		org: AccountRow,
		team: TeamRow,
		actorId: number | null,
		changes?: Record<string, unknown>,
		repo?: RepositoryRow,
	): void {
		record(app, {
			event: 'team',
			action,
			actorId,
			org,
			webhook: () => ({
				...(changes ? { changes } : {}),
				team: webhookTeam(app, org, team),
				...(repo ? { repository: repository(app.urls, repo, app.stores.accounts.byId(repo.owner_id)!, null) } : {}),
				...inOrganization(app, org),
				...sender(app, actorId),
			}),
		});
	},

	/**
	 * team added_to_repository / removed_from_repository. Adding also reports GitHub's older
	 * `team_add` event (no action; same payload), which hooks subscribe to separately.
	 */
	teamRepository(
		app: App,
		action: 'added_to_repository' | 'removed_from_repository',
		org: AccountRow,
		team: TeamRow,
		repo: RepositoryRow,
		actorId: number | null,
	): void {
		const webhook = () => ({
			team: webhookTeam(app, org, team),
			repository: repository(app.urls, repo, app.stores.accounts.byId(repo.owner_id)!, null),
			...inOrganization(app, org),
			...sender(app, actorId),
		});
		// GitHub delivers `team` to organization (and global) hooks only, `team_add` to the repository's too.
		record(app, { event: 'team', action, actorId, org, webhook });
		if (action === 'added_to_repository') record(app, { event: 'team_add', action: null, actorId, org, repo, webhook });
	},

	/** membership added / removed: team membership. */
	teamMembership(app: App, action: 'added' | 'removed', org: AccountRow, team: TeamRow, user: AccountRow, actorId: number | null): void {
		record(app, {
			event: 'membership',
			action,
			actorId,
			org,
			webhook: () => ({
				scope: 'team',
				member: webhookUser(app, user),
				team: webhookTeam(app, org, team),
				...inOrganization(app, org),
				sender: actorId === null ? null : (sender(app, actorId).sender ?? null),
			}),
		});
	},

	/** repository created. */
	repositoryCreated(app: App, repo: RepositoryRow, actorId: number | null): void {
		record(app, {
			event: 'repository',
			action: 'created',
			actorId,
			repo,
			feed: {
				type: 'CreateEvent',
				payload: {
					ref: null,
					ref_type: 'repository',
					master_branch: repo.default_branch,
					description: repo.description,
					pusher_type: 'user',
				},
			},
			webhook: () => ({ ...repositoryPayload(app, repo), ...sender(app, actorId) }),
		});
	},

	/**
	 * repository edited (with `changes`), renamed, archived, unarchived, privatized, publicized:
	 * PATCH /repos/{owner}/{repo}; deleted; transferred (`changes.owner.from`, sent to the new
	 * owner's hooks only, as GitHub does: the repository is theirs now).
	 */
	repository(
		app: App,
		action: 'edited' | 'renamed' | 'archived' | 'unarchived' | 'privatized' | 'publicized' | 'deleted' | 'transferred',
		repo: RepositoryRow,
		actorId: number | null,
		changes?: Record<string, unknown>,
	): void {
		record(app, {
			event: 'repository',
			action,
			actorId,
			repo,
			// Making a repository public is a PublicEvent in the feeds (empty payload).
			feed: action === 'publicized' ? { type: 'PublicEvent', payload: {} } : undefined,
			webhook: () => ({ ...(changes ? { changes } : {}), ...repositoryPayload(app, repo), ...sender(app, actorId) }),
		});
	},

	/** fork: `forkee` is the new repository, `repository` the one forked. */
	fork(app: App, source: RepositoryRow, forkee: RepositoryRow, actorId: number | null): void {
		const forkeeRecord = repository(app.urls, forkee, app.stores.accounts.byId(forkee.owner_id)!, null);
		record(app, {
			event: 'fork',
			action: null,
			actorId,
			repo: source,
			feed: { type: 'ForkEvent', payload: { forkee: forkeeRecord } },
			webhook: () => ({ forkee: forkeeRecord, ...repositoryPayload(app, source), ...sender(app, actorId) }),
		});
	},

	/** member added / removed / edited: a repository collaborator. */
	member(
		app: App,
		action: 'added' | 'removed' | 'edited',
		repo: RepositoryRow,
		user: AccountRow,
		permission: { from?: RepoPermission; to?: RepoPermission },
		actorId: number | null,
	): void {
		record(app, {
			event: 'member',
			action,
			actorId,
			repo,
			feed:
				action === 'added' ? { type: 'MemberEvent', payload: { member: simpleUser(app.urls, user), action: 'added' } } : undefined,
			webhook: () => {
				const changes =
					action === 'added' && permission.to
						? { changes: { permission: { to: LEGACY[permission.to] }, role_name: { to: roleName(permission.to) } } }
						: action === 'edited'
							? {
									changes: {
										permission: {
											from: permission.from ? LEGACY[permission.from] : null,
											to: permission.to ? LEGACY[permission.to] : null,
										},
									},
								}
							: {};
				return { ...changes, member: webhookUser(app, user), ...repositoryPayload(app, repo), ...sender(app, actorId) };
			},
		});
	},

	/**
	 * organization deleted (DELETE /orgs/{org}): GitHub's organization webhook. Recorded before the
	 * organization goes; the row names no organization (its rows cascade away with it), so the event
	 * stays in the log and reaches the global hooks (the organization's own hooks go with it).
	 */
	orgDeleted(app: App, org: AccountRow, actorId: number | null): void {
		const payload = { ...inOrganization(app, org), ...sender(app, actorId) };
		record(app, { event: 'organization', action: 'deleted', actorId, webhook: () => payload });
	},

	/**
	 * An organization setting changed that GitHub reports to no webhook, feed or notification, only
	 * to its audit log: recorded as event `org` with the audit-log action (update_settings,
	 * update_actions_settings, set_default_workflow_permissions, runner_group_created, ...), no
	 * webhook payload (no hook can subscribe to `org`).
	 */
	orgAudit(app: App, org: AccountRow, action: string, actorId: number | null): void {
		record(app, { event: 'org', action, actorId, org });
	},
};
