/**
 * `gitstead admin …`: bootstrap users, enterprises, organizations, memberships and tokens from
 * the command line. Each command goes through the same service code and rules as the API, runs
 * in its own transaction, and is safe while the server runs (WAL, busy timeout; admin commands
 * never take serve's data-folder lock). Only `init` creates a data folder and database; every
 * other command refuses a missing one. With --json each prints one JSON object; otherwise one
 * readable line.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { App } from '../app';
import { importRuns } from '../api/actions/import';
import { advanceJob } from '../api/actions/service';
import type { JobConclusion, RunStatus } from '../api/actions/store';
import { importAdvisories } from '../api/dependabot/service';
import { gc } from '../api/git/gc';
import { refreshAllAlerts } from '../api/dependency-graph/service';
import { createEnterprise } from '../api/enterprises/service';
import { addMember } from '../api/members/service';
import { createOrganization } from '../api/orgs/service';
import { createApp, exceeding, installApp, saveAppHook } from '../api/apps/service';
import type { InstallationRow, AccountRow, RepositoryRow } from '../model/rows';
import { renderBody } from '../model/markdown/render';
import { registerRunner } from '../api/runner-groups/service';
import { createUser } from '../api/users/service';
import { setSiteAdmin, suspendUser, unsuspendUser } from '../api/users/admin';
import { verifyEmail } from '../api/users/emails';
import { parsePermissions, type GrantedPermissions } from '../auth/permissions';
import { normalizeScopes } from '../auth/scopes';
import { INSTALLATION_TOKEN_SECONDS, TOKEN_KINDS, type TokenKind } from '../auth/tokens';
import { passwordProblem, setUserPassword } from '../auth/sessions';
import { migrate } from '../db/migrate';
import { epochSeconds, isoSeconds } from '../time';
import { runSeedDemo } from './demo/command';
import { importExternalGroupsCommand } from './external-groups';
import { CliError, describeError, firstSentence, type Output } from './output';

export const ADMIN_HELP = `Usage: gitstead admin <command> [options]

gitstead admin <command> --help prints that command's usage, options and an example.

Commands:
  init                         create the data folder and its database (serve does this too);
                               on an existing database it says so and changes nothing
  create-user LOGIN [--site-admin] [--email E [--public-email]] [--name N] [--password-stdin]
  set-password LOGIN           the user's password for the web interface (asked on a terminal, else read from stdin)
  suspend LOGIN [--reason TEXT] [--unsuspend]   no sign-in, sessions ended, tokens refused
  site-admin LOGIN [--remove]  make a user a site administrator (or no longer one)
  create-enterprise SLUG --owner LOGIN [--name N]
  create-org LOGIN --owner LOGIN [--enterprise SLUG]
  add-member ORG LOGIN [--role member|admin]
  create-token LOGIN [--kind classic|fine-grained|oauth|user-to-server|installation]
               [--scopes a,b] [--permissions key:level,...] [--org ORG] [--app SLUG] [--expires-in DAYS] [--note TEXT]
  create-app NAME --owner LOGIN [--permissions key:level,...] [--events a,b] [--private-key-file FILE]
  install-app APP ACCOUNT [--permissions key:level,...]
  list-tokens [LOGIN]
  revoke-token ID
  list-deliveries [HOOK_ID] [--limit N]   the webhook delivery log (every kind of hook), newest first
  block-gist GIST_ID [--reason TEXT] [--unblock]   reads of a blocked gist answer 403 "Forbidden Gist"
  import-runs OWNER/REPO FILE  workflows, runs and jobs from a JSON file (demo data; format in docs/CLI.md)
  import-advisories FILE       security advisories (GitHub's global advisory JSON, an array or one
                               object) for dependabot alerts and dependency review; alerts are refreshed
  import-external-groups ORG FILE   external groups from a JSON file (an array of {group_id?,
                               group_name, members: [{member_login, member_name?, member_email?}]});
                               a group's members are replaced and its linked teams re-synced
  advance-job OWNER/REPO JOB_ID STATUS [CONCLUSION]   move a workflow job along as a runner would
  register-runner ENTERPRISE NAME [--os linux|macos|windows] [--labels a,b] [--group NAME]
               [--status online|offline] [--ephemeral]   (--org: NAME's owner is an organization)
  migrate                      upgrade the database schema (serve does this on start)
  backup FILE [--force]        write a consistent .tar.gz of the database and its blobs while the
                               server runs (refuses an existing FILE without --force)
  restore FILE                 replace the data folder with a backup's contents (verified first;
                               refused while a server runs there); the old data is kept beside it
  check                        read-only health check (integrity, foreign keys, schema, blobs, tokens,
                               webhooks); exit code 1 when a problem is found
  seed-demo [--force]          fill a fresh data folder with a demo enterprise (Northwind Traders:
                               3 organizations, 20 users, 11 repositories with history, issues,
                               pull requests, deployments, workflow runs, dependabot alerts …) and
                               print sign-in tokens for four personas; a seeded folder is left alone,
                               a folder with other accounts or repositories refused unless --force;
                               creates a missing folder like init

Options for every command:
  --data-dir DIR   data folder (default ./data; GITSTEAD_DATA_DIR); every command but init
                   refuses a folder without gitstead.db
  --config FILE    configuration file (GITSTEAD_CONFIG)
  --json           print one JSON object instead of a readable line

Token kinds: classic and oauth carry --scopes; fine-grained, user-to-server and installation
carry --permissions (key:level with level read, write or admin) and --org, the one account they
reach. Installation and user-to-server tokens act through an app installed on --org (--app when
several are): their permissions are at most the installation's. Installation tokens act as the
app, not as LOGIN, and expire after 60 minutes.
`;

/** Options every admin command accepts besides its own. */
export const COMMON_OPTIONS = {
	'data-dir': { type: 'string' },
	config: { type: 'string' },
	json: { type: 'boolean' },
	help: { type: 'boolean', short: 'h' },
} as const;

