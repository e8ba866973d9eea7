/**
 * Every answer valid against GitHub's OpenAPI description: each route of the route table
 * is mapped to GitHub's operation by method and path template (GitHub Enterprise Server 3.19 first,
 * then GitHub Enterprise Cloud and api.github.com for operations GHES does not document; see
 * test/helpers/openapi.ts), and a table with one entry per mapped route calls it in one seeded
 * scenario with a happy-path request. The response must answer a documented status and its body
 * must validate against the schema GitHub documents for it (application/json, or the media type the
 * request asked for where the operation documents one). Answers GitHub documents without JSON (a
 * 302 redirect, text/plain, text/html, application/octocat-stream) must have the documented status
 * and media type (a redirect a Location) and no JSON body. An answer that is not
 * JSON (application/vnd.github.diff, .patch, .sha, an asset's application/octet-stream bytes) has no
 * JSON schema to meet: its status must be one the operation documents (D names the media type it
 * must be served as).
 *
 * Test A holds the table to the route table: a route that maps to an operation and has no entry
 * fails, named; routes with no operation (Gitstead-only, or named otherwise than GitHub) are listed,
 * not failed. Test B walks the table and prints "X of Y operations validate"; every list it reads
 * must list something. C checks error answers (basic-error, validation-error,
 * validation-error-simple), D the same routes in other situations (callers, media types, API
 * version, after the writes). Every violation must be one docs/COMPATIBILITY.md allows (its fenced
 * JSON list: operationId + status + JSON pointer + keyword, each with the rule that wins), and E requires every allowed deviation to still occur (the list is exact).
 *
 * Covering a new route is one entry: `{}` calls its path with the scenario's parameters as the
 * organization owner; `path`, `body` (`raw` with a Content-Type in `headers` for non-JSON bodies, e.g. an asset upload),
 * `as` (a login, 'app' for the app's JWT, 'installation' for an installation token) or `call`
 * (setup first) say more. The scenario's parameters include a ready git history for the
 * git-backed routes: `branch`/`ref` main at `w.commits.one` (`sha`), topic at `w.commits.two`, `basehead`
 * main...topic, the tag v1, and a branch pages that the contents entries write to (main and topic
 * stay put).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSign, generateKeyPairSync } from 'node:crypto';
import sodium from 'libsodium-wrappers';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { importRuns } from '../src/api/actions/import';
import { createApp, installApp, saveAppHook } from '../src/api/apps/service';
import { importExternalGroups } from '../src/api/external-groups/service';
import { importAdvisories } from '../src/api/dependabot/service';
import { registerRunner } from '../src/api/runner-groups/service';
import { createUser } from '../src/api/users/service';
import { buildRoutes } from '../src/server';
import { epochSeconds, isoSeconds } from '../src/time';
import { OpenApi, type Operation, type Violation } from './helpers/openapi';
import { startServer, type TestServer } from './helpers/server';
import { advisory } from './helpers/advisories';

const test = suite('openapi');

/** The request an entry makes. */
interface Call {
	/** Concrete path; default: the route's path with the scenario's parameters. */
	path?: string;
	body?: unknown;
	/** A raw request body (sent as is; give its Content-Type in `headers`), for routes that take no JSON. */
	raw?: string;
	/** Who calls: a login (a classic token with every scope), 'app' (the app's JWT), 'installation' or 'anonymous'; default the organization owner. */
	as?: string;
	headers?: Record<string, string>;
}

/** One route: what to call (setup in `call` when the request needs something made first). */
type Entry = Call & { call?: (w: World) => Call | Promise<Call> };

/** What the scenario made, by name. */
interface World {
	/** Path parameters by name, for entries that take the default path. */
	params: Record<string, string>;
	commits: Record<string, string>;
	ids: Record<string, number | string>;
	appId: number;
	appKey: string;
	installationToken: string;
}

let s: TestServer;
const w = { params: {}, commits: {}, ids: {} } as World;
const tokens = new Map<string, string>();
const token = (login: string) => {
	if (!tokens.has(login)) tokens.set(login, s.fullToken(login));
	return tokens.get(login)!;
};

/** A JSON web token of the scenario's GitHub App (RS256), valid for nine minutes. */
function appJwt(): string {
	const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
	const body = `${encode({ alg: 'RS256', typ: 'JWT' })}.${encode({ iat: epochSeconds(s.clock.now) - 60, exp: epochSeconds(s.clock.now) + 540, iss: w.appId })}`;
	return `${body}.${createSign('RSA-SHA256').update(body).sign(w.appKey).toString('base64url')}`;
}

/** The token of a caller: a login, 'app', 'installation', or 'anonymous' (none). */
const credential = (as = 'olivia') =>
	as === 'anonymous' ? undefined : as === 'app' ? appJwt() : as === 'installation' ? w.installationToken : token(as);

/** A request that must succeed (setup). @returns its body */
async function must(method: string, path: string, options: { body?: unknown; as?: string } = {}): Promise<any> {
	const res = await s.request(method, path, { token: credential(options.as), body: options.body });
	assert.ok(res.status >= 200 && res.status < 300, `~> setup ${method} ${path} answered ${res.status}: ${res.text}`);
	return res.body;
}

/** Brings acme/app's statistics up to date (they answer 202 until the background task computed them). */
async function statsReady(): Promise<Call> {
	for (let i = 0; i < 20; i++) {
		const res = await s.request('GET', '/repos/acme/app/stats/punch_card', { token: credential() });
		if (res.status !== 202) return {};
		await s.app.tasks.runDue();
	}
	throw new Error('acme/app statistics still computing');
}

/** A commit of one file on `parents` in acme/app, through the git database API. @returns its sha */
async function commit(content: string, parents: string[]): Promise<string> {
	const tree = await must('POST', '/repos/acme/app/git/trees', {
		body: { tree: [{ path: 'README', mode: '100644', type: 'blob', content }] },
	});
	return (await must('POST', '/repos/acme/app/git/commits', { body: { message: `Commit ${content}`, tree: tree.sha, parents } })).sha;
}

/** An OpenSSH public key line of a new Ed25519 key. */
function sshKey(): string {
	const raw = Buffer.from(generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x!, 'base64url');
	const field = (bytes: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, bytes.length]), bytes]);
	return `ssh-ed25519 ${Buffer.concat([field(Buffer.from('ssh-ed25519')), field(raw)]).toString('base64')} someone`;
}

/** The armored public key of a new OpenPGP key of olivia. */
async function gpgPublicKey(): Promise<string> {
	const openpgp = require('openpgp') as typeof import('openpgp', { with: { 'resolution-mode': 'import' }});
	return (
		await openpgp.generateKey({ type: 'ecc', curve: 'curve25519Legacy', userIDs: [{ email: 'olivia@example.com' }], format: 'armored' })
	).publicKey;
}

/** The id of a repository of acme. */
async function repoId(name: string): Promise<number> {
	return (await must('GET', `/repos/acme/${name}`)).id;
}

/** A PUT of a secret sealed (libsodium's crypto_box_seal) to the public key of `base` (…/actions, an environment). */
async function sealed(base: string, name: string, extra: Record<string, unknown> = {}): Promise<Call> {
	const key = await must('GET', `${base}/secrets/public-key`);
	const box = sodium.crypto_box_seal(Buffer.from('value'), Buffer.from(key.key, 'base64'));
	return {
		path: `${base}/secrets/${name}`,
		body: { encrypted_value: Buffer.from(box).toString('base64'), key_id: key.key_id, ...extra },
	};
}

/** A dependency snapshot of acme/app at `sha` with npm packages (name → version). */
function snapshot(sha: string, ref: string, packages: Record<string, string>) {
	const resolved = Object.fromEntries(
		Object.entries(packages).map(([name, version]) => [
			name,
			{ package_url: `pkg:npm/${name}@${version}`, relationship: 'direct', scope: 'runtime' },
		]),
	);
	return {
		version: 0,
		job: { id: `job-${sha.slice(0, 7)}`, correlator: 'ci' },
		sha,
		ref,
		detector: { name: 'npm-detector', version: '1.0.0', url: 'https://example.com/detector' },
		manifests: { 'package.json': { name: 'package.json', file: { source_location: 'package.json' }, resolved } },
		scanned: '2026-11-22T11:00:00Z',
	};
}

/**
 * The table, in the order the walk calls it: reads of what the scenario made, then writes (each
 * creation before what changes or deletes it). Keys are `METHOD path` exactly as the route table
 * declares them. Routes of other areas add their entries here.
 */
