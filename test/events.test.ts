/**
 * The route walk of the domain-event log: a table with one entry per write route of the
 * route table (every method but GET and HEAD), saying either which events the route records
 * (webhook event and action, as `event.action`, or just `event` for events without an action) or
 * why GitHub reports nothing for it. Test A holds the table to the route table: a new write route
 * without an entry, or an entry without a route, fails. Test B walks the table over HTTP in one
 * scenario: every entry is called for real and the `events` rows it wrote are exactly the ones
 * listed (none for the `none` entries), and every event of the organization reaches the webhook
 * deliveries of an organization hook subscribed to `*`.
 */
import { createSign, generateKeyPairSync } from 'node:crypto';
import sodium from 'libsodium-wrappers';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { importRuns } from '../src/api/actions/import';
import { createApp, installApp } from '../src/api/apps/service';
import { importExternalGroups } from '../src/api/external-groups/service';
import { importAdvisories } from '../src/api/dependabot/service';
import { registerRunner } from '../src/api/runner-groups/service';
import { createUser } from '../src/api/users/service';
import { buildRoutes } from '../src/server';
import { REPOSITORY_HOOK_EVENTS } from '../src/webhooks';
import { epochSeconds, isoSeconds } from '../src/time';
import { startServer, type TestServer } from './helpers/server';
import { advisory } from './helpers/advisories';

const test = suite('events');
/** The events an organization or repository hook may subscribe to (GitHub's webhook events). */
const HOOKABLE: ReadonlySet<string> = new Set(REPOSITORY_HOOK_EVENTS);

/** The request an entry makes: its concrete path (matching the entry's route), body and caller. */
interface Call {
	path: string;
	body?: unknown;
	/** Defaults to the organization owner's classic token. */
	token?: string;
}

/** Prepares what the request needs (unmeasured requests are fine here) and names the request. */
type Prepare = (w: World) => Call | Promise<Call>;

/**
 * One write route: the events it records (in order), or why GitHub reports nothing for it, or
 * (`gap`) an event GitHub reports that Gitstead does not record yet, with the reason.
 */
type Entry = { records: string[]; call: Prepare; gap?: string } | { none: string; call: Prepare } | { gap: string; call: Prepare };

/** The ids the scenario made, filled in by the before hook and by the entries as they run. */
interface World {
	owner: string;
	acmeId: number;
	/** The team Ops, made by the walk. */
	opsId: number;
	hookId: number;
	orgHookId: number;
	repoHookId: number;
	globalHookId: number;
	commits: Record<string, string>;
	ids: Record<string, number | string>;
	appId: number;
	appKey: string;
	installationId: number;
}

let s: TestServer;
const w = {} as World;
const token = (login: string) => s.fullToken(login);

/** A JSON web token of the scenario's GitHub App (RS256), valid for nine minutes. */
function appJwt(): string {
	const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
	const body = `${encode({ alg: 'RS256', typ: 'JWT' })}.${encode({ iat: epochSeconds(s.clock.now) - 60, exp: epochSeconds(s.clock.now) + 540, iss: w.appId })}`;
	return `${body}.${createSign('RSA-SHA256').update(body).sign(w.appKey).toString('base64url')}`;
}

/** Why adding or deleting a user's own key reports nothing. */
const USER_EMAILS =
	"a user's email addresses are reported by GitHub in the user's security log only: no webhook, feed entry or notification";
const USER_KEYS =
	"a user's own SSH, signing and GPG keys are reported by GitHub in the user's security log only: no webhook, feed entry or notification";

/** An OpenSSH public key line of a new Ed25519 key. */
function sshKey(): string {
	const raw = Buffer.from(generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x!, 'base64url');
	const field = (bytes: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, bytes.length]), bytes]);
	return `ssh-ed25519 ${Buffer.concat([field(Buffer.from('ssh-ed25519')), field(raw)]).toString('base64')} someone`;
}

/** The armored public key of a new OpenPGP key. */
async function gpgPublicKey(): Promise<string> {
	const openpgp = require('openpgp') as typeof import('openpgp', { with: { 'resolution-mode': 'import' }});
	return (
		await openpgp.generateKey({ type: 'ecc', curve: 'curve25519Legacy', userIDs: [{ email: 'olivia@example.com' }], format: 'armored' })
	).publicKey;
}

/** A PUT of a secret sealed (libsodium's crypto_box_seal) to the public key of `base` (…/actions, an environment). */
async function sealed(base: string, name: string, extra: Record<string, unknown> = {}): Promise<Call> {
	await sodium.ready;
	const key = await must('GET', `${base}/secrets/public-key`);
	const box = sodium.crypto_box_seal(Buffer.from('value'), Buffer.from(key.key, 'base64'));
	return {
		path: `${base}/secrets/${name}`,
		body: { encrypted_value: Buffer.from(box).toString('base64'), key_id: key.key_id, ...extra },
	};
}

/** A request that must succeed (setup inside an entry's call). @returns its body */
async function must(method: string, path: string, options: { body?: unknown; token?: string } = {}): Promise<any> {
	const res = await s.request(method, path, { token: options.token ?? w.owner, body: options.body });
	assert.ok(res.status >= 200 && res.status < 300, `~> setup ${method} ${path} answered ${res.status}: ${res.text}`);
	return res.body;
}

/** A commit of one file on `parents` in acme/app, through the git database API. @returns its sha */
async function commit(content: string, parents: string[]): Promise<string> {
	const tree = await must('POST', '/repos/acme/app/git/trees', {
		body: { tree: [{ path: 'README', mode: '100644', type: 'blob', content }] },
	});
	return (await must('POST', '/repos/acme/app/git/commits', { body: { message: `Commit ${content}`, tree: tree.sha, parents } })).sha;
}

const NOTIFICATION_STATE =
	'notifications derive from events; marking threads read or done and thread subscriptions are a reader’s own state, which GitHub reports to no webhook, feed or other notification';
const HOOKS = 'a hook’s configuration is not a domain event: GitHub reports it to no feed, notification or other hook';
const NO_OBJECT_EVENT = 'git objects written without moving a ref are not events on GitHub (push, create and delete come from refs)';
const GRAPHQL = 'a GraphQL query changes nothing; a mutation records exactly its REST twin\u2019s events (the route it dispatches to)';
const MARKDOWN = 'rendering Markdown changes nothing: GitHub’s markdown API only answers with HTML';
const GIST =
	'GitHub has no gist webhooks, and GistEvent left the activity feeds (GitHub’s event types list no gist event today); gists belong to no repository or organization';
const REACTIONS = 'GitHub reports reactions to no webhook (no reaction event exists), no activity feed and no notification';
const BUDGET = 'billing budgets are not reported on GitHub: no webhook event, feed entry or notification concerns them';
const RUNNER_GROUP =
	'runner groups are not reported on GitHub: no webhook event, feed entry or notification concerns them (workflow_job only names the group of the runner that ran a job)';
const MIGRATION = 'organization migrations are not reported on GitHub: no webhook event, feed entry or notification concerns them';
const ENVIRONMENT =
	'environments and their deployment branch policies are not reported on GitHub: no webhook event concerns them (deployment_protection_rule is about a deployment waiting for a protection rule)';
const ORG_PROPERTY =
	'GitHub’s custom_property webhook reports definitions of repository properties (its `definition` is a repository custom property); its webhook documentation lists no event for the organization properties an enterprise defines';
const DISMISSAL_REQUEST =
	'GitHub (github.com) reports delegated alert dismissal requests, made, answered or cancelled, through its dismissal_request_dependabot webhook; Gitstead records none yet: that payload is not in the references this work was checked against, and hooks here cannot subscribe to it (not among the event names src/webhooks accepts)';

const CODE_SECURITY =
	'code security configurations themselves are reported on GitHub by no webhook, feed entry or notification (the audit log only); what they change in a repository is reported when they are attached (security_and_analysis)';
const SECURITY_MANAGERS = 'GitHub reports security manager teams by no webhook, feed entry or notification (the audit log only)';
const IMMUTABLE =
	'GitHub reports an organization’s immutable releases policy by no webhook, feed entry or notification (the releases published under it are reported as releases)';
const DEPENDABOT_ACCESS = 'Dependabot’s repository access is reported on GitHub by no webhook, feed entry or notification';

/**
 * The write routes of a protection's parts, in an order where each call changes the rules (so each
 * records branch_protection_rule edited): main's protection made by the PUT entry before them.
 */
function protectionParts(): Record<string, Entry> {
	const path = (part: string) => `/repos/acme/app/branches/main/protection/${part}`;
	const key = (method: string, part: string) => `${method} /repos/{owner}/{repo}/branches/{branch}/protection/${part}`;
	const edited = (part: string, body?: (w: World) => unknown): Entry => ({
		records: ['branch_protection_rule.edited'],
		call: (w) => ({ path: path(part), body: body?.(w) }),
	});
	const appSlug = (w: World) => s.app.stores.apps.byId(w.appId)!.slug;
	return {
		[key('POST', 'enforce_admins')]: edited('enforce_admins'),
		[key('DELETE', 'enforce_admins')]: edited('enforce_admins'),
		[key('POST', 'required_signatures')]: edited('required_signatures'),
		[key('DELETE', 'required_signatures')]: edited('required_signatures'),
		[key('PATCH', 'required_pull_request_reviews')]: edited('required_pull_request_reviews', () => ({
			required_approving_review_count: 2,
		})),
		[key('DELETE', 'required_pull_request_reviews')]: edited('required_pull_request_reviews'),
		[key('PATCH', 'required_status_checks')]: edited('required_status_checks', () => ({ strict: true })),
		[key('POST', 'required_status_checks/contexts')]: edited('required_status_checks/contexts', () => ({ contexts: ['lint'] })),
		[key('PUT', 'required_status_checks/contexts')]: edited('required_status_checks/contexts', () => ({ contexts: ['ci', 'test'] })),
		[key('DELETE', 'required_status_checks/contexts')]: edited('required_status_checks/contexts', () => ({ contexts: ['test'] })),
		[key('DELETE', 'required_status_checks')]: edited('required_status_checks'),
		[key('POST', 'restrictions/users')]: edited('restrictions/users', () => ({ users: ['mike'] })),
		[key('PUT', 'restrictions/users')]: edited('restrictions/users', () => ({ users: ['wendy'] })),
		[key('DELETE', 'restrictions/users')]: edited('restrictions/users', () => ({ users: ['wendy'] })),
		[key('POST', 'restrictions/teams')]: edited('restrictions/teams', () => ({ teams: ['core'] })),
		[key('DELETE', 'restrictions/teams')]: edited('restrictions/teams', () => ({ teams: ['core'] })),
		[key('PUT', 'restrictions/teams')]: edited('restrictions/teams', () => ({ teams: ['core'] })),
		[key('POST', 'restrictions/apps')]: edited('restrictions/apps', (w) => ({ apps: [appSlug(w)] })),
		[key('DELETE', 'restrictions/apps')]: edited('restrictions/apps', (w) => ({ apps: [appSlug(w)] })),
		[key('PUT', 'restrictions/apps')]: edited('restrictions/apps', (w) => ({ apps: [appSlug(w)] })),
		[key('DELETE', 'restrictions')]: edited('restrictions'),
	};
}

/**
 * The table, in the order the walk calls it (creations before the changes that need them). Keys are
 * `METHOD path` exactly as the route table declares them. Every entry is called, `none` and `gap`
 * ones too (each must then record nothing, so its reason stays true): none needed leaving out.
 *
 * Routes of other areas add their entries here.
 */