type Options = Record<string, { type: 'string' | 'boolean'; short?: string }>;

/**
 * The app webhook create-app's options describe, or null without --webhook-url: the URL, the
 * secret (--webhook-secret, or --webhook-secret-file FILE, "-" for standard input; a final newline
 * dropped), the content type (json unless --webhook-content-type form), insecure_ssl, active.
 * @throws CliError for a content type other than json or form, or two secrets
 */
function webhookOptions(values: Record<string, string | boolean | undefined>) {
	const url = string(values['webhook-url']);
	const secretFile = string(values['webhook-secret-file']);
	let secret = string(values['webhook-secret']) ?? null;
	if (secret !== null && secretFile !== undefined) throw new CliError('give --webhook-secret or --webhook-secret-file, not both');
	if (secretFile !== undefined) secret = readFileSync(secretFile === '-' ? 0 : secretFile, 'utf8').replace(/\r?\n$/, '');
	if (!url) {
		if (secret !== null || values['webhook-inactive'] || values['webhook-insecure-ssl'] || values['webhook-content-type'] !== undefined)
			throw new CliError('the --webhook-* options need --webhook-url');
		return null;
	}
	const contentType = string(values['webhook-content-type']) ?? 'json';
	if (contentType !== 'json' && contentType !== 'form')
		throw new CliError(`--webhook-content-type must be json or form, got "${contentType}"`);
	return {
		url,
		secret,
		content_type: contentType as 'json' | 'form',
		insecure_ssl: values['webhook-insecure-ssl'] === true ? ('1' as const) : ('0' as const),
		active: values['webhook-inactive'] !== true,
	};
}

/** Parses a command's arguments: COMMON_OPTIONS and `options`, then `positionals`. @throws CliError */
export function parse<O extends Options>(args: string[], options: O, positionals: string[]) {
	let parsed;
	try {
		parsed = parseArgs({ args, options: { ...COMMON_OPTIONS, ...options }, allowPositionals: true, strict: true });
	} catch (error) {
		// parseArgs' own errors, their first sentence; parseAdmin adds where the help is.
		throw new CliError(firstSentence(error));
	}
	if (parsed.positionals.length > positionals.length) {
		throw new CliError(`unexpected argument "${parsed.positionals[positionals.length]}"`);
	}
	for (let i = 0; i < positionals.length; i++) {
		if (!positionals[i].startsWith('[') && parsed.positionals[i] === undefined) throw new CliError(`missing ${positionals[i]}`);
	}
	return parsed as { values: Record<string, string | boolean | undefined>; positionals: string[] };
}

function requireUser(app: App, login: string): AccountRow {
	const user = app.stores.accounts.user(login);
	if (!user) throw new CliError(`unknown user "${login}"`);
	return user;
}

function requireOrg(app: App, login: string): AccountRow {
	const org = app.stores.accounts.organization(login);
	if (!org) throw new CliError(`unknown organization "${login}"`);
	return org;
}

/** A repository named OWNER/NAME (both case-insensitive). @throws CliError when there is none */
function requireRepositoryNamed(app: App, fullName: string): RepositoryRow {
	const [ownerLogin, name, extra] = fullName.split('/');
	if (!ownerLogin || !name || extra !== undefined) throw new CliError(`expected OWNER/REPO, got "${fullName}"`);
	const owner = app.stores.accounts.byLogin(ownerLogin);
	const repo = owner && app.stores.repos.byOwnerAndName(owner.id, name);
	if (!repo) throw new CliError(`unknown repository "${fullName}"`);
	return repo;
}

/** Reads and parses a JSON file. @throws CliError naming the file and the problem */
function readJson(file: string): unknown {
	let text: string;
	try {
		text = readFileSync(file, 'utf8');
	} catch (error) {
		throw new CliError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
	}
	try {
		return JSON.parse(text);
	} catch (error) {
		throw new CliError(`${file} is not JSON: ${(error as Error).message}`);
	}
}