const TABLE: Record<string, Entry> = {
	// ------------------------------------------------------------------ discovery, users, organizations
	'GET /': {},
	'GET /meta': {},
	'GET /versions': {},
	'GET /rate_limit': {},
	'GET /user': {},
	'GET /users/{username}': {},

	// ------------------------------------------------------------------ email addresses (emma's primary one is public)
	'GET /user/emails': { as: 'emma' },
	'GET /user/public_emails': { as: 'emma' },
	'POST /user/emails': { as: 'emma', body: { emails: ['emma@work.example'] } },
	'DELETE /user/emails': {
		call: async () => {
			await must('POST', '/user/emails', { as: 'emma', body: ['emma@old.example'] });
			return { as: 'emma', body: { emails: ['emma@old.example'] } };
		},
	},
	'PATCH /user/email/visibility': { as: 'emma', body: { visibility: 'public' } },

	// ------------------------------------------------------------------ keys (made by the scenario)
	'GET /user/keys': {},
	'GET /user/keys/{key_id}': { call: (w) => ({ path: `/user/keys/${w.ids.sshKey}` }) },
	'GET /users/{username}/keys': {},
	'GET /user/ssh_signing_keys': {},
	'GET /user/ssh_signing_keys/{ssh_signing_key_id}': { call: (w) => ({ path: `/user/ssh_signing_keys/${w.ids.signingKey}` }) },
	'GET /users/{username}/ssh_signing_keys': {},
	'GET /user/gpg_keys': {},
	'GET /user/gpg_keys/{gpg_key_id}': { call: (w) => ({ path: `/user/gpg_keys/${w.ids.gpgKey}` }) },
	'GET /users/{username}/gpg_keys': {},
	'GET /repos/{owner}/{repo}/keys': {},
	'GET /repos/{owner}/{repo}/keys/{key_id}': { call: (w) => ({ path: `/repos/acme/app/keys/${w.ids.deployKey}` }) },
	'POST /user/keys': { call: () => ({ body: { title: 'Desktop', key: sshKey() } }) },
	'DELETE /user/keys/{key_id}': {
		call: async () => ({ path: `/user/keys/${(await must('POST', '/user/keys', { body: { key: sshKey() } })).id}` }),
	},
	'POST /user/ssh_signing_keys': { call: () => ({ body: { title: 'Signing', key: sshKey() } }) },
	'DELETE /user/ssh_signing_keys/{ssh_signing_key_id}': {
		call: async () => ({
			path: `/user/ssh_signing_keys/${(await must('POST', '/user/ssh_signing_keys', { body: { key: sshKey() } })).id}`,
		}),
	},
	'POST /user/gpg_keys': { call: async () => ({ body: { name: 'Work', armored_public_key: await gpgPublicKey() } }) },
	'DELETE /user/gpg_keys/{gpg_key_id}': {
		call: async () => ({
			path: `/user/gpg_keys/${(await must('POST', '/user/gpg_keys', { body: { armored_public_key: await gpgPublicKey() } })).id}`,
		}),
	},
	'POST /repos/{owner}/{repo}/keys': { call: () => ({ body: { title: 'Deploy', key: sshKey(), read_only: true } }) },
	'DELETE /repos/{owner}/{repo}/keys/{key_id}': {
		call: async () => ({
			path: `/repos/acme/app/keys/${(await must('POST', '/repos/acme/app/keys', { body: { key: sshKey() } })).id}`,
		}),
	},
	'GET /orgs/{org}': {},
	'GET /orgs/{org}/audit-log': { path: '/orgs/acme/audit-log?include=all' },
	'GET /orgs/{org}/installations': { path: '/orgs/tools/installations' },
	'GET /organizations': {},
	'GET /user/orgs': {},
	'GET /users/{username}/orgs': {},
	'GET /orgs/{org}/members': {},
	'GET /orgs/{org}/members/{username}': {},
	'GET /orgs/{org}/memberships/{username}': {},
	'GET /orgs/{org}/public_members': {},
	'GET /orgs/{org}/public_members/{username}': {},
	'GET /user/memberships/orgs': {},
	'GET /user/memberships/orgs/{org}': {},
	'GET /orgs/{org}/outside_collaborators': {},

	// ------------------------------------------------------------------ teams
	'GET /orgs/{org}/teams': {},
	'GET /orgs/{org}/teams/{team_slug}': { path: '/orgs/acme/teams/core-child' },
	'GET /teams/{team_id}': {},
	'GET /orgs/{org}/teams/{team_slug}/teams': {},
	'GET /teams/{team_id}/teams': {},
	'GET /orgs/{org}/teams/{team_slug}/members': {},
	'GET /teams/{team_id}/members': {},
	'GET /orgs/{org}/teams/{team_slug}/memberships/{username}': {},
	'GET /teams/{team_id}/memberships/{username}': {},
	'GET /teams/{team_id}/members/{username}': {},
	'GET /orgs/{org}/teams/{team_slug}/repos': {},
	'GET /teams/{team_id}/repos': {},
	'GET /orgs/{org}/teams/{team_slug}/repos/{owner}/{repo}': { headers: { Accept: 'application/vnd.github.v3.repository+json' } },
	'GET /teams/{team_id}/repos/{owner}/{repo}': { headers: { Accept: 'application/vnd.github.v3.repository+json' } },

	// ------------------------------------------------------------------ repositories
	'GET /orgs/{org}/repos': {},
	'GET /repos/{owner}/{repo}': {},
	'GET /user/repos': {},
	'GET /users/{username}/repos': {},
	'GET /repositories': {},
	'GET /repos/{owner}/{repo}/topics': {},
	'GET /repos/{owner}/{repo}/languages': {},
	'GET /repos/{owner}/{repo}/contributors': { path: '/repos/acme/app/contributors?anon=1' },
	// Statistics: asked once (202, the task queued), then computed by the background task.
	'GET /repos/{owner}/{repo}/stats/contributors': { call: () => statsReady() },
	'GET /repos/{owner}/{repo}/stats/commit_activity': { call: () => statsReady() },
	'GET /repos/{owner}/{repo}/stats/code_frequency': { call: () => statsReady() },
	'GET /repos/{owner}/{repo}/stats/participation': { call: () => statsReady() },
	'GET /repos/{owner}/{repo}/stats/punch_card': { call: () => statsReady() },
	'GET /repos/{owner}/{repo}/license': {
		// A commit holding a LICENSE file, read by its sha (main stays as the other entries expect).
		call: async () => {
			const tree = await must('POST', '/repos/acme/app/git/trees', {
				body: {
					tree: [{ path: 'LICENSE', mode: '100644', type: 'blob', content: 'Permission is hereby granted, free of charge' }],
				},
			});
			const made = await must('POST', '/repos/acme/app/git/commits', { body: { message: 'License', tree: tree.sha, parents: [] } });
			return { path: `/repos/acme/app/license?ref=${made.sha}` };
		},
	},

	// ------------------------------------------------------------------ contents (main holds README)
	'GET /repos/{owner}/{repo}/contents/*?': { path: '/repos/acme/app/contents/README' },
	'GET /repos/{owner}/{repo}/readme': {},
	// Redirects to the signed codeload URL (302, no body).
	'GET /repos/{owner}/{repo}/tarball/*?': { path: '/repos/acme/app/tarball/main' },
	'GET /repos/{owner}/{repo}/zipball/*?': { path: '/repos/acme/app/zipball/main' },
	'GET /gitignore/templates': {},
	'GET /licenses': {},
	'GET /licenses/{license}': { path: '/licenses/mit' },
	'GET /gitignore/templates/{name}': { path: '/gitignore/templates/Node' },

	// ------------------------------------------------------------------ custom properties, budgets, runner groups, migrations
	'GET /orgs/{org}/properties/schema': {},
	'GET /orgs/{org}/properties/schema/{custom_property_name}': { path: '/orgs/acme/properties/schema/tier' },
	'GET /orgs/{org}/rulesets': {},
	'GET /orgs/{org}/rulesets/{ruleset_id}': {},
	'GET /orgs/{org}/rulesets/{ruleset_id}/history': {},
	'GET /orgs/{org}/rulesets/{ruleset_id}/history/{version_id}': {},
	'GET /orgs/{org}/rulesets/rule-suites': {},
	'GET /orgs/{org}/rulesets/rule-suites/{rule_suite_id}': {},
	'GET /orgs/{org}/bypass-requests/push-rules': {},
	'GET /repos/{owner}/{repo}/rulesets': {},
	'GET /repos/{owner}/{repo}/rulesets/{ruleset_id}': {},
	'GET /repos/{owner}/{repo}/rules/branches/{branch}': {},
	'GET /enterprises/{enterprise}/org-properties/schema': { as: 'erin' },
	'GET /enterprises/{enterprise}/org-properties/schema/{custom_property_name}': {
		path: '/enterprises/bigco/org-properties/schema/region',
		as: 'erin',
	},
	'GET /organizations/{org}/settings/billing/budgets': {},
	'GET /organizations/{org}/settings/billing/budgets/{budget_id}': {
		call: (w) => ({ path: `/organizations/acme/settings/billing/budgets/${w.ids.orgBudget}` }),
	},
	'GET /enterprises/{enterprise}/settings/billing/budgets': { as: 'erin' },
	'GET /enterprises/{enterprise}/settings/billing/budgets/{budget_id}': {
		call: (w) => ({ path: `/enterprises/bigco/settings/billing/budgets/${w.ids.enterpriseBudget}`, as: 'erin' }),
	},
	'GET /enterprises/{enterprise}/actions/runner-groups': { as: 'erin' },
	'GET /enterprises/{enterprise}/actions/runner-groups/{runner_group_id}': { as: 'erin' },
	'GET /enterprises/{enterprise}/actions/runner-groups/{runner_group_id}/organizations': { as: 'erin' },
	'GET /enterprises/{enterprise}/actions/runner-groups/{runner_group_id}/runners': { as: 'erin' },
	'GET /orgs/{org}/migrations': {},
	'GET /orgs/{org}/migrations/{migration_id}': {},
	'GET /orgs/{org}/migrations/{migration_id}/archive': {},
	'GET /orgs/{org}/migrations/{migration_id}/repositories': {},

	// ------------------------------------------------------------------ webhooks and apps
	'GET /admin/hooks': { as: 'root' },
	'GET /admin/hooks/{hook_id}': { call: (w) => ({ path: `/admin/hooks/${w.ids.globalHook}`, as: 'root' }) },
	'GET /orgs/{org}/hooks': {},
	'GET /orgs/{org}/hooks/{hook_id}': { call: (w) => ({ path: `/orgs/acme/hooks/${w.ids.orgHook}` }) },
	'GET /orgs/{org}/hooks/{hook_id}/config': { call: (w) => ({ path: `/orgs/acme/hooks/${w.ids.orgHook}/config` }) },
	'GET /orgs/{org}/hooks/{hook_id}/deliveries': { call: (w) => ({ path: `/orgs/acme/hooks/${w.ids.orgHook}/deliveries` }) },
	'GET /orgs/{org}/hooks/{hook_id}/deliveries/{delivery_id}': {
		call: (w) => ({ path: `/orgs/acme/hooks/${w.ids.orgHook}/deliveries/${lastDelivery(Number(w.ids.orgHook))}` }),
	},
	'GET /repos/{owner}/{repo}/hooks': {},
	'GET /repos/{owner}/{repo}/hooks/{hook_id}': { call: (w) => ({ path: `/repos/acme/app/hooks/${w.ids.repoHook}` }) },
	'GET /repos/{owner}/{repo}/hooks/{hook_id}/config': { call: (w) => ({ path: `/repos/acme/app/hooks/${w.ids.repoHook}/config` }) },
	'GET /repos/{owner}/{repo}/hooks/{hook_id}/deliveries': {
		call: (w) => ({ path: `/repos/acme/app/hooks/${w.ids.repoHook}/deliveries` }),
	},
	'GET /repos/{owner}/{repo}/hooks/{hook_id}/deliveries/{delivery_id}': {
		call: (w) => ({ path: `/repos/acme/app/hooks/${w.ids.repoHook}/deliveries/${lastDelivery(Number(w.ids.repoHook))}` }),
	},
	'GET /app': { as: 'app' },
	'GET /app/installations': { as: 'app' },
	'GET /app/installations/{installation_id}': { as: 'app' },
	'GET /app/hook/config': { as: 'app' },
	'GET /app/hook/deliveries': { as: 'app' },
	'GET /app/hook/deliveries/{delivery_id}': {
		call: async () => ({ path: `/app/hook/deliveries/${(await must('GET', '/app/hook/deliveries', { as: 'app' }))[0].id}`, as: 'app' }),
	},
	'GET /orgs/{org}/installation': { as: 'app' },
	'GET /users/{username}/installation': { path: '/users/olivia/installation', as: 'app' },
	'GET /repos/{owner}/{repo}/installation': { as: 'app' },
	'GET /installation/repositories': { as: 'installation' },

	// ------------------------------------------------------------------ git database
	'GET /repos/{owner}/{repo}/git/blobs/{file_sha}': {},
	'GET /repos/{owner}/{repo}/git/trees/*': { call: (w) => ({ path: `/repos/acme/app/git/trees/${w.params.tree_sha}?recursive=1` }) },
	'GET /repos/{owner}/{repo}/git/commits/{commit_sha}': {},
	'GET /repos/{owner}/{repo}/git/tags/{tag_sha}': {},
	'GET /repos/{owner}/{repo}/git/matching-refs/*?': { path: '/repos/acme/app/git/matching-refs/heads' },
	'GET /repos/{owner}/{repo}/git/ref/*': { path: '/repos/acme/app/git/ref/heads/main' },

	// ------------------------------------------------------------------ actions secrets and variables (set by the scenario)
	'GET /repos/{owner}/{repo}/actions/secrets': {},
	'GET /repos/{owner}/{repo}/actions/secrets/public-key': {},
	'GET /repos/{owner}/{repo}/actions/secrets/{secret_name}': {},
	'GET /repos/{owner}/{repo}/actions/organization-secrets': {},
	'GET /repos/{owner}/{repo}/actions/variables': {},
	'GET /repos/{owner}/{repo}/actions/variables/{name}': { path: '/repos/acme/app/actions/variables/REGION' },
	'GET /repos/{owner}/{repo}/actions/organization-variables': {},
	'GET /repos/{owner}/{repo}/environments/{environment_name}/secrets': {},
	'GET /repos/{owner}/{repo}/environments/{environment_name}/secrets/public-key': {},
	'GET /repos/{owner}/{repo}/environments/{environment_name}/secrets/{secret_name}': {},
	'GET /repos/{owner}/{repo}/environments/{environment_name}/variables': {},
	'GET /repos/{owner}/{repo}/environments/{environment_name}/variables/{name}': {
		path: '/repos/acme/app/environments/production/variables/REGION',
	},
	'GET /orgs/{org}/actions/secrets': {},
	'GET /orgs/{org}/actions/secrets/public-key': {},
	'GET /orgs/{org}/actions/secrets/{secret_name}': {},
	'GET /orgs/{org}/actions/secrets/{secret_name}/repositories': {},
	'GET /orgs/{org}/actions/variables': {},
	'GET /orgs/{org}/actions/variables/{name}': { path: '/orgs/acme/actions/variables/REGION' },
	'GET /orgs/{org}/actions/variables/{name}/repositories': { path: '/orgs/acme/actions/variables/REGION/repositories' },

	// ------------------------------------------------------------------ deployments and environments
	'GET /repos/{owner}/{repo}/deployments': {},
	'GET /repos/{owner}/{repo}/deployments/{deployment_id}': {},
	'GET /repos/{owner}/{repo}/deployments/{deployment_id}/statuses': {},
	'GET /repos/{owner}/{repo}/deployments/{deployment_id}/statuses/{status_id}': {},
	'GET /repos/{owner}/{repo}/environments': {},
	'GET /repos/{owner}/{repo}/environments/{environment_name}': {},
	'GET /repos/{owner}/{repo}/environments/{environment_name}/deployment-branch-policies': {},
	'GET /repos/{owner}/{repo}/environments/{environment_name}/deployment-branch-policies/{branch_policy_id}': {},

	// ------------------------------------------------------------------ actions
	'GET /repos/{owner}/{repo}/actions/workflows': {},
	'GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}': {},
	'GET /repos/{owner}/{repo}/actions/runs': {},
	'GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs': {},
	'GET /repos/{owner}/{repo}/actions/runs/{run_id}': {},
	'GET /repos/{owner}/{repo}/actions/runs/{run_id}/jobs': {},
	'GET /repos/{owner}/{repo}/actions/runs/{run_id}/artifacts': {},
	'GET /repos/{owner}/{repo}/actions/jobs/{job_id}': {},
	// Redirects to a signed download URL (302, no body).
	'GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs': {},
	'GET /repos/{owner}/{repo}/actions/runs/{run_id}/logs': {},

	// ------------------------------------------------------------------ gists
	'GET /gists': {},
	'GET /gists/public': {},
	'GET /users/{username}/gists': {},
	'GET /gists/{gist_id}': {},
	'GET /gists/{gist_id}/comments': {},
	'GET /gists/{gist_id}/comments/{comment_id}': { call: (w) => ({ path: `/gists/${w.params.gist_id}/comments/${w.ids.gistComment}` }) },

	// ------------------------------------------------------------------ issues, comments, labels
	'GET /repos/{owner}/{repo}/issues/comments': {},
	'GET /repos/{owner}/{repo}/issues/comments/{comment_id}': {},
	'GET /repos/{owner}/{repo}/issues/{issue_number}/comments': {},
	'GET /repos/{owner}/{repo}/issues': {},
	'GET /repos/{owner}/{repo}/issues/{issue_number}': {},
	'GET /repos/{owner}/{repo}/issues/{issue_number}/events': {},
	'GET /repos/{owner}/{repo}/issues/{issue_number}/timeline': {},
	'GET /repos/{owner}/{repo}/issues/events': {},
	'GET /repos/{owner}/{repo}/issues/events/{event_id}': {
		call: async () => {
			const events = await must('GET', '/repos/acme/app/issues/events');
			return { path: `/repos/acme/app/issues/events/${events[0].id}` };
		},
	},
	'GET /repos/{owner}/{repo}/pulls': {},
	'GET /repos/{owner}/{repo}/pulls/{pull_number}': {},
	'GET /repos/{owner}/{repo}/pulls/{pull_number}/commits': {},
	'GET /repos/{owner}/{repo}/pulls/{pull_number}/files': {},
	'GET /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers': { path: '/repos/acme/app/pulls/2/requested_reviewers' },
	'GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews': { path: '/repos/acme/app/pulls/2/reviews' },
	'GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}': {
		call: async () => {
			const [review] = await must('GET', '/repos/acme/app/pulls/2/reviews');
			return { path: `/repos/acme/app/pulls/2/reviews/${review.id}` };
		},
	},
	'GET /repos/{owner}/{repo}/pulls/comments': { path: '/repos/acme/app/pulls/comments' },
	'GET /repos/{owner}/{repo}/pulls/{pull_number}/comments': { path: '/repos/acme/app/pulls/2/comments' },
	'GET /repos/{owner}/{repo}/pulls/comments/{comment_id}': {
		call: (w) => ({ path: `/repos/acme/app/pulls/comments/${w.ids.reviewComment}` }),
	},
	'GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/comments': {
		call: (w) => ({ path: `/repos/acme/app/pulls/2/reviews/${w.ids.reviewCommentReview}/comments` }),
	},
	'GET /repos/{owner}/{repo}/pulls/{pull_number}/merge': {
		// Merging comes with PUT …/merge (next step): the scenario marks a second pull request merged in its row.
		call: async (w) => {
			await must('POST', '/repos/acme/app/git/refs', { body: { ref: 'refs/heads/merged-head', sha: w.commits.two } });
			const pr = await must('POST', '/repos/acme/app/pulls', {
				body: { title: 'Merged already', head: 'merged-head', base: 'main' },
			});
			s.app.db
				.prepare('UPDATE pull_requests SET merged_at = ?, merge_commit_sha = ? WHERE issue_id = ?')
				.run('2026-11-22T12:00:00Z', w.commits.two, pr.id);
			return { path: `/repos/acme/app/pulls/${pr.number}/merge` };
		},
	},
	'GET /repos/{owner}/{repo}/issues/{issue_number}/labels': {},
	'GET /repos/{owner}/{repo}/assignees/{assignee}': {},
	'GET /repos/{owner}/{repo}/assignees': {},
	'GET /repos/{owner}/{repo}/milestones': {},
	'GET /repos/{owner}/{repo}/milestones/{milestone_number}': {},
	'GET /repos/{owner}/{repo}/milestones/{milestone_number}/labels': {},
	'GET /repos/{owner}/{repo}/issues/{issue_number}/reactions': {},
	'GET /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions': {},
	'GET /repos/{owner}/{repo}/labels': {},
	'GET /repos/{owner}/{repo}/labels/{name}': {},

	// ------------------------------------------------------------------ Dependabot and the dependency graph
	'GET /repos/{owner}/{repo}/dependabot/alerts': {},
	'GET /repos/{owner}/{repo}/depbot/alerts': {},
	'GET /repos/{owner}/{repo}/dependabot/alerts/{alert_number}': {},
	'GET /repos/{owner}/{repo}/depbot/alerts/{alert_number}': {},
	'GET /orgs/{org}/dependabot/alerts': {},
	'GET /orgs/{org}/depbot/alerts': {},
	'GET /orgs/{org}/dismissal-requests/dependabot': {},
	'GET /orgs/{org}/dismissal-requests/depbot': {},
	'GET /repos/{owner}/{repo}/dismissal-requests/dependabot': {},
	'GET /repos/{owner}/{repo}/dismissal-requests/depbot': {},
	'GET /repos/{owner}/{repo}/dismissal-requests/dependabot/{alert_number}': { path: '/repos/acme/app/dismissal-requests/dependabot/2' },
	'GET /repos/{owner}/{repo}/dismissal-requests/depbot/{alert_number}': { path: '/repos/acme/app/dismissal-requests/depbot/2' },
	'GET /repos/{owner}/{repo}/dependency-graph/compare/{basehead}': { path: '/repos/acme/app/dependency-graph/compare/main...topic' },

	// ------------------------------------------------------------------ activity
	'GET /feeds': {},
	'GET /events': {},
	'GET /networks/{owner}/{repo}/events': {},
	'GET /orgs/{org}/events': {},
	'GET /repos/{owner}/{repo}/events': {},
	'GET /users/{username}/events': {},
	'GET /users/{username}/events/public': {},
	'GET /users/{username}/events/orgs/{org}': {},
	'GET /users/{username}/received_events': { path: '/users/mike/received_events', as: 'mike' },
	'GET /users/{username}/received_events/public': { path: '/users/mike/received_events/public' },
	'GET /repos/{owner}/{repo}/stargazers': {},
	'GET /user/starred': { as: 'nora' },
	'GET /users/{username}/starred': { path: '/users/nora/starred' },
	'GET /user/starred/{owner}/{repo}': { as: 'nora' },
	'GET /repos/{owner}/{repo}/subscribers': {},
	'GET /repos/{owner}/{repo}/subscription': { as: 'nora' },
	'GET /user/subscriptions': { as: 'nora' },
	'GET /users/{username}/subscriptions': { path: '/users/nora/subscriptions' },
	'GET /notifications': { as: 'mike' },
	'GET /repos/{owner}/{repo}/notifications': { as: 'mike' },
	'GET /notifications/threads/{thread_id}': { as: 'mike' },
	'GET /notifications/threads/{thread_id}/subscription': { as: 'mike' },

	// ------------------------------------------------------------------ search, markdown, miscellaneous
	'GET /search/repositories': { path: '/search/repositories?q=app' },
	'GET /search/issues': { path: '/search/issues?q=Placeholder' },
	'GET /search/users': { path: '/search/users?q=olivia' },
	'GET /search/code': { path: '/search/code?q=README+in:path+repo:acme/app' },
	'GET /search/commits': { path: '/search/commits?q=Commit+repo:acme/app' },
	'GET /emojis': {},
	// Non-JSON answers: the documented status and media type (text/plain, application/octocat-stream, text/html).
	'GET /zen': {},
	'GET /octocat': {},
	'POST /markdown': { body: { text: 'Hello **world**, see #1', mode: 'gfm', context: 'acme/app' } },
	'POST /markdown/raw': { raw: 'Hello **world**', headers: { 'Content-Type': 'text/plain' } },

	// ================================================================== writes
	// ------------------------------------------------------------------ organizations and members
	'PATCH /orgs/{org}': { body: { description: 'Anvils and more' } },
	'DELETE /orgs/{org}': {
		call: async () => {
			s.org('doomed', 'olivia');
			await must('POST', '/orgs/doomed/repos', { body: { name: 'site' } });
			return { path: '/orgs/doomed' };
		},
	},
	// Organization Actions settings, on an organization of their own (initech), so acme's Actions stay enabled.
	'PUT /orgs/{org}/actions/permissions': {
		call: async (w) => {
			s.org('initech', 'olivia');
			w.ids.initechRepo = (await must('POST', '/orgs/initech/repos', { body: { name: 'tps' } })).id;
			importRuns(s.app, s.app.stores.repos.byId(w.ids.initechRepo as number)!, {
				workflows: [{ name: 'CI', path: 'ci.yml', jobs: [{ name: 'build' }] }],
			});
			return { path: '/orgs/initech/actions/permissions', body: { enabled_repositories: 'selected', allowed_actions: 'selected' } };
		},
	},
	'GET /orgs/{org}/actions/permissions': { path: '/orgs/initech/actions/permissions' },
	'PUT /orgs/{org}/actions/permissions/repositories': {
		call: (w) => ({ path: '/orgs/initech/actions/permissions/repositories', body: { selected_repository_ids: [w.ids.initechRepo] } }),
	},
	'DELETE /orgs/{org}/actions/permissions/repositories/{repository_id}': {
		call: (w) => ({ path: `/orgs/initech/actions/permissions/repositories/${w.ids.initechRepo}` }),
	},
	'PUT /orgs/{org}/actions/permissions/repositories/{repository_id}': {
		call: (w) => ({ path: `/orgs/initech/actions/permissions/repositories/${w.ids.initechRepo}` }),
	},
	'GET /orgs/{org}/actions/permissions/repositories': { path: '/orgs/initech/actions/permissions/repositories' },
	'PUT /orgs/{org}/actions/permissions/selected-actions': {
		path: '/orgs/initech/actions/permissions/selected-actions',
		body: { github_owned_allowed: true, verified_allowed: true, patterns_allowed: ['docker/*'] },
	},
	'GET /orgs/{org}/actions/permissions/selected-actions': { path: '/orgs/initech/actions/permissions/selected-actions' },
	'PUT /orgs/{org}/actions/permissions/workflow': {
		path: '/orgs/initech/actions/permissions/workflow',
		body: { default_workflow_permissions: 'write' },
	},
	'GET /orgs/{org}/actions/permissions/workflow': { path: '/orgs/initech/actions/permissions/workflow' },
	'PUT /orgs/{org}/actions/permissions/artifact-and-log-retention': {
		path: '/orgs/initech/actions/permissions/artifact-and-log-retention',
		body: { days: 30 },
	},
	'GET /orgs/{org}/actions/permissions/artifact-and-log-retention': {
		path: '/orgs/initech/actions/permissions/artifact-and-log-retention',
	},
	'PUT /orgs/{org}/actions/permissions/fork-pr-contributor-approval': {
		path: '/orgs/initech/actions/permissions/fork-pr-contributor-approval',
		body: { approval_policy: 'all_external_contributors' },
	},
	'GET /orgs/{org}/actions/permissions/fork-pr-contributor-approval': {
		path: '/orgs/initech/actions/permissions/fork-pr-contributor-approval',
	},
	'PUT /orgs/{org}/actions/permissions/fork-pr-workflows-private-repos': {
		path: '/orgs/initech/actions/permissions/fork-pr-workflows-private-repos',
		body: { run_workflows_from_fork_pull_requests: true, send_write_tokens_to_workflows: true },
	},
	'GET /orgs/{org}/actions/permissions/fork-pr-workflows-private-repos': {
		path: '/orgs/initech/actions/permissions/fork-pr-workflows-private-repos',
	},
	'PUT /orgs/{org}/actions/permissions/self-hosted-runners': {
		path: '/orgs/initech/actions/permissions/self-hosted-runners',
		body: { enabled_repositories: 'selected' },
	},
	'GET /orgs/{org}/actions/permissions/self-hosted-runners': { path: '/orgs/initech/actions/permissions/self-hosted-runners' },
	'PUT /orgs/{org}/actions/permissions/self-hosted-runners/repositories': {
		call: (w) => ({
			path: '/orgs/initech/actions/permissions/self-hosted-runners/repositories',
			body: { selected_repository_ids: [w.ids.initechRepo] },
		}),
	},
	'DELETE /orgs/{org}/actions/permissions/self-hosted-runners/repositories/{repository_id}': {
		call: (w) => ({ path: `/orgs/initech/actions/permissions/self-hosted-runners/repositories/${w.ids.initechRepo}` }),
	},
	'PUT /orgs/{org}/actions/permissions/self-hosted-runners/repositories/{repository_id}': {
		call: (w) => ({ path: `/orgs/initech/actions/permissions/self-hosted-runners/repositories/${w.ids.initechRepo}` }),
	},
	'GET /orgs/{org}/actions/permissions/self-hosted-runners/repositories': {
		path: '/orgs/initech/actions/permissions/self-hosted-runners/repositories',
	},
	'PUT /orgs/{org}/actions/oidc/customization/sub': {
		path: '/orgs/initech/actions/oidc/customization/sub',
		body: { include_claim_keys: ['repo', 'context', 'job_workflow_ref'] },
	},
	'GET /orgs/{org}/actions/oidc/customization/sub': { path: '/orgs/initech/actions/oidc/customization/sub' },
	'GET /orgs/{org}/actions/cache/usage': { path: '/orgs/initech/actions/cache/usage' },
	'GET /orgs/{org}/actions/cache/usage-by-repository': { path: '/orgs/initech/actions/cache/usage-by-repository' },
	// Organization runner groups and runners (initech).
	'POST /orgs/{org}/actions/runner-groups': {
		call: (w) => {
			const initech = s.app.stores.accounts.organization('initech')!;
			w.ids.initechRunner = registerRunner(
				s.app,
				{ org: initech.id },
				{ name: 'tps-runner', os: 'linux', labels: ['laser'], status: 'online' },
				isoSeconds(s.clock.now),
			).id;
			return {
				path: '/orgs/initech/actions/runner-groups',
				body: { name: 'Printers', visibility: 'selected', selected_repository_ids: [w.ids.initechRepo] },
			};
		},
	},
	'GET /orgs/{org}/actions/runner-groups': { path: '/orgs/initech/actions/runner-groups' },
	'PATCH /orgs/{org}/actions/runner-groups/{runner_group_id}': {
		call: async (w) => {
			const groups = (await must('GET', '/orgs/initech/actions/runner-groups')).runner_groups;
			w.ids.initechGroup = groups.find((g: any) => g.name === 'Printers').id;
			return { path: `/orgs/initech/actions/runner-groups/${w.ids.initechGroup}`, body: { name: 'Laser printers' } };
		},
	},
	'GET /orgs/{org}/actions/runner-groups/{runner_group_id}': {
		call: (w) => ({ path: `/orgs/initech/actions/runner-groups/${w.ids.initechGroup}` }),
	},
	'PUT /orgs/{org}/actions/runner-groups/{runner_group_id}/repositories': {
		call: (w) => ({
			path: `/orgs/initech/actions/runner-groups/${w.ids.initechGroup}/repositories`,
			body: { selected_repository_ids: [w.ids.initechRepo] },
		}),
	},
	'DELETE /orgs/{org}/actions/runner-groups/{runner_group_id}/repositories/{repository_id}': {
		call: (w) => ({ path: `/orgs/initech/actions/runner-groups/${w.ids.initechGroup}/repositories/${w.ids.initechRepo}` }),
	},
	'PUT /orgs/{org}/actions/runner-groups/{runner_group_id}/repositories/{repository_id}': {
		call: (w) => ({ path: `/orgs/initech/actions/runner-groups/${w.ids.initechGroup}/repositories/${w.ids.initechRepo}` }),
	},
	'GET /orgs/{org}/actions/runner-groups/{runner_group_id}/repositories': {
		call: (w) => ({ path: `/orgs/initech/actions/runner-groups/${w.ids.initechGroup}/repositories` }),
	},
	'PUT /orgs/{org}/actions/runner-groups/{runner_group_id}/runners': {
		call: (w) => ({ path: `/orgs/initech/actions/runner-groups/${w.ids.initechGroup}/runners`, body: { runners: [] } }),
	},
	'PUT /orgs/{org}/actions/runner-groups/{runner_group_id}/runners/{runner_id}': {
		call: (w) => ({ path: `/orgs/initech/actions/runner-groups/${w.ids.initechGroup}/runners/${w.ids.initechRunner}` }),
	},
	'GET /orgs/{org}/actions/runner-groups/{runner_group_id}/runners': {
		call: (w) => ({ path: `/orgs/initech/actions/runner-groups/${w.ids.initechGroup}/runners` }),
	},
	'DELETE /orgs/{org}/actions/runner-groups/{runner_group_id}/runners/{runner_id}': {
		call: (w) => ({ path: `/orgs/initech/actions/runner-groups/${w.ids.initechGroup}/runners/${w.ids.initechRunner}` }),
	},
	'GET /orgs/{org}/actions/runners': { path: '/orgs/initech/actions/runners' },
	'GET /orgs/{org}/actions/runners/{runner_id}': { call: (w) => ({ path: `/orgs/initech/actions/runners/${w.ids.initechRunner}` }) },
	'DELETE /orgs/{org}/actions/runner-groups/{runner_group_id}': {
		call: (w) => ({ path: `/orgs/initech/actions/runner-groups/${w.ids.initechGroup}` }),
	},
	'DELETE /orgs/{org}/actions/runners/{runner_id}': { call: (w) => ({ path: `/orgs/initech/actions/runners/${w.ids.initechRunner}` }) },
	'PUT /orgs/{org}/memberships/{username}': { path: '/orgs/acme/memberships/paul', body: { role: 'member' } },
	'PATCH /user/memberships/orgs/{org}': { body: { state: 'active' }, as: 'paul' },
	'PUT /orgs/{org}/public_members/{username}': { path: '/orgs/acme/public_members/paul', as: 'paul' },
	'DELETE /orgs/{org}/public_members/{username}': { path: '/orgs/acme/public_members/paul', as: 'paul' },
	'DELETE /orgs/{org}/memberships/{username}': { path: '/orgs/acme/memberships/paul' },
	'DELETE /orgs/{org}/members/{username}': {
		call: () => {
			s.member('acme', 'quinn');
			return { path: '/orgs/acme/members/quinn' };
		},
	},
	'PUT /orgs/{org}/outside_collaborators/{username}': {
		call: async () => {
			s.member('acme', 'carl');
			await must('PUT', '/orgs/acme/teams/core/memberships/carl');
			return { path: '/orgs/acme/outside_collaborators/carl', body: {} };
		},
	},
	'DELETE /orgs/{org}/outside_collaborators/{username}': { path: '/orgs/acme/outside_collaborators/carl' },

	// ------------------------------------------------------------------ teams
	'POST /orgs/{org}/teams': { body: { name: 'Ops', privacy: 'closed', maintainers: ['mike'], repo_names: ['acme/app'] } },
	'PATCH /orgs/{org}/teams/{team_slug}': {
		call: async (w) => {
			w.ids.ops = (await must('GET', '/orgs/acme/teams/ops')).id;
			return { path: '/orgs/acme/teams/ops', body: { description: 'Runs things' } };
		},
	},
	'PATCH /teams/{team_id}': { body: { description: 'The core' } },
	'PUT /orgs/{org}/teams/{team_slug}/memberships/{username}': {
		path: '/orgs/acme/teams/core/memberships/wendy',
		body: { role: 'member' },
	},
	'DELETE /orgs/{org}/teams/{team_slug}/memberships/{username}': { path: '/orgs/acme/teams/core/memberships/wendy' },
	'PUT /teams/{team_id}/memberships/{username}': { call: (w) => ({ path: `/teams/${w.params.team_id}/memberships/wendy`, body: {} }) },
	'DELETE /teams/{team_id}/memberships/{username}': { call: (w) => ({ path: `/teams/${w.params.team_id}/memberships/wendy` }) },
	'PUT /teams/{team_id}/members/{username}': { call: (w) => ({ path: `/teams/${w.params.team_id}/members/wendy` }) },
	'DELETE /teams/{team_id}/members/{username}': { call: (w) => ({ path: `/teams/${w.params.team_id}/members/wendy` }) },
	'DELETE /orgs/{org}/teams/{team_slug}/repos/{owner}/{repo}': { path: '/orgs/acme/teams/ops/repos/acme/app' },
	'PUT /orgs/{org}/teams/{team_slug}/repos/{owner}/{repo}': { path: '/orgs/acme/teams/ops/repos/acme/app', body: { permission: 'pull' } },
	'DELETE /teams/{team_id}/repos/{owner}/{repo}': { call: (w) => ({ path: `/teams/${w.ids.ops}/repos/acme/app` }) },
	'PUT /teams/{team_id}/repos/{owner}/{repo}': {
		call: (w) => ({ path: `/teams/${w.ids.ops}/repos/acme/app`, body: { permission: 'admin' } }),
	},
	// ------------------------------------------------------------------ external groups (imported)
	'GET /orgs/{org}/external-groups': {
		call: (w) => {
			const [group] = importExternalGroups(
				s.app,
				s.app.stores.accounts.organization('acme')!,
				[
					{
						group_name: 'Platform',
						members: [
							{ member_login: 'olivia', member_name: 'Olivia', member_email: 'olivia@example.com' },
							{ member_login: 'wendy' },
						],
					},
				],
				isoSeconds(s.clock.now),
			);
			w.ids.externalGroup = group.group_id;
			return { path: '/orgs/acme/external-groups?display_name=plat' };
		},
	},
	'GET /orgs/{org}/external-group/{group_id}': { call: (w) => ({ path: `/orgs/acme/external-group/${w.ids.externalGroup}` }) },
	'PATCH /orgs/{org}/teams/{team_slug}/external-groups': {
		call: async (w) => {
			await must('POST', '/orgs/acme/teams', { body: { name: 'Linked' } });
			return { path: '/orgs/acme/teams/linked/external-groups', body: { group_id: w.ids.externalGroup } };
		},
	},
	'GET /orgs/{org}/teams/{team_slug}/external-groups': { path: '/orgs/acme/teams/linked/external-groups' },
	'DELETE /orgs/{org}/teams/{team_slug}/external-groups': { path: '/orgs/acme/teams/linked/external-groups' },
	// ------------------------------------------------------------------ roles
	'POST /orgs/{org}/custom-repository-roles': {
		call: () => ({
			path: '/orgs/acme/custom-repository-roles',
			body: { name: 'Labeler', description: 'Labels issues', base_role: 'read', permissions: ['add_label', 'remove_label'] },
		}),
	},
	'GET /orgs/{org}/custom-repository-roles': {},
	'GET /orgs/{org}/custom-repository-roles/{role_id}': {
		call: async (w) => {
			w.ids.customRole = (await must('GET', '/orgs/acme/custom-repository-roles')).custom_roles[0].id;
			return { path: `/orgs/acme/custom-repository-roles/${w.ids.customRole}` };
		},
	},
	'PATCH /orgs/{org}/custom-repository-roles/{role_id}': {
		call: (w) => ({ path: `/orgs/acme/custom-repository-roles/${w.ids.customRole}`, body: { base_role: 'triage' } }),
	},
	'GET /organizations/{organization_id}/custom_roles': {
		call: () => ({ path: `/organizations/${s.app.stores.accounts.byLogin('acme')!.id}/custom_roles` }),
	},
	'GET /orgs/{org}/repository-fine-grained-permissions': {},
	'GET /orgs/{org}/organization-roles': {},
	'GET /orgs/{org}/organization-roles/{role_id}': { path: '/orgs/acme/organization-roles/8134' },
	'PUT /orgs/{org}/organization-roles/users/{username}/{role_id}': { path: '/orgs/acme/organization-roles/users/wendy/8134' },
	'PUT /orgs/{org}/organization-roles/teams/{team_slug}/{role_id}': { path: '/orgs/acme/organization-roles/teams/core/8134' },
	'GET /orgs/{org}/organization-roles/{role_id}/users': { path: '/orgs/acme/organization-roles/8134/users' },
	'GET /orgs/{org}/organization-roles/{role_id}/teams': { path: '/orgs/acme/organization-roles/8134/teams' },
	'DELETE /orgs/{org}/organization-roles/users/{username}/{role_id}': { path: '/orgs/acme/organization-roles/users/wendy/8134' },
	'DELETE /orgs/{org}/organization-roles/users/{username}': { path: '/orgs/acme/organization-roles/users/wendy' },
	'DELETE /orgs/{org}/organization-roles/teams/{team_slug}/{role_id}': { path: '/orgs/acme/organization-roles/teams/core/8134' },
	'DELETE /orgs/{org}/organization-roles/teams/{team_slug}': { path: '/orgs/acme/organization-roles/teams/core' },
	'DELETE /orgs/{org}/custom-repository-roles/{role_id}': {
		call: (w) => ({ path: `/orgs/acme/custom-repository-roles/${w.ids.customRole}` }),
	},
	'DELETE /orgs/{org}/teams/{team_slug}': { path: '/orgs/acme/teams/ops' },
	'DELETE /teams/{team_id}': {
		call: async () => {
			const team = await must('POST', '/orgs/acme/teams', { body: { name: 'Temp' } });
			return { path: `/teams/${team.id}` };
		},
	},

	// ------------------------------------------------------------------ repositories
	'POST /orgs/{org}/repos': { body: { name: 'site' } },
	'POST /user/repos': { body: { name: 'notes' } },
	'POST /repos/{owner}/{repo}/forks': { path: '/repos/acme/site/forks', body: {}, as: 'nora' },
	'PATCH /repos/{owner}/{repo}': { path: '/repos/acme/site', body: { description: 'The web site' } },
	'PUT /user/starred/{owner}/{repo}': { path: '/user/starred/acme/site', as: 'nora' },
	'DELETE /user/starred/{owner}/{repo}': { path: '/user/starred/acme/site', as: 'nora' },
	'PUT /repos/{owner}/{repo}/subscription': { path: '/repos/acme/site/subscription', body: { subscribed: true }, as: 'nora' },
	'DELETE /repos/{owner}/{repo}/subscription': { path: '/repos/acme/site/subscription', as: 'nora' },
	'PUT /repos/{owner}/{repo}/topics': { body: { names: ['anvils', 'rockets'] } },
	'GET /repos/{owner}/{repo}/community/profile': { path: '/repos/acme/site/community/profile' },
	'GET /repos/{owner}/{repo}/vulnerability-alerts': { path: '/repos/acme/site/vulnerability-alerts' },
	'DELETE /repos/{owner}/{repo}/vulnerability-alerts': { path: '/repos/acme/site/vulnerability-alerts' },
	'PUT /repos/{owner}/{repo}/vulnerability-alerts': { path: '/repos/acme/site/vulnerability-alerts' },
	'PUT /repos/{owner}/{repo}/automated-security-fixes': { path: '/repos/acme/site/automated-security-fixes' },
	'GET /repos/{owner}/{repo}/automated-security-fixes': { path: '/repos/acme/site/automated-security-fixes' },
	'DELETE /repos/{owner}/{repo}/automated-security-fixes': { path: '/repos/acme/site/automated-security-fixes' },
	// Destructive ones on throwaway repositories of their own.
	'POST /repos/{owner}/{repo}/transfer': {
		call: async () => {
			await must('POST', '/orgs/acme/repos', { body: { name: 'moving' } });
			return { path: '/repos/acme/moving/transfer', body: { new_owner: 'olivia' } };
		},
	},
	'DELETE /repos/{owner}/{repo}': {
		call: async () => {
			await must('POST', '/orgs/acme/repos', { body: { name: 'trash' } });
			return { path: '/repos/acme/trash' };
		},
	},

	// ------------------------------------------------------------------ contents (written on the branch pages)
	'PUT /repos/{owner}/{repo}/contents/*': {
		path: '/repos/acme/app/contents/docs/README.md',
		body: { message: 'Docs', content: Buffer.from('# Docs\n').toString('base64'), branch: 'pages' },
	},
	'GET /repos/{owner}/{repo}/readme/*': { path: '/repos/acme/app/readme/docs?ref=pages' },
	'DELETE /repos/{owner}/{repo}/contents/*': {
		call: async () => {
			const file = await must('GET', '/repos/acme/app/contents/docs/README.md?ref=pages');
			return { path: '/repos/acme/app/contents/docs/README.md', body: { message: 'No docs', sha: file.sha, branch: 'pages' } };
		},
	},

	// ------------------------------------------------------------------ custom properties
	'PUT /orgs/{org}/properties/schema/{custom_property_name}': {
		path: '/orgs/acme/properties/schema/level',
		body: { value_type: 'single_select', allowed_values: ['a', 'b'] },
	},
	'PATCH /orgs/{org}/properties/schema': {
		body: {
			properties: [
				{ property_name: 'level', value_type: 'single_select', allowed_values: ['a', 'b', 'c'] },
				{ property_name: 'team', value_type: 'string' },
			],
		},
	},
	'DELETE /orgs/{org}/properties/schema/{custom_property_name}': { path: '/orgs/acme/properties/schema/team' },
	'POST /orgs/{org}/rulesets': {
		body: {
			name: 'Releases',
			target: 'tag',
			enforcement: 'evaluate',
			bypass_actors: [{ actor_id: 5, actor_type: 'RepositoryRole', bypass_mode: 'always' }],
			conditions: {
				ref_name: { include: ['refs/tags/v*'], exclude: [] },
				repository_name: { include: ['app'], exclude: [], protected: false },
			},
			rules: [
				{ type: 'deletion' },
				{ type: 'tag_name_pattern', parameters: { operator: 'starts_with', pattern: 'v', negate: false, name: 'versions' } },
			],
		},
	},
	'PUT /orgs/{org}/rulesets/{ruleset_id}': {
		call: async (w) => {
			const list = await must('GET', '/orgs/acme/rulesets');
			w.ids.releasesRuleset = list.find((r: { name: string }) => r.name === 'Releases').id;
			return {
				path: `/orgs/acme/rulesets/${w.ids.releasesRuleset}`,
				body: { enforcement: 'active', rules: [{ type: 'deletion' }, { type: 'non_fast_forward' }] },
			};
		},
	},
	'POST /repos/{owner}/{repo}/rulesets': {
		path: '/repos/acme/site/rulesets',
		body: {
			name: 'Site main',
			target: 'branch',
			enforcement: 'evaluate',
			bypass_actors: [{ actor_id: 5, actor_type: 'RepositoryRole', bypass_mode: 'always' }],
			conditions: { ref_name: { include: ['~DEFAULT_BRANCH'], exclude: [] } },
			rules: [{ type: 'deletion' }],
		},
	},
	'PUT /repos/{owner}/{repo}/rulesets/{ruleset_id}': {
		call: async (w) => {
			const list = await must('GET', '/repos/acme/site/rulesets?includes_parents=false');
			w.ids.siteRuleset = list.find((r: { name: string }) => r.name === 'Site main').id;
			return {
				path: `/repos/acme/site/rulesets/${w.ids.siteRuleset}`,
				body: { rules: [{ type: 'deletion' }, { type: 'non_fast_forward' }] },
			};
		},
	},
	'DELETE /repos/{owner}/{repo}/rulesets/{ruleset_id}': { call: (w) => ({ path: `/repos/acme/site/rulesets/${w.ids.siteRuleset}` }) },
	'DELETE /orgs/{org}/rulesets/{ruleset_id}': { call: (w) => ({ path: `/orgs/acme/rulesets/${w.ids.releasesRuleset}` }) },
	// ------------------------------------------------------------------ organization installations (enterprise owner erin, organization fleet)
	'POST /enterprises/{enterprise}/apps/organizations/{org}/installations': {
		call: async (w) => {
			// An organization of its own (acme's test installation holds permissions no real app could).
			const fleet = s.org('fleet', 'olivia', { enterprise: 'bigco' });
			for (const name of ['app', 'inst-extra']) await must('POST', '/orgs/fleet/repos', { body: { name } });
			const made = createApp(
				s.app,
				{ name: 'Enterprise installer', owner: fleet, permissions: { contents: 'read' } },
				isoSeconds(s.clock.now),
			);
			w.ids.enterpriseApp = made.app.client_id;
			return {
				path: '/enterprises/bigco/apps/organizations/fleet/installations',
				body: { client_id: made.app.client_id, repository_selection: 'selected', repositories: ['app'] },
				as: 'erin',
			};
		},
	},
	'GET /enterprises/{enterprise}/apps/installable_organizations': { as: 'erin' },
	'GET /enterprises/{enterprise}/apps/installable_organizations/{org}/accessible_repositories': {
		path: '/enterprises/bigco/apps/installable_organizations/fleet/accessible_repositories',
		as: 'erin',
	},
	'GET /enterprises/{enterprise}/apps/organizations/{org}/installations': {
		call: async (w) => {
			const list = await must('GET', '/enterprises/bigco/apps/organizations/fleet/installations', { as: 'erin' });
			w.ids.enterpriseInstallation = list.find((i: { client_id: string }) => i.client_id === w.ids.enterpriseApp).id;
			return { path: '/enterprises/bigco/apps/organizations/fleet/installations', as: 'erin' };
		},
	},
	'PATCH /enterprises/{enterprise}/apps/organizations/{org}/installations/{installation_id}/repositories/add': {
		call: (w) => ({
			path: `/enterprises/bigco/apps/organizations/fleet/installations/${w.ids.enterpriseInstallation}/repositories/add`,
			body: { repositories: ['inst-extra'] },
			as: 'erin',
		}),
	},
	'GET /enterprises/{enterprise}/apps/organizations/{org}/installations/{installation_id}/repositories': {
		call: (w) => ({
			path: `/enterprises/bigco/apps/organizations/fleet/installations/${w.ids.enterpriseInstallation}/repositories`,
			as: 'erin',
		}),
	},
	'PATCH /enterprises/{enterprise}/apps/organizations/{org}/installations/{installation_id}/repositories/remove': {
		call: (w) => ({
			path: `/enterprises/bigco/apps/organizations/fleet/installations/${w.ids.enterpriseInstallation}/repositories/remove`,
			body: { repositories: ['inst-extra'] },
			as: 'erin',
		}),
	},
	'PATCH /enterprises/{enterprise}/apps/organizations/{org}/installations/{installation_id}/repositories': {
		call: (w) => ({
			path: `/enterprises/bigco/apps/organizations/fleet/installations/${w.ids.enterpriseInstallation}/repositories`,
			body: { repository_selection: 'all' },
			as: 'erin',
		}),
	},
	'DELETE /enterprises/{enterprise}/apps/organizations/{org}/installations/{installation_id}': {
		call: (w) => ({ path: `/enterprises/bigco/apps/organizations/fleet/installations/${w.ids.enterpriseInstallation}`, as: 'erin' }),
	},
	'PUT /enterprises/{enterprise}/org-properties/schema/{custom_property_name}': {
		path: '/enterprises/bigco/org-properties/schema/zone',
		body: { value_type: 'string' },
		as: 'erin',
	},
	'PATCH /enterprises/{enterprise}/org-properties/schema': {
		body: { properties: [{ property_name: 'cost_center', value_type: 'string' }] },
		as: 'erin',
	},
	'DELETE /enterprises/{enterprise}/org-properties/schema/{custom_property_name}': {
		path: '/enterprises/bigco/org-properties/schema/cost_center',
		as: 'erin',
	},

	// ------------------------------------------------------------------ budgets, runner groups, migrations
	'POST /organizations/{org}/settings/billing/budgets': {
		body: {
			budget_amount: 50,
			prevent_further_usage: true,
			budget_scope: 'organization',
			budget_entity_name: '',
			budget_product_sku: 'packages',
		},
	},
	'PATCH /organizations/{org}/settings/billing/budgets/{budget_id}': {
		call: (w) => ({ path: `/organizations/acme/settings/billing/budgets/${w.ids.orgBudget}`, body: { budget_amount: 60 } }),
	},
	'DELETE /organizations/{org}/settings/billing/budgets/{budget_id}': {
		call: (w) => ({ path: `/organizations/acme/settings/billing/budgets/${w.ids.orgBudget}` }),
	},
	'POST /enterprises/{enterprise}/settings/billing/budgets': {
		as: 'erin',
		body: {
			budget_amount: 500,
			prevent_further_usage: false,
			budget_scope: 'enterprise',
			budget_entity_name: '',
			budget_type: 'ProductPricing',
			budget_product_sku: 'packages',
			budget_alerting: { will_alert: false, alert_recipients: [] },
		},
	},
	'PATCH /enterprises/{enterprise}/settings/billing/budgets/{budget_id}': {
		call: (w) => ({
			path: `/enterprises/bigco/settings/billing/budgets/${w.ids.enterpriseBudget}`,
			body: { budget_amount: 600 },
			as: 'erin',
		}),
	},
	'DELETE /enterprises/{enterprise}/settings/billing/budgets/{budget_id}': {
		call: (w) => ({ path: `/enterprises/bigco/settings/billing/budgets/${w.ids.enterpriseBudget}`, as: 'erin' }),
	},
	'POST /enterprises/{enterprise}/actions/runner-groups': { body: { name: 'Big iron', visibility: 'selected' }, as: 'erin' },
	'PATCH /enterprises/{enterprise}/actions/runner-groups/{runner_group_id}': { body: { name: 'Bigger iron' }, as: 'erin' },
	'PUT /enterprises/{enterprise}/actions/runner-groups/{runner_group_id}/organizations': {
		body: { selected_organization_ids: [] },
		as: 'erin',
	},
	'PUT /enterprises/{enterprise}/actions/runner-groups/{runner_group_id}/organizations/{org_id}': { as: 'erin' },
	'DELETE /enterprises/{enterprise}/actions/runner-groups/{runner_group_id}/organizations/{org_id}': { as: 'erin' },
	'PUT /enterprises/{enterprise}/actions/runner-groups/{runner_group_id}/runners': { body: { runners: [] }, as: 'erin' },
	'PUT /enterprises/{enterprise}/actions/runner-groups/{runner_group_id}/runners/{runner_id}': { as: 'erin' },
	'DELETE /enterprises/{enterprise}/actions/runner-groups/{runner_group_id}/runners/{runner_id}': { as: 'erin' },
	'DELETE /enterprises/{enterprise}/actions/runner-groups/{runner_group_id}': { as: 'erin' },
	'POST /orgs/{org}/migrations': { body: { repositories: ['site'], lock_repositories: true } },
	'DELETE /orgs/{org}/migrations/{migration_id}/archive': {},
	'DELETE /orgs/{org}/migrations/{migration_id}/repos/{repo_name}/lock': {
		call: async () => {
			const [migration] = (await must('GET', '/orgs/acme/migrations')).filter((m: any) =>
				m.repositories.some((r: any) => r.name === 'site'),
			);
			return { path: `/orgs/acme/migrations/${migration.id}/repos/site/lock` };
		},
	},

	// ------------------------------------------------------------------ webhooks and apps
	'POST /admin/hooks': {
		body: { name: 'web', config: { url: 'https://hooks.example.com/global2', content_type: 'json' }, events: ['user'] },
		as: 'root',
	},
	'PATCH /admin/hooks/{hook_id}': {
		call: (w) => ({
			path: `/admin/hooks/${w.ids.globalHook}`,
			body: { config: { url: 'https://hooks.example.com/global3' } },
			as: 'root',
		}),
	},
	'POST /admin/hooks/{hook_id}/pings': { call: (w) => ({ path: `/admin/hooks/${w.ids.globalHook}/pings`, as: 'root' }) },
	'DELETE /admin/hooks/{hook_id}': { call: (w) => ({ path: `/admin/hooks/${w.ids.globalHook}`, as: 'root' }) },
	'POST /orgs/{org}/hooks': { body: { name: 'web', config: { url: 'https://hooks.example.com/second' }, events: ['push'] } },
	'PATCH /orgs/{org}/hooks/{hook_id}': {
		call: (w) => ({ path: `/orgs/acme/hooks/${w.ids.orgHook}`, body: { events: ['push', 'issues'] } }),
	},
	'PATCH /orgs/{org}/hooks/{hook_id}/config': {
		call: (w) => ({ path: `/orgs/acme/hooks/${w.ids.orgHook}/config`, body: { content_type: 'json' } }),
	},
	'POST /orgs/{org}/hooks/{hook_id}/pings': { call: (w) => ({ path: `/orgs/acme/hooks/${w.ids.orgHook}/pings` }) },
	'POST /orgs/{org}/hooks/{hook_id}/deliveries/{delivery_id}/attempts': {
		call: (w) => ({ path: `/orgs/acme/hooks/${w.ids.orgHook}/deliveries/${lastDelivery(Number(w.ids.orgHook))}/attempts` }),
	},
	'DELETE /orgs/{org}/hooks/{hook_id}': { call: (w) => ({ path: `/orgs/acme/hooks/${w.ids.orgHook}` }) },
	'POST /repos/{owner}/{repo}/hooks': { body: { name: 'web', config: { url: 'https://hooks.example.com/repo2' }, events: ['push'] } },
	'PATCH /repos/{owner}/{repo}/hooks/{hook_id}': {
		call: (w) => ({ path: `/repos/acme/app/hooks/${w.ids.repoHook}`, body: { add_events: ['issues'] } }),
	},
	'PATCH /repos/{owner}/{repo}/hooks/{hook_id}/config': {
		call: (w) => ({ path: `/repos/acme/app/hooks/${w.ids.repoHook}/config`, body: { content_type: 'json' } }),
	},
	'POST /repos/{owner}/{repo}/hooks/{hook_id}/pings': { call: (w) => ({ path: `/repos/acme/app/hooks/${w.ids.repoHook}/pings` }) },
	'POST /repos/{owner}/{repo}/hooks/{hook_id}/tests': { call: (w) => ({ path: `/repos/acme/app/hooks/${w.ids.repoHook}/tests` }) },
	'POST /repos/{owner}/{repo}/hooks/{hook_id}/deliveries/{delivery_id}/attempts': {
		call: (w) => ({ path: `/repos/acme/app/hooks/${w.ids.repoHook}/deliveries/${lastDelivery(Number(w.ids.repoHook))}/attempts` }),
	},
	'DELETE /repos/{owner}/{repo}/hooks/{hook_id}': { call: (w) => ({ path: `/repos/acme/app/hooks/${w.ids.repoHook}` }) },
	'POST /app/installations/{installation_id}/access_tokens': { body: {}, as: 'app' },
	'DELETE /installation/token': {
		call: async (w) => {
			const created = await s.request('POST', `/app/installations/${w.params.installation_id}/access_tokens`, {
				body: {},
				token: appJwt(),
			});
			return { path: '/installation/token', headers: { Authorization: `Bearer ${created.body.token}` }, as: 'anonymous' };
		},
	},
	'PATCH /app/hook/config': { body: { content_type: 'json', insecure_ssl: '0', secret: 'shh' }, as: 'app' },
	'POST /app/hook/deliveries/{delivery_id}/attempts': {
		call: async () => ({
			path: `/app/hook/deliveries/${(await must('GET', '/app/hook/deliveries', { as: 'app' }))[0].id}/attempts`,
			as: 'app',
		}),
	},
	'PUT /app/installations/{installation_id}/suspended': {
		call: (w) => ({ path: `/app/installations/${w.ids.toolsInstallation}/suspended`, as: 'app' }),
	},
	'DELETE /app/installations/{installation_id}/suspended': {
		call: (w) => ({ path: `/app/installations/${w.ids.toolsInstallation}/suspended`, as: 'app' }),
	},
	'DELETE /app/installations/{installation_id}': { as: 'app' },

	// ------------------------------------------------------------------ git database
	'POST /repos/{owner}/{repo}/git/blobs': { body: { content: 'hello', encoding: 'utf-8' } },
	'POST /repos/{owner}/{repo}/git/trees': { body: { tree: [{ path: 'NOTES', mode: '100644', type: 'blob', content: 'notes' }] } },
	'POST /repos/{owner}/{repo}/git/commits': {
		call: async (w) => {
			const tree = await must('POST', '/repos/acme/app/git/trees', {
				body: { tree: [{ path: 'README', mode: '100644', type: 'blob', content: 'three' }] },
			});
			return { body: { message: 'Commit three', tree: tree.sha, parents: [w.commits.two] } };
		},
	},
	'POST /repos/{owner}/{repo}/git/tags': {
		call: (w) => ({
			body: {
				tag: 'v2',
				message: 'Second',
				object: w.commits.two,
				type: 'commit',
				tagger: { name: 'Olivia', email: 'olivia@example.com', date: '2026-11-22T12:00:00Z' },
			},
		}),
	},
	'POST /repos/{owner}/{repo}/git/refs': { call: (w) => ({ body: { ref: 'refs/heads/other', sha: w.commits.one } }) },
	'PATCH /repos/{owner}/{repo}/git/refs/*': {
		call: (w) => ({ path: '/repos/acme/app/git/refs/heads/other', body: { sha: w.commits.two } }),
	},
	'DELETE /repos/{owner}/{repo}/git/refs/*': { path: '/repos/acme/app/git/refs/heads/other' },

	// ------------------------------------------------------------------ actions secrets and variables
	'PUT /repos/{owner}/{repo}/actions/secrets/{secret_name}': { call: () => sealed('/repos/acme/app/actions', 'NEW_SECRET') },
	'DELETE /repos/{owner}/{repo}/actions/secrets/{secret_name}': { path: '/repos/acme/app/actions/secrets/NEW_SECRET' },
	'POST /repos/{owner}/{repo}/actions/variables': { body: { name: 'NEW_VARIABLE', value: 'one' } },
	'PATCH /repos/{owner}/{repo}/actions/variables/{name}': {
		path: '/repos/acme/app/actions/variables/NEW_VARIABLE',
		body: { value: 'two' },
	},
	'DELETE /repos/{owner}/{repo}/actions/variables/{name}': { path: '/repos/acme/app/actions/variables/NEW_VARIABLE' },
	'PUT /repos/{owner}/{repo}/environments/{environment_name}/secrets/{secret_name}': {
		call: () => sealed('/repos/acme/app/environments/production', 'NEW_SECRET'),
	},
	'DELETE /repos/{owner}/{repo}/environments/{environment_name}/secrets/{secret_name}': {
		path: '/repos/acme/app/environments/production/secrets/NEW_SECRET',
	},
	'POST /repos/{owner}/{repo}/environments/{environment_name}/variables': { body: { name: 'NEW_VARIABLE', value: 'one' } },
	'PATCH /repos/{owner}/{repo}/environments/{environment_name}/variables/{name}': {
		path: '/repos/acme/app/environments/production/variables/NEW_VARIABLE',
		body: { value: 'two' },
	},
	'DELETE /repos/{owner}/{repo}/environments/{environment_name}/variables/{name}': {
		path: '/repos/acme/app/environments/production/variables/NEW_VARIABLE',
	},
	'PUT /orgs/{org}/actions/secrets/{secret_name}': { call: () => sealed('/orgs/acme/actions', 'NEW_SECRET', { visibility: 'selected' }) },
	'PUT /orgs/{org}/actions/secrets/{secret_name}/repositories': {
		call: async () => ({
			path: '/orgs/acme/actions/secrets/NEW_SECRET/repositories',
			body: { selected_repository_ids: [await repoId('docs')] },
		}),
	},
	'PUT /orgs/{org}/actions/secrets/{secret_name}/repositories/{repository_id}': {
		call: async () => ({ path: `/orgs/acme/actions/secrets/NEW_SECRET/repositories/${await repoId('app')}` }),
	},
	'DELETE /orgs/{org}/actions/secrets/{secret_name}/repositories/{repository_id}': {
		call: async () => ({ path: `/orgs/acme/actions/secrets/NEW_SECRET/repositories/${await repoId('app')}` }),
	},
	'DELETE /orgs/{org}/actions/secrets/{secret_name}': { path: '/orgs/acme/actions/secrets/NEW_SECRET' },
	'POST /orgs/{org}/actions/variables': {
		body: { name: 'NEW_VARIABLE', value: 'one', visibility: 'selected', selected_repository_ids: [] },
	},
	'PATCH /orgs/{org}/actions/variables/{name}': { path: '/orgs/acme/actions/variables/NEW_VARIABLE', body: { value: 'two' } },
	'PUT /orgs/{org}/actions/variables/{name}/repositories': {
		call: async () => ({
			path: '/orgs/acme/actions/variables/NEW_VARIABLE/repositories',
			body: { selected_repository_ids: [await repoId('docs')] },
		}),
	},
	'PUT /orgs/{org}/actions/variables/{name}/repositories/{repository_id}': {
		call: async () => ({ path: `/orgs/acme/actions/variables/NEW_VARIABLE/repositories/${await repoId('app')}` }),
	},
	'DELETE /orgs/{org}/actions/variables/{name}/repositories/{repository_id}': {
		call: async () => ({ path: `/orgs/acme/actions/variables/NEW_VARIABLE/repositories/${await repoId('app')}` }),
	},
	'DELETE /orgs/{org}/actions/variables/{name}': { path: '/orgs/acme/actions/variables/NEW_VARIABLE' },

	// ------------------------------------------------------------------ deployments and environments
	'POST /repos/{owner}/{repo}/deployments': { body: { ref: 'main', environment: 'qa', required_contexts: [] } },
	'POST /repos/{owner}/{repo}/deployments/{deployment_id}/statuses': {
		body: { state: 'success', environment_url: 'https://app.example.com' },
	},
	'DELETE /repos/{owner}/{repo}/deployments/{deployment_id}': {
		call: async () => {
			const deployment = await must('POST', '/repos/acme/app/deployments', {
				body: { ref: 'main', environment: 'qa2', required_contexts: [] },
			});
			await must('POST', `/repos/acme/app/deployments/${deployment.id}/statuses`, { body: { state: 'failure' } });
			return { path: `/repos/acme/app/deployments/${deployment.id}` };
		},
	},
	'PUT /repos/{owner}/{repo}/environments/{environment_name}': {
		path: '/repos/acme/app/environments/staging',
		body: { deployment_branch_policy: { protected_branches: false, custom_branch_policies: true } },
	},
	'POST /repos/{owner}/{repo}/environments/{environment_name}/deployment-branch-policies': {
		path: '/repos/acme/app/environments/staging/deployment-branch-policies',
		body: { name: 'release/*', type: 'branch' },
	},
	'PUT /repos/{owner}/{repo}/environments/{environment_name}/deployment-branch-policies/{branch_policy_id}': {
		call: async (w) => {
			const [policy] = (await must('GET', '/repos/acme/app/environments/staging/deployment-branch-policies')).branch_policies;
			w.ids.stagingPolicy = policy.id;
			return { path: `/repos/acme/app/environments/staging/deployment-branch-policies/${policy.id}`, body: { name: 'releases/*' } };
		},
	},
	'DELETE /repos/{owner}/{repo}/environments/{environment_name}/deployment-branch-policies/{branch_policy_id}': {
		call: (w) => ({ path: `/repos/acme/app/environments/staging/deployment-branch-policies/${w.ids.stagingPolicy}` }),
	},
	'DELETE /repos/{owner}/{repo}/environments/{environment_name}': { path: '/repos/acme/app/environments/staging' },

	// ------------------------------------------------------------------ actions
	'PUT /repos/{owner}/{repo}/actions/workflows/{workflow_id}/disable': {},
	'PUT /repos/{owner}/{repo}/actions/workflows/{workflow_id}/enable': {},
	'POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches': { body: { ref: 'main' } },
	'POST /repos/{owner}/{repo}/actions/runs/{run_id}/cancel': {
		call: async (w) => {
			const [run] = (await must('GET', '/repos/acme/app/actions/runs?status=queued')).workflow_runs;
			w.ids.dispatched = run.id;
			return { path: `/repos/acme/app/actions/runs/${run.id}/cancel` };
		},
	},
	'POST /repos/{owner}/{repo}/actions/runs/{run_id}/rerun': {
		call: (w) => ({ path: `/repos/acme/app/actions/runs/${w.ids.dispatched}/rerun`, body: {} }),
	},
	'POST /repos/{owner}/{repo}/actions/jobs/{job_id}/rerun': {
		call: async (w) => {
			await must('POST', `/repos/acme/app/actions/runs/${w.ids.dispatched}/cancel`);
			const [job] = (await must('GET', `/repos/acme/app/actions/runs/${w.ids.dispatched}/jobs`)).jobs;
			return { path: `/repos/acme/app/actions/jobs/${job.id}/rerun`, body: {} };
		},
	},

	// ------------------------------------------------------------------ issues, comments, labels
	'POST /repos/{owner}/{repo}/milestones': { body: { title: 'v2.0', description: 'Next', due_on: '2026-12-31T00:00:00Z' } },
	'PATCH /repos/{owner}/{repo}/milestones/{milestone_number}': { path: '/repos/acme/app/milestones/2', body: { state: 'closed' } },
	'DELETE /repos/{owner}/{repo}/milestones/{milestone_number}': { path: '/repos/acme/app/milestones/2' },
	'POST /repos/{owner}/{repo}/issues/{issue_number}/reactions': { body: { content: 'heart' } },
	'DELETE /repos/{owner}/{repo}/issues/{issue_number}/reactions/{reaction_id}': {
		call: async () => {
			const reactions = await must('GET', '/repos/acme/app/issues/1/reactions?content=heart');
			return { path: `/repos/acme/app/issues/1/reactions/${reactions[0].id}` };
		},
	},
	'POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions': { body: { content: 'rocket' } },
	'DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions/{reaction_id}': {
		call: async (w) => {
			const reactions = await must('GET', `/repos/acme/app/issues/comments/${w.params.comment_id}/reactions?content=rocket`);
			return { path: `/repos/acme/app/issues/comments/${w.params.comment_id}/reactions/${reactions[0].id}` };
		},
	},
	'POST /repos/{owner}/{repo}/labels': { body: { name: 'flaky', color: 'd73a4a' } },
	'PATCH /repos/{owner}/{repo}/labels/{name}': { path: '/repos/acme/app/labels/flaky', body: { color: 'ee0701' } },
	'POST /repos/{owner}/{repo}/issues': { body: { title: 'It breaks', labels: ['bug'], assignees: ['olivia'] } },
	'PATCH /repos/{owner}/{repo}/issues/{issue_number}': { body: { title: 'It breaks badly', state: 'closed' } },
	'POST /repos/{owner}/{repo}/pulls': {
		call: async (w) => {
			await must('POST', '/repos/acme/app/git/refs', { body: { ref: 'refs/heads/pr-head', sha: w.commits.two } });
			return { body: { title: 'Another change', head: 'acme:pr-head', base: 'main', body: 'Please pull', draft: true } };
		},
	},
	'PATCH /repos/{owner}/{repo}/pulls/{pull_number}': { body: { title: 'Change the second commit', body: 'Edited' } },
	'POST /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers': {
		path: '/repos/acme/app/pulls/2/requested_reviewers',
		body: { reviewers: ['mike'], team_reviewers: ['core'] },
	},
	'DELETE /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers': {
		path: '/repos/acme/app/pulls/2/requested_reviewers',
		body: { reviewers: ['mike'] },
	},
	'POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews': {
		path: '/repos/acme/app/pulls/2/reviews',
		body: { event: 'COMMENT', body: 'Reads well' },
	},
	'PUT /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}': {
		call: async () => {
			const review = await must('POST', '/repos/acme/app/pulls/2/reviews', { body: { event: 'COMMENT', body: 'Reads' } });
			return { path: `/repos/acme/app/pulls/2/reviews/${review.id}`, body: { body: 'Reads very well' } };
		},
	},
	'DELETE /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}': {
		call: async () => {
			const review = await must('POST', '/repos/acme/app/pulls/2/reviews', { body: { body: 'Draft' } });
			return { path: `/repos/acme/app/pulls/2/reviews/${review.id}` };
		},
	},
	'POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/events': {
		call: async () => {
			const review = await must('POST', '/repos/acme/app/pulls/2/reviews', { body: { body: 'Second look' } });
			return { path: `/repos/acme/app/pulls/2/reviews/${review.id}/events`, body: { event: 'COMMENT' } };
		},
	},
	'PUT /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/dismissals': {
		call: async () => {
			const review = await must('POST', '/repos/acme/app/pulls/2/reviews', { body: { event: 'APPROVE' }, as: 'mike' });
			return { path: `/repos/acme/app/pulls/2/reviews/${review.id}/dismissals`, body: { message: 'Stale' } };
		},
	},
	'POST /repos/{owner}/{repo}/pulls/{pull_number}/comments': {
		call: async () => {
			const [file] = await must('GET', '/repos/acme/app/pulls/2/files');
			const head = (await must('GET', '/repos/acme/app/pulls/2')).head.sha;
			return {
				path: '/repos/acme/app/pulls/2/comments',
				body: { body: 'On the line', commit_id: head, path: file.filename, line: 1, side: 'RIGHT' },
			};
		},
	},
	'POST /repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies': {
		call: (w) => ({ path: `/repos/acme/app/pulls/2/comments/${w.ids.reviewComment}/replies`, body: { body: 'A reply' } }),
	},
	'PATCH /repos/{owner}/{repo}/pulls/comments/{comment_id}': {
		call: (w) => ({ path: `/repos/acme/app/pulls/comments/${w.ids.reviewComment}`, body: { body: 'Inline, edited' } }),
	},
	'DELETE /repos/{owner}/{repo}/pulls/comments/{comment_id}': {
		call: async (w) => {
			const reply = await must('POST', `/repos/acme/app/pulls/2/comments/${w.ids.reviewComment}/replies`, {
				body: { body: 'To delete' },
			});
			return { path: `/repos/acme/app/pulls/comments/${reply.id}` };
		},
	},
	'PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge': {
		// A pull request of its own (main stays put): topic's second commit into a branch at the first.
		call: async (w) => {
			await must('POST', '/repos/acme/app/git/refs', { body: { ref: 'refs/heads/merge-base', sha: w.commits.one } });
			await must('POST', '/repos/acme/app/git/refs', { body: { ref: 'refs/heads/merge-head', sha: w.commits.two } });
			const pr = await must('POST', '/repos/acme/app/pulls', { body: { title: 'Merge me', head: 'merge-head', base: 'merge-base' } });
			return { path: `/repos/acme/app/pulls/${pr.number}/merge`, body: { merge_method: 'merge', sha: w.commits.two } };
		},
	},
	'PUT /repos/{owner}/{repo}/pulls/{pull_number}/update-branch': {
		// The base (merge-base, merged above) has a commit the head lacks.
		call: async (w) => {
			await must('POST', '/repos/acme/app/git/refs', { body: { ref: 'refs/heads/update-head', sha: w.commits.one } });
			const baseTree = (await must('GET', `/repos/acme/app/git/commits/${w.commits.one}`)).tree.sha;
			const tree = await must('POST', '/repos/acme/app/git/trees', {
				body: { base_tree: baseTree, tree: [{ path: 'UPDATE.md', mode: '100644', type: 'blob', content: 'update' }] },
			});
			const commit = await must('POST', '/repos/acme/app/git/commits', {
				body: { message: 'Update', tree: tree.sha, parents: [w.commits.one] },
			});
			await must('PATCH', '/repos/acme/app/git/refs/heads/update-head', { body: { sha: commit.sha } });
			const pr = await must('POST', '/repos/acme/app/pulls', {
				body: { title: 'Update me', head: 'update-head', base: 'merge-base' },
			});
			return { path: `/repos/acme/app/pulls/${pr.number}/update-branch`, body: { expected_head_sha: commit.sha } };
		},
	},
	'PUT /repos/{owner}/{repo}/issues/{issue_number}/lock': { body: { lock_reason: 'resolved' } },
	'DELETE /repos/{owner}/{repo}/issues/{issue_number}/lock': {},
	'POST /repos/{owner}/{repo}/issues/{issue_number}/labels': { body: { labels: ['flaky'] } },
	'PUT /repos/{owner}/{repo}/issues/{issue_number}/labels': { body: { labels: ['bug', 'flaky'] } },
	'DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}': { path: '/repos/acme/app/issues/1/labels/flaky' },
	'DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels': {},
	'POST /repos/{owner}/{repo}/issues/{issue_number}/assignees': { body: { assignees: ['mike'] } },
	'DELETE /repos/{owner}/{repo}/issues/{issue_number}/assignees': { body: { assignees: ['mike'] } },
	'POST /repos/{owner}/{repo}/issues/{issue_number}/comments': { body: { body: 'Looking into it' } },
	'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}': { body: { body: 'Fixed in main' } },
	'DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}': {},
	'DELETE /repos/{owner}/{repo}/labels/{name}': { path: '/repos/acme/app/labels/flaky' },

	// ------------------------------------------------------------------ gists
	'POST /gists': { body: { files: { 'b.txt': { content: 'hello' } }, public: true } },
	'PATCH /gists/{gist_id}': { body: { description: 'Greeting' } },
	'POST /gists/{gist_id}/comments': { body: { body: 'Nice' } },
	'PATCH /gists/{gist_id}/comments/{comment_id}': {
		call: (w) => ({ path: `/gists/${w.params.gist_id}/comments/${w.ids.gistComment}`, body: { body: 'Very nice' } }),
	},
	'DELETE /gists/{gist_id}/comments/{comment_id}': {
		call: (w) => ({ path: `/gists/${w.params.gist_id}/comments/${w.ids.gistComment}` }),
	},
	'PUT /gists/{gist_id}/star': {},
	'GET /gists/{gist_id}/star': {},
	'GET /gists/starred': {},
	'DELETE /gists/{gist_id}/star': {},
	'POST /gists/{gist_id}/forks': { as: 'nora' },
	'GET /gists/{gist_id}/forks': {},
	'GET /gists/{gist_id}/commits': {},
	'GET /gists/{gist_id}/{sha}': {
		call: async (w) => {
			const [first] = await must('GET', `/gists/${w.params.gist_id}/commits`);
			return { path: `/gists/${w.params.gist_id}/${first.version}` };
		},
	},
	'DELETE /gists/{gist_id}': {},

	// ------------------------------------------------------------------ dependency graph and Dependabot
	'POST /repos/{owner}/{repo}/dependency-graph/snapshots': {
		call: (w) => ({ body: snapshot(w.commits.one, 'refs/heads/main', { lodash: '4.17.11', minimist: '1.2.0' }) }),
	},
	'PATCH /repos/{owner}/{repo}/dependabot/alerts/{alert_number}': { body: { state: 'dismissed', dismissed_reason: 'tolerable_risk' } },
	'PATCH /repos/{owner}/{repo}/depbot/alerts/{alert_number}': { body: { state: 'open' } },
	'PATCH /repos/{owner}/{repo}/dismissal-requests/dependabot/{alert_number}': {
		path: '/repos/acme/app/dismissal-requests/dependabot/2',
		body: { status: 'deny', message: 'Fix it instead' },
	},
	'POST /repos/{owner}/{repo}/dismissal-requests/dependabot/{alert_number}': {
		path: '/repos/acme/app/dismissal-requests/dependabot/2',
		body: { dismissed_reason: 'not_used' },
		as: 'mike',
	},
	'DELETE /repos/{owner}/{repo}/dismissal-requests/dependabot/{alert_number}': {
		path: '/repos/acme/app/dismissal-requests/dependabot/2',
		as: 'mike',
	},
	'POST /repos/{owner}/{repo}/dismissal-requests/depbot/{alert_number}': {
		path: '/repos/acme/app/dismissal-requests/depbot/2',
		body: { dismissed_reason: 'inaccurate' },
		as: 'mike',
	},
	'PATCH /repos/{owner}/{repo}/dismissal-requests/depbot/{alert_number}': {
		path: '/repos/acme/app/dismissal-requests/depbot/2',
		body: { status: 'approve', message: 'Inaccurate indeed' },
	},
	'DELETE /repos/{owner}/{repo}/dismissal-requests/depbot/{alert_number}': {
		call: async () => {
			await must('POST', '/repos/acme/app/dismissal-requests/depbot/1', { body: { dismissed_reason: 'not_used' }, as: 'mike' });
			return { path: '/repos/acme/app/dismissal-requests/depbot/1', as: 'mike' };
		},
	},

	// ================================================================== i10-openapi3: collaborators and invitations, branches and
	// protection, commits, statuses, checks, releases (after the other writes: each group makes what it reads first)
	// ------------------------------------------------------------------ collaborators and repository invitations
	'GET /repos/{owner}/{repo}/collaborators': {},
	'GET /repos/{owner}/{repo}/collaborators/{username}': { path: '/repos/acme/app/collaborators/mike' },
	'GET /repos/{owner}/{repo}/collaborators/{username}/permission': { path: '/repos/acme/app/collaborators/mike/permission' },
	'PUT /repos/{owner}/{repo}/collaborators/{username}': { path: '/repos/acme/app/collaborators/nora', body: { permission: 'push' } },
	'GET /repos/{owner}/{repo}/invitations': {},
	'GET /user/repository_invitations': { as: 'nora' },
	'PATCH /repos/{owner}/{repo}/invitations/{invitation_id}': {
		call: async (w) => {
			w.ids.noraInvitation = (await must('GET', '/repos/acme/app/invitations')).find((i: any) => i.invitee.login === 'nora').id;
			return { path: `/repos/acme/app/invitations/${w.ids.noraInvitation}`, body: { permissions: 'maintain' } };
		},
	},
	'PATCH /user/repository_invitations/{invitation_id}': {
		call: (w) => ({ path: `/user/repository_invitations/${w.ids.noraInvitation}`, as: 'nora' }),
	},
	'DELETE /repos/{owner}/{repo}/invitations/{invitation_id}': {
		call: async () => {
			const invitation = await must('PUT', '/repos/acme/app/collaborators/paul', { body: {} });
			return { path: `/repos/acme/app/invitations/${invitation.id}` };
		},
	},
	'PATCH /user': { as: 'nora', body: { bio: 'Writes the docs', location: 'Paris', blog: 'https://nora.example' } },
	'DELETE /user/repository_invitations/{invitation_id}': {
		call: async () => {
			const invitation = await must('PUT', '/repos/acme/app/collaborators/quinn', { body: { permission: 'pull' } });
			return { path: `/user/repository_invitations/${invitation.id}`, as: 'quinn' };
		},
	},
	'DELETE /repos/{owner}/{repo}/collaborators/{username}': { path: '/repos/acme/app/collaborators/nora' },

	// ------------------------------------------------------------------ branches and branch protection (on the branch guarded)
	'GET /repos/{owner}/{repo}/branches': {},
	'GET /repos/{owner}/{repo}/branches/{branch}': { path: '/repos/acme/app/branches/main' },
	'POST /repos/{owner}/{repo}/branches/{branch}/rename': {
		call: async (w) => {
			await must('POST', '/repos/acme/app/git/refs', { body: { ref: 'refs/heads/old-name', sha: w.commits.one } });
			return { path: '/repos/acme/app/branches/old-name/rename', body: { new_name: 'new-name' } };
		},
	},
	'PUT /repos/{owner}/{repo}/branches/{branch}/protection': {
		call: async (w) => {
			await must('POST', '/repos/acme/app/git/refs', { body: { ref: 'refs/heads/guarded', sha: w.commits.one } });
			return {
				path: '/repos/acme/app/branches/guarded/protection',
				body: {
					required_status_checks: { strict: true, contexts: ['ci/build'] },
					enforce_admins: true,
					required_pull_request_reviews: {
						dismissal_restrictions: { users: ['mike'], teams: ['core'] },
						require_code_owner_reviews: true,
						required_approving_review_count: 2,
					},
					restrictions: { users: ['mike'], teams: ['core'], apps: ['walker'] },
					required_linear_history: true,
				},
			};
		},
	},
	'GET /repos/{owner}/{repo}/branches/{branch}/protection': { path: '/repos/acme/app/branches/guarded/protection' },
	'GET /repos/{owner}/{repo}/branches/{branch}/protection/enforce_admins': {
		path: '/repos/acme/app/branches/guarded/protection/enforce_admins',
	},
	'GET /repos/{owner}/{repo}/branches/{branch}/protection/required_pull_request_reviews': {
		path: '/repos/acme/app/branches/guarded/protection/required_pull_request_reviews',
	},
	'GET /repos/{owner}/{repo}/branches/{branch}/protection/required_status_checks': {
		path: '/repos/acme/app/branches/guarded/protection/required_status_checks',
	},
	'GET /repos/{owner}/{repo}/branches/{branch}/protection/required_status_checks/contexts': {
		path: '/repos/acme/app/branches/guarded/protection/required_status_checks/contexts',
	},
	'GET /repos/{owner}/{repo}/branches/{branch}/protection/restrictions': {
		path: '/repos/acme/app/branches/guarded/protection/restrictions',
	},
	'GET /repos/{owner}/{repo}/branches/{branch}/protection/restrictions/users': {
		path: '/repos/acme/app/branches/guarded/protection/restrictions/users',
	},
	'GET /repos/{owner}/{repo}/branches/{branch}/protection/restrictions/teams': {
		path: '/repos/acme/app/branches/guarded/protection/restrictions/teams',
	},
	'GET /repos/{owner}/{repo}/branches/{branch}/protection/restrictions/apps': {
		path: '/repos/acme/app/branches/guarded/protection/restrictions/apps',
	},
	'POST /repos/{owner}/{repo}/branches/{branch}/protection/required_signatures': {
		path: '/repos/acme/app/branches/guarded/protection/required_signatures',
	},
	'GET /repos/{owner}/{repo}/branches/{branch}/protection/required_signatures': {
		path: '/repos/acme/app/branches/guarded/protection/required_signatures',
	},
	'DELETE /repos/{owner}/{repo}/branches/{branch}/protection/required_signatures': {
		path: '/repos/acme/app/branches/guarded/protection/required_signatures',
	},
	'DELETE /repos/{owner}/{repo}/branches/{branch}/protection/enforce_admins': {
		path: '/repos/acme/app/branches/guarded/protection/enforce_admins',
	},
	'POST /repos/{owner}/{repo}/branches/{branch}/protection/enforce_admins': {
		path: '/repos/acme/app/branches/guarded/protection/enforce_admins',
	},
	'PATCH /repos/{owner}/{repo}/branches/{branch}/protection/required_pull_request_reviews': {
		path: '/repos/acme/app/branches/guarded/protection/required_pull_request_reviews',
		body: { dismiss_stale_reviews: true, required_approving_review_count: 1 },
	},
	'PATCH /repos/{owner}/{repo}/branches/{branch}/protection/required_status_checks': {
		path: '/repos/acme/app/branches/guarded/protection/required_status_checks',
		body: { strict: false, checks: [{ context: 'ci/build' }, { context: 'lint', app_id: -1 }] },
	},
	'POST /repos/{owner}/{repo}/branches/{branch}/protection/required_status_checks/contexts': {
		path: '/repos/acme/app/branches/guarded/protection/required_status_checks/contexts',
		body: { contexts: ['ci/test'] },
	},
	'PUT /repos/{owner}/{repo}/branches/{branch}/protection/required_status_checks/contexts': {
		path: '/repos/acme/app/branches/guarded/protection/required_status_checks/contexts',
		body: { contexts: ['ci/build', 'ci/test', 'ci/deploy'] },
	},
	'DELETE /repos/{owner}/{repo}/branches/{branch}/protection/required_status_checks/contexts': {
		path: '/repos/acme/app/branches/guarded/protection/required_status_checks/contexts',
		body: { contexts: ['ci/deploy'] },
	},
	'POST /repos/{owner}/{repo}/branches/{branch}/protection/restrictions/users': {
		path: '/repos/acme/app/branches/guarded/protection/restrictions/users',
		body: { users: ['olivia'] },
	},
	'PUT /repos/{owner}/{repo}/branches/{branch}/protection/restrictions/users': {
		path: '/repos/acme/app/branches/guarded/protection/restrictions/users',
		body: { users: ['mike', 'olivia'] },
	},
	'DELETE /repos/{owner}/{repo}/branches/{branch}/protection/restrictions/users': {
		path: '/repos/acme/app/branches/guarded/protection/restrictions/users',
		body: { users: ['olivia'] },
	},
	'POST /repos/{owner}/{repo}/branches/{branch}/protection/restrictions/teams': {
		path: '/repos/acme/app/branches/guarded/protection/restrictions/teams',
		body: { teams: ['core-child'] },
	},
	'PUT /repos/{owner}/{repo}/branches/{branch}/protection/restrictions/teams': {
		path: '/repos/acme/app/branches/guarded/protection/restrictions/teams',
		body: { teams: ['core', 'core-child'] },
	},
	'DELETE /repos/{owner}/{repo}/branches/{branch}/protection/restrictions/teams': {
		path: '/repos/acme/app/branches/guarded/protection/restrictions/teams',
		body: { teams: ['core-child'] },
	},
	'POST /repos/{owner}/{repo}/branches/{branch}/protection/restrictions/apps': {
		path: '/repos/acme/app/branches/guarded/protection/restrictions/apps',
		body: { apps: ['walker'] },
	},
	'PUT /repos/{owner}/{repo}/branches/{branch}/protection/restrictions/apps': {
		path: '/repos/acme/app/branches/guarded/protection/restrictions/apps',
		body: { apps: ['walker'] },
	},
	'DELETE /repos/{owner}/{repo}/branches/{branch}/protection/restrictions/apps': {
		path: '/repos/acme/app/branches/guarded/protection/restrictions/apps',
		body: { apps: ['walker'] },
	},
	'DELETE /repos/{owner}/{repo}/branches/{branch}/protection/restrictions': {
		path: '/repos/acme/app/branches/guarded/protection/restrictions',
	},
	'DELETE /repos/{owner}/{repo}/branches/{branch}/protection/required_status_checks': {
		path: '/repos/acme/app/branches/guarded/protection/required_status_checks',
	},
	'DELETE /repos/{owner}/{repo}/branches/{branch}/protection/required_pull_request_reviews': {
		path: '/repos/acme/app/branches/guarded/protection/required_pull_request_reviews',
	},
	'DELETE /repos/{owner}/{repo}/branches/{branch}/protection': { path: '/repos/acme/app/branches/guarded/protection' },

	// ------------------------------------------------------------------ commits, compare, tags
	'GET /repos/{owner}/{repo}/commits': { path: '/repos/acme/app/commits?sha=topic' },
	'GET /repos/{owner}/{repo}/commits/{ref}': { path: '/repos/acme/app/commits/topic' },
	'GET /repos/{owner}/{repo}/commits/{commit_sha}/branches-where-head': {},
	'GET /repos/{owner}/{repo}/compare/{basehead}': { path: '/repos/acme/app/compare/main...topic' },
	'GET /repos/{owner}/{repo}/tags': {},

	// ------------------------------------------------------------------ commit statuses
	'POST /repos/{owner}/{repo}/statuses/{sha}': {
		call: (w) => ({
			path: `/repos/acme/app/statuses/${w.commits.one}`,
			body: { state: 'success', context: 'ci/build', description: 'Built', target_url: 'https://ci.example.com/build/1' },
		}),
	},
	'GET /repos/{owner}/{repo}/commits/{ref}/statuses': { path: '/repos/acme/app/commits/main/statuses' },
	'GET /repos/{owner}/{repo}/commits/{ref}/status': { path: '/repos/acme/app/commits/main/status' },

	// ------------------------------------------------------------------ check runs and suites (an app's, with an installation token holding checks write)
	'POST /repos/{owner}/{repo}/check-runs': {
		call: (w) => ({
			headers: {
				Authorization: `Bearer ${s.token('olivia', { kind: 'installation', org: 'acme', permissions: { checks: 'write' } })}`,
			},
			as: 'anonymous',
			body: {
				name: 'lint',
				head_sha: w.commits.one,
				status: 'in_progress',
				external_id: 'lint-1',
				details_url: 'https://ci.example.com/lint/1',
				output: { title: 'Linting', summary: 'Running' },
			},
		}),
	},
	'PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}': {
		call: async (w) => {
			const [run] = (await must('GET', `/repos/acme/app/commits/${w.commits.one}/check-runs?check_name=lint`)).check_runs;
			w.ids.checkRun = run.id;
			w.ids.checkSuite = run.check_suite.id;
			return {
				path: `/repos/acme/app/check-runs/${run.id}`,
				headers: {
					Authorization: `Bearer ${s.token('olivia', { kind: 'installation', org: 'acme', permissions: { checks: 'write' } })}`,
				},
				as: 'anonymous',
				body: { status: 'completed', conclusion: 'success', output: { title: 'Lint', summary: 'No problems' } },
			};
		},
	},
	'GET /repos/{owner}/{repo}/check-runs/{check_run_id}': { call: (w) => ({ path: `/repos/acme/app/check-runs/${w.ids.checkRun}` }) },
	'GET /repos/{owner}/{repo}/commits/{ref}/check-runs': { path: '/repos/acme/app/commits/main/check-runs' },
	'GET /repos/{owner}/{repo}/commits/{ref}/check-suites': { path: '/repos/acme/app/commits/main/check-suites' },
	'GET /repos/{owner}/{repo}/check-suites/{check_suite_id}': {
		call: (w) => ({ path: `/repos/acme/app/check-suites/${w.ids.checkSuite}` }),
	},
	'GET /repos/{owner}/{repo}/check-suites/{check_suite_id}/check-runs': {
		call: (w) => ({ path: `/repos/acme/app/check-suites/${w.ids.checkSuite}/check-runs` }),
	},

	// ------------------------------------------------------------------ releases and release assets
	'POST /repos/{owner}/{repo}/releases': {
		body: { tag_name: 'v1.0.0', target_commitish: 'main', name: 'One', body: 'The first release' },
	},
	'POST /repos/{owner}/{repo}/releases/{release_id}/assets': {
		call: async (w) => {
			// Through the release's upload_url (a URI template), as clients upload.
			const release = await must('GET', '/repos/acme/app/releases/tags/v1.0.0');
			w.ids.release = release.id;
			const url = String(release.upload_url).replace('{?name,label}', '?name=app.txt&label=App');
			assert.ok(url.startsWith(s.api), `~> upload_url ${release.upload_url} is served here`);
			return { path: url.slice(s.api.length), raw: 'the app', headers: { 'Content-Type': 'text/plain' } };
		},
	},
	'GET /repos/{owner}/{repo}/releases': {},
	'GET /repos/{owner}/{repo}/releases/latest': {},
	'GET /repos/{owner}/{repo}/releases/tags/{tag}': { path: '/repos/acme/app/releases/tags/v1.0.0' },
	'GET /repos/{owner}/{repo}/releases/{release_id}': { call: (w) => ({ path: `/repos/acme/app/releases/${w.ids.release}` }) },
	'GET /repos/{owner}/{repo}/releases/{release_id}/assets': {
		call: (w) => ({ path: `/repos/acme/app/releases/${w.ids.release}/assets` }),
	},
	'GET /repos/{owner}/{repo}/releases/assets/{asset_id}': {
		call: async (w) => {
			w.ids.asset = (await must('GET', `/repos/acme/app/releases/${w.ids.release}/assets`))[0].id;
			return { path: `/repos/acme/app/releases/assets/${w.ids.asset}` };
		},
	},
	'PATCH /repos/{owner}/{repo}/releases/assets/{asset_id}': {
		call: (w) => ({ path: `/repos/acme/app/releases/assets/${w.ids.asset}`, body: { label: 'The app' } }),
	},
	'PATCH /repos/{owner}/{repo}/releases/{release_id}': {
		call: (w) => ({ path: `/repos/acme/app/releases/${w.ids.release}`, body: { body: 'The first release, described' } }),
	},
	'DELETE /repos/{owner}/{repo}/releases/assets/{asset_id}': {
		call: async (w) => {
			const res = await s.request('POST', `/repos/acme/app/releases/${w.ids.release}/assets?name=spare.txt`, {
				token: token('olivia'),
				raw: 'spare',
				headers: { 'Content-Type': 'text/plain' },
			});
			assert.is(res.status, 201, `~> setup upload: ${res.text}`);
			return { path: `/repos/acme/app/releases/assets/${res.body.id}` };
		},
	},
	'DELETE /repos/{owner}/{repo}/releases/{release_id}': {
		call: async () => {
			const release = await must('POST', '/repos/acme/app/releases', { body: { tag_name: 'v0.9.0', draft: true } });
			return { path: `/repos/acme/app/releases/${release.id}` };
		},
	},
	// ================================================================== (end of the i10-openapi3 block)

	// ------------------------------------------------------------------ notifications
	'PATCH /notifications/threads/{thread_id}': { as: 'mike' },
	'PUT /notifications/threads/{thread_id}/subscription': { body: { ignored: false }, as: 'mike' },
	'DELETE /notifications/threads/{thread_id}/subscription': { as: 'mike' },
	'DELETE /notifications/threads/{thread_id}': { as: 'mike' },
	'PUT /repos/{owner}/{repo}/notifications': { body: {}, as: 'mike' },
	'PUT /notifications': { body: {}, as: 'mike' },

	// ------------------------------------------------------------------ organization security settings
	'POST /orgs/{org}/code-security/configurations': {
		call: () => ({
			path: '/orgs/acme/code-security/configurations',
			body: {
				name: 'OpenAPI',
				description: 'Checked',
				advanced_security: 'enabled',
				dependabot_alerts: 'enabled',
				dependabot_delegated_alert_dismissal: 'not_set',
				secret_scanning: 'enabled',
				secret_scanning_push_protection: 'enabled',
			},
		}),
	},
	'GET /orgs/{org}/code-security/configurations': {
		call: async (w) => {
			const list = await must('GET', '/orgs/acme/code-security/configurations');
			w.ids.configuration = list.find((c: any) => c.name === 'OpenAPI').id;
			return { path: '/orgs/acme/code-security/configurations' };
		},
	},
	'GET /orgs/{org}/code-security/configurations/{configuration_id}': {
		call: (w) => ({ path: `/orgs/acme/code-security/configurations/${w.ids.configuration}` }),
	},
	'PATCH /orgs/{org}/code-security/configurations/{configuration_id}': {
		call: (w) => ({ path: `/orgs/acme/code-security/configurations/${w.ids.configuration}`, body: { description: 'Checked again' } }),
	},
	'POST /orgs/{org}/code-security/configurations/{configuration_id}/attach': {
		call: (w) => ({ path: `/orgs/acme/code-security/configurations/${w.ids.configuration}/attach`, body: { scope: 'public' } }),
	},
	'GET /orgs/{org}/code-security/configurations/{configuration_id}/repositories': {
		call: (w) => ({ path: `/orgs/acme/code-security/configurations/${w.ids.configuration}/repositories` }),
	},
	'PUT /orgs/{org}/code-security/configurations/{configuration_id}/defaults': {
		call: (w) => ({
			path: `/orgs/acme/code-security/configurations/${w.ids.configuration}/defaults`,
			body: { default_for_new_repos: 'public' },
		}),
	},
	'GET /orgs/{org}/code-security/configurations/defaults': {},
	'DELETE /orgs/{org}/code-security/configurations/detach': {
		call: async () => ({
			path: '/orgs/acme/code-security/configurations/detach',
			body: { selected_repository_ids: [(await must('GET', '/repos/acme/app')).id] },
		}),
	},
	'DELETE /orgs/{org}/code-security/configurations/{configuration_id}': {
		call: (w) => ({ path: `/orgs/acme/code-security/configurations/${w.ids.configuration}` }),
	},
	'POST /orgs/{org}/{security_product}/{enablement}': { path: '/orgs/acme/secret_scanning/disable_all' },
	'PUT /orgs/{org}/security-managers/teams/{team_slug}': {},
	'GET /orgs/{org}/security-managers': {},
	'DELETE /orgs/{org}/security-managers/teams/{team_slug}': {},
	'PATCH /orgs/{org}/dependabot/repository-access': {
		call: async () => ({
			path: '/orgs/acme/dependabot/repository-access',
			body: { repository_ids_to_add: [(await must('GET', '/repos/acme/app')).id] },
		}),
	},
	'PATCH /orgs/{org}/depbot/repository-access': { body: { repository_ids_to_remove: [] } },
	'PUT /orgs/{org}/dependabot/repository-access/default-level': { body: { default_level: 'public' } },
	'PUT /orgs/{org}/depbot/repository-access/default-level': { body: { default_level: 'internal' } },
	'GET /orgs/{org}/dependabot/repository-access': {},
	'GET /orgs/{org}/depbot/repository-access': {},
	'PUT /orgs/{org}/settings/immutable-releases': { body: { enforced_repositories: 'selected' } },
	'GET /orgs/{org}/settings/immutable-releases': {},
	'PUT /orgs/{org}/settings/immutable-releases/repositories/{repository_id}': {
		call: async () => ({ path: `/orgs/acme/settings/immutable-releases/repositories/${(await must('GET', '/repos/acme/app')).id}` }),
	},
	'GET /orgs/{org}/settings/immutable-releases/repositories': {},
	'DELETE /orgs/{org}/settings/immutable-releases/repositories/{repository_id}': {
		call: async () => ({ path: `/orgs/acme/settings/immutable-releases/repositories/${(await must('GET', '/repos/acme/app')).id}` }),
	},
	'PUT /orgs/{org}/settings/immutable-releases/repositories': { body: { selected_repository_ids: [] } },
	'PATCH /orgs/{org}/secret-scanning/pattern-configurations': {
		body: {
			pattern_config_version: null,
			provider_pattern_settings: [{ token_type: 'GITHUB_PERSONAL_ACCESS_TOKEN', push_protection_setting: 'enabled' }],
		},
	},
	'GET /orgs/{org}/secret-scanning/pattern-configurations': {},
	'GET /orgs/{org}/settings/billing/advanced-security': {},
};