const TABLE: Record<string, Entry> = {
	// ------------------------------------------------------------------ organizations and members
	'PATCH /orgs/{org}': {
		// GitHub’s organization webhook has no action for settings: the audit-log event only (no hook subscribes to `org`).
		records: ['org.update'],
		call: () => ({ path: '/orgs/acme', body: { description: 'Anvils and more' } }),
	},
	'DELETE /orgs/{org}': {
		records: ['organization.deleted'],
		call: async () => {
			s.org('doomed', 'olivia');
			await must('POST', '/orgs/doomed/repos', { body: { name: 'site' } });
			return { path: '/orgs/doomed' };
		},
	},
	// Organization Actions settings, on an organization of their own (initech): audit-log events only.
	'PUT /orgs/{org}/actions/permissions': {
		records: ['org.update_actions_settings'],
		call: async () => {
			s.org('initech', 'olivia');
			w.ids.initechRepo = (await must('POST', '/orgs/initech/repos', { body: { name: 'tps' } })).id;
			return { path: '/orgs/initech/actions/permissions', body: { enabled_repositories: 'selected', allowed_actions: 'selected' } };
		},
	},
	'PUT /orgs/{org}/actions/permissions/repositories': {
		records: ['org.update_actions_settings'],
		call: (w) => ({ path: '/orgs/initech/actions/permissions/repositories', body: { selected_repository_ids: [w.ids.initechRepo] } }),
	},
	'DELETE /orgs/{org}/actions/permissions/repositories/{repository_id}': {
		records: ['org.update_actions_settings'],
		call: (w) => ({ path: `/orgs/initech/actions/permissions/repositories/${w.ids.initechRepo}` }),
	},
	'PUT /orgs/{org}/actions/permissions/repositories/{repository_id}': {
		records: ['org.update_actions_settings'],
		call: (w) => ({ path: `/orgs/initech/actions/permissions/repositories/${w.ids.initechRepo}` }),
	},
	'PUT /orgs/{org}/actions/permissions/selected-actions': {
		records: ['org.update_actions_settings'],
		call: () => ({
			path: '/orgs/initech/actions/permissions/selected-actions',
			body: { verified_allowed: true, patterns_allowed: ['docker/*'] },
		}),
	},
	'PUT /orgs/{org}/actions/permissions/workflow': {
		records: ['org.set_default_workflow_permissions'],
		call: () => ({ path: '/orgs/initech/actions/permissions/workflow', body: { default_workflow_permissions: 'write' } }),
	},
	'PUT /orgs/{org}/actions/permissions/artifact-and-log-retention': {
		records: ['org.set_actions_retention_limit'],
		call: () => ({ path: '/orgs/initech/actions/permissions/artifact-and-log-retention', body: { days: 30 } }),
	},
	'PUT /orgs/{org}/actions/permissions/fork-pr-contributor-approval': {
		records: ['org.set_actions_fork_pr_approvals_policy'],
		call: () => ({
			path: '/orgs/initech/actions/permissions/fork-pr-contributor-approval',
			body: { approval_policy: 'all_external_contributors' },
		}),
	},
	'PUT /orgs/{org}/actions/permissions/fork-pr-workflows-private-repos': {
		records: ['org.set_fork_pr_workflows_policy'],
		call: () => ({
			path: '/orgs/initech/actions/permissions/fork-pr-workflows-private-repos',
			body: { run_workflows_from_fork_pull_requests: true },
		}),
	},
	'PUT /orgs/{org}/actions/permissions/self-hosted-runners': {
		records: ['org.update_self_hosted_runners_settings'],
		call: () => ({ path: '/orgs/initech/actions/permissions/self-hosted-runners', body: { enabled_repositories: 'selected' } }),
	},
	'PUT /orgs/{org}/actions/permissions/self-hosted-runners/repositories': {
		records: ['org.update_self_hosted_runners_settings'],
		call: (w) => ({
			path: '/orgs/initech/actions/permissions/self-hosted-runners/repositories',
			body: { selected_repository_ids: [w.ids.initechRepo] },
		}),
	},
	'DELETE /orgs/{org}/actions/permissions/self-hosted-runners/repositories/{repository_id}': {
		records: ['org.update_self_hosted_runners_settings'],
		call: (w) => ({ path: `/orgs/initech/actions/permissions/self-hosted-runners/repositories/${w.ids.initechRepo}` }),
	},
	'PUT /orgs/{org}/actions/permissions/self-hosted-runners/repositories/{repository_id}': {
		records: ['org.update_self_hosted_runners_settings'],
		call: (w) => ({ path: `/orgs/initech/actions/permissions/self-hosted-runners/repositories/${w.ids.initechRepo}` }),
	},
	'PUT /orgs/{org}/actions/oidc/customization/sub': {
		records: ['org.oidc_subject_claim_customization'],
		call: () => ({
			path: '/orgs/initech/actions/oidc/customization/sub',
			body: { include_claim_keys: ['repo', 'context', 'job_workflow_ref'] },
		}),
	},
	// Organization runner groups and runners (initech): audit-log events only.
	'POST /orgs/{org}/actions/runner-groups': {
		records: ['org.runner_group_created'],
		call: () => {
			const initech = s.app.stores.accounts.organization('initech')!;
			w.ids.initechRunner = registerRunner(
				s.app,
				{ org: initech.id },
				{ name: 'tps-runner', os: 'linux', labels: [] },
				isoSeconds(s.clock.now),
			).id;
			return { path: '/orgs/initech/actions/runner-groups', body: { name: 'Printers', visibility: 'selected' } };
		},
	},
	'PATCH /orgs/{org}/actions/runner-groups/{runner_group_id}': {
		records: ['org.runner_group_updated'],
		call: async () => {
			const groups = (await must('GET', '/orgs/initech/actions/runner-groups')).runner_groups;
			w.ids.initechGroup = groups.find((g: any) => g.name === 'Printers').id;
			return { path: `/orgs/initech/actions/runner-groups/${w.ids.initechGroup}`, body: { name: 'Laser printers' } };
		},
	},
	'PUT /orgs/{org}/actions/runner-groups/{runner_group_id}/repositories': {
		records: ['org.runner_group_repositories_updated'],
		call: (w) => ({
			path: `/orgs/initech/actions/runner-groups/${w.ids.initechGroup}/repositories`,
			body: { selected_repository_ids: [w.ids.initechRepo] },
		}),
	},
	'DELETE /orgs/{org}/actions/runner-groups/{runner_group_id}/repositories/{repository_id}': {
		records: ['org.runner_group_repositories_updated'],
		call: (w) => ({ path: `/orgs/initech/actions/runner-groups/${w.ids.initechGroup}/repositories/${w.ids.initechRepo}` }),
	},
	'PUT /orgs/{org}/actions/runner-groups/{runner_group_id}/repositories/{repository_id}': {
		records: ['org.runner_group_repositories_updated'],
		call: (w) => ({ path: `/orgs/initech/actions/runner-groups/${w.ids.initechGroup}/repositories/${w.ids.initechRepo}` }),
	},
	'PUT /orgs/{org}/actions/runner-groups/{runner_group_id}/runners': {
		records: ['org.runner_group_runners_updated'],
		call: (w) => ({ path: `/orgs/initech/actions/runner-groups/${w.ids.initechGroup}/runners`, body: { runners: [] } }),
	},
	'PUT /orgs/{org}/actions/runner-groups/{runner_group_id}/runners/{runner_id}': {
		records: ['org.runner_group_runners_added'],
		call: (w) => ({ path: `/orgs/initech/actions/runner-groups/${w.ids.initechGroup}/runners/${w.ids.initechRunner}` }),
	},
	'DELETE /orgs/{org}/actions/runner-groups/{runner_group_id}/runners/{runner_id}': {
		records: ['org.runner_group_runner_removed'],
		call: (w) => ({ path: `/orgs/initech/actions/runner-groups/${w.ids.initechGroup}/runners/${w.ids.initechRunner}` }),
	},
	'DELETE /orgs/{org}/actions/runner-groups/{runner_group_id}': {
		records: ['org.runner_group_removed'],
		call: (w) => ({ path: `/orgs/initech/actions/runner-groups/${w.ids.initechGroup}` }),
	},
	'DELETE /orgs/{org}/actions/runners/{runner_id}': {
		records: ['org.remove_self_hosted_runner'],
		call: (w) => ({ path: `/orgs/initech/actions/runners/${w.ids.initechRunner}` }),
	},
	'PUT /orgs/{org}/memberships/{username}': {
		records: ['organization.member_invited'],
		call: () => ({ path: '/orgs/acme/memberships/paul', body: { role: 'member' } }),
	},
	'PATCH /user/memberships/orgs/{org}': {
		// paul was invited to the team Core too: accepting makes him a member of the organization, then of the team.
		records: ['organization.member_added', 'membership.added'],
		call: async () => {
			await must('PUT', '/orgs/acme/teams/core/memberships/paul', { body: {} });
			return { path: '/user/memberships/orgs/acme', body: { state: 'active' }, token: token('paul') };
		},
	},
	'PUT /orgs/{org}/public_members/{username}': {
		none: 'publicizing one’s own membership changes only who may see it: GitHub’s organization webhook has no action for it',
		call: () => ({ path: '/orgs/acme/public_members/paul', token: token('paul') }),
	},
	'DELETE /orgs/{org}/public_members/{username}': {
		none: 'concealing one’s own membership changes only who may see it: GitHub’s organization webhook has no action for it',
		call: () => ({ path: '/orgs/acme/public_members/paul', token: token('paul') }),
	},
	'DELETE /orgs/{org}/memberships/{username}': {
		records: ['organization.member_removed'],
		call: () => ({ path: '/orgs/acme/memberships/paul' }),
	},
	'DELETE /orgs/{org}/members/{username}': {
		records: ['organization.member_removed'],
		call: () => {
			s.member('acme', 'quinn');
			return { path: '/orgs/acme/members/quinn' };
		},
	},
	'PUT /orgs/{org}/outside_collaborators/{username}': {
		// carl keeps acme/app (the team Core's grant) as a collaborator, then leaves the organization.
		records: ['member.added', 'organization.member_removed'],
		call: async () => {
			s.member('acme', 'carl');
			await must('PUT', '/orgs/acme/teams/core/memberships/carl');
			return { path: '/orgs/acme/outside_collaborators/carl', body: {} };
		},
	},
	'DELETE /orgs/{org}/outside_collaborators/{username}': {
		records: ['member.removed'],
		call: () => ({ path: '/orgs/acme/outside_collaborators/carl' }),
	},

	// ------------------------------------------------------------------ collaborators and repository invitations
	'PUT /repos/{owner}/{repo}/collaborators/{username}': {
		// ivy is no member of acme: she is invited (a notification, reason invitation; no webhook on GitHub).
		records: ['repository_invitation.created'],
		call: () => ({ path: '/repos/acme/app/collaborators/ivy', body: { permission: 'triage' } }),
	},
	'PATCH /repos/{owner}/{repo}/invitations/{invitation_id}': {
		none: 'changing a pending invitation’s permission is reported on GitHub by no webhook, feed entry or notification (member edited concerns collaborators)',
		call: () => {
			w.ids.invitation = s.app.stores.collaborators.invitationOf(
				s.app.stores.repos.byOwnerAndName(w.acmeId, 'app')!.id,
				s.app.stores.accounts.user('ivy')!.id,
			)!.id;
			return { path: `/repos/acme/app/invitations/${w.ids.invitation}`, body: { permissions: 'write' } };
		},
	},
	'PATCH /user/repository_invitations/{invitation_id}': {
		records: ['member.added'],
		call: () => ({ path: `/user/repository_invitations/${w.ids.invitation}`, token: token('ivy') }),
	},
	'DELETE /repos/{owner}/{repo}/invitations/{invitation_id}': {
		none: 'revoking an invitation is reported on GitHub by no webhook, feed entry or notification (no one was added)',
		call: async () => {
			w.ids.revoked = (await must('PUT', '/repos/acme/docs/collaborators/hank', { body: {} })).id;
			return { path: `/repos/acme/docs/invitations/${w.ids.revoked}` };
		},
	},
	'PATCH /user': {
		none: 'a profile change is reported on GitHub by no webhook, feed entry or notification',
		call: () => ({ path: '/user', body: { bio: 'Reviews everything' }, token: token('ivy') }),
	},
	'POST /user/emails': {
		none: USER_EMAILS,
		call: () => ({ path: '/user/emails', body: { emails: ['emma@work.example'] }, token: token('emma') }),
	},
	'DELETE /user/emails': {
		none: USER_EMAILS,
		call: () => ({ path: '/user/emails', body: { emails: ['emma@work.example'] }, token: token('emma') }),
	},
	'PATCH /user/email/visibility': {
		none: USER_EMAILS,
		call: () => ({ path: '/user/email/visibility', body: { visibility: 'public' }, token: token('emma') }),
	},
	'DELETE /user/repository_invitations/{invitation_id}': {
		none: 'declining an invitation is reported on GitHub by no webhook, feed entry or notification (no one was added)',
		call: async () => {
			w.ids.declined = (await must('PUT', '/repos/acme/docs/collaborators/hank', { body: {} })).id;
			return { path: `/user/repository_invitations/${w.ids.declined}`, token: token('hank') };
		},
	},
	'DELETE /repos/{owner}/{repo}/collaborators/{username}': {
		records: ['member.removed'],
		call: () => ({ path: '/repos/acme/app/collaborators/ivy' }),
	},

	// ------------------------------------------------------------------ teams
	'POST /orgs/{org}/teams': {
		// The creator becomes a maintainer (GitHub adds whoever creates a team), then mike.
		records: ['team.created', 'membership.added', 'membership.added', 'team.added_to_repository', 'team_add'],
		call: () => ({
			path: '/orgs/acme/teams',
			body: { name: 'Ops', privacy: 'closed', maintainers: ['mike'], repo_names: ['acme/app'] },
		}),
	},
	'PATCH /orgs/{org}/teams/{team_slug}': {
		records: ['team.edited'],
		call: async () => {
			w.opsId = (await must('GET', '/orgs/acme/teams/ops')).id;
			return { path: '/orgs/acme/teams/ops', body: { description: 'Runs things' } };
		},
	},
	'PATCH /organizations/{org_id}/team/{team_id}': {
		records: ['team.edited'],
		call: (w) => ({ path: `/organizations/${w.acmeId}/team/${w.opsId}`, body: { description: 'Runs more things' } }),
	},
	'PATCH /teams/{team_id}': {
		records: ['team.edited'],
		call: (w) => ({ path: `/teams/${w.opsId}`, body: { description: 'Runs everything' } }),
	},
	'PUT /orgs/{org}/teams/{team_slug}/memberships/{username}': {
		records: ['membership.added'],
		call: () => ({ path: '/orgs/acme/teams/ops/memberships/wendy', body: { role: 'member' } }),
	},
	'DELETE /orgs/{org}/teams/{team_slug}/memberships/{username}': {
		records: ['membership.removed'],
		call: () => ({ path: '/orgs/acme/teams/ops/memberships/wendy' }),
	},
	'PUT /organizations/{org_id}/team/{team_id}/memberships/{username}': {
		records: ['membership.added'],
		call: (w) => ({ path: `/organizations/${w.acmeId}/team/${w.opsId}/memberships/wendy`, body: {} }),
	},
	'DELETE /organizations/{org_id}/team/{team_id}/memberships/{username}': {
		records: ['membership.removed'],
		call: (w) => ({ path: `/organizations/${w.acmeId}/team/${w.opsId}/memberships/wendy` }),
	},
	'PUT /teams/{team_id}/memberships/{username}': {
		// rose belongs to no organization: an owner adding her invites her to acme (the team membership waits for her).
		records: ['organization.member_invited'],
		call: (w) => ({ path: `/teams/${w.opsId}/memberships/rose`, body: {} }),
	},
	'DELETE /teams/{team_id}/memberships/{username}': {
		records: ['membership.removed'],
		call: async (w) => {
			await must('PUT', `/teams/${w.opsId}/members/wendy`);
			return { path: `/teams/${w.opsId}/memberships/wendy` };
		},
	},
	'PUT /teams/{team_id}/members/{username}': {
		records: ['membership.added'],
		call: (w) => ({ path: `/teams/${w.opsId}/members/wendy` }),
	},
	'DELETE /teams/{team_id}/members/{username}': {
		records: ['membership.removed'],
		call: (w) => ({ path: `/teams/${w.opsId}/members/wendy` }),
	},
	'PUT /organizations/{org_id}/team/{team_id}/members/{username}': {
		records: ['membership.added'],
		call: (w) => ({ path: `/organizations/${w.acmeId}/team/${w.opsId}/members/wendy` }),
	},
	'DELETE /organizations/{org_id}/team/{team_id}/members/{username}': {
		records: ['membership.removed'],
		call: (w) => ({ path: `/organizations/${w.acmeId}/team/${w.opsId}/members/wendy` }),
	},
	'DELETE /orgs/{org}/teams/{team_slug}/repos/{owner}/{repo}': {
		records: ['team.removed_from_repository'],
		call: () => ({ path: '/orgs/acme/teams/ops/repos/acme/app' }),
	},
	'PUT /orgs/{org}/teams/{team_slug}/repos/{owner}/{repo}': {
		records: ['team.added_to_repository', 'team_add'],
		call: () => ({ path: '/orgs/acme/teams/ops/repos/acme/app', body: { permission: 'pull' } }),
	},
	'PUT /organizations/{org_id}/team/{team_id}/repos/{owner}/{repo}': {
		// The team already has the repository: a new permission is the team's `edited`.
		records: ['team.edited'],
		call: (w) => ({ path: `/organizations/${w.acmeId}/team/${w.opsId}/repos/acme/app`, body: { permission: 'push' } }),
	},
	'DELETE /organizations/{org_id}/team/{team_id}/repos/{owner}/{repo}': {
		records: ['team.removed_from_repository'],
		call: (w) => ({ path: `/organizations/${w.acmeId}/team/${w.opsId}/repos/acme/app` }),
	},
	'PUT /teams/{team_id}/repos/{owner}/{repo}': {
		records: ['team.added_to_repository', 'team_add'],
		call: (w) => ({ path: `/teams/${w.opsId}/repos/acme/app`, body: { permission: 'admin' } }),
	},
	'DELETE /teams/{team_id}/repos/{owner}/{repo}': {
		records: ['team.removed_from_repository'],
		call: (w) => ({ path: `/teams/${w.opsId}/repos/acme/app` }),
	},
	// Roles: GitHub delivers no webhook and shows no feed entry; the audit log reads these events.
	'PUT /orgs/{org}/organization-roles/users/{username}/{role_id}': {
		records: ['organization_role.assigned'],
		call: () => ({ path: '/orgs/acme/organization-roles/users/wendy/8134' }),
	},
	'DELETE /orgs/{org}/organization-roles/users/{username}/{role_id}': {
		records: ['organization_role.unassigned'],
		call: () => ({ path: '/orgs/acme/organization-roles/users/wendy/8134' }),
	},
	'DELETE /orgs/{org}/organization-roles/users/{username}': {
		records: ['organization_role.unassigned'],
		call: async (w) => {
			await s.request('PUT', '/orgs/acme/organization-roles/users/wendy/8132', { token: w.owner });
			return { path: '/orgs/acme/organization-roles/users/wendy' };
		},
	},
	'PUT /orgs/{org}/organization-roles/teams/{team_slug}/{role_id}': {
		records: ['organization_role.assigned'],
		call: () => ({ path: '/orgs/acme/organization-roles/teams/ops/8132' }),
	},
	'DELETE /orgs/{org}/organization-roles/teams/{team_slug}/{role_id}': {
		records: ['organization_role.unassigned'],
		call: () => ({ path: '/orgs/acme/organization-roles/teams/ops/8132' }),
	},
	'DELETE /orgs/{org}/organization-roles/teams/{team_slug}': {
		records: ['organization_role.unassigned'],
		call: async (w) => {
			await s.request('PUT', '/orgs/acme/organization-roles/teams/ops/8133', { token: w.owner });
			return { path: '/orgs/acme/organization-roles/teams/ops' };
		},
	},
	'POST /orgs/{org}/custom-repository-roles': {
		records: ['custom_repository_role.created'],
		call: () => ({
			path: '/orgs/acme/custom-repository-roles',
			body: { name: 'Labeler', base_role: 'read', permissions: ['add_label'] },
		}),
	},
	'PATCH /orgs/{org}/custom-repository-roles/{role_id}': {
		records: ['custom_repository_role.updated'],
		call: (w) => ({
			path: `/orgs/acme/custom-repository-roles/${s.app.stores.roles.customRoles(w.acmeId)[0].id}`,
			body: { description: 'Labels issues' },
		}),
	},
	'DELETE /orgs/{org}/custom-repository-roles/{role_id}': {
		records: ['custom_repository_role.deleted'],
		call: (w) => ({ path: `/orgs/acme/custom-repository-roles/${s.app.stores.roles.customRoles(w.acmeId)[0].id}` }),
	},
	'PATCH /orgs/{org}/teams/{team_slug}/external-groups': {
		// Linking syncs the team: olivia (its creator) is in the group and stays; mike joins.
		records: ['external_group.linked', 'membership.added'],
		call: async (w) => {
			await must('POST', '/orgs/acme/teams', { body: { name: 'Synced' } });
			const [group] = importExternalGroups(
				s.app,
				s.app.stores.accounts.byId(w.acmeId)!,
				[{ group_name: 'Platform', members: [{ member_login: 'olivia' }, { member_login: 'mike' }] }],
				isoSeconds(s.clock.now),
			);
			return { path: '/orgs/acme/teams/synced/external-groups', body: { group_id: group.group_id } };
		},
	},
	'DELETE /orgs/{org}/teams/{team_slug}/external-groups': {
		records: ['external_group.unlinked'],
		call: () => ({ path: '/orgs/acme/teams/synced/external-groups' }),
	},
	'DELETE /orgs/{org}/teams/{team_slug}': {
		records: ['team.deleted'],
		call: () => ({ path: '/orgs/acme/teams/ops' }),
	},
	'DELETE /organizations/{org_id}/team/{team_id}': {
		records: ['team.deleted'],
		call: async (w) => {
			const team = await must('POST', '/orgs/acme/teams', { body: { name: 'Temp one' } });
			return { path: `/organizations/${w.acmeId}/team/${team.id}` };
		},
	},
	'DELETE /teams/{team_id}': {
		records: ['team.deleted'],
		call: async () => {
			const team = await must('POST', '/orgs/acme/teams', { body: { name: 'Temp two' } });
			return { path: `/teams/${team.id}` };
		},
	},

	// ------------------------------------------------------------------ repositories
	'POST /orgs/{org}/repos': {
		records: ['repository.created'],
		call: () => ({ path: '/orgs/acme/repos', body: { name: 'site' } }),
	},
	'POST /user/repos': {
		records: ['repository.created'],
		call: () => ({ path: '/user/repos', body: { name: 'notes' } }),
	},
	'POST /repos/{owner}/{repo}/forks': {
		// The new repository (nora/site), then the fork event of the repository forked.
		records: ['repository.created', 'fork'],
		call: () => ({ path: '/repos/acme/site/forks', body: {}, token: token('nora') }),
	},
	'PATCH /repos/{owner}/{repo}': {
		records: ['repository.edited'],
		call: () => ({ path: '/repos/acme/site', body: { description: 'The web site' } }),
	},
	'DELETE /repos/{owner}/{repo}': {
		// The event outlives the repository (by name); the organization hook receives it.
		records: ['repository.deleted'],
		call: async () => {
			await must('POST', '/orgs/acme/repos', { body: { name: 'doomed' } });
			return { path: '/repos/acme/doomed' };
		},
	},
	'PUT /repos/{owner}/{repo}/topics': {
		// GitHub's repository edited, with changes.topics.from.
		records: ['repository.edited'],
		call: () => ({ path: '/repos/acme/site/topics', body: { names: ['web'] } }),
	},
	'POST /repos/{owner}/{repo}/transfer': {
		// Sent to the new owner's hooks only (olivia's own account here), as GitHub does.
		records: ['repository.transferred'],
		call: async () => {
			await must('POST', '/orgs/acme/repos', { body: { name: 'moving' } });
			return { path: '/repos/acme/moving/transfer', body: { new_owner: 'olivia' } };
		},
	},
	'PUT /user/starred/{owner}/{repo}': {
		records: ['star.created', 'watch.started'],
		call: () => ({ path: '/user/starred/acme/app', token: token('nora') }),
	},
	'DELETE /user/starred/{owner}/{repo}': {
		records: ['star.deleted'],
		call: () => ({ path: '/user/starred/acme/app', token: token('nora') }),
	},
	'PUT /repos/{owner}/{repo}/subscription': {
		none: 'watching a repository (a subscription) is reported by no webhook, feed entry or notification on GitHub: only starring sends watch started, for historical reasons',
		call: () => ({ path: '/repos/acme/app/subscription', body: { subscribed: true }, token: token('nora') }),
	},
	'DELETE /repos/{owner}/{repo}/subscription': {
		none: 'unwatching a repository is reported by no webhook, feed entry or notification on GitHub',
		call: () => ({ path: '/repos/acme/app/subscription', token: token('nora') }),
	},

	// ------------------------------------------------------------------ custom properties
	'PUT /orgs/{org}/properties/schema/{custom_property_name}': {
		records: ['custom_property.created'],
		call: () => ({
			path: '/orgs/acme/properties/schema/tier',
			body: { value_type: 'single_select', allowed_values: ['gold', 'silver'] },
		}),
	},
	'PATCH /orgs/{org}/properties/schema': {
		records: ['custom_property.updated', 'custom_property.created'],
		call: () => ({
			path: '/orgs/acme/properties/schema',
			body: {
				properties: [
					{ property_name: 'tier', value_type: 'single_select', allowed_values: ['gold', 'silver', 'bronze'] },
					{ property_name: 'team', value_type: 'string' },
				],
			},
		}),
	},
	'DELETE /orgs/{org}/properties/schema/{custom_property_name}': {
		records: ['custom_property.deleted'],
		call: () => ({ path: '/orgs/acme/properties/schema/team' }),
	},

	// ------------------------------------------------------------------ rulesets
	'POST /orgs/{org}/rulesets': {
		records: ['repository_ruleset.created'],
		call: () => ({
			path: '/orgs/acme/rulesets',
			body: {
				name: 'Main',
				enforcement: 'evaluate',
				conditions: { ref_name: { include: ['~DEFAULT_BRANCH'] }, repository_name: { include: ['~ALL'] } },
				rules: [{ type: 'deletion' }],
			},
		}),
	},
	'PUT /orgs/{org}/rulesets/{ruleset_id}': {
		records: ['repository_ruleset.edited'],
		call: async (w) => {
			const [ruleset] = await must('GET', '/orgs/acme/rulesets');
			w.ids.ruleset = ruleset.id;
			return { path: `/orgs/acme/rulesets/${ruleset.id}`, body: { enforcement: 'disabled' } };
		},
	},
	'DELETE /orgs/{org}/rulesets/{ruleset_id}': {
		records: ['repository_ruleset.deleted'],
		call: (w) => ({ path: `/orgs/acme/rulesets/${w.ids.ruleset}` }),
	},
	// A repository's own rulesets report to its hooks as an organization's do.
	'POST /repos/{owner}/{repo}/rulesets': {
		records: ['repository_ruleset.created'],
		call: () => ({
			path: '/repos/acme/app/rulesets',
			body: {
				name: 'Own',
				enforcement: 'evaluate',
				conditions: { ref_name: { include: ['~DEFAULT_BRANCH'] } },
				rules: [{ type: 'deletion' }],
			},
		}),
	},
	'PUT /repos/{owner}/{repo}/rulesets/{ruleset_id}': {
		records: ['repository_ruleset.edited'],
		call: async (w) => {
			const own = (await must('GET', '/repos/acme/app/rulesets')).find((r: any) => r.name === 'Own');
			w.ids.repoRuleset = own.id;
			return { path: `/repos/acme/app/rulesets/${own.id}`, body: { enforcement: 'disabled' } };
		},
	},
	'DELETE /repos/{owner}/{repo}/rulesets/{ruleset_id}': {
		records: ['repository_ruleset.deleted'],
		call: (w) => ({ path: `/repos/acme/app/rulesets/${w.ids.repoRuleset}` }),
	},
	// Organization installations (enterprise owner erin): GitHub sends installation and
	// installation_repositories to the app's own webhook only; the organization's audit log has them.
	'POST /enterprises/{enterprise}/apps/organizations/{org}/installations': {
		records: ['installation.created'],
		call: async () => {
			await must('POST', '/orgs/acme/repos', { body: { name: 'installed-extra' } });
			const made = createApp(
				s.app,
				{ name: 'Enterprise installer', owner: s.app.stores.accounts.organization('acme')!, permissions: { contents: 'read' } },
				isoSeconds(s.clock.now),
			);
			return {
				path: '/enterprises/bigco/apps/organizations/acme/installations',
				body: { client_id: made.app.client_id, repository_selection: 'selected', repositories: ['app'] },
				token: token('erin'),
			};
		},
	},
	'PATCH /enterprises/{enterprise}/apps/organizations/{org}/installations/{installation_id}/repositories/add': {
		records: ['installation_repositories.added'],
		call: async (w) => {
			const list = await must('GET', '/enterprises/bigco/apps/organizations/acme/installations', { token: token('erin') });
			w.ids.enterpriseInstallation = list.find((i: { app_slug: string }) => i.app_slug === 'enterprise-installer').id;
			return {
				path: `/enterprises/bigco/apps/organizations/acme/installations/${w.ids.enterpriseInstallation}/repositories/add`,
				body: { repositories: ['installed-extra'] },
				token: token('erin'),
			};
		},
	},
	'PATCH /enterprises/{enterprise}/apps/organizations/{org}/installations/{installation_id}/repositories/remove': {
		records: ['installation_repositories.removed'],
		call: (w) => ({
			path: `/enterprises/bigco/apps/organizations/acme/installations/${w.ids.enterpriseInstallation}/repositories/remove`,
			body: { repositories: ['installed-extra'] },
			token: token('erin'),
		}),
	},
	'PATCH /enterprises/{enterprise}/apps/organizations/{org}/installations/{installation_id}/repositories': {
		records: ['installation_repositories.added'],
		call: (w) => ({
			path: `/enterprises/bigco/apps/organizations/acme/installations/${w.ids.enterpriseInstallation}/repositories`,
			body: { repository_selection: 'all' },
			token: token('erin'),
		}),
	},
	'DELETE /enterprises/{enterprise}/apps/organizations/{org}/installations/{installation_id}': {
		records: ['installation.deleted'],
		call: (w) => ({
			path: `/enterprises/bigco/apps/organizations/acme/installations/${w.ids.enterpriseInstallation}`,
			token: token('erin'),
		}),
	},
	'PUT /enterprises/{enterprise}/org-properties/schema/{custom_property_name}': {
		none: ORG_PROPERTY,
		call: () => ({ path: '/enterprises/bigco/org-properties/schema/region', body: { value_type: 'string' }, token: token('erin') }),
	},
	'PATCH /enterprises/{enterprise}/org-properties/schema': {
		none: ORG_PROPERTY,
		call: () => ({
			path: '/enterprises/bigco/org-properties/schema',
			body: { properties: [{ property_name: 'cost_center', value_type: 'string' }] },
			token: token('erin'),
		}),
	},
	'DELETE /enterprises/{enterprise}/org-properties/schema/{custom_property_name}': {
		none: ORG_PROPERTY,
		call: () => ({ path: '/enterprises/bigco/org-properties/schema/cost_center', token: token('erin') }),
	},

	// ------------------------------------------------------------------ budgets, runner groups, migrations
	'POST /organizations/{org}/settings/billing/budgets': {
		none: BUDGET,
		call: () => ({
			path: '/organizations/acme/settings/billing/budgets',
			body: {
				budget_amount: 50,
				prevent_further_usage: true,
				budget_scope: 'organization',
				budget_entity_name: '',
				budget_product_sku: 'actions',
			},
		}),
	},
	'PATCH /organizations/{org}/settings/billing/budgets/{budget_id}': {
		none: BUDGET,
		call: async () => {
			const [budget] = (await must('GET', '/organizations/acme/settings/billing/budgets')).budgets;
			w.ids.orgBudget = budget.id;
			return { path: `/organizations/acme/settings/billing/budgets/${budget.id}`, body: { budget_amount: 60 } };
		},
	},
	'DELETE /organizations/{org}/settings/billing/budgets/{budget_id}': {
		none: BUDGET,
		call: (w) => ({ path: `/organizations/acme/settings/billing/budgets/${w.ids.orgBudget}` }),
	},
	'POST /enterprises/{enterprise}/settings/billing/budgets': {
		none: BUDGET,
		call: () => ({
			path: '/enterprises/bigco/settings/billing/budgets',
			body: {
				budget_amount: 500,
				prevent_further_usage: false,
				budget_scope: 'enterprise',
				budget_entity_name: '',
				budget_type: 'ProductPricing',
				budget_product_sku: 'actions',
				budget_alerting: { will_alert: false, alert_recipients: [] },
			},
			token: token('erin'),
		}),
	},
	'PATCH /enterprises/{enterprise}/settings/billing/budgets/{budget_id}': {
		none: BUDGET,
		call: async () => {
			const [budget] = (await must('GET', '/enterprises/bigco/settings/billing/budgets', { token: token('erin') })).budgets;
			w.ids.enterpriseBudget = budget.id;
			return { path: `/enterprises/bigco/settings/billing/budgets/${budget.id}`, body: { budget_amount: 600 }, token: token('erin') };
		},
	},
	'DELETE /enterprises/{enterprise}/settings/billing/budgets/{budget_id}': {
		none: BUDGET,
		call: (w) => ({ path: `/enterprises/bigco/settings/billing/budgets/${w.ids.enterpriseBudget}`, token: token('erin') }),
	},
	'POST /enterprises/{enterprise}/actions/runner-groups': {
		none: RUNNER_GROUP,
		call: () => ({
			path: '/enterprises/bigco/actions/runner-groups',
			body: { name: 'Big iron', visibility: 'selected' },
			token: token('erin'),
		}),
	},
	'PATCH /enterprises/{enterprise}/actions/runner-groups/{runner_group_id}': {
		none: RUNNER_GROUP,
		call: async () => {
			const groups = (await must('GET', '/enterprises/bigco/actions/runner-groups', { token: token('erin') })).runner_groups;
			w.ids.group = groups.find((g: any) => g.name === 'Big iron').id;
			return { path: `/enterprises/bigco/actions/runner-groups/${w.ids.group}`, body: { name: 'Bigger iron' }, token: token('erin') };
		},
	},
	'PUT /enterprises/{enterprise}/actions/runner-groups/{runner_group_id}/organizations': {
		none: RUNNER_GROUP,
		call: (w) => ({
			path: `/enterprises/bigco/actions/runner-groups/${w.ids.group}/organizations`,
			body: { selected_organization_ids: [] },
			token: token('erin'),
		}),
	},
	'PUT /enterprises/{enterprise}/actions/runner-groups/{runner_group_id}/organizations/{org_id}': {
		none: RUNNER_GROUP,
		call: (w) => ({ path: `/enterprises/bigco/actions/runner-groups/${w.ids.group}/organizations/${w.acmeId}`, token: token('erin') }),
	},
	'DELETE /enterprises/{enterprise}/actions/runner-groups/{runner_group_id}/organizations/{org_id}': {
		none: RUNNER_GROUP,
		call: (w) => ({ path: `/enterprises/bigco/actions/runner-groups/${w.ids.group}/organizations/${w.acmeId}`, token: token('erin') }),
	},
	'PUT /enterprises/{enterprise}/actions/runner-groups/{runner_group_id}/runners': {
		none: RUNNER_GROUP,
		call: (w) => ({
			path: `/enterprises/bigco/actions/runner-groups/${w.ids.group}/runners`,
			body: { runners: [] },
			token: token('erin'),
		}),
	},
	'PUT /enterprises/{enterprise}/actions/runner-groups/{runner_group_id}/runners/{runner_id}': {
		none: RUNNER_GROUP,
		call: (w) => ({ path: `/enterprises/bigco/actions/runner-groups/${w.ids.group}/runners/${w.ids.runner}`, token: token('erin') }),
	},
	'DELETE /enterprises/{enterprise}/actions/runner-groups/{runner_group_id}/runners/{runner_id}': {
		none: RUNNER_GROUP,
		call: (w) => ({ path: `/enterprises/bigco/actions/runner-groups/${w.ids.group}/runners/${w.ids.runner}`, token: token('erin') }),
	},
	'DELETE /enterprises/{enterprise}/actions/runner-groups/{runner_group_id}': {
		none: RUNNER_GROUP,
		call: (w) => ({ path: `/enterprises/bigco/actions/runner-groups/${w.ids.group}`, token: token('erin') }),
	},
	'POST /orgs/{org}/migrations': {
		none: MIGRATION,
		call: () => ({ path: '/orgs/acme/migrations', body: { repositories: ['docs'], lock_repositories: true } }),
	},
	'DELETE /orgs/{org}/migrations/{migration_id}/archive': {
		none: MIGRATION,
		call: async () => {
			const [migration] = await must('GET', '/orgs/acme/migrations');
			w.ids.migration = migration.id;
			await s.app.tasks.runDue();
			return { path: `/orgs/acme/migrations/${migration.id}/archive` };
		},
	},
	'DELETE /orgs/{org}/migrations/{migration_id}/repos/{repo_name}/lock': {
		none: 'unlocking a repository locked by a migration is not reported on GitHub: no webhook event, feed entry or notification concerns migrations',
		call: (w) => ({ path: `/orgs/acme/migrations/${w.ids.migration}/repos/docs/lock` }),
	},

	// ------------------------------------------------------------------ webhooks and apps
	'POST /admin/hooks': {
		none: `${HOOKS} (GitHub pings the new hook alone)`,
		call: () => ({
			path: '/admin/hooks',
			body: { name: 'web', config: { url: 'https://hooks.example.com/global', content_type: 'json' }, events: ['user'] },
			token: token('root'),
		}),
	},
	'PATCH /admin/hooks/{hook_id}': {
		none: HOOKS,
		call: async () => {
			const [hook] = await must('GET', '/admin/hooks', { token: token('root') });
			w.globalHookId = hook.id;
			return {
				path: `/admin/hooks/${hook.id}`,
				body: { config: { url: 'https://hooks.example.com/global2' } },
				token: token('root'),
			};
		},
	},
	'POST /admin/hooks/{hook_id}/pings': {
		none: 'a ping is a message to the one hook, not a domain event',
		call: (w) => ({ path: `/admin/hooks/${w.globalHookId}/pings`, token: token('root') }),
	},
	'POST /admin/hooks/{hook_id}/deliveries/{delivery_id}/attempts': {
		none: 'a redelivery sends an earlier delivery again to its one hook; nothing new happened',
		call: (w) => ({ path: `/admin/hooks/${w.globalHookId}/deliveries/${lastDelivery(w.globalHookId)}/attempts`, token: token('root') }),
	},
	'DELETE /admin/hooks/{hook_id}': {
		none: `${HOOKS} (GitHub tells only the deleted hook itself, with its meta event, a message to that one hook like a ping)`,
		call: (w) => ({ path: `/admin/hooks/${w.globalHookId}`, token: token('root') }),
	},
	'POST /orgs/{org}/hooks': {
		none: `${HOOKS} (GitHub pings the new hook alone)`,
		call: () => ({
			path: '/orgs/acme/hooks',
			body: { name: 'web', config: { url: 'https://hooks.example.com/second' }, events: ['push'] },
		}),
	},
	'PATCH /orgs/{org}/hooks/{hook_id}': {
		none: HOOKS,
		call: async () => {
			const hooks = await must('GET', '/orgs/acme/hooks');
			w.orgHookId = hooks.find((h: any) => h.config.url === 'https://hooks.example.com/second').id;
			return { path: `/orgs/acme/hooks/${w.orgHookId}`, body: { events: ['push', 'issues'] } };
		},
	},
	'PATCH /orgs/{org}/hooks/{hook_id}/config': {
		none: HOOKS,
		call: (w) => ({ path: `/orgs/acme/hooks/${w.orgHookId}/config`, body: { content_type: 'json' } }),
	},
	'POST /orgs/{org}/hooks/{hook_id}/pings': {
		none: 'a ping is a message to the one hook, not a domain event',
		call: (w) => ({ path: `/orgs/acme/hooks/${w.orgHookId}/pings` }),
	},
	'POST /orgs/{org}/hooks/{hook_id}/deliveries/{delivery_id}/attempts': {
		none: 'a redelivery sends an earlier delivery again to its one hook; nothing new happened',
		call: (w) => ({ path: `/orgs/acme/hooks/${w.orgHookId}/deliveries/${lastDelivery(w.orgHookId)}/attempts` }),
	},
	'DELETE /orgs/{org}/hooks/{hook_id}': {
		none: `${HOOKS} (GitHub tells only the deleted hook itself, with its meta event, a message to that one hook like a ping)`,
		call: (w) => ({ path: `/orgs/acme/hooks/${w.orgHookId}` }),
	},
	'POST /repos/{owner}/{repo}/hooks': {
		none: `${HOOKS} (GitHub pings the new hook alone)`,
		call: () => ({
			path: '/repos/acme/app/hooks',
			body: { name: 'web', config: { url: 'https://hooks.example.com/repo' }, events: ['push'] },
		}),
	},
	'PATCH /repos/{owner}/{repo}/hooks/{hook_id}': {
		none: HOOKS,
		call: async () => {
			const [hook] = await must('GET', '/repos/acme/app/hooks');
			w.repoHookId = hook.id;
			return { path: `/repos/acme/app/hooks/${hook.id}`, body: { add_events: ['issues'] } };
		},
	},
	'PATCH /repos/{owner}/{repo}/hooks/{hook_id}/config': {
		none: HOOKS,
		call: (w) => ({ path: `/repos/acme/app/hooks/${w.repoHookId}/config`, body: { content_type: 'json' } }),
	},
	'POST /repos/{owner}/{repo}/hooks/{hook_id}/pings': {
		none: 'a ping is a message to the one hook, not a domain event',
		call: (w) => ({ path: `/repos/acme/app/hooks/${w.repoHookId}/pings` }),
	},
	'POST /repos/{owner}/{repo}/hooks/{hook_id}/tests': {
		none: 'a test sends the latest push again to the one hook; nothing new happened',
		call: (w) => ({ path: `/repos/acme/app/hooks/${w.repoHookId}/tests` }),
	},
	'POST /repos/{owner}/{repo}/hooks/{hook_id}/test': {
		none: 'a test sends the latest push again to the one hook; nothing new happened',
		call: (w) => ({ path: `/repos/acme/app/hooks/${w.repoHookId}/test` }),
	},
	'POST /repos/{owner}/{repo}/hooks/{hook_id}/deliveries/{delivery_id}/attempts': {
		none: 'a redelivery sends an earlier delivery again to its one hook; nothing new happened',
		call: (w) => ({ path: `/repos/acme/app/hooks/${w.repoHookId}/deliveries/${lastDelivery(w.repoHookId)}/attempts` }),
	},
	'DELETE /repos/{owner}/{repo}/hooks/{hook_id}': {
		none: `${HOOKS} (GitHub tells only the deleted hook itself, with its meta event, a message to that one hook like a ping)`,
		call: (w) => ({ path: `/repos/acme/app/hooks/${w.repoHookId}` }),
	},
	'POST /app/installations/{installation_id}/access_tokens': {
		none: 'an installation access token is a credential, not an event: GitHub reports its creation nowhere',
		call: (w) => ({ path: `/app/installations/${w.installationId}/access_tokens`, body: {}, token: appJwt() }),
	},
	'DELETE /installation/token': {
		none: 'revoking an installation access token is not an event: GitHub reports it nowhere',
		call: async (w) => {
			const created = await must('POST', `/app/installations/${w.installationId}/access_tokens`, { body: {}, token: appJwt() });
			return { path: '/installation/token', token: created.token };
		},
	},
	'PATCH /app/hook/config': {
		none: "a GitHub App's webhook settings are the app's own configuration: GitHub reports their change nowhere",
		call: () => ({ path: '/app/hook/config', body: { url: 'https://bot.example.com/hooks', secret: 'shh' }, token: appJwt() }),
	},
	// Sent to the app's own hook only (never to repository, organization or global hooks or the feeds).
	'PUT /app/installations/{installation_id}/suspended': {
		records: ['installation.suspend'],
		call: (w) => ({ path: `/app/installations/${w.installationId}/suspended`, token: appJwt() }),
	},
	'DELETE /app/installations/{installation_id}/suspended': {
		records: ['installation.unsuspend'],
		call: (w) => ({ path: `/app/installations/${w.installationId}/suspended`, token: appJwt() }),
	},
	'POST /app/hook/deliveries/{delivery_id}/attempts': {
		none: 'a redelivery sends an earlier delivery again to the app’s hook; nothing new happened',
		call: async () => {
			const [latest] = await must('GET', '/app/hook/deliveries', { token: appJwt() });
			return { path: `/app/hook/deliveries/${latest.id}/attempts`, token: appJwt() };
		},
	},
	'DELETE /app/installations/{installation_id}': {
		records: ['installation.deleted'],
		call: (w) => ({ path: `/app/installations/${w.installationId}`, token: appJwt() }),
	},

	// ------------------------------------------------------------------ git database
	'POST /repos/{owner}/{repo}/git/blobs': {
		none: NO_OBJECT_EVENT,
		call: () => ({ path: '/repos/acme/app/git/blobs', body: { content: 'hello', encoding: 'utf-8' } }),
	},
	'POST /repos/{owner}/{repo}/git/trees': {
		none: NO_OBJECT_EVENT,
		call: () => ({
			path: '/repos/acme/app/git/trees',
			body: { tree: [{ path: 'NOTES', mode: '100644', type: 'blob', content: 'notes' }] },
		}),
	},
	'POST /repos/{owner}/{repo}/git/commits': {
		none: NO_OBJECT_EVENT,
		call: async (w) => {
			const tree = await must('POST', '/repos/acme/app/git/trees', {
				body: { tree: [{ path: 'README', mode: '100644', type: 'blob', content: 'three' }] },
			});
			return { path: '/repos/acme/app/git/commits', body: { message: 'Commit three', tree: tree.sha, parents: [w.commits.two] } };
		},
	},
	'POST /repos/{owner}/{repo}/git/tags': {
		none: `${NO_OBJECT_EVENT}; a tag object becomes a tag (create) only when a ref names it`,
		call: (w) => ({
			path: '/repos/acme/app/git/tags',
			body: {
				tag: 'v1',
				message: 'First',
				object: w.commits.one,
				type: 'commit',
				tagger: { name: 'Olivia', email: 'olivia@example.com', date: '2026-11-22T12:00:00Z' },
			},
		}),
	},
	'POST /repos/{owner}/{repo}/git/refs': {
		records: ['create', 'push'],
		call: (w) => ({ path: '/repos/acme/app/git/refs', body: { ref: 'refs/heads/topic', sha: w.commits.one } }),
	},
	'PATCH /repos/{owner}/{repo}/git/refs/*': {
		records: ['push'],
		call: (w) => ({ path: '/repos/acme/app/git/refs/heads/main', body: { sha: w.commits.two } }),
	},
	'DELETE /repos/{owner}/{repo}/git/refs/*': {
		records: ['delete', 'push'],
		call: () => ({ path: '/repos/acme/app/git/refs/heads/topic' }),
	},

	// ------------------------------------------------------------------ contents (commits on a branch, through the ref writes)
	'PUT /repos/{owner}/{repo}/contents/*': {
		records: ['push'],
		call: () => ({
			path: '/repos/acme/app/contents/docs/notes.md',
			body: { message: 'Add notes', content: Buffer.from('notes').toString('base64') },
		}),
	},
	'DELETE /repos/{owner}/{repo}/contents/*': {
		records: ['push'],
		call: async () => {
			const file = await must('GET', '/repos/acme/app/contents/docs/notes.md');
			return { path: '/repos/acme/app/contents/docs/notes.md', body: { message: 'Remove notes', sha: file.sha } };
		},
	},

	// ------------------------------------------------------------------ commit statuses
	'POST /repos/{owner}/{repo}/statuses/{sha}': {
		records: ['status'],
		call: (w) => ({ path: `/repos/acme/app/statuses/${w.commits.one}`, body: { state: 'success', context: 'ci/build' } }),
	},

	// ------------------------------------------------------------------ check runs of apps
	'POST /repos/{owner}/{repo}/check-runs': {
		records: ['check_run.created'],
		call: (w) => ({
			path: '/repos/acme/app/check-runs',
			body: { name: 'lint', head_sha: w.commits.one },
			token: s.token('olivia', { kind: 'installation', org: 'acme', permissions: { checks: 'write' } }),
		}),
	},
	'PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}': {
		records: ['check_run.completed'],
		call: async (w) => {
			const bot = s.token('olivia', { kind: 'installation', org: 'acme', permissions: { checks: 'write' } });
			const runs = await must('GET', `/repos/acme/app/commits/${w.commits.one}/check-runs?check_name=lint`);
			return { path: `/repos/acme/app/check-runs/${runs.check_runs[0].id}`, body: { conclusion: 'success' }, token: bot };
		},
	},

	// ------------------------------------------------------------------ releases and their assets
	'POST /repos/{owner}/{repo}/releases': {
		// Publishing creates the tag (its create and push), then GitHub's release created, published, released.
		records: ['create', 'push', 'release.created', 'release.published', 'release.released'],
		call: () => ({ path: '/repos/acme/app/releases', body: { tag_name: 'v5.0.0', target_commitish: 'main', name: 'Five' } }),
	},
	'PATCH /repos/{owner}/{repo}/releases/{release_id}': {
		records: ['release.edited'],
		call: async () => {
			w.ids.release = (await must('GET', '/repos/acme/app/releases/tags/v5.0.0')).id;
			return { path: `/repos/acme/app/releases/${w.ids.release}`, body: { name: 'Five, renamed' } };
		},
	},
	'POST /repos/{owner}/{repo}/releases/{release_id}/assets': {
		none: 'GitHub reports no event for release assets: the release webhook’s actions concern the release itself, and no feed entry or notification names an asset',
		call: () => ({ path: `/repos/acme/app/releases/${w.ids.release}/assets?name=notes.json`, body: { notes: true } }),
	},
	'PATCH /repos/{owner}/{repo}/releases/assets/{asset_id}': {
		none: 'GitHub reports no event for release assets: the release webhook’s actions concern the release itself, and no feed entry or notification names an asset',
		call: async () => {
			const [asset] = await must('GET', `/repos/acme/app/releases/${w.ids.release}/assets`);
			w.ids.asset = asset.id;
			return { path: `/repos/acme/app/releases/assets/${asset.id}`, body: { label: 'Notes' } };
		},
	},
	'DELETE /repos/{owner}/{repo}/releases/assets/{asset_id}': {
		none: 'GitHub reports no event for release assets: the release webhook’s actions concern the release itself, and no feed entry or notification names an asset',
		call: () => ({ path: `/repos/acme/app/releases/assets/${w.ids.asset}` }),
	},
	'DELETE /repos/{owner}/{repo}/releases/{release_id}': {
		records: ['release.deleted'],
		call: () => ({ path: `/repos/acme/app/releases/${w.ids.release}` }),
	},

	// ------------------------------------------------------------------ branches and their protection
	'POST /repos/{owner}/{repo}/branches/{branch}/rename': {
		records: ['create', 'push', 'delete', 'push'],
		call: async (w) => {
			await must('POST', '/repos/acme/app/git/refs', { body: { ref: 'refs/heads/old-name', sha: w.commits.one } });
			return { path: '/repos/acme/app/branches/old-name/rename', body: { new_name: 'new-name' } };
		},
	},
	'PUT /repos/{owner}/{repo}/branches/{branch}/protection': {
		records: ['branch_protection_rule.created'],
		call: () => ({
			path: '/repos/acme/app/branches/main/protection',
			body: {
				required_status_checks: { strict: false, contexts: ['ci'] },
				enforce_admins: false,
				required_pull_request_reviews: { required_approving_review_count: 1 },
				restrictions: { users: ['olivia'], teams: [] },
			},
		}),
	},
	...protectionParts(),
	'DELETE /repos/{owner}/{repo}/branches/{branch}/protection': {
		records: ['branch_protection_rule.deleted'],
		call: () => ({ path: '/repos/acme/app/branches/main/protection' }),
	},

	// ------------------------------------------------------------------ deployments and environments
	'POST /repos/{owner}/{repo}/deployments': {
		records: ['deployment.created'],
		call: () => ({ path: '/repos/acme/app/deployments', body: { ref: 'main', environment: 'production', required_contexts: [] } }),
	},
	'POST /repos/{owner}/{repo}/deployments/{deployment_id}/statuses': {
		records: ['deployment_status.created'],
		call: async () => {
			const [deployment] = await must('GET', '/repos/acme/app/deployments');
			return { path: `/repos/acme/app/deployments/${deployment.id}/statuses`, body: { state: 'success' } };
		},
	},
	'DELETE /repos/{owner}/{repo}/deployments/{deployment_id}': {
		none: 'GitHub’s deployment webhook has only the created action: deleting an inactive deployment is reported nowhere',
		call: async () => {
			const deployment = await must('POST', '/repos/acme/app/deployments', {
				body: { ref: 'main', environment: 'qa', required_contexts: [] },
			});
			await must('POST', `/repos/acme/app/deployments/${deployment.id}/statuses`, { body: { state: 'failure' } });
			return { path: `/repos/acme/app/deployments/${deployment.id}` };
		},
	},
	'PUT /repos/{owner}/{repo}/environments/{environment_name}': {
		none: ENVIRONMENT,
		call: () => ({
			path: '/repos/acme/app/environments/staging',
			body: { deployment_branch_policy: { protected_branches: false, custom_branch_policies: true } },
		}),
	},
	'POST /repos/{owner}/{repo}/environments/{environment_name}/deployment-branch-policies': {
		none: ENVIRONMENT,
		call: () => ({
			path: '/repos/acme/app/environments/staging/deployment-branch-policies',
			body: { name: 'release/*', type: 'branch' },
		}),
	},
	'PUT /repos/{owner}/{repo}/environments/{environment_name}/deployment-branch-policies/{branch_policy_id}': {
		none: ENVIRONMENT,
		call: async () => {
			const [policy] = (await must('GET', '/repos/acme/app/environments/staging/deployment-branch-policies')).branch_policies;
			w.ids.policy = policy.id;
			return { path: `/repos/acme/app/environments/staging/deployment-branch-policies/${policy.id}`, body: { name: 'releases/*' } };
		},
	},
	'DELETE /repos/{owner}/{repo}/environments/{environment_name}/deployment-branch-policies/{branch_policy_id}': {
		none: ENVIRONMENT,
		call: (w) => ({ path: `/repos/acme/app/environments/staging/deployment-branch-policies/${w.ids.policy}` }),
	},
	'DELETE /repos/{owner}/{repo}/environments/{environment_name}': {
		none: ENVIRONMENT,
		call: () => ({ path: '/repos/acme/app/environments/staging' }),
	},

	// ------------------------------------------------------------------ keys
	'POST /user/keys': { none: USER_KEYS, call: () => ({ path: '/user/keys', body: { title: 'Laptop', key: sshKey() } }) },
	'DELETE /user/keys/{key_id}': {
		none: USER_KEYS,
		call: async () => ({ path: `/user/keys/${(await must('POST', '/user/keys', { body: { key: sshKey() } })).id}` }),
	},
	'POST /user/ssh_signing_keys': { none: USER_KEYS, call: () => ({ path: '/user/ssh_signing_keys', body: { key: sshKey() } }) },
	'DELETE /user/ssh_signing_keys/{ssh_signing_key_id}': {
		none: USER_KEYS,
		call: async () => ({
			path: `/user/ssh_signing_keys/${(await must('POST', '/user/ssh_signing_keys', { body: { key: sshKey() } })).id}`,
		}),
	},
	'POST /user/gpg_keys': {
		none: USER_KEYS,
		call: async () => ({ path: '/user/gpg_keys', body: { armored_public_key: await gpgPublicKey() } }),
	},
	'DELETE /user/gpg_keys/{gpg_key_id}': {
		none: USER_KEYS,
		call: async () => ({
			path: `/user/gpg_keys/${(await must('POST', '/user/gpg_keys', { body: { armored_public_key: await gpgPublicKey() } })).id}`,
		}),
	},
	'POST /repos/{owner}/{repo}/keys': {
		records: ['deploy_key.created'],
		call: () => ({ path: '/repos/acme/app/keys', body: { title: 'CI', key: sshKey() } }),
	},
	'DELETE /repos/{owner}/{repo}/keys/{key_id}': {
		records: ['deploy_key.deleted'],
		call: async () => ({ path: `/repos/acme/app/keys/${(await must('GET', '/repos/acme/app/keys'))[0].id}` }),
	},

	// ------------------------------------------------------------------ actions secrets and variables (audit-style events; no webhook)
	'PUT /repos/{owner}/{repo}/actions/secrets/{secret_name}': {
		records: ['repo.create_actions_secret'],
		call: () => sealed('/repos/acme/app/actions', 'TOKEN'),
	},
	'DELETE /repos/{owner}/{repo}/actions/secrets/{secret_name}': {
		records: ['repo.remove_actions_secret'],
		call: () => ({ path: '/repos/acme/app/actions/secrets/TOKEN' }),
	},
	'POST /repos/{owner}/{repo}/actions/variables': {
		records: ['repo.create_actions_variable'],
		call: () => ({ path: '/repos/acme/app/actions/variables', body: { name: 'REGION', value: 'eu' } }),
	},
	'PATCH /repos/{owner}/{repo}/actions/variables/{name}': {
		records: ['repo.update_actions_variable'],
		call: () => ({ path: '/repos/acme/app/actions/variables/REGION', body: { value: 'us' } }),
	},
	'DELETE /repos/{owner}/{repo}/actions/variables/{name}': {
		records: ['repo.remove_actions_variable'],
		call: () => ({ path: '/repos/acme/app/actions/variables/REGION' }),
	},
	'PUT /repos/{owner}/{repo}/environments/{environment_name}/secrets/{secret_name}': {
		records: ['environment.create_actions_secret'],
		call: async () => {
			await must('PUT', '/repos/acme/app/environments/vault', { body: {} });
			return sealed('/repos/acme/app/environments/vault', 'TOKEN');
		},
	},
	'DELETE /repos/{owner}/{repo}/environments/{environment_name}/secrets/{secret_name}': {
		records: ['environment.remove_actions_secret'],
		call: () => ({ path: '/repos/acme/app/environments/vault/secrets/TOKEN' }),
	},
	'POST /repos/{owner}/{repo}/environments/{environment_name}/variables': {
		records: ['environment.create_actions_variable'],
		call: () => ({ path: '/repos/acme/app/environments/vault/variables', body: { name: 'REGION', value: 'eu' } }),
	},
	'PATCH /repos/{owner}/{repo}/environments/{environment_name}/variables/{name}': {
		records: ['environment.update_actions_variable'],
		call: () => ({ path: '/repos/acme/app/environments/vault/variables/REGION', body: { value: 'us' } }),
	},
	'DELETE /repos/{owner}/{repo}/environments/{environment_name}/variables/{name}': {
		records: ['environment.remove_actions_variable'],
		call: () => ({ path: '/repos/acme/app/environments/vault/variables/REGION' }),
	},
	'PUT /orgs/{org}/actions/secrets/{secret_name}': {
		records: ['org.create_actions_secret'],
		call: () => sealed('/orgs/acme/actions', 'TOKEN', { visibility: 'selected', selected_repository_ids: [] }),
	},
	'PUT /orgs/{org}/actions/secrets/{secret_name}/repositories': {
		records: ['org.update_actions_secret'],
		call: async () => ({
			path: '/orgs/acme/actions/secrets/TOKEN/repositories',
			body: { selected_repository_ids: [(await must('GET', '/repos/acme/docs')).id] },
		}),
	},
	'PUT /orgs/{org}/actions/secrets/{secret_name}/repositories/{repository_id}': {
		records: ['org.update_actions_secret'],
		call: async () => ({ path: `/orgs/acme/actions/secrets/TOKEN/repositories/${(await must('GET', '/repos/acme/app')).id}` }),
	},
	'DELETE /orgs/{org}/actions/secrets/{secret_name}/repositories/{repository_id}': {
		records: ['org.update_actions_secret'],
		call: async () => ({ path: `/orgs/acme/actions/secrets/TOKEN/repositories/${(await must('GET', '/repos/acme/app')).id}` }),
	},
	'DELETE /orgs/{org}/actions/secrets/{secret_name}': {
		records: ['org.remove_actions_secret'],
		call: () => ({ path: '/orgs/acme/actions/secrets/TOKEN' }),
	},
	'POST /orgs/{org}/actions/variables': {
		records: ['org.create_actions_variable'],
		call: () => ({ path: '/orgs/acme/actions/variables', body: { name: 'REGION', value: 'eu', visibility: 'selected' } }),
	},
	'PATCH /orgs/{org}/actions/variables/{name}': {
		records: ['org.update_actions_variable'],
		call: () => ({ path: '/orgs/acme/actions/variables/REGION', body: { value: 'us' } }),
	},
	'PUT /orgs/{org}/actions/variables/{name}/repositories': {
		records: ['org.update_actions_variable'],
		call: async () => ({
			path: '/orgs/acme/actions/variables/REGION/repositories',
			body: { selected_repository_ids: [(await must('GET', '/repos/acme/docs')).id] },
		}),
	},
	'PUT /orgs/{org}/actions/variables/{name}/repositories/{repository_id}': {
		records: ['org.update_actions_variable'],
		call: async () => ({ path: `/orgs/acme/actions/variables/REGION/repositories/${(await must('GET', '/repos/acme/app')).id}` }),
	},
	'DELETE /orgs/{org}/actions/variables/{name}/repositories/{repository_id}': {
		records: ['org.update_actions_variable'],
		call: async () => ({ path: `/orgs/acme/actions/variables/REGION/repositories/${(await must('GET', '/repos/acme/app')).id}` }),
	},
	'DELETE /orgs/{org}/actions/variables/{name}': {
		records: ['org.remove_actions_variable'],
		call: () => ({ path: '/orgs/acme/actions/variables/REGION' }),
	},

	// ------------------------------------------------------------------ actions
	'PUT /repos/{owner}/{repo}/actions/workflows/{workflow_id}/disable': {
		none: 'disabling a workflow is reported on GitHub by no webhook, feed entry or notification (the audit log only)',
		call: () => ({ path: '/repos/acme/app/actions/workflows/ci.yml/disable' }),
	},
	'PUT /repos/{owner}/{repo}/actions/workflows/{workflow_id}/enable': {
		none: 'enabling a workflow is reported on GitHub by no webhook, feed entry or notification (the audit log only)',
		call: () => ({ path: '/repos/acme/app/actions/workflows/ci.yml/enable' }),
	},
	'POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches': {
		records: ['workflow_dispatch', 'workflow_run.requested', 'workflow_job.queued'],
		call: () => ({ path: '/repos/acme/app/actions/workflows/ci.yml/dispatches', body: { ref: 'main' } }),
	},
	'POST /repos/{owner}/{repo}/actions/runs/{run_id}/cancel': {
		records: ['workflow_job.completed', 'workflow_run.completed'],
		call: async () => {
			const [run] = (await must('GET', '/repos/acme/app/actions/runs')).workflow_runs;
			w.ids.run = run.id;
			return { path: `/repos/acme/app/actions/runs/${run.id}/cancel` };
		},
	},
	'POST /repos/{owner}/{repo}/actions/runs/{run_id}/rerun': {
		records: ['workflow_run.requested', 'workflow_job.queued'],
		call: (w) => ({ path: `/repos/acme/app/actions/runs/${w.ids.run}/rerun`, body: {} }),
	},
	'POST /repos/{owner}/{repo}/actions/jobs/{job_id}/rerun': {
		records: ['workflow_run.requested', 'workflow_job.queued'],
		call: async (w) => {
			// Re-running a job needs a finished run: cancel the second attempt first (unmeasured).
			await must('POST', `/repos/acme/app/actions/runs/${w.ids.run}/cancel`);
			const [job] = (await must('GET', `/repos/acme/app/actions/runs/${w.ids.run}/jobs`)).jobs;
			return { path: `/repos/acme/app/actions/jobs/${job.id}/rerun`, body: {} };
		},
	},

	// ------------------------------------------------------------------ issues, comments, labels
	'POST /repos/{owner}/{repo}/labels': {
		records: ['label.created'],
		call: () => ({ path: '/repos/acme/app/labels', body: { name: 'flaky', color: 'd73a4a' } }),
	},
	'PATCH /repos/{owner}/{repo}/labels/{name}': {
		records: ['label.edited'],
		call: () => ({ path: '/repos/acme/app/labels/flaky', body: { color: 'ee0701' } }),
	},
	// ------------------------------------------------------------------ pull requests (a pull request's issue routes report pull_request)
	'POST /repos/{owner}/{repo}/pulls': {
		records: ['pull_request.opened'],
		call: async () => {
			const main = (await must('GET', '/repos/acme/app/git/ref/heads/main')).object.sha;
			const tree = await must('POST', '/repos/acme/app/git/trees', {
				body: { tree: [{ path: 'PR.md', mode: '100644', type: 'blob', content: 'pull' }] },
			});
			const commit = await must('POST', '/repos/acme/app/git/commits', {
				body: { message: 'A change to pull', tree: tree.sha, parents: [main] },
			});
			await must('POST', '/repos/acme/app/git/refs', { body: { ref: 'refs/heads/pr-head', sha: commit.sha } });
			return { path: '/repos/acme/app/pulls', body: { title: 'Pull me', head: 'pr-head', base: 'main' } };
		},
	},
	'PATCH /repos/{owner}/{repo}/pulls/{pull_number}': {
		records: ['pull_request.edited', 'pull_request.closed'],
		call: async () => {
			const [pr] = await must('GET', '/repos/acme/app/pulls?head=acme:pr-head');
			return { path: `/repos/acme/app/pulls/${pr.number}`, body: { title: 'Pull me now', state: 'closed' } };
		},
	},
	'PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge': {
		// The base branch moves (push), then the pull request closes merged; a base branch of its own keeps main for later entries.
		records: ['push', 'pull_request.closed'],
		call: async () => {
			const main = (await must('GET', '/repos/acme/app/git/ref/heads/main')).object.sha;
			await must('POST', '/repos/acme/app/git/refs', { body: { ref: 'refs/heads/merge-base', sha: main } });
			const tree = await must('POST', '/repos/acme/app/git/trees', {
				body: { tree: [{ path: 'MERGE.md', mode: '100644', type: 'blob', content: 'merge' }] },
			});
			const commit = await must('POST', '/repos/acme/app/git/commits', {
				body: { message: 'A change to merge', tree: tree.sha, parents: [main] },
			});
			await must('POST', '/repos/acme/app/git/refs', { body: { ref: 'refs/heads/merge-head', sha: commit.sha } });
			const pr = await must('POST', '/repos/acme/app/pulls', { body: { title: 'Merge me', head: 'merge-head', base: 'merge-base' } });
			return { path: `/repos/acme/app/pulls/${pr.number}/merge`, body: { merge_method: 'squash' } };
		},
	},
	'PUT /repos/{owner}/{repo}/pulls/{pull_number}/update-branch': {
		// The base merged into the head branch: its push, and the pull request's synchronize.
		records: ['push', 'pull_request.synchronize'],
		call: async () => {
			const main = (await must('GET', '/repos/acme/app/git/ref/heads/main')).object.sha;
			const mainTree = (await must('GET', `/repos/acme/app/git/commits/${main}`)).tree.sha;
			const commit = async (path: string, parent: string) => {
				const tree = await must('POST', '/repos/acme/app/git/trees', {
					body: { base_tree: mainTree, tree: [{ path, mode: '100644', type: 'blob', content: path }] },
				});
				return (
					await must('POST', '/repos/acme/app/git/commits', {
						body: { message: `Add ${path}`, tree: tree.sha, parents: [parent] },
					})
				).sha;
			};
			await must('POST', '/repos/acme/app/git/refs', { body: { ref: 'refs/heads/update-base', sha: await commit('BASE.md', main) } });
			await must('POST', '/repos/acme/app/git/refs', { body: { ref: 'refs/heads/update-head', sha: await commit('HEAD.md', main) } });
			const pr = await must('POST', '/repos/acme/app/pulls', {
				body: { title: 'Update me', head: 'update-head', base: 'update-base' },
			});
			return { path: `/repos/acme/app/pulls/${pr.number}/update-branch`, body: {} };
		},
	},
	'POST /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers': {
		// One review_requested per new request: the user, then the team.
		records: ['pull_request.review_requested', 'pull_request.review_requested'],
		call: async () => {
			const main = (await must('GET', '/repos/acme/app/git/ref/heads/main')).object.sha;
			const tree = await must('POST', '/repos/acme/app/git/trees', {
				body: { tree: [{ path: 'REVIEW.md', mode: '100644', type: 'blob', content: 'review' }] },
			});
			const commit = await must('POST', '/repos/acme/app/git/commits', {
				body: { message: 'A change to review', tree: tree.sha, parents: [main] },
			});
			await must('POST', '/repos/acme/app/git/refs', { body: { ref: 'refs/heads/review-head', sha: commit.sha } });
			const pr = await must('POST', '/repos/acme/app/pulls', { body: { title: 'Review me', head: 'review-head', base: 'main' } });
			return {
				path: `/repos/acme/app/pulls/${pr.number}/requested_reviewers`,
				body: { reviewers: ['mike'], team_reviewers: ['core'] },
			};
		},
	},
	'DELETE /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers': {
		records: ['pull_request.review_request_removed'],
		call: async () => {
			const [pr] = await must('GET', '/repos/acme/app/pulls?head=acme:review-head');
			return { path: `/repos/acme/app/pulls/${pr.number}/requested_reviewers`, body: { reviewers: ['mike'] } };
		},
	},
	'POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews': {
		records: ['pull_request_review.submitted'],
		call: async () => {
			const [pr] = await must('GET', '/repos/acme/app/pulls?head=acme:review-head');
			w.ids.reviewPull = pr.number;
			return { path: `/repos/acme/app/pulls/${pr.number}/reviews`, body: { event: 'COMMENT', body: 'Looks fine' } };
		},
	},
	'PUT /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}': {
		records: ['pull_request_review.edited'],
		call: async () => {
			const [review] = await must('GET', `/repos/acme/app/pulls/${w.ids.reviewPull}/reviews`);
			return { path: `/repos/acme/app/pulls/${w.ids.reviewPull}/reviews/${review.id}`, body: { body: 'Looks fine to me' } };
		},
	},
	'DELETE /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}': {
		none: 'a pending review is its author’s alone: GitHub reports nothing when it is deleted',
		call: async () => {
			const review = await must('POST', `/repos/acme/app/pulls/${w.ids.reviewPull}/reviews`, { body: { body: 'Draft' } });
			return { path: `/repos/acme/app/pulls/${w.ids.reviewPull}/reviews/${review.id}` };
		},
	},
	'POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/events': {
		records: ['pull_request_review.submitted'],
		call: async () => {
			const review = await must('POST', `/repos/acme/app/pulls/${w.ids.reviewPull}/reviews`, { body: { body: 'Second look' } });
			return { path: `/repos/acme/app/pulls/${w.ids.reviewPull}/reviews/${review.id}/events`, body: { event: 'COMMENT' } };
		},
	},
	'PUT /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/dismissals': {
		records: ['pull_request_review.dismissed'],
		call: async () => {
			const review = await must('POST', `/repos/acme/app/pulls/${w.ids.reviewPull}/reviews`, {
				body: { event: 'APPROVE' },
				token: token('mike'),
			});
			return { path: `/repos/acme/app/pulls/${w.ids.reviewPull}/reviews/${review.id}/dismissals`, body: { message: 'Stale' } };
		},
	},
	'POST /repos/{owner}/{repo}/pulls/{pull_number}/comments': {
		records: ['pull_request_review_comment.created'],
		call: async () => {
			const head = (await must('GET', `/repos/acme/app/pulls/${w.ids.reviewPull}`)).head.sha;
			return {
				path: `/repos/acme/app/pulls/${w.ids.reviewPull}/comments`,
				body: { body: 'On REVIEW.md', commit_id: head, path: 'REVIEW.md', line: 1 },
			};
		},
	},
	'POST /repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies': {
		records: ['pull_request_review_comment.created'],
		call: async () => {
			const [comment] = await must('GET', `/repos/acme/app/pulls/${w.ids.reviewPull}/comments`);
			w.ids.reviewComment = comment.id;
			return { path: `/repos/acme/app/pulls/${w.ids.reviewPull}/comments/${comment.id}/replies`, body: { body: 'Agreed' } };
		},
	},
	'PATCH /repos/{owner}/{repo}/pulls/comments/{comment_id}': {
		records: ['pull_request_review_comment.edited'],
		call: () => ({ path: `/repos/acme/app/pulls/comments/${w.ids.reviewComment}`, body: { body: 'On REVIEW.md, edited' } }),
	},
	'DELETE /repos/{owner}/{repo}/pulls/comments/{comment_id}': {
		records: ['pull_request_review_comment.deleted'],
		call: () => ({ path: `/repos/acme/app/pulls/comments/${w.ids.reviewComment}` }),
	},
	'POST /repos/{owner}/{repo}/issues': {
		records: ['issues.opened'],
		call: () => ({ path: '/repos/acme/app/issues', body: { title: 'It breaks' } }),
	},
	'PATCH /repos/{owner}/{repo}/issues/{issue_number}': {
		records: ['issues.edited', 'issues.closed'],
		call: () => ({ path: '/repos/acme/app/issues/1', body: { title: 'It breaks badly', state: 'closed' } }),
	},
	'PUT /repos/{owner}/{repo}/issues/{issue_number}/lock': {
		records: ['issues.locked'],
		call: () => ({ path: '/repos/acme/app/issues/1/lock', body: { lock_reason: 'resolved' } }),
	},
	'DELETE /repos/{owner}/{repo}/issues/{issue_number}/lock': {
		records: ['issues.unlocked'],
		call: () => ({ path: '/repos/acme/app/issues/1/lock' }),
	},
	'POST /repos/{owner}/{repo}/issues/{issue_number}/labels': {
		records: ['issues.labeled'],
		call: () => ({ path: '/repos/acme/app/issues/1/labels', body: { labels: ['flaky'] } }),
	},
	'PUT /repos/{owner}/{repo}/issues/{issue_number}/labels': {
		records: ['issues.labeled', 'issues.unlabeled'],
		call: () => ({ path: '/repos/acme/app/issues/1/labels', body: { labels: ['triage-me'] } }),
	},
	'DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}': {
		records: ['issues.unlabeled'],
		call: () => ({ path: '/repos/acme/app/issues/1/labels/triage-me' }),
	},
	'DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels': {
		records: ['issues.unlabeled'],
		call: async () => {
			await must('POST', '/repos/acme/app/issues/1/labels', { body: { labels: ['flaky'] } });
			return { path: '/repos/acme/app/issues/1/labels' };
		},
	},
	'POST /repos/{owner}/{repo}/issues/{issue_number}/assignees': {
		records: ['issues.assigned'],
		call: () => ({ path: '/repos/acme/app/issues/1/assignees', body: { assignees: ['olivia'] } }),
	},
	'DELETE /repos/{owner}/{repo}/issues/{issue_number}/assignees': {
		records: ['issues.unassigned'],
		call: () => ({ path: '/repos/acme/app/issues/1/assignees', body: { assignees: ['olivia'] } }),
	},
	'POST /repos/{owner}/{repo}/issues/{issue_number}/comments': {
		records: ['issue_comment.created'],
		call: () => ({ path: '/repos/acme/app/issues/1/comments', body: { body: 'Looking into it' } }),
	},
	'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}': {
		records: ['issue_comment.edited'],
		call: async () => {
			const [comment] = await must('GET', '/repos/acme/app/issues/1/comments');
			w.ids.comment = comment.id;
			return { path: `/repos/acme/app/issues/comments/${comment.id}`, body: { body: 'Fixed in main' } };
		},
	},
	'POST /repos/{owner}/{repo}/issues/{issue_number}/reactions': {
		none: REACTIONS,
		call: () => ({ path: '/repos/acme/app/issues/1/reactions', body: { content: 'heart' } }),
	},
	'DELETE /repos/{owner}/{repo}/issues/{issue_number}/reactions/{reaction_id}': {
		none: REACTIONS,
		call: async () => {
			const [reaction] = await must('GET', '/repos/acme/app/issues/1/reactions');
			return { path: `/repos/acme/app/issues/1/reactions/${reaction.id}` };
		},
	},
	'POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions': {
		none: REACTIONS,
		call: (w) => ({ path: `/repos/acme/app/issues/comments/${w.ids.comment}/reactions`, body: { content: 'rocket' } }),
	},
	'DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions/{reaction_id}': {
		none: REACTIONS,
		call: async (w) => {
			const [reaction] = await must('GET', `/repos/acme/app/issues/comments/${w.ids.comment}/reactions`);
			return { path: `/repos/acme/app/issues/comments/${w.ids.comment}/reactions/${reaction.id}` };
		},
	},
	'DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}': {
		records: ['issue_comment.deleted'],
		call: (w) => ({ path: `/repos/acme/app/issues/comments/${w.ids.comment}` }),
	},
	'DELETE /repos/{owner}/{repo}/labels/{name}': { records: ['label.deleted'], call: () => ({ path: '/repos/acme/app/labels/flaky' }) },
	'POST /repos/{owner}/{repo}/milestones': {
		records: ['milestone.created'],
		call: () => ({ path: '/repos/acme/app/milestones', body: { title: 'v1.0' } }),
	},
	'PATCH /repos/{owner}/{repo}/milestones/{milestone_number}': {
		records: ['milestone.edited', 'milestone.closed'],
		call: () => ({ path: '/repos/acme/app/milestones/1', body: { description: 'First release', state: 'closed' } }),
	},
	'DELETE /repos/{owner}/{repo}/milestones/{milestone_number}': {
		records: ['milestone.deleted'],
		call: () => ({ path: '/repos/acme/app/milestones/1' }),
	},

	// ------------------------------------------------------------------ markdown
	'POST /markdown': {
		none: MARKDOWN,
		call: () => ({ path: '/markdown', body: { text: 'Hello **world**', mode: 'gfm', context: 'acme/app' } }),
	},
	'POST /markdown/raw': { none: MARKDOWN, call: () => ({ path: '/markdown/raw', body: { text: 'Hello' } }) },

	// ------------------------------------------------------------------ graphql
	// A mutation runs its REST twin's route, which records the twin's events (test/graphql.test.ts);
	// the endpoint itself records nothing.
	'POST /api/graphql': { none: GRAPHQL, call: () => ({ path: '/api/graphql', body: { query: '{ viewer { login } }' } }) },
	'POST /graphql': { none: GRAPHQL, call: () => ({ path: '/graphql', body: { query: '{ viewer { login } }' } }) },

	// ------------------------------------------------------------------ gists
	'POST /gists': { none: GIST, call: () => ({ path: '/gists', body: { files: { 'a.txt': { content: 'hello' } }, public: true } }) },
	'PATCH /gists/{gist_id}': {
		none: GIST,
		call: async () => {
			const [gist] = await must('GET', '/gists');
			w.ids.gist = gist.id;
			return { path: `/gists/${gist.id}`, body: { description: 'Greeting' } };
		},
	},
	'PUT /gists/{gist_id}/star': { none: GIST, call: (w) => ({ path: `/gists/${w.ids.gist}/star` }) },
	'DELETE /gists/{gist_id}/star': { none: GIST, call: (w) => ({ path: `/gists/${w.ids.gist}/star` }) },
	'POST /gists/{gist_id}/forks': { none: GIST, call: (w) => ({ path: `/gists/${w.ids.gist}/forks`, token: token('nora') }) },
	'POST /gists/{gist_id}/comments': { none: GIST, call: (w) => ({ path: `/gists/${w.ids.gist}/comments`, body: { body: 'Nice' } }) },
	'PATCH /gists/{gist_id}/comments/{comment_id}': {
		none: GIST,
		call: async (w) => {
			const [comment] = await must('GET', `/gists/${w.ids.gist}/comments`);
			w.ids.gistComment = comment.id;
			return { path: `/gists/${w.ids.gist}/comments/${comment.id}`, body: { body: 'Very nice' } };
		},
	},
	'DELETE /gists/{gist_id}/comments/{comment_id}': {
		none: GIST,
		call: (w) => ({ path: `/gists/${w.ids.gist}/comments/${w.ids.gistComment}` }),
	},
	'DELETE /gists/{gist_id}': { none: GIST, call: (w) => ({ path: `/gists/${w.ids.gist}` }) },

	// ------------------------------------------------------------------ dependency graph and Dependabot
	'POST /repos/{owner}/{repo}/dependency-graph/snapshots': {
		// The snapshot itself is no event on GitHub; the alerts it opens are.
		records: ['dependabot_alert.created', 'dependabot_alert.created'],
		call: () => ({
			path: '/repos/acme/app/dependency-graph/snapshots',
			body: {
				version: 0,
				job: { id: 'job-1', correlator: 'ci' },
				sha: 'a'.repeat(40),
				ref: 'refs/heads/main',
				detector: { name: 'npm-detector', version: '1.0.0', url: 'https://example.com/detector' },
				manifests: {
					'package.json': {
						name: 'package.json',
						resolved: {
							lodash: { package_url: 'pkg:npm/lodash@4.17.11', relationship: 'direct', scope: 'runtime' },
							minimist: { package_url: 'pkg:npm/minimist@1.2.0', relationship: 'direct', scope: 'runtime' },
						},
					},
				},
				scanned: '2026-11-22T11:00:00Z',
			},
		}),
	},
	'PATCH /repos/{owner}/{repo}/dependabot/alerts/{alert_number}': {
		records: ['dependabot_alert.dismissed'],
		call: () => ({ path: '/repos/acme/app/dependabot/alerts/1', body: { state: 'dismissed', dismissed_reason: 'tolerable_risk' } }),
	},
	'PATCH /repos/{owner}/{repo}/depbot/alerts/{alert_number}': {
		records: ['dependabot_alert.reopened'],
		call: () => ({ path: '/repos/acme/app/depbot/alerts/1', body: { state: 'open' } }),
	},
	'POST /repos/{owner}/{repo}/dismissal-requests/dependabot/{alert_number}': {
		gap: DISMISSAL_REQUEST,
		call: () => ({
			path: '/repos/acme/app/dismissal-requests/dependabot/1',
			body: { dismissed_reason: 'not_used' },
			token: token('mike'),
		}),
	},
	'PATCH /repos/{owner}/{repo}/dismissal-requests/dependabot/{alert_number}': {
		// Approving dismisses the alert (dependabot_alert dismissed).
		records: ['dependabot_alert.dismissed'],
		gap: DISMISSAL_REQUEST,
		call: () => ({ path: '/repos/acme/app/dismissal-requests/dependabot/1', body: { status: 'approve', message: 'Not used indeed' } }),
	},
	'POST /repos/{owner}/{repo}/dismissal-requests/depbot/{alert_number}': {
		gap: DISMISSAL_REQUEST,
		call: () => ({
			path: '/repos/acme/app/dismissal-requests/depbot/2',
			body: { dismissed_reason: 'tolerable_risk' },
			token: token('mike'),
		}),
	},
	'PATCH /repos/{owner}/{repo}/dismissal-requests/depbot/{alert_number}': {
		gap: DISMISSAL_REQUEST,
		call: () => ({ path: '/repos/acme/app/dismissal-requests/depbot/2', body: { status: 'deny', message: 'Fix it instead' } }),
	},
	'DELETE /repos/{owner}/{repo}/dismissal-requests/dependabot/{alert_number}': {
		gap: DISMISSAL_REQUEST,
		call: async () => {
			await must('POST', '/repos/acme/app/dismissal-requests/dependabot/2', {
				body: { dismissed_reason: 'not_used' },
				token: token('mike'),
			});
			return { path: '/repos/acme/app/dismissal-requests/dependabot/2', token: token('mike') };
		},
	},
	'DELETE /repos/{owner}/{repo}/dismissal-requests/depbot/{alert_number}': {
		gap: DISMISSAL_REQUEST,
		call: async () => {
			await must('POST', '/repos/acme/app/dismissal-requests/depbot/2', {
				body: { dismissed_reason: 'inaccurate' },
				token: token('mike'),
			});
			return { path: '/repos/acme/app/dismissal-requests/depbot/2', token: token('mike') };
		},
	},
	// ------------------------------------------------------------------ notifications (derived, never sources)
	'PATCH /notifications/threads/{thread_id}': {
		none: NOTIFICATION_STATE,
		call: async (w) => {
			await must('POST', '/repos/acme/app/issues', { body: { title: 'For mike', body: 'Have a look, @mike' } });
			w.ids.thread = (await must('GET', '/notifications', { token: token('mike') }))[0].id;
			return { path: `/notifications/threads/${w.ids.thread}`, token: token('mike') };
		},
	},
	'PUT /notifications/threads/{thread_id}/subscription': {
		none: NOTIFICATION_STATE,
		call: (w) => ({ path: `/notifications/threads/${w.ids.thread}/subscription`, body: { ignored: false }, token: token('mike') }),
	},
	'DELETE /notifications/threads/{thread_id}/subscription': {
		none: NOTIFICATION_STATE,
		call: (w) => ({ path: `/notifications/threads/${w.ids.thread}/subscription`, token: token('mike') }),
	},
	'DELETE /notifications/threads/{thread_id}': {
		none: NOTIFICATION_STATE,
		call: (w) => ({ path: `/notifications/threads/${w.ids.thread}`, token: token('mike') }),
	},
	'PUT /repos/{owner}/{repo}/notifications': {
		none: NOTIFICATION_STATE,
		call: () => ({ path: '/repos/acme/app/notifications', body: {}, token: token('mike') }),
	},
	'PUT /notifications': {
		none: NOTIFICATION_STATE,
		call: () => ({ path: '/notifications', body: {}, token: token('mike') }),
	},

	// ------------------------------------------------------------------ organization security settings
	'POST /orgs/{org}/code-security/configurations': {
		none: CODE_SECURITY,
		call: () => ({ path: '/orgs/acme/code-security/configurations', body: { name: 'No alerts', dependabot_alerts: 'disabled' } }),
	},
	'PATCH /orgs/{org}/code-security/configurations/{configuration_id}': {
		none: CODE_SECURITY,
		call: async (w) => {
			const list = await must('GET', '/orgs/acme/code-security/configurations');
			w.ids.configuration = list.find((c: any) => c.name === 'No alerts').id;
			return { path: `/orgs/acme/code-security/configurations/${w.ids.configuration}`, body: { description: 'Alerts off' } };
		},
	},
	'POST /orgs/{org}/code-security/configurations/{configuration_id}/attach': {
		// The configuration turns Dependabot alerts off in acme/app: its security features changed.
		records: ['security_and_analysis'],
		call: async (w) => {
			w.ids.appRepo = (await must('GET', '/repos/acme/app')).id;
			return {
				path: `/orgs/acme/code-security/configurations/${w.ids.configuration}/attach`,
				body: { scope: 'selected', selected_repository_ids: [w.ids.appRepo] },
			};
		},
	},
	// The switches Terraform's provider sets: each change of a security feature is reported (the
	// configuration above turned acme/app's Dependabot alerts off; these turn them on and off again).
	'PUT /repos/{owner}/{repo}/vulnerability-alerts': {
		records: ['security_and_analysis'],
		call: () => ({ path: '/repos/acme/app/vulnerability-alerts' }),
	},
	'PUT /repos/{owner}/{repo}/automated-security-fixes': {
		records: ['security_and_analysis'],
		call: () => ({ path: '/repos/acme/app/automated-security-fixes' }),
	},
	'DELETE /repos/{owner}/{repo}/automated-security-fixes': {
		records: ['security_and_analysis'],
		call: () => ({ path: '/repos/acme/app/automated-security-fixes' }),
	},
	'DELETE /repos/{owner}/{repo}/vulnerability-alerts': {
		records: ['security_and_analysis'],
		call: () => ({ path: '/repos/acme/app/vulnerability-alerts' }),
	},
	'PUT /orgs/{org}/code-security/configurations/{configuration_id}/defaults': {
		none: CODE_SECURITY,
		call: (w) => ({
			path: `/orgs/acme/code-security/configurations/${w.ids.configuration}/defaults`,
			body: { default_for_new_repos: 'none' },
		}),
	},
	'DELETE /orgs/{org}/code-security/configurations/detach': {
		none: 'detaching leaves the repositories’ settings as they are (GitHub’s detach): no security feature changes, and GitHub reports attachments to no webhook',
		call: (w) => ({ path: '/orgs/acme/code-security/configurations/detach', body: { selected_repository_ids: [w.ids.appRepo] } }),
	},
	'DELETE /orgs/{org}/code-security/configurations/{configuration_id}': {
		none: CODE_SECURITY,
		call: (w) => ({ path: `/orgs/acme/code-security/configurations/${w.ids.configuration}` }),
	},
	'POST /orgs/{org}/{security_product}/{enablement}': {
		// Only acme/app had Dependabot alerts off (the configuration above): only its features change.
		records: ['security_and_analysis'],
		call: () => ({ path: '/orgs/acme/dependabot_alerts/enable_all' }),
	},
	'PUT /orgs/{org}/security-managers/teams/{team_slug}': {
		none: SECURITY_MANAGERS,
		call: () => ({ path: '/orgs/acme/security-managers/teams/core' }),
	},
	'DELETE /orgs/{org}/security-managers/teams/{team_slug}': {
		none: SECURITY_MANAGERS,
		call: () => ({ path: '/orgs/acme/security-managers/teams/core' }),
	},
	'PATCH /orgs/{org}/dependabot/repository-access': {
		none: DEPENDABOT_ACCESS,
		call: (w) => ({ path: '/orgs/acme/dependabot/repository-access', body: { repository_ids_to_add: [w.ids.appRepo] } }),
	},
	'PATCH /orgs/{org}/depbot/repository-access': {
		none: DEPENDABOT_ACCESS,
		call: (w) => ({ path: '/orgs/acme/depbot/repository-access', body: { repository_ids_to_remove: [w.ids.appRepo] } }),
	},
	'PUT /orgs/{org}/dependabot/repository-access/default-level': {
		none: DEPENDABOT_ACCESS,
		call: () => ({ path: '/orgs/acme/dependabot/repository-access/default-level', body: { default_level: 'public' } }),
	},
	'PATCH /orgs/{org}/secret-scanning/pattern-configurations': {
		none: 'GitHub reports secret scanning pattern configurations by no webhook, feed entry or notification (the audit log only)',
		call: () => ({
			path: '/orgs/acme/secret-scanning/pattern-configurations',
			body: { provider_pattern_settings: [{ token_type: 'AWS_ACCESS_KEY_ID', push_protection_setting: 'disabled' }] },
		}),
	},
	'PUT /orgs/{org}/settings/immutable-releases': {
		none: IMMUTABLE,
		call: () => ({ path: '/orgs/acme/settings/immutable-releases', body: { enforced_repositories: 'selected' } }),
	},
	'PUT /orgs/{org}/settings/immutable-releases/repositories': {
		none: IMMUTABLE,
		call: (w) => ({ path: '/orgs/acme/settings/immutable-releases/repositories', body: { selected_repository_ids: [w.ids.appRepo] } }),
	},
	'DELETE /orgs/{org}/settings/immutable-releases/repositories/{repository_id}': {
		none: IMMUTABLE,
		call: (w) => ({ path: `/orgs/acme/settings/immutable-releases/repositories/${w.ids.appRepo}` }),
	},
	'PUT /orgs/{org}/settings/immutable-releases/repositories/{repository_id}': {
		none: IMMUTABLE,
		call: (w) => ({ path: `/orgs/acme/settings/immutable-releases/repositories/${w.ids.appRepo}` }),
	},
	'PUT /orgs/{org}/depbot/repository-access/default-level': {
		none: DEPENDABOT_ACCESS,
		call: () => ({ path: '/orgs/acme/depbot/repository-access/default-level', body: { default_level: 'internal' } }),
	},
};