function string(value: string | boolean | undefined): string | undefined {
	return typeof value === 'string' ? value : undefined;
}

/** What opening the data folder did, for commands that report it (init). */
export interface Opened {
	/** The data folder did not exist and was created. */
	createdFolder: boolean;
}

export interface AdminCommand {
	/** Options beyond COMMON_OPTIONS, for parseArgs. */
	options: Options;
	/** Positional argument names; '[NAME]' is optional. */
	positionals: string[];
	/** Creates a missing data folder and database (init); every other command refuses them. */
	createsDatabase?: boolean;
	/** May return a promise (seed-demo); runAdmin awaits it before closing the database. */
	run(
		app: App,
		values: Record<string, string | boolean | undefined>,
		positionals: string[],
		out: Output,
		opened?: Opened,
	): void | Promise<void>;
}

export const ADMIN_COMMANDS: Record<string, AdminCommand> = {
	init: {
		options: {},
		positionals: [],
		createsDatabase: true,
		run(app, _values, _positionals, out, opened = { createdFolder: false }) {
			const dataDir = app.config.storage.data_dir;
			const file = app.config.databaseFile;
			const { created, from, to } = app.migration;
			const upgraded = !created && from !== to;
			let line: string;
			if (created)
				line = `created ${opened.createdFolder ? `the data folder ${dataDir} and ` : ''}the database ${file} (schema version ${to})`;
			else if (upgraded) line = `the database ${file} already exists; upgraded it from schema version ${from} to ${to}`;
			else line = `the database ${file} already exists (schema version ${to}); nothing to do`;
			out.result(
				{
					data_dir: dataDir,
					database: file,
					created,
					created_folder: opened.createdFolder,
					schema_version: to,
					upgraded_from: upgraded ? from : null,
				},
				line,
			);
		},
	},
	'create-user': {
		options: {
			'site-admin': { type: 'boolean' },
			email: { type: 'string' },
			'public-email': { type: 'boolean' },
			name: { type: 'string' },
			'password-stdin': { type: 'boolean' },
		},
		positionals: ['LOGIN'],
		async run(app, values, [login], out) {
			if (values['public-email'] && !values.email) throw new CliError('--public-email needs --email');
			const password = values['password-stdin'] ? await readPassword(false) : null;
			const problem = password === null ? null : passwordProblem(password);
			if (problem) throw new CliError(problem);
			const user = createUser(app, {
				login,
				email: string(values.email),
				// An email stays private (shown to the user and site administrators only) unless made public.
				emailPublic: values['public-email'] === true,
				name: string(values.name),
				siteAdmin: values['site-admin'] === true,
			});
			if (password !== null) await setUserPassword(app, user.id, password);
			out.result(
				{
					id: user.id,
					login: user.login,
					site_admin: user.site_admin === 1,
					email: user.email,
					email_public: user.email_public === 1,
					name: user.name,
				},
				`created user ${user.login} (id ${user.id}${user.site_admin ? ', site administrator' : ''})`,
			);
		},
	},
	'set-password': {
		options: {},
		positionals: ['LOGIN'],
		async run(app, _values, [login], out) {
			const user = requireUser(app, login);
			const password = await readPassword(true);
			const problem = passwordProblem(password);
			if (problem) throw new CliError(problem);
			await setUserPassword(app, user.id, password);
			out.result(
				{ login: user.login, password_set: true },
				`set the password of ${user.login}; sign in at ${app.config.server.external_url || 'the server'}/login`,
			);
		},
	},
	suspend: {
		options: { reason: { type: 'string' }, unsuspend: { type: 'boolean' } },
		positionals: ['LOGIN'],
		run(app, values, [login], out) {
			const user = requireUser(app, login);
			if (values.unsuspend) {
				const lifted = unsuspendUser(app, user, null);
				out.result(
					{ login: user.login, suspended: false },
					lifted ? `${user.login} is no longer suspended` : `${user.login} was not suspended`,
				);
				return;
			}
			try {
				suspendUser(app, user, string(values.reason) ?? null, null);
			} catch (error) {
				throw new CliError(describeError(error));
			}
			out.result({ login: user.login, suspended: true }, `suspended ${user.login}: sessions ended, tokens refused`);
		},
	},
	'verify-email': {
		options: {},
		positionals: ['LOGIN', 'EMAIL'],
		run(app, _values, [login, email], out) {
			const user = requireUser(app, login);
			try {
				verifyEmail(app, user, email);
			} catch (error) {
				throw new CliError(describeError(error));
			}
			out.result({ login: user.login, email: email.trim(), verified: true }, `verified ${email.trim()} for ${user.login}`);
		},
	},
	'site-admin': {
		options: { remove: { type: 'boolean' } },
		positionals: ['LOGIN'],
		run(app, values, [login], out) {
			const user = requireUser(app, login);
			const siteAdmin = values.remove !== true;
			let changed: boolean;
			try {
				changed = setSiteAdmin(app, user, siteAdmin, null);
			} catch (error) {
				throw new CliError(describeError(error));
			}
			out.result(
				{ login: user.login, site_admin: siteAdmin },
				changed
					? `${user.login} is ${siteAdmin ? 'now' : 'no longer'} a site administrator`
					: `${user.login} ${siteAdmin ? 'was already' : 'was not'} a site administrator`,
			);
		},
	},
	'create-enterprise': {
		options: { owner: { type: 'string' }, name: { type: 'string' } },
		positionals: ['SLUG'],
		run(app, values, [slug], out) {
			const ownerLogin = string(values.owner);
			if (!ownerLogin) throw new CliError('--owner LOGIN is required');
			const owner = requireUser(app, ownerLogin);
			const enterprise = createEnterprise(app, { slug, name: string(values.name), ownerId: owner.id });
			out.result(
				{ id: enterprise.id, slug: enterprise.slug, name: enterprise.name, owner: owner.login },
				`created enterprise ${enterprise.slug} (id ${enterprise.id}) owned by ${owner.login}`,
			);
		},
	},
	'create-org': {
		options: { owner: { type: 'string' }, enterprise: { type: 'string' }, name: { type: 'string' } },
		positionals: ['LOGIN'],
		run(app, values, [login], out) {
			const ownerLogin = string(values.owner);
			if (!ownerLogin) throw new CliError('--owner LOGIN is required');
			const owner = requireUser(app, ownerLogin);
			const slug = string(values.enterprise);
			const enterprise = slug ? app.stores.enterprises.bySlug(slug) : undefined;
			if (slug && !enterprise) throw new CliError(`unknown enterprise "${slug}"`);
			const org = createOrganization(app, { login, ownerId: owner.id, enterpriseId: enterprise?.id, name: string(values.name) });
			out.result(
				{ id: org.id, login: org.login, owner: owner.login, enterprise: enterprise?.slug ?? null },
				`created organization ${org.login} (id ${org.id}) owned by ${owner.login}${enterprise ? ` in enterprise ${enterprise.slug}` : ''}`,
			);
		},
	},
	'add-member': {
		options: { role: { type: 'string' } },
		positionals: ['ORG', 'LOGIN'],
		run(app, values, [orgLogin, login], out) {
			const role = string(values.role) ?? 'member';
			if (role !== 'member' && role !== 'admin') throw new CliError(`--role must be member or admin, got "${role}"`);
			const org = requireOrg(app, orgLogin);
			const user = requireUser(app, login);
			const membership = addMember(app, org, user, role, isoSeconds(app.clock()));
			out.result(
				{ organization: org.login, login: user.login, role: membership.role, state: membership.state },
				`${user.login} is now ${role === 'admin' ? 'an owner' : 'a member'} of ${org.login}`,
			);
		},
	},
	'create-token': {
		options: {
			kind: { type: 'string' },
			scopes: { type: 'string' },
			permissions: { type: 'string' },
			org: { type: 'string' },
			'expires-in': { type: 'string' },
			note: { type: 'string' },
			app: { type: 'string' },
		},
		positionals: ['LOGIN'],
		run(app, values, [login], out) {
			const kind = (string(values.kind) ?? 'classic') as TokenKind;
			if (!TOKEN_KINDS.includes(kind)) throw new CliError(`--kind must be one of ${TOKEN_KINDS.join(', ')}, got "${kind}"`);
			const user = requireUser(app, login);
			const scopedKind = kind === 'classic' || kind === 'oauth';
			const scopesText = string(values.scopes);
			const permissionsText = string(values.permissions);
			if (scopedKind && permissionsText !== undefined) throw new CliError(`${kind} tokens carry --scopes, not --permissions`);
			if (!scopedKind && scopesText !== undefined) throw new CliError(`${kind} tokens carry --permissions, not --scopes`);
			let scopes: string[] = [];
			let permissions: GrantedPermissions = {};
			try {
				if (scopesText !== undefined) scopes = normalizeScopes(scopesText.split(','));
				if (permissionsText !== undefined) permissions = parsePermissions(permissionsText);
			} catch (error) {
				throw new CliError((error as Error).message);
			}

			const orgLogin = string(values.org);
			if (scopedKind && orgLogin)
				throw new CliError(`${kind} tokens reach every account the user can; --org applies to the other kinds`);
			let resourceOwner: AccountRow | null = null;
			let installationId: number | null = null;
			if (!scopedKind) {
				if (orgLogin) resourceOwner = app.stores.accounts.byLogin(orgLogin) ?? null;
				if (orgLogin && !resourceOwner) throw new CliError(`unknown organization "${orgLogin}"`);
				if (kind === 'fine-grained') resourceOwner ??= user;
				if (!resourceOwner) throw new CliError(`${kind} tokens need --org ORG, the organization the app is installed on`);
				if (
					kind !== 'installation' &&
					resourceOwner.type === 'Organization' &&
					app.stores.memberships.get(resourceOwner.id, user.id)?.state !== 'active'
				) {
					throw new CliError(`${user.login} is not a member of ${resourceOwner.login}`);
				}
			}
			if (kind === 'installation' || kind === 'user-to-server') {
				// App tokens act through an installation; their permissions narrow its own.
				const installation = findInstallation(app, resourceOwner!, string(values.app));
				installationId = installation.id;
				const extra = exceeding(permissions, JSON.parse(installation.permissions) as GrantedPermissions);
				if (extra.length) throw new CliError(`the installation does not grant ${extra.join(', ')}`);
			}

			const now = epochSeconds(app.clock());
			const expiresText = string(values['expires-in']);
			let expiresAt: number | null = null;
			if (kind === 'installation') {
				if (expiresText !== undefined) throw new CliError('installation tokens always expire after 60 minutes; drop --expires-in');
				expiresAt = now + INSTALLATION_TOKEN_SECONDS;
			} else if (expiresText !== undefined) {
				if (!/^\d+$/.test(expiresText) || Number(expiresText) < 1 || Number(expiresText) > 3650) {
					throw new CliError(`--expires-in must be a number of days from 1 to 3650, got "${expiresText}"`);
				}
				expiresAt = now + Number(expiresText) * 86400;
			}

			const { id, token } = app.transaction(() =>
				app.tokens.create({
					kind,
					userId: kind === 'installation' ? null : user.id,
					createdById: user.id,
					scopes,
					permissions,
					resourceOwnerId: resourceOwner?.id ?? null,
					installationId,
					note: string(values.note) ?? null,
					now,
					expiresAt,
				}),
			);
			const expires = expiresAt === null ? null : isoSeconds(expiresAt * 1000);
			out.result(
				{
					id,
					token,
					kind,
					login: user.login,
					scopes,
					permissions,
					org: resourceOwner?.login ?? null,
					expires_at: expires,
				},
				`${token}  (token ${id}, ${kind}, for ${kind === 'installation' ? `an app on ${resourceOwner!.login}` : user.login}, ` +
					`${
						scopedKind
							? `scopes: ${scopes.join(', ') || 'none'}`
							: `permissions: ${
									Object.entries(permissions)
										.map(([k, l]) => `${k}:${l}`)
										.join(', ') || 'none'
								}`
					}, ` +
					`expires ${expires ?? 'never'})`,
			);
		},
	},
	'register-runner': {
		options: {
			os: { type: 'string' },
			labels: { type: 'string' },
			group: { type: 'string' },
			status: { type: 'string' },
			ephemeral: { type: 'boolean' },
			org: { type: 'boolean' },
		},
		positionals: ['ENTERPRISE', 'NAME'],
		run(app, values, [login, name], out) {
			// --org: the first argument names an organization, whose own runner groups take the runner.
			const enterprise = values.org === true ? undefined : app.stores.enterprises.bySlug(login);
			const org = values.org === true ? app.stores.accounts.organization(login) : undefined;
			if (values.org === true && !org) throw new CliError(`unknown organization "${login}"`);
			if (values.org !== true && !enterprise) throw new CliError(`unknown enterprise "${login}"`);
			const status = string(values.status) ?? 'offline';
			if (status !== 'online' && status !== 'offline') throw new CliError(`--status must be online or offline, got "${status}"`);
			const runner = registerRunner(
				app,
				org ? { org: org.id } : { enterprise: enterprise!.id },
				{
					name,
					os: string(values.os) ?? 'linux',
					labels: (string(values.labels) ?? '')
						.split(',')
						.map((x) => x.trim())
						.filter(Boolean),
					group: string(values.group),
					status,
					ephemeral: values.ephemeral === true,
				},
				isoSeconds(app.clock()),
			);
			const owner = org ? { org: org.login } : { enterprise: enterprise!.slug };
			out.result(
				{
					id: runner.id,
					name: runner.name,
					os: runner.os,
					...owner,
					runner_group_id: runner.group.id,
					runner_group: runner.group.name,
				},
				`registered runner ${runner.name} (id ${runner.id}) in runner group ${runner.group.name} of ${org ? org.login : enterprise!.slug}`,
			);
		},
	},
	'create-app': {
		options: {
			owner: { type: 'string' },
			permissions: { type: 'string' },
			events: { type: 'string' },
			description: { type: 'string' },
			'private-key-file': { type: 'string' },
			'webhook-url': { type: 'string' },
			'webhook-secret': { type: 'string' },
			'webhook-secret-file': { type: 'string' },
			'webhook-content-type': { type: 'string' },
			'webhook-insecure-ssl': { type: 'boolean' },
			'webhook-inactive': { type: 'boolean' },
		},
		positionals: ['NAME'],
		run(app, values, [name], out) {
			const ownerLogin = string(values.owner);
			if (!ownerLogin) throw new CliError('--owner LOGIN is required');
			const owner = app.stores.accounts.byLogin(ownerLogin);
			if (!owner || owner.type === 'Bot') throw new CliError(`unknown user or organization "${ownerLogin}"`);
			let permissions: GrantedPermissions = {};
			try {
				permissions = parsePermissions(string(values.permissions) ?? '');
			} catch (error) {
				throw new CliError((error as Error).message);
			}
			const events = (string(values.events) ?? '')
				.split(',')
				.map((x) => x.trim())
				.filter(Boolean);
			const hook = webhookOptions(values);
			const { app: created, privateKey } = app.transaction(() => {
				const made = createApp(
					app,
					{ name, owner, permissions, events, description: string(values.description) },
					isoSeconds(app.clock()),
				);
				if (hook) saveAppHook(app, made.app, hook, isoSeconds(app.clock()));
				return made;
			});
			const keyFile = string(values['private-key-file']);
			if (keyFile) writeFileSync(keyFile, privateKey, { mode: 0o600 });
			out.result(
				{
					id: created.id,
					slug: created.slug,
					client_id: created.client_id,
					bot: `${created.slug}[bot]`,
					permissions: JSON.parse(created.permissions),
					events: JSON.parse(created.events),
					...(hook
						? {
								webhook: {
									url: hook.url,
									content_type: hook.content_type,
									secret: hook.secret ? '********' : null,
									active: hook.active,
								},
							}
						: {}),
					...(keyFile ? { private_key_file: keyFile } : { private_key: privateKey }),
				},
				`created app ${created.slug} (id ${created.id}, client ID ${created.client_id})` +
					(keyFile ? `; its private key is in ${keyFile}` : `; its private key, shown once:\n${privateKey.trimEnd()}`),
			);
		},
	},
	'install-app': {
		options: { permissions: { type: 'string' } },
		positionals: ['APP', 'ACCOUNT'],
		run(app, values, [slug, login], out) {
			const target = app.stores.apps.bySlug(slug);
			if (!target) throw new CliError(`unknown app "${slug}"`);
			const account = app.stores.accounts.byLogin(login);
			if (!account || account.type === 'Bot') throw new CliError(`unknown organization or user "${login}"`);
			let permissions: GrantedPermissions | null = null;
			try {
				if (values.permissions !== undefined) permissions = parsePermissions(string(values.permissions) ?? '');
			} catch (error) {
				throw new CliError((error as Error).message);
			}
			const installation = installApp(app, target, account, permissions, isoSeconds(app.clock()));
			out.result(
				{ id: installation.id, app: target.slug, account: account.login, permissions: JSON.parse(installation.permissions) },
				`installed ${target.slug} on ${account.login} (installation ${installation.id})`,
			);
		},
	},
	'block-gist': {
		options: { reason: { type: 'string' }, unblock: { type: 'boolean' } },
		positionals: ['GIST_ID'],
		run(app, values, [gistId], out) {
			const gist = app.stores.gists.byGistId(gistId.toLowerCase());
			if (!gist) throw new CliError(`unknown gist "${gistId}"`);
			const unblock = values.unblock === true;
			const reason = unblock ? null : (string(values.reason) ?? 'blocked by a site administrator');
			const blockedAt = unblock ? null : isoSeconds(app.clock());
			app.transaction(() => app.stores.gists.block(gist.id, blockedAt, reason));
			out.result(
				{ id: gist.gist_id, blocked: !unblock, reason, blocked_at: blockedAt },
				unblock ? `unblocked gist ${gist.gist_id}` : `blocked gist ${gist.gist_id} (${reason})`,
			);
		},
	},
	'import-advisories': {
		options: {},
		positionals: ['FILE'],
		run(app, _values, [file], out) {
			const parsed = readJson(file);
			const list = Array.isArray(parsed) ? parsed : [parsed];
			const now = isoSeconds(app.clock());
			const { imported, updated, repositories } = app.transaction(() => {
				const result = importAdvisories(app, list, now);
				return { ...result, repositories: refreshAllAlerts(app, now) };
			});
			out.result(
				{ imported, updated, repositories },
				`imported ${imported + updated} advisories (${imported} new, ${updated} updated); refreshed the alerts of ${repositories} repositories`,
			);
		},
	},
	'import-external-groups': importExternalGroupsCommand,
	'import-runs': {
		options: {},
		positionals: ['OWNER/REPO', 'FILE'],
		run(app, _values, [fullName, file], out) {
			const repo = requireRepositoryNamed(app, fullName);
			const result = importRuns(app, repo, readJson(file));
			out.result(
				{ workflows: result.workflows, runs: result.runs, jobs: result.jobs, run_ids: result.run_ids },
				`imported ${result.runs} runs with ${result.jobs} jobs into ${fullName} (${result.workflows} new workflows)`,
			);
		},
	},
	'advance-job': {
		options: {},
		positionals: ['OWNER/REPO', 'JOB_ID', 'STATUS', '[CONCLUSION]'],
		run(app, _values, [fullName, jobText, status, conclusion], out) {
			const repo = requireRepositoryNamed(app, fullName);
			if (!/^\d+$/.test(jobText)) throw new CliError(`JOB_ID must be a number, got "${jobText}"`);
			const run = advanceJob(
				app,
				repo,
				Number(jobText),
				{ status: status as RunStatus, conclusion: (conclusion ?? null) as JobConclusion | null },
				isoSeconds(app.clock()),
			);
			out.result(
				{ run_id: run.id, status: run.status, conclusion: run.conclusion, run_attempt: run.run_attempt },
				`job ${jobText} is ${status}${conclusion ? ` (${conclusion})` : ''}; run ${run.id} is ${run.status}${run.conclusion ? ` (${run.conclusion})` : ''}`,
			);
		},
	},
	'list-deliveries': {
		options: { limit: { type: 'string' } },
		positionals: ['[HOOK_ID]'],
		run(app, values, [hookText], out) {
			if (hookText !== undefined && !/^\d+$/.test(hookText)) throw new CliError(`HOOK_ID must be a number, got "${hookText}"`);
			const hookId = hookText === undefined ? null : Number(hookText);
			if (hookId !== null && !app.stores.webhooks.get(hookId)) throw new CliError(`unknown webhook ${hookId}`);
			const limitText = string(values.limit) ?? '50';
			if (!/^\d+$/.test(limitText) || Number(limitText) < 1)
				throw new CliError(`--limit must be a positive number, got "${limitText}"`);
			const deliveries = app.stores.webhooks.recent(hookId, Number(limitText)).map((row) => ({
				id: row.id,
				hook_id: row.hook_id,
				guid: row.guid,
				event: row.action ? `${row.event}.${row.action}` : row.event,
				state: row.state,
				attempts: row.attempts,
				status: row.status,
				status_code: row.status_code,
				duration: row.duration,
				delivered_at: row.delivered_at,
				attempt_log: app.stores.webhooks.attempts(row.id).map((a) => ({
					attempted_at: a.attempted_at,
					duration: a.duration,
					status: a.status,
					status_code: a.status_code,
				})),
			}));
			out.result(
				{ deliveries },
				deliveries.length === 0
					? 'no deliveries'
					: deliveries
							.map(
								(d) =>
									`${d.id}\thook ${d.hook_id}\t${d.event}\t${d.state}\t${d.attempts} attempt(s)\t${d.status_code ?? '-'} ${d.status ?? ''}`,
							)
							.join('\n'),
			);
		},
	},
	'list-tokens': {
		options: {},
		positionals: ['[LOGIN]'],
		run(app, _values, [login], out) {
			const user = login ? requireUser(app, login) : undefined;
			const now = epochSeconds(app.clock());
			const tokens = app.tokens.list(user?.id).map((row) => ({
				id: row.id,
				kind: row.kind,
				login: row.login,
				ends_with: row.token_last_eight,
				scopes: row.scopes ? row.scopes.split(',') : [],
				permissions: JSON.parse(row.permissions) as GrantedPermissions,
				note: row.note,
				created_at: isoSeconds(row.created_at * 1000),
				expires_at: row.expires_at === null ? null : isoSeconds(row.expires_at * 1000),
				last_used_at: row.last_used_at === null ? null : isoSeconds(row.last_used_at * 1000),
				state: row.revoked_at !== null ? 'revoked' : row.expires_at !== null && row.expires_at <= now ? 'expired' : 'active',
			}));
			out.result(
				{ tokens },
				tokens.length === 0
					? 'no tokens'
					: tokens
							.map(
								(t) =>
									`${t.id}\t${t.kind}\t${t.login ?? '(app)'}\t…${t.ends_with}\t${t.state}\t${t.scopes.join(',') || Object.keys(t.permissions).join(',') || '-'}`,
							)
							.join('\n'),
			);
		},
	},
	'revoke-token': {
		options: {},
		positionals: ['ID'],
		run(app, _values, [idText], out) {
			if (!/^\d+$/.test(idText)) throw new CliError(`token ID must be a number, got "${idText}"`);
			const id = Number(idText);
			const token = app.tokens.get(id);
			if (!token) throw new CliError(`unknown token ${id}`);
			if (token.revoked_at !== null) throw new CliError(`token ${id} is already revoked`);
			app.transaction(() => app.tokens.revoke(id, epochSeconds(app.clock())));
			out.result({ id, revoked: true }, `revoked token ${id}`);
		},
	},
	'seed-demo': {
		options: { force: { type: 'boolean' } },
		positionals: [],
		// A demo usually starts from nothing: like init, it creates a missing folder and database.
		createsDatabase: true,
		run: (app, values, _positionals, out) => runSeedDemo(app, values.force === true, out),
	},
	gc: {
		options: { 'dry-run': { type: 'boolean' }, 'grace-days': { type: 'string' } },
		positionals: [],
		async run(app, values, _positionals, out) {
			let graceDays: number | undefined;
			if (values['grace-days'] !== undefined) {
				graceDays = Number(values['grace-days']);
				if (!Number.isFinite(graceDays) || graceDays < 0) throw new CliError('--grace-days takes a number of days (0 or more)');
			}
			const dryRun = values['dry-run'] === true;
			const report = await gc(app, { now: epochSeconds(app.clock()), graceDays, dryRun });
			const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;
			out.result(
				{ ...report, dry_run: dryRun },
				`${dryRun ? 'would delete' : 'deleted'} ${report.deleted} unreachable objects, kept ${report.kept}, ` +
					`${dryRun ? 'would deltify' : 'deltified'} ${report.deltified} in ${report.networks} fork networks; ` +
					`object data ${mb(report.bytesBefore)} → ${mb(report.bytesAfter)}${report.incoming ? `; removed ${report.incoming} stale incoming packs` : ''}`,
			);
		},
	},
	migrate: {
		options: {},
		positionals: [],
		run(app, _values, _positionals, out) {
			const result = app.migration.from === app.migration.to ? migrate(app.db, { renderBody }) : app.migration;
			out.result(
				{ from: result.from, to: result.to, backup: result.backup ?? null },
				result.from === result.to
					? `database is at schema version ${result.to}`
					: `upgraded database from schema version ${result.from} to ${result.to}${result.backup ? `; the database before the upgrade is in ${result.backup}` : ''}`,
			);
		},
	},
};