/**
 * Error answers, validated like the happy paths against the schema GitHub documents for their
 * status (basic-error, validation-error, validation-error-simple): route, the call and the status
 * it must answer.
 */
const ERRORS: Array<{ route: string; status: number } & Call> = [
	{ route: 'GET /orgs/{org}', path: '/orgs/nobody', status: 404 },
	{
		route: 'GET /orgs/{org}/code-security/configurations/{configuration_id}',
		path: '/orgs/acme/code-security/configurations/999999',
		status: 404,
	},
	{ route: 'GET /orgs/{org}/code-security/configurations', path: '/orgs/acme/code-security/configurations', status: 403, as: 'mike' },
	{
		route: 'DELETE /orgs/{org}/code-security/configurations/{configuration_id}',
		path: '/orgs/acme/code-security/configurations/1',
		status: 409,
	},
	{
		route: 'PATCH /orgs/{org}/secret-scanning/pattern-configurations',
		path: '/orgs/acme/secret-scanning/pattern-configurations',
		body: { pattern_config_version: 'stale' },
		status: 409,
	},
	// i10-openapi3
	{ route: 'GET /repos/{owner}/{repo}/branches/{branch}/protection', path: '/repos/acme/app/branches/main/protection', status: 404 },
	{ route: 'GET /repos/{owner}/{repo}/branches/{branch}', path: '/repos/acme/app/branches/nope', status: 404 },
	{
		route: 'PUT /repos/{owner}/{repo}/branches/{branch}/protection',
		path: '/repos/acme/app/branches/main/protection',
		body: { required_status_checks: 'yes' },
		status: 422,
	},
	{ route: 'GET /repos/{owner}/{repo}/commits/{ref}', path: '/repos/acme/app/commits/nope', status: 422 },
	{ route: 'GET /repos/{owner}/{repo}/compare/{basehead}', path: '/repos/acme/app/compare/main...nope', status: 404 },
	{
		route: 'PUT /repos/{owner}/{repo}/collaborators/{username}',
		path: '/repos/acme/app/collaborators/nora',
		body: { permission: 'boss' },
		status: 422,
	},
	{ route: 'POST /repos/{owner}/{repo}/releases', path: '/repos/acme/app/releases', body: { tag_name: '' }, status: 422 },
	{ route: 'POST /orgs/{org}/teams', path: '/orgs/acme/teams', body: { name: 5 }, status: 422 },
	{ route: 'PUT /repos/{owner}/{repo}/topics', path: '/repos/acme/app/topics', body: { names: ['Not A Topic!'] }, status: 422 },
	{
		route: 'PATCH /repos/{owner}/{repo}/dependabot/alerts/{alert_number}',
		path: '/repos/acme/app/dependabot/alerts/2',
		body: { state: 'dismissed' },
		status: 422,
	},
	{
		route: 'PATCH /repos/{owner}/{repo}/dependabot/alerts/{alert_number}',
		path: '/repos/acme/app/dependabot/alerts/2',
		body: { state: 'closed' },
		status: 422,
	},
	{ route: 'GET /repos/{owner}/{repo}/dependabot/alerts', path: '/repos/acme/app/dependabot/alerts?state=closed', status: 422 },
	{ route: 'GET /orgs/{org}/dependabot/alerts', path: '/orgs/acme/dependabot/alerts?severity=severe', status: 422 },
	{
		route: 'PATCH /repos/{owner}/{repo}/dismissal-requests/dependabot/{alert_number}',
		path: '/repos/acme/app/dismissal-requests/dependabot/2',
		body: { status: 'maybe' },
		status: 422,
	},
	{ route: 'GET /repos/{owner}/{repo}/contents/*?', path: '/repos/acme/app/contents/nowhere', status: 404 },
	{ route: 'GET /repos/{owner}/{repo}/readme', path: '/repos/acme/docs/readme', status: 404 },
	{
		route: 'PUT /repos/{owner}/{repo}/contents/*',
		path: '/repos/acme/app/contents/README',
		body: { message: 'No sha', content: 'eA==', branch: 'pages' },
		status: 422,
	},
	{ route: 'GET /repos/{owner}/{repo}/milestones/{milestone_number}', path: '/repos/acme/app/milestones/99', status: 404 },
	{ route: 'GET /repos/{owner}/{repo}/pulls/{pull_number}', path: '/repos/acme/app/pulls/99', status: 404 },
	{
		route: 'POST /repos/{owner}/{repo}/pulls',
		path: '/repos/acme/app/pulls',
		body: { title: 'Twice', head: 'topic', base: 'main' },
		status: 422,
	},
	{
		route: 'POST /repos/{owner}/{repo}/pulls',
		path: '/repos/acme/app/pulls',
		body: { title: 'Nowhere', head: 'nope', base: 'main' },
		status: 422,
	},
	{
		route: 'POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews',
		path: '/repos/acme/app/pulls/2/reviews',
		body: { event: 'APPROVE' },
		status: 422,
	},
	{
		route: 'POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews',
		path: '/repos/acme/app/pulls/2/reviews',
		body: { event: 'COMMENT' },
		as: 'mike',
		status: 422,
	},
	{
		route: 'POST /repos/{owner}/{repo}/pulls/{pull_number}/comments',
		path: '/repos/acme/app/pulls/2/comments',
		body: { body: 'x', commit_id: 'f'.repeat(40), path: 'x' },
		status: 422,
	},
	{ route: 'GET /repos/{owner}/{repo}/pulls/comments/{comment_id}', path: '/repos/acme/app/pulls/comments/999999', status: 404 },
	{ route: 'POST /repos/{owner}/{repo}/milestones', path: '/repos/acme/app/milestones', body: { title: 'v1.0' }, status: 422 },
	{
		route: 'POST /repos/{owner}/{repo}/issues/{issue_number}/reactions',
		path: '/repos/acme/app/issues/1/reactions',
		body: { content: 'party' },
		status: 422,
	},
	{ route: 'GET /search/issues', path: '/search/issues', status: 422 },
	{ route: 'GET /search/code', path: '/search/code?q=language:go', status: 422 },
	{ route: 'GET /search/repositories', path: '/search/repositories?q=app&page=20&per_page=100', status: 422 },
];

