/**
 * Webhook payload shapes (@octokit/openapi-webhooks, GHES 3.19; https://docs.github.com/en/webhooks/webhook-events-and-payloads): the objects
 * events carry — users, organizations, repositories, teams, memberships, enterprises.
 */
import type { App } from '../app';
import { nodeId } from '../model/urls';
import { orgSimple } from '../model/render';
import { repository } from '../model/render';
import type { RepositoryRow, TeamRow, AccountRow } from '../model/rows';
import { teamListForm } from '../model/render';
import { simpleUser } from '../model/render';

/** The `sender` of an event: the acting account, or nothing when no one acted through the API. */
export function sender(app: App, actorId: number | null): Record<string, unknown> {
	const actor = actorId === null ? undefined : app.stores.accounts.byId(actorId);
	return actor ? { sender: simpleUser(app.urls, actor) } : {};
}

/** A user as webhooks show it (webhooks_user): SimpleUser plus name and email. */
export function webhookUser(app: App, user: AccountRow) {
	return { ...simpleUser(app.urls, user), name: user.name, email: user.email };
}

/** The `enterprise` of an event about an organization of an enterprise. */
export function enterpriseOf(app: App, org: AccountRow | undefined): Record<string, unknown> {
	if (!org?.enterprise_id) return {};
	const enterprise = app.stores.enterprises.byId(org.enterprise_id);
	if (!enterprise) return {};
	return {
		enterprise: {
			id: enterprise.id,
			node_id: nodeId('Enterprise', enterprise.id),
			slug: enterprise.slug,
			name: enterprise.name,
			description: enterprise.description,
			website_url: enterprise.website_url,
			html_url: `${app.urls.origin}/enterprises/${enterprise.slug}`,
			avatar_url: `${app.urls.origin}/avatars/e/${enterprise.id}`,
			created_at: enterprise.created_at,
			updated_at: enterprise.updated_at,
		},
	};
}

/** `organization` and `enterprise` of an event in an organization. */
export function inOrganization(app: App, org: AccountRow): Record<string, unknown> {
	return { organization: orgSimple(app.urls, org), ...enterpriseOf(app, org) };
}

/**
 * `repository`, `organization` and `enterprise` (of an organization's repository) and `sender`,
 * as GitHub's repository event payloads carry them. The repository is read again, as it is now
 * (a trigger of the change may have moved its counts).
 * @param actorId the sender; null: none (the command line)
 */
export function inRepository(app: App, repo: RepositoryRow, actorId: number | null): Record<string, unknown> {
	const current = app.stores.repos.byId(repo.id) ?? repo;
	const owner = app.stores.accounts.byId(current.owner_id)!;
	return {
		repository: repository(app.urls, current, owner, null),
		...(owner.type === 'Organization' ? inOrganization(app, owner) : {}),
		...sender(app, actorId),
	};
}

/** A team as webhooks show it (webhooks_team): the list form plus type and organization_id. */
export function webhookTeam(app: App, org: AccountRow, team: TeamRow) {
	const parent = team.parent_id !== null ? app.stores.teams.byId(team.parent_id) : undefined;
	return { ...teamListForm(app.urls, org.login, team, parent), type: 'organization', organization_id: org.id };
}

/** The organization `membership` object of organization member_added/member_removed. */
export function orgMembershipObject(app: App, org: AccountRow, user: AccountRow, role: string, state: string) {
	return {
		url: app.urls.api(`/orgs/${org.login}/memberships/${user.login}`),
		state,
		role,
		organization_url: app.urls.api(`/orgs/${org.login}`),
		user: webhookUser(app, user),
	};
}