/**
 * A password from the terminal (asked twice, not echoed) or, when standard input is not a terminal
 * its first line.
 * @param ask whether to prompt on a terminal (set-password); --password-stdin always reads stdin
 * @throws CliError when nothing is given or the two entries differ
 */
async function readPassword(ask: boolean): Promise<string> {
	const input = process.stdin;
	if (ask && input.isTTY) {
		const first = await promptHidden('Password: ');
		const second = await promptHidden('Password again: ');
		if (first !== second) throw new CliError('the two passwords differ');
		return first;
	}
	const chunks: Buffer[] = [];
	for await (const chunk of input) {
		chunks.push(chunk as Buffer);
		if (Buffer.concat(chunks).length > 4096) break;
	}
	const line = Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0];
	if (!line) throw new CliError('no password on standard input');
	return line;
}

/** Reads one line from the terminal without echoing it. */
function promptHidden(question: string): Promise<string> {
	return new Promise((resolve) => {
		const input = process.stdin;
		process.stderr.write(question);
		input.setRawMode?.(true);
		input.resume();
		let text = '';
		const onData = (data: Buffer) => {
			for (const ch of data.toString('utf8')) {
				if (ch === '\r' || ch === '\n' || ch === '\u0004') {
					input.setRawMode?.(false);
					input.pause();
					input.off('data', onData);
					process.stderr.write('\n');
					resolve(text);
					return;
				}
				if (ch === '\u0003') process.exit(130);
				if (ch === '\u007f') text = text.slice(0, -1);
				else text += ch;
			}
		};
		input.on('data', onData);
	});
}