/**
 * More answers of routes the walk has called, in other situations (another caller, media type or
 * API version; the state the writes left): each must validate like the walk's.
 */
const VARIANTS: Array<{ route: string; media?: string } & Entry> = [
	// A pull request's timeline and events: its commits, reviews, review requests and merge.
	{ route: 'GET /repos/{owner}/{repo}/issues/{issue_number}/timeline', path: '/repos/acme/app/issues/2/timeline?per_page=100' },
	{ route: 'GET /repos/{owner}/{repo}/issues/{issue_number}/events', path: '/repos/acme/app/issues/2/events' },
	{ route: 'GET /repos/{owner}/{repo}/issues/events', path: '/repos/acme/app/issues/events?per_page=100', as: 'anonymous' },
	{ route: 'GET /orgs/{org}', path: '/orgs/acme', as: 'anonymous' },
	{ route: 'GET /orgs/{org}', path: '/orgs/acme', as: 'mike' },
	{ route: 'GET /repos/{owner}/{repo}', path: '/repos/acme/app', as: 'anonymous' },
	{ route: 'GET /repos/{owner}/{repo}', path: '/repos/nora/site', as: 'nora' },
	{ route: 'GET /users/{username}', path: '/users/acme' },
	// An organization of an enterprise: its own Default runner group and the enterprise's groups it inherits.
	{ route: 'GET /orgs/{org}/actions/runner-groups', path: '/orgs/acme/actions/runner-groups' },
	// An organization's Actions settings as GitHub's defaults (nothing changed).
	{ route: 'GET /orgs/{org}/actions/permissions', path: '/orgs/acme/actions/permissions' },
	{ route: 'GET /orgs/{org}/actions/oidc/customization/sub', path: '/orgs/acme/actions/oidc/customization/sub' },
	// i10-openapi3: answers that are not JSON (a documented status, no JSON body to validate) and other callers.
	{
		route: 'GET /repos/{owner}/{repo}/commits/{ref}',
		path: '/repos/acme/app/commits/topic',
		headers: { Accept: 'application/vnd.github.diff' },
		media: 'application/vnd.github.diff',
	},
	{
		route: 'GET /repos/{owner}/{repo}/commits/{ref}',
		path: '/repos/acme/app/commits/topic',
		headers: { Accept: 'application/vnd.github.patch' },
		media: 'application/vnd.github.patch',
	},
	{
		route: 'GET /repos/{owner}/{repo}/commits/{ref}',
		path: '/repos/acme/app/commits/topic',
		headers: { Accept: 'application/vnd.github.sha' },
		media: 'application/vnd.github.sha',
	},
	{
		route: 'GET /repos/{owner}/{repo}/compare/{basehead}',
		path: '/repos/acme/app/compare/main...topic',
		headers: { Accept: 'application/vnd.github.diff' },
		media: 'application/vnd.github.diff',
	},
	{
		route: 'GET /repos/{owner}/{repo}/compare/{basehead}',
		path: '/repos/acme/app/compare/main...topic',
		headers: { Accept: 'application/vnd.github.patch' },
		media: 'application/vnd.github.patch',
	},
	{
		route: 'GET /repos/{owner}/{repo}/pulls/{pull_number}',
		path: '/repos/acme/app/pulls/2',
		headers: { Accept: 'application/vnd.github.diff' },
		media: 'application/vnd.github.diff',
	},
	{
		route: 'GET /repos/{owner}/{repo}/pulls/{pull_number}',
		path: '/repos/acme/app/pulls/2',
		headers: { Accept: 'application/vnd.github.patch' },
		media: 'application/vnd.github.patch',
	},
	{ route: 'GET /repos/{owner}/{repo}/pulls', path: '/repos/acme/app/pulls?state=all', as: 'anonymous' },
	{
		route: 'GET /repos/{owner}/{repo}/releases/assets/{asset_id}',
		call: (w) => ({ path: `/repos/acme/app/releases/assets/${w.ids.asset}` }),
		headers: { Accept: 'application/octet-stream' },
		media: 'application/octet-stream',
	},
	{ route: 'GET /repos/{owner}/{repo}/releases', path: '/repos/acme/app/releases', as: 'anonymous' },
	{ route: 'GET /repos/{owner}/{repo}/collaborators/{username}/permission', path: '/repos/acme/app/collaborators/otto/permission' },
	{
		route: 'GET /repos/{owner}/{repo}/commits/{ref}/check-runs',
		path: '/repos/acme/app/commits/main/check-runs?filter=all',
		as: 'anonymous',
	},
	// (end of i10-openapi3)
	{ route: 'GET /user', as: 'root' },
	{ route: 'GET /rate_limit', path: '/rate_limit', headers: { 'X-GitHub-Api-Version': '2026-03-10' } },
	{
		route: 'GET /repos/{owner}/{repo}/issues/comments',
		path: '/repos/acme/app/issues/comments',
		headers: { Accept: 'application/vnd.github.full+json' },
	},
	{
		route: 'GET /repos/{owner}/{repo}/issues',
		path: '/repos/acme/app/issues?state=all',
		headers: { Accept: 'application/vnd.github.full+json' },
	},
	{ route: 'GET /repos/{owner}/{repo}/actions/runs', path: '/repos/acme/app/actions/runs' },
	{ route: 'GET /orgs/{org}/teams', path: '/orgs/acme/teams', as: 'mike' },
	{ route: 'GET /notifications', path: '/notifications?all=true', as: 'mike' },
	{ route: 'GET /events', path: '/events', as: 'anonymous' },
	{
		route: 'GET /repos/{owner}/{repo}/dismissal-requests/dependabot',
		path: '/repos/acme/app/dismissal-requests/dependabot?request_status=all',
	},
	{ route: 'GET /repos/{owner}/{repo}/dependabot/alerts', path: '/repos/acme/app/dependabot/alerts?state=dismissed,fixed,open' },
	{ route: 'GET /user/repos', path: '/user/repos?affiliation=collaborator,organization_member', as: 'mike' },
	{ route: 'GET /users/{username}/repos', path: '/users/acme/repos', as: 'anonymous' },
	{ route: 'GET /repositories', path: '/repositories', as: 'anonymous' },
	{ route: 'GET /repos/{owner}/{repo}/contents/*?', path: '/repos/acme/app/contents?ref=pages' },
	{
		route: 'GET /repos/{owner}/{repo}/contents/*?',
		path: '/repos/acme/app/contents/',
		headers: { Accept: 'application/vnd.github.object+json' },
	},
	{ route: 'GET /repos/{owner}/{repo}/readme', path: '/repos/acme/app/readme?ref=topic', as: 'anonymous' },
	{ route: 'GET /search/repositories', path: '/search/repositories?q=app&sort=stars', as: 'anonymous' },
	{
		route: 'GET /search/issues',
		path: '/search/issues?q=breaks+is:issue',
		headers: { Accept: 'application/vnd.github.text-match+json' },
	},
	{ route: 'GET /search/users', path: '/search/users?q=acme+type:org', as: 'anonymous' },
	{ route: 'GET /repos/{owner}/{repo}/milestones', path: '/repos/acme/app/milestones?state=all', as: 'anonymous' },
	{ route: 'GET /repos/{owner}/{repo}/issues/{issue_number}/reactions', as: 'anonymous' },
	{ route: 'GET /repos/{owner}/{repo}/issues/{issue_number}', headers: { Accept: 'application/vnd.github.full+json' } },
	// The production deployment after the walk gave it a status without target_url: the default, empty.
	{ route: 'GET /repos/{owner}/{repo}/deployments/{deployment_id}/statuses' },
	{
		route: 'GET /repos/{owner}/{repo}/deployments/{deployment_id}/statuses/{status_id}',
		call: async (w) => ({
			path: `/repos/acme/app/deployments/${w.params.deployment_id}/statuses/${(await must('GET', `/repos/acme/app/deployments/${w.params.deployment_id}/statuses`))[0].id}`,
		}),
	},
];