/** The write routes of the route table (all but GET: the table declares no HEAD route), as `METHOD path`. */
const writeRoutes = () =>
	buildRoutes()
		.filter((route) => route.method !== 'GET')
		.map((route) => `${route.method} ${route.path}`);

/** Whether a concrete path is one the route's pattern matches ({param}: one segment; *: the rest). */
function matches(pattern: string, path: string): boolean {
	const source = pattern
		.split('/')
		.map((segment) => (segment === '*' ? '.+' : segment.startsWith('{') ? '[^/]+' : segment.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
		.join('/');
	return new RegExp(`^${source}$`).test(path.split('?')[0]);
}

/** The id of a hook's newest delivery. */
function lastDelivery(hookId: number): number {
	const { rows } = s.app.stores.webhooks.deliveries({ hookId, status: null, limit: 1, offset: 0 });
	assert.ok(rows.length, `~> hook ${hookId} has a delivery to send again`);
	return rows[0].id;
}

/** The events recorded after `mark`, oldest first, as `event.action` (`event` when it has no action), with their organization. */
function eventsSince(mark: number): Array<{ name: string; orgId: number | null; repoId: number | null }> {
	const rows = s.app.db.prepare('SELECT event, action, org_id, repo_id FROM events WHERE id > ? ORDER BY id').all(mark) as Array<{
		event: string;
		action: string | null;
		org_id: number | null;
		repo_id: number | null;
	}>;
	return rows.map((row) => ({
		name: row.action === null ? row.event : `${row.event}.${row.action}`,
		orgId: row.org_id,
		repoId: row.repo_id,
	}));
}

/** The watching hook's deliveries after the first `seen` ones, oldest first, as `event.action`, pings left out. */
function deliveriesAfter(seen: number): { names: string[]; total: number } {
	const { rows, total } = s.app.stores.webhooks.deliveries({ hookId: w.hookId, status: null, limit: 1000, offset: 0 });
	const fresh = rows.slice(0, Math.max(0, total - seen)).reverse();
	return {
		names: fresh.filter((row) => row.event !== 'ping').map((row) => (row.action === null ? row.event : `${row.event}.${row.action}`)),
		total,
	};
}

// uvu reports a failing before hook only as tests not passed: the error is printed here.
test.before(async () => {
	try {
		await scenario();
	} catch (error) {
		console.error('the scenario failed:', error);
		throw error;
	}
});
test.after(() => s.close());

/**
 * The one scenario: users, an enterprise with the organization acme (owner olivia, members mike and
 * wendy, the team Core with acme/app), acme/app with a git history (main at the first of two
 * commits), an issue and a label, a workflow, advisories for lodash and minimist, delegated alert
 * dismissal, a runner, a GitHub App installed on acme, and the organization hook that watches every
 * event. The walk makes everything else (user repository, teams, hooks, deployments, alerts...).
 */
async function scenario() {
	s = await startServer();
	for (const login of ['olivia', 'mike', 'wendy', 'nora', 'erin', 'paul', 'quinn', 'carl', 'rose', 'ivy', 'hank']) s.user(login);
	// emma has a primary email address (the email routes).
	createUser(s.app, { login: 'emma', email: 'emma@example.com' });
	s.user('root', { siteAdmin: true });
	s.enterprise('bigco', 'erin');
	w.acmeId = s.org('acme', 'olivia', { enterprise: 'bigco' }).id;
	for (const login of ['mike', 'wendy']) s.member('acme', login);
	w.owner = token('olivia');
	w.ids = {};
	w.commits = {};
	// The organization hook that sees every event (not delivered here: the delivery job does not run).
	w.hookId = (
		await must('POST', '/orgs/acme/hooks', {
			body: { name: 'web', config: { url: 'https://hooks.example.com/all', content_type: 'json' }, events: ['*'] },
		})
	).id;
	await must('POST', '/orgs/acme/repos', { body: { name: 'app' } });
	await must('POST', '/orgs/acme/repos', { body: { name: 'docs' } });
	const app = s.app.stores.repos.byOwnerAndName(w.acmeId, 'app')!;
	s.app.stores.repos.setCollaborator(app.id, s.app.stores.accounts.user('mike')!.id, 'push', isoSeconds(s.clock.now));
	s.app.stores.repos.setSecurity(app.id, { advanced_security: 0, delegated_alert_dismissal: 1 });
	await must('POST', '/orgs/acme/teams', { body: { name: 'Core', privacy: 'closed', repo_names: ['acme/app'] } });
	// A history: main at the first commit; the second waits to be pushed.
	w.commits.one = await commit('one', []);
	w.commits.two = await commit('two', [w.commits.one]);
	await must('POST', '/repos/acme/app/git/refs', { body: { ref: 'refs/heads/main', sha: w.commits.one } });
	await must('POST', '/repos/acme/app/issues', { body: { title: 'Placeholder' } });
	await must('POST', '/repos/acme/app/labels', { body: { name: 'triage-me', color: 'fbca04' } });
	importRuns(s.app, app, { workflows: [{ name: 'CI', path: 'ci.yml', jobs: [{ name: 'build' }] }] });
	const now = isoSeconds(s.clock.now);
	importAdvisories(
		s.app,
		[
			advisory('GHSA-jf85-cpcp-j695', 'lodash', '< 4.17.12', '4.17.12'),
			advisory('GHSA-xvch-5gv4-984h', 'minimist', '< 1.2.6', '1.2.6'),
		],
		now,
	);
	w.ids.runner = registerRunner(
		s.app,
		s.app.stores.enterprises.bySlug('bigco')!.id,
		{ name: 'linux-1', os: 'linux', labels: [], status: 'online' },
		now,
	).id;
	const created = createApp(
		s.app,
		{ name: 'Walker', owner: s.app.stores.accounts.organization('acme')!, permissions: { contents: 'read' } },
		now,
	);
	w.appId = created.app.id;
	w.appKey = created.privateKey;
	w.installationId = installApp(s.app, created.app, s.app.stores.accounts.organization('acme')!, null, now).id;
}

test('A – the table has exactly one entry per write route of the route table', () => {
	const routes = writeRoutes();
	const keys = Object.keys(TABLE);
	const missing = routes.filter((key) => !(key in TABLE));
	const stale = keys.filter((key) => !routes.includes(key));
	assert.equal(
		{ missing, stale },
		{ missing: [], stale: [] },
		`~> write routes without an entry in test/events.test.ts (say what each records, or why GitHub reports nothing): ${missing.join(', ') || 'none'}; entries for routes the route table no longer has: ${stale.join(', ') || 'none'}`,
	);
	for (const [key, entry] of Object.entries(TABLE)) {
		const reason = 'none' in entry ? entry.none : 'records' in entry ? undefined : entry.gap;
		if (reason !== undefined) assert.ok(reason.length > 20, `~> ${key} says why in a sentence`);
		if ('records' in entry) assert.ok(entry.records.length > 0, `~> ${key} lists what it records (or says why nothing)`);
	}
});

test('B – every write route, called for real, records exactly its events; the organization’s reach its hook', async () => {
	let organizationEvents = 0;
	let repositoryEvents = 0;
	for (const [key, entry] of Object.entries(TABLE)) {
		const [method, pattern] = key.split(' ');
		const call = await entry.call(w);
		assert.ok(matches(pattern, call.path), `~> ${key}: the call ${call.path} is that route`);
		const mark = s.app.stores.events.latestId();
		const seen = s.app.stores.webhooks.deliveries({ hookId: w.hookId, status: null, limit: 1, offset: 0 }).total;
		const res = await s.request(method, call.path, { token: call.token ?? w.owner, body: call.body });
		assert.ok(res.status >= 200 && res.status < 300, `~> ${key} answered ${res.status}: ${res.text}`);
		const recorded = eventsSince(mark);
		const expected = 'records' in entry ? entry.records : [];
		assert.equal(
			recorded.map((e) => e.name),
			expected,
			`~> ${key} records ${expected.length ? expected.join(', ') : 'nothing'}`,
		);
		// Every event of the organization (its own, or one of its repositories') reaches its hook.
		const delivered = deliveriesAfter(seen).names;
		// Events no hook can subscribe to (a new repository invitation: a notification only) are delivered nowhere.
		const ofAcme = recorded.filter((e) => e.orgId === w.acmeId && HOOKABLE.has(e.name.split('.')[0]));
		assert.equal(
			delivered,
			ofAcme.map((e) => e.name),
			`~> ${key}: the organization hook’s deliveries`,
		);
		organizationEvents += ofAcme.length;
		repositoryEvents += ofAcme.filter((e) => e.repoId !== null).length;
	}
	assert.ok(organizationEvents > 50, `~> the hook saw the organization’s events (${organizationEvents})`);
	assert.ok(repositoryEvents > 30, `~> among them its repositories’ events (${repositoryEvents})`);
});

/** The payloads the watching hook got for `event` (with `action`), oldest first. */
function payloads(event: string, action: string): any[] {
	const { rows } = s.app.stores.webhooks.deliveries({ hookId: w.hookId, status: null, limit: 1000, offset: 0 });
	return rows
		.filter((row) => row.event === event && row.action === action)
		.reverse()
		.map((row) => JSON.parse(row.payload));
}

test('C – what the walk found missing, with GitHub’s payloads: custom_property; invitations by a team; team memberships taking effect; the repository of team edited', async () => {
	// custom_property (organization hooks): definition, organization, enterprise, sender.
	const created = payloads('custom_property', 'created');
	assert.equal(
		created.map((p) => p.definition.property_name),
		['tier', 'team'],
	);
	assert.equal(Object.keys(created[0]), ['action', 'definition', 'organization', 'enterprise', 'sender']);
	assert.equal(
		created[0].definition,
		{
			property_name: 'tier',
			url: `${s.api}/orgs/acme/properties/schema/tier`,
			source_type: 'organization',
			value_type: 'single_select',
			required: false,
			default_value: null,
			description: null,
			allowed_values: ['gold', 'silver'],
			values_editable_by: 'org_actors',
			require_explicit_values: false,
		},
		'~> the definition as the REST API renders it, as it was then',
	);
	assert.is(created[0].organization.login, 'acme');
	assert.is(created[0].enterprise.slug, 'bigco');
	assert.is(created[0].sender.login, 'olivia');
	const [updated] = payloads('custom_property', 'updated');
	assert.equal(updated.definition.allowed_values, ['gold', 'silver', 'bronze']);
	const [deleted] = payloads('custom_property', 'deleted');
	assert.equal(deleted.definition, { property_name: 'team' }, '~> a deleted definition is named only');
	assert.equal(Object.keys(deleted), ['action', 'definition', 'organization', 'enterprise', 'sender']);

	// An owner adding someone outside the organization to a team invites them to it.
	const invited = payloads('organization', 'member_invited').find((p) => p.user.login === 'rose');
	assert.ok(invited, '~> rose’s invitation reached the organization hook');
	assert.is(invited.invitation.login, 'rose');
	assert.is(invited.invitation.role, 'direct_member');
	assert.is(invited.invitation.inviter.login, 'olivia');
	assert.is(invited.invitation.team_count, 1, '~> the team she was added to');
	assert.is(invited.sender.login, 'olivia');

	// A team's new permission on a repository: team edited names the repository (GitHub's optional `repository`).
	const edited = payloads('team', 'edited').find((p) => p.changes.repository);
	assert.ok(edited, '~> the permission change reached the organization hook');
	assert.equal(edited.changes.repository.permissions.from, { admin: false, pull: true, push: false });
	assert.is(edited.repository.full_name, 'acme/app');
	assert.is(edited.team.slug, 'ops');

	// paul's pending team membership took effect when he accepted the invitation.
	const joined = payloads('membership', 'added').find((p) => p.member.login === 'paul');
	assert.ok(joined, '~> paul’s team membership reached the organization hook');
	assert.equal([joined.scope, joined.team.slug, joined.sender.login], ['team', 'core', 'paul']);
});

test.run();