/** The installation app tokens act through: of --app on the account, or the account's only one. */
function findInstallation(app: App, account: AccountRow, slug: string | undefined): InstallationRow {
	if (slug) {
		const target = app.stores.apps.bySlug(slug);
		if (!target) throw new CliError(`unknown app "${slug}"`);
		const installation = app.stores.apps.installationOn(target.id, account.id);
		if (!installation)
			throw new CliError(
				`${target.slug} is not installed on ${account.login} (gitstead admin install-app ${target.slug} ${account.login})`,
			);
		return installation;
	}
	const installations = app.stores.apps.installationsOn(account.id);
	if (installations.length === 1) return installations[0];
	if (installations.length === 0) {
		throw new CliError(
			`no app is installed on ${account.login}; register one with gitstead admin create-app and install it with gitstead admin install-app`,
		);
	}
	throw new CliError(`several apps are installed on ${account.login}; name one with --app SLUG`);
}

/** Parses an admin command's arguments. @throws CliError for unknown or missing arguments. */
export function parseAdmin(name: string, args: string[]) {
	const command = ADMIN_COMMANDS[name];
	if (!command) throw new CliError(`unknown admin command "${name}" (see gitstead admin --help)`);
	try {
		const { values, positionals } = parse(args, command.options, command.positionals);
		return { command, values, positionals };
	} catch (error) {
		if (error instanceof CliError) throw new CliError(`${error.message} (see gitstead admin ${name} --help)`);
		throw error;
	}
}