/**
 * The violations of an answer: its JSON body against the operation's schema; an answer that is not
 * JSON (a diff, a patch, an asset's bytes, a redirect) has no JSON schema to meet, so only its
 * status must be one the operation documents. `accept`: the media type asked for (its schema where GitHub documents one).
 */
function answerViolations(
	operation: Operation,
	res: { status: number; headers: Headers; body: unknown; text: string },
	accept?: string,
): Violation[] {
	const type = res.headers.get('content-type') ?? '';
	if (!res.text || type.includes('json')) return openapi.validate(operation, res.status, res.body, accept);
	return openapi.statuses(operation).includes(String(res.status))
		? []
		: [
				{
					pointer: '',
					keyword: 'status',
					message: `status ${res.status} is not documented (${openapi.statuses(operation).join(', ')})`,
				},
			];
}

/** The id of a hook's newest delivery. */
function lastDelivery(hookId: number): number {
	const { rows } = s.app.stores.webhooks.deliveries({ hookId, status: null, limit: 1, offset: 0 });
	assert.ok(rows.length, `~> hook ${hookId} has a delivery`);
	return rows[0].id;
}

/** Whether a concrete path is one the route's pattern matches ({param}: one segment; *: the rest). */
function matches(pattern: string, path: string): boolean {
	const source = pattern
		.split('/')
		.map((segment) =>
			segment === '*'
				? '.+'
				: segment === '*?'
					? '.*'
					: segment.startsWith('{')
						? '[^/]+'
						: segment.replace(/[.*+?^$()|[\]\\]/g, '\\$&'),
		)
		.join('/');
	return new RegExp(`^${source}$`).test(path.split('?')[0]);
}

/** The route's path with the scenario's parameters. */
function defaultPath(pattern: string): string {
	return pattern.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
		const value = w.params[name];
		assert.ok(value !== undefined, `~> the scenario has a value for {${name}} (${pattern}): give the entry a path`);
		return encodeURIComponent(value);
	});
}

/**
 * Lists of data Gitstead does not keep, answered empty as GitHub answers for a repository without
 * it (README, "GraphQL and gh"): workflow-run artifacts (runs are imported, their artifacts not).
 */
const ALWAYS_EMPTY = new Set(['GET /repos/{owner}/{repo}/actions/runs/{run_id}/artifacts']);

/** Whether a body is a list with no item: an empty array, or an object whose arrays (workflow_runs, budgets, …) are all empty. */
function emptyList(body: unknown): boolean {
	if (Array.isArray(body)) return body.length === 0;
	if (!body || typeof body !== 'object') return false;
	const arrays = Object.entries(body).filter(([key, value]) => Array.isArray(value) && key !== 'errors');
	return arrays.length > 0 && arrays.every(([, value]) => (value as unknown[]).length === 0) && 'total_count' in body;
}

/** One allowed deviation of docs/COMPATIBILITY.md. */
interface Deviation {
	operationId: string;
	status: number;
	pointer: string;
	keyword: string;
	seed: string;
}

/** The allowed deviations: the fenced JSON list of docs/COMPATIBILITY.md. */
function allowedDeviations(): Deviation[] {
	const text = readFileSync(join(__dirname, '../docs/COMPATIBILITY.md'), 'utf8');
	const block = /```json\n([\s\S]*?)\n```/.exec(text);
	assert.ok(block, '~> docs/COMPATIBILITY.md holds the allowed deviations as a fenced JSON list');
	const list = JSON.parse(block[1]) as Deviation[];
	for (const item of list) {
		assert.ok(
			item.operationId && item.status && typeof item.pointer === 'string' && item.keyword,
			`~> a deviation names operationId, status, pointer and keyword: ${JSON.stringify(item)}`,
		);
		assert.ok(item.seed && item.seed.length > 20, `~> ${item.operationId} ${item.pointer}: the rule that wins`);
	}
	return list;
}

const openapi = new OpenApi();
const routes = buildRoutes();
/** Every route with its operation (undefined: GitHub documents none). */
const mapped = routes.map((route) => ({
	key: `${route.method} ${route.path}`,
	route,
	operation: openapi.operation(route.method, route.path),
}));

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
 * The scenario: users, an enterprise bigco (owner erin) with the organization acme (owner olivia,
 * members mike and wendy; otto an outside collaborator), the teams Core and its child Core child with acme/app, acme/app with a
 * git history (main at the first of two commits, topic at the second, a tag object), an issue
 * with a label, a comment and a mention of mike (his notification), a deployment with a status,
 * an environment with a branch policy, imported workflow runs, Dependabot alerts from dependency
 * snapshots and a dismissal request, global, organization and repository hooks with deliveries,
 * budgets, custom properties, a runner group with a runner, an exported migration, a gist with a
 * comment, a star and a subscription, and a GitHub App installed on acme and on olivia.
 */
async function scenario() {
	s = await startServer();
	for (const login of ['olivia', 'mike', 'wendy', 'nora', 'erin', 'paul', 'quinn', 'carl', 'otto']) s.user(login);
	s.user('root', { siteAdmin: true });
	// emma has a public primary email address (the email routes).
	createUser(s.app, { login: 'emma', email: 'emma@example.com', emailPublic: true });
	s.enterprise('bigco', 'erin');
	const acme = s.org('acme', 'olivia', { enterprise: 'bigco' });
	for (const login of ['mike', 'wendy']) s.member('acme', login);
	const now = isoSeconds(s.clock.now);
	await must('PUT', '/orgs/acme/public_members/olivia');
	await must('POST', '/orgs/acme/repos', { body: { name: 'app', has_issues: true } });
	await must('POST', '/orgs/acme/repos', { body: { name: 'docs' } });
	await must('POST', '/user/repos', { body: { name: 'dotfiles' } });
	const app = s.app.stores.repos.byOwnerAndName(acme.id, 'app')!;
	s.app.stores.repos.setCollaborator(app.id, s.app.stores.accounts.user('mike')!.id, 'push', now);
	// otto, an outside collaborator of acme/app; mike watches it (his received events).
	s.app.stores.repos.setCollaborator(app.id, s.app.stores.accounts.user('otto')!.id, 'pull', now);
	await must('PUT', '/repos/acme/app/subscription', { body: { subscribed: true }, as: 'mike' });
	s.app.stores.repos.setSecurity(app.id, { advanced_security: 0, delegated_alert_dismissal: 1 });
	const core = await must('POST', '/orgs/acme/teams', { body: { name: 'Core', privacy: 'closed', repo_names: ['acme/app'] } });
	await must('POST', '/orgs/acme/teams', { body: { name: 'Core child', parent_team_id: core.id, repo_names: ['acme/app'] } });
	await must('PUT', '/orgs/acme/teams/core/memberships/mike', { body: { role: 'member' } });

	// Git: two commits, main at the first, topic at the second, a blob and a tag object.
	w.commits.one = await commit('one', []);
	w.commits.two = await commit('two', [w.commits.one]);
	await must('POST', '/repos/acme/app/git/refs', { body: { ref: 'refs/heads/main', sha: w.commits.one } });
	await must('POST', '/repos/acme/app/git/refs', { body: { ref: 'refs/heads/topic', sha: w.commits.two } });
	const blob = await must('POST', '/repos/acme/app/git/blobs', { body: { content: 'blob', encoding: 'utf-8' } });
	const tag = await must('POST', '/repos/acme/app/git/tags', {
		body: {
			tag: 'v1',
			message: 'First',
			object: w.commits.one,
			type: 'commit',
			tagger: { name: 'Olivia', email: 'olivia@example.com', date: '2026-11-22T12:00:00Z' },
		},
	});
	await must('POST', '/repos/acme/app/git/refs', { body: { ref: 'refs/tags/v1', sha: tag.sha } });
	// pages, at the first commit: the branch the contents API writes to (main and topic stay put).
	await must('POST', '/repos/acme/app/git/refs', { body: { ref: 'refs/heads/pages', sha: w.commits.one } });
	await must('PUT', '/repos/acme/app/topics', { body: { names: ['anvils'] } });
	const commitOne = await must('GET', `/repos/acme/app/git/commits/${w.commits.one}`);

	// Issues: an issue with the default label bug, mentioning mike; a comment.
	await must('POST', '/repos/acme/app/issues', {
		body: { title: 'Placeholder', body: 'Have a look, @mike', labels: ['bug'], assignees: ['olivia'] },
	});
	const comment = await must('POST', '/repos/acme/app/issues/1/comments', { body: { body: 'A first comment' } });
	// Milestone 1 on issue 1 (its labels are the milestone's); reactions on the issue and the comment.
	await must('POST', '/repos/acme/app/milestones', { body: { title: 'v1.0', description: 'First', due_on: '2026-12-01T00:00:00Z' } });
	await must('PATCH', '/repos/acme/app/issues/1', { body: { milestone: 1 } });
	await must('POST', '/repos/acme/app/issues/1/reactions', { body: { content: '+1' }, as: 'mike' });
	await must('POST', `/repos/acme/app/issues/comments/${comment.id}/reactions`, { body: { content: 'laugh' }, as: 'mike' });

	// Deployments and environments.
	const deployment = await must('POST', '/repos/acme/app/deployments', {
		body: { ref: 'main', environment: 'production', required_contexts: [], payload: { a: 1 } },
	});
	const status = await must('POST', `/repos/acme/app/deployments/${deployment.id}/statuses`, {
		body: { state: 'success', log_url: 'https://ci.example.com/1' },
	});
	await must('PUT', '/repos/acme/app/environments/production', {
		body: { wait_timer: 0, deployment_branch_policy: { protected_branches: false, custom_branch_policies: true } },
	});
	const policy = await must('POST', '/repos/acme/app/environments/production/deployment-branch-policies', {
		body: { name: 'main', type: 'branch' },
	});
	// Keys: olivia's SSH key, signing key and GPG key; a deploy key of acme/app.
	w.ids.sshKey = (await must('POST', '/user/keys', { body: { title: 'Laptop', key: sshKey() } })).id;
	w.ids.signingKey = (await must('POST', '/user/ssh_signing_keys', { body: { title: 'Signing', key: sshKey() } })).id;
	w.ids.gpgKey = (await must('POST', '/user/gpg_keys', { body: { name: 'Laptop', armored_public_key: await gpgPublicKey() } })).id;
	w.ids.deployKey = (await must('POST', '/repos/acme/app/keys', { body: { title: 'CI', key: sshKey() } })).id;
	// Actions secrets and variables: of acme/app, of its production environment, of acme (selected: app).
	await sodium.ready;
	for (const base of ['/repos/acme/app/actions', '/repos/acme/app/environments/production']) {
		const put = await sealed(base, 'DEPLOY_TOKEN');
		await must('PUT', put.path!, { body: put.body });
		await must('POST', `${base}/variables`, { body: { name: 'REGION', value: 'eu' } });
	}
	const orgSecret = await sealed('/orgs/acme/actions', 'DEPLOY_TOKEN', { visibility: 'selected', selected_repository_ids: [app.id] });
	await must('PUT', orgSecret.path!, { body: orgSecret.body });
	await must('POST', '/orgs/acme/actions/variables', {
		body: { name: 'REGION', value: 'eu', visibility: 'selected', selected_repository_ids: [app.id] },
	});

	// Actions: a workflow with completed runs.
	const imported = importRuns(s.app, app, {
		workflows: [{ name: 'CI', path: '.github/workflows/ci.yml', jobs: [{ name: 'build' }, { name: 'test', needs: ['build'] }] }],
		runs: [
			{
				path: '.github/workflows/ci.yml',
				event: 'push',
				branch: 'main',
				head_sha: w.commits.one,
				actor: 'olivia',
				status: 'completed',
				conclusion: 'success',
				created_at: '2026-11-01T10:00:00Z',
				jobs: [
					{ name: 'build', log: 'Building' },
					{
						name: 'test',
						needs: ['build'],
						steps: [{ name: 'Run tests', status: 'completed', conclusion: 'success', log: 'ok' }],
					},
				],
			},
		],
	});
	const workflows = await must('GET', '/repos/acme/app/actions/workflows');
	const jobs = await must('GET', `/repos/acme/app/actions/runs/${imported.run_ids[0]}/jobs`);

	// Dependabot: advisories, snapshots on both commits (alerts 1 and 2), a pending dismissal request on alert 2.
	importAdvisories(
		s.app,
		[
			advisory('GHSA-jf85-cpcp-j695', 'lodash', '< 4.17.12', '4.17.12'),
			advisory('GHSA-xvch-5gv4-984h', 'minimist', '< 1.2.6', '1.2.6'),
		],
		now,
	);
	await must('POST', '/repos/acme/app/dependency-graph/snapshots', {
		body: snapshot(w.commits.one, 'refs/heads/main', { lodash: '4.17.11', minimist: '1.2.0' }),
	});
	await must('POST', '/repos/acme/app/dependency-graph/snapshots', {
		body: snapshot(w.commits.two, 'refs/heads/topic', { lodash: '4.17.21', express: '4.18.0' }),
	});
	await must('POST', '/repos/acme/app/dismissal-requests/dependabot/2', {
		body: { dismissed_reason: 'tolerable_risk', message: 'Only in tests' },
		as: 'mike',
	});

	// Hooks with deliveries (pings).
	w.ids.globalHook = (
		await must('POST', '/admin/hooks', {
			body: { name: 'web', config: { url: 'https://hooks.example.com/global', content_type: 'json' }, events: ['user'] },
			as: 'root',
		})
	).id;
	w.ids.orgHook = (
		await must('POST', '/orgs/acme/hooks', {
			body: { name: 'web', config: { url: 'https://hooks.example.com/org', content_type: 'json' }, events: ['*'] },
		})
	).id;
	w.ids.repoHook = (
		await must('POST', '/repos/acme/app/hooks', {
			body: { name: 'web', config: { url: 'https://hooks.example.com/repo' }, events: ['push', 'issues'] },
		})
	).id;

	// Budgets, custom properties, runner groups, migrations.
	await must('POST', '/organizations/acme/settings/billing/budgets', {
		body: {
			budget_amount: 50,
			prevent_further_usage: true,
			budget_scope: 'organization',
			budget_entity_name: '',
			budget_product_sku: 'actions',
		},
	});
	w.ids.orgBudget = (await must('GET', '/organizations/acme/settings/billing/budgets')).budgets[0].id;
	await must('POST', '/enterprises/bigco/settings/billing/budgets', {
		as: 'erin',
		body: {
			budget_amount: 500,
			prevent_further_usage: false,
			budget_scope: 'enterprise',
			budget_entity_name: '',
			budget_type: 'ProductPricing',
			budget_product_sku: 'actions',
			budget_alerting: { will_alert: true, alert_recipients: ['erin'] },
		},
	});
	w.ids.enterpriseBudget = (await must('GET', '/enterprises/bigco/settings/billing/budgets', { as: 'erin' })).budgets[0].id;
	await must('PUT', '/orgs/acme/properties/schema/tier', {
		body: { value_type: 'single_select', allowed_values: ['gold', 'silver'], description: 'Support tier' },
	});
	await must('PUT', '/enterprises/bigco/org-properties/schema/region', {
		body: { value_type: 'string', default_value: 'eu', required: true },
		as: 'erin',
	});
	// Rulesets: an active one on the default branch (deletion), an evaluate one on refs/heads/probe
	// whose creation leaves a rule suite, and a push-rule bypass request (no Gitstead flow makes one
	// yet: stored directly).
	const ruleset = await must('POST', '/orgs/acme/rulesets', {
		body: {
			name: 'Default branch',
			enforcement: 'active',
			bypass_actors: [{ actor_id: null, actor_type: 'OrganizationAdmin', bypass_mode: 'always' }],
			conditions: { ref_name: { include: ['~DEFAULT_BRANCH'], exclude: [] }, repository_name: { include: ['~ALL'], exclude: [] } },
			rules: [{ type: 'deletion' }],
		},
	});
	await must('POST', '/orgs/acme/rulesets', {
		body: {
			name: 'Probe',
			enforcement: 'evaluate',
			conditions: { ref_name: { include: ['refs/heads/probe'], exclude: [] }, repository_id: { repository_ids: [app.id] } },
			rules: [{ type: 'required_signatures' }],
		},
	});
	await must('POST', '/repos/acme/app/git/refs', { body: { ref: 'refs/heads/probe', sha: w.commits.one } });
	const [ruleSuite] = await must('GET', '/orgs/acme/rulesets/rule-suites');
	const [rulesetVersion] = await must('GET', `/orgs/acme/rulesets/${ruleset.id}/history`);
	s.app.stores.rulesets.addBypassRequest({
		org_id: acme.id,
		repo_id: app.id,
		requester_id: s.app.stores.accounts.user('mike')!.id,
		request_type: 'push_ruleset_bypass',
		data: JSON.stringify([{ ruleset_id: ruleset.id, ruleset_name: ruleset.name, total_violations: 1, rule_type: 'deletion' }]),
		resource_identifier: w.commits.one,
		status: 'open',
		requester_comment: 'Hotfix',
		responses: '[]',
		expires_at: isoSeconds(s.clock.now + 7 * 86400_000),
		created_at: now,
	});
	const runner = registerRunner(
		s.app,
		s.app.stores.enterprises.bySlug('bigco')!.id,
		{ name: 'linux-1', os: 'linux', labels: ['gpu'], status: 'online' },
		now,
	);
	const group = await must('POST', '/enterprises/bigco/actions/runner-groups', {
		body: { name: 'Builders', visibility: 'selected', selected_organization_ids: [acme.id], runners: [runner.id] },
		as: 'erin',
	});
	const migration = await must('POST', '/orgs/acme/migrations', { body: { repositories: ['docs'], lock_repositories: false } });
	await s.app.tasks.runDue();

	// Gists, stars, subscriptions.
	const gist = await must('POST', '/gists', { body: { description: 'Hello', files: { 'a.txt': { content: 'hello' } }, public: true } });
	w.ids.gistComment = (await must('POST', `/gists/${gist.id}/comments`, { body: { body: 'Nice' } })).id;
	await must('PUT', '/user/starred/acme/app', { as: 'nora' });
	await must('PUT', '/repos/acme/app/subscription', { body: { subscribed: true }, as: 'nora' });
	const [thread] = await must('GET', '/notifications', { as: 'mike' });
	// Pull request 2: topic (the second commit) into main.
	await must('POST', '/repos/acme/app/pulls', {
		body: { title: 'Change the second', head: 'topic', base: 'main', body: 'Adds commit two' },
	});
	await must('POST', '/repos/acme/app/pulls/2/reviews', { body: { event: 'COMMENT', body: 'A first look' }, as: 'mike' });
	// A review comment on its first changed file's first line (a review of its own).
	const [prFile] = await must('GET', '/repos/acme/app/pulls/2/files');
	const prHead = (await must('GET', '/repos/acme/app/pulls/2')).head.sha;
	const reviewComment = await must('POST', '/repos/acme/app/pulls/2/comments', {
		body: { body: 'Inline', commit_id: prHead, path: prFile.filename, position: 1 },
		as: 'mike',
	});
	w.ids.reviewComment = reviewComment.id;
	w.ids.reviewCommentReview = reviewComment.pull_request_review_id;

	// A GitHub App on acme and on olivia; an installation token on acme (the test app's).
	const created = createApp(s.app, { name: 'Walker', owner: acme, permissions: { contents: 'read', metadata: 'read' } }, now);
	w.appId = created.app.id;
	w.appKey = created.privateKey;
	// Walker's webhook, made before its installations: their installation events are its first deliveries.
	saveAppHook(s.app, created.app, { url: 'https://bot.example.com/hooks' }, now);
	const installation = installApp(s.app, created.app, acme, null, now);
	installApp(s.app, created.app, s.app.stores.accounts.user('olivia')!, null, now);
	// An organization with Walker alone (acme also has the test helper's app, which holds every
	// permission at admin: levels GitHub's description does not allow for most keys).
	w.ids.toolsInstallation = installApp(s.app, created.app, s.org('tools', 'olivia'), null, now).id;
	w.installationToken = s.token('olivia', { kind: 'installation', org: 'acme' });

	w.params = {
		owner: 'acme',
		repo: 'app',
		org: 'acme',
		username: 'olivia',
		assignee: 'olivia',
		team_slug: 'core',
		team_id: String(core.id),
		org_id: String(acme.id),
		enterprise: 'bigco',
		runner_group_id: String(group.id),
		runner_id: String(runner.id),
		migration_id: String(migration.id),
		repo_name: 'docs',
		installation_id: String(installation.id),
		ruleset_id: String(ruleset.id),
		version_id: String(rulesetVersion.version_id),
		rule_suite_id: String(ruleSuite.id),
		file_sha: blob.sha,
		tree_sha: commitOne.tree.sha,
		commit_sha: w.commits.one,
		tag_sha: tag.sha,
		deployment_id: String(deployment.id),
		status_id: String(status.id),
		environment_name: 'production',
		secret_name: 'DEPLOY_TOKEN',
		branch_policy_id: String(policy.id),
		workflow_id: String(workflows.workflows[0].id),
		run_id: String(imported.run_ids[0]),
		job_id: String(jobs.jobs[0].id),
		gist_id: gist.id,
		comment_id: String(comment.id),
		issue_number: '1',
		name: 'bug',
		alert_number: '1',
		thread_id: thread.id,
		milestone_number: '1',
		pull_number: '2',
		// Ready for the git-backed routes (branches, commits, compare, tags): main at the first
		// commit, topic at the second (w.commits.one, w.commits.two), the tag v1.
		branch: 'main',
		ref: 'main',
		sha: w.commits.one,
		basehead: 'main...topic',
		tag: 'v1',
	};
}

test('A – every route with a GitHub operation has an entry; routes without one are listed', () => {
	const withOperation = mapped.filter((item) => item.operation).map((item) => item.key);
	const without = mapped.filter((item) => !item.operation).map((item) => item.key);
	const missing = withOperation.filter((key) => !(key in TABLE));
	const stale = Object.keys(TABLE).filter((key) => !withOperation.includes(key));
	console.log(
		`\n  routes GitHub's descriptions document no operation for (Gitstead-only or named otherwise; not validated): ${without.length}\n    ${without.join('\n    ')}`,
	);
	const elsewhere = mapped.filter((item) => item.operation && item.operation.description !== 'ghes-3.19');
	console.log(
		`  routes GHES 3.19 lacks, validated against a hosted description: ${elsewhere.map((item) => `${item.key} (${item.operation!.description})`).join(', ')}`,
	);
	assert.equal(
		{ missing, stale },
		{ missing: [], stale: [] },
		`~> routes with an operation but no entry in test/openapi.test.ts: ${missing.join(', ') || 'none'}; entries for routes that have none: ${stale.join(', ') || 'none'}`,
	);
});

/** The allowed deviations, read once. */
let deviations: Deviation[] | undefined;
/** The deviations some answer needed (each must be needed by one: the list is exact). */
const seen = new Set<Deviation>();
/** The deviation of docs/COMPATIBILITY.md that allows a violation, if any (then marked seen). */
function allowed(operation: Operation, status: number, violation: Violation): Deviation | undefined {
	deviations ??= allowedDeviations();
	const deviation = deviations.find(
		(d) =>
			d.operationId === operation.operationId &&
			d.status === status &&
			d.pointer === violation.pointer &&
			d.keyword === violation.keyword,
	);
	if (deviation) seen.add(deviation);
	return deviation;
}

test('B – every operation, called for real, answers a documented status with a body its schema accepts (X of Y)', async () => {
	const byKey = new Map(mapped.map((item) => [item.key, item]));
	/** Violations per operation (`description METHOD path`), with the status seen. */
	const found = new Map<string, { operation: Operation; status: number; violations: Violation[] }>();
	/** Calls that did not succeed (the walk goes on, to report everything at once). */
	const failed: string[] = [];
	/** Lists that answered no item: their items' schema went unchecked. */
	const empty: string[] = [];
	for (const [key, entry] of Object.entries(TABLE)) {
		const item = byKey.get(key)!;
		const [method, pattern] = key.split(' ');
		const call: Call = { ...entry, ...(entry.call ? await entry.call(w) : {}) };
		const path = call.path ?? defaultPath(pattern);
		assert.ok(matches(pattern, path), `~> ${key}: the call ${path} is that route`);
		const headers = { ...call.headers };
		const res = await s.request(method, path, { token: credential(call.as), body: call.body, raw: call.raw, headers });
		if (res.status < 200 || res.status >= 400) {
			failed.push(`${key} answered ${res.status}: ${res.text}`);
			continue;
		}
		const operation = item.operation!;
		// Answers GitHub documents without JSON (a redirect, text/html, text/plain, the octocat stream):
		// the documented status (checked by validate below: no JSON schema, so no body may be parsed
		// as JSON), the documented media type, and a redirect's Location.
		const media = openapi.mediaTypes(operation, res.status);
		if (media && media.length > 0 && !media.some((type) => type.includes('json'))) {
			const type = (res.headers.get('content-type') ?? '').split(';')[0].trim();
			if (!media.includes(type))
				failed.push(`${key} answered ${res.status} as ${type || 'no media type'}; GitHub documents ${media.join(', ')}`);
		}
		if (res.status >= 300 && res.status < 400 && !res.headers.get('location'))
			failed.push(`${key} answered ${res.status} without a Location`);
		const violations = answerViolations(operation, res, headers.Accept);
		// OPENAPI_DUMP='GET /app/installations' prints what a route answered, to read a violation against.
		if (process.env.OPENAPI_DUMP === key) console.log(JSON.stringify({ status: res.status, body: res.body, violations }, null, 2));
		if (method === 'GET' && emptyList(res.body) && !ALWAYS_EMPTY.has(key)) empty.push(key);
		const id = `${operation.description} ${operation.key} ${res.status}`;
		const previous = found.get(id);
		if (previous)
			previous.violations.push(
				...violations.filter((v) => !previous.violations.some((p) => p.pointer === v.pointer && p.keyword === v.keyword)),
			);
		else found.set(id, { operation, status: res.status, violations });
	}
	const valid = [...found.values()].filter((item) => item.violations.length === 0).length;
	console.log(`\n  ${valid} of ${found.size} operations validate`);
	const unexplained: string[] = [];
	for (const { operation, status, violations } of found.values()) {
		for (const violation of violations) {
			const deviation = allowed(operation, status, violation);
			if (!deviation)
				unexplained.push(
					`${operation.operationId} (${operation.key}, ${status}) ${violation.pointer || '(body)'} ${violation.keyword}: ${violation.message}`,
				);
		}
	}
	const deviating = [...found.values()].filter((item) => item.violations.length > 0).map((item) => item.operation.operationId);
	if (deviating.length)
		console.log(`  the others validate but for the deviations docs/COMPATIBILITY.md allows, or fail below: ${deviating.join(', ')}`);
	assert.ok(
		empty.length === 0,
		`~> lists that answered no item (the scenario must give each one something to list, or its items go unchecked):\n    ${empty.join('\n    ')}`,
	);
	assert.ok(failed.length === 0, `~> calls that did not succeed:\n    ${failed.join('\n    ')}`);
	assert.ok(
		unexplained.length === 0,
		`~> violations of GitHub's description (fix the renderer, or list the rule that wins in docs/COMPATIBILITY.md):\n    ${unexplained.join('\n    ')}`,
	);
});

test('C – error answers have the shapes GitHub documents for their status (validation-error-simple for Dependabot alerts)', async () => {
	const byKey = new Map(mapped.map((item) => [item.key, item]));
	const problems: string[] = [];
	for (const call of ERRORS) {
		const operation = byKey.get(call.route)?.operation;
		assert.ok(operation, `~> ${call.route} is a route with an operation`);
		const res = await s.request(call.route.split(' ')[0], call.path!, { token: credential(call.as), body: call.body });
		assert.is(res.status, call.status, `~> ${call.route} ${call.path} answers ${call.status}: ${res.text}`);
		for (const v of openapi.validate(operation, res.status, res.body)) {
			if (!allowed(operation, res.status, v))
				problems.push(`${call.route} ${res.status} ${v.pointer || '(body)'} ${v.keyword}: ${v.message} — ${res.text}`);
		}
	}
	assert.ok(problems.length === 0, `~> error answers GitHub's description does not accept:\n    ${problems.join('\n    ')}`);
});

test('D – the same routes in other situations (callers, media types, API versions, the state the writes left) answer valid bodies too', async () => {
	const byKey = new Map(mapped.map((item) => [item.key, item]));
	const problems: string[] = [];
	for (const call of VARIANTS) {
		const operation = byKey.get(call.route)?.operation;
		assert.ok(operation && call.route in TABLE, `~> ${call.route} is a route of the walk`);
		const made = call.call ? await call.call(w) : {};
		const path = made.path ?? call.path ?? defaultPath(call.route.split(' ')[1]);
		const res = await s.request(call.route.split(' ')[0], path, { token: credential(call.as), headers: call.headers });
		assert.ok(res.status >= 200 && res.status < 400, `~> ${call.route} ${path} answered ${res.status}: ${res.text}`);
		assert.not.ok(emptyList(res.body), `~> ${path} lists something`);
		if (call.media)
			assert.ok(
				(res.headers.get('content-type') ?? '').startsWith(call.media),
				`~> ${path} answers ${call.media}: ${res.headers.get('content-type')}`,
			);
		for (const v of answerViolations(operation, res, call.headers?.Accept)) {
			if (!allowed(operation, res.status, v))
				problems.push(`${path} (${call.as ?? 'olivia'}) ${res.status} ${v.pointer || '(body)'} ${v.keyword}: ${v.message}`);
		}
	}
	assert.ok(problems.length === 0, `~> answers GitHub's description does not accept:\n    ${problems.join('\n    ')}`);
});

test('E – every deviation docs/COMPATIBILITY.md allows still occurs (the list is exact)', () => {
	deviations ??= allowedDeviations();
	const unseen = deviations.filter((d) => !seen.has(d)).map((d) => `${d.operationId} ${d.status} ${d.pointer} ${d.keyword}`);
	assert.ok(unseen.length === 0, `~> deviations docs/COMPATIBILITY.md allows that no longer occur (remove them): ${unseen.join(', ')}`);
});

test.run();
