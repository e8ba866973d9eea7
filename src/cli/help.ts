/**
 * Every command's own --help: one entry per command (`serve`, `openapi`, `routes`, `version`,
 * `admin`, and `admin <name>` for each admin command), rendered as "Usage: gitstead …", a
 * summary, the options and examples. Adding a command's help is adding its entry here;
 * test/cli.test.ts walks the commands (ADMIN_COMMANDS included) and fails, named, on one without an
 * entry or with an option the entry does not describe. --help never opens the database.
 */

/** One command's help. */
export interface CommandHelp {
	/** The synopsis after `gitstead `, e.g. `admin create-user LOGIN [options]`. */
	usage: string;
	/** What the command does, in a sentence or two. */
	summary: string;
	/** [flag as typed, meaning] of the command's own options. */
	options?: Array<[string, string]>;
	/** Complete command lines after `gitstead `. */
	examples: string[];
}

/** The options every admin command accepts (src/cli/admin.ts COMMON_OPTIONS). */
export const ADMIN_COMMON_OPTIONS: Array<[string, string]> = [
	['--data-dir DIR', 'data folder (default ./data; GITSTEAD_DATA_DIR)'],
	['--config FILE', 'configuration file (GITSTEAD_CONFIG)'],
	['--json', 'print one JSON object instead of a readable line'],
	['-h, --help', 'print this help'],
];

const HELP_OPTION: [string, string] = ['-h, --help', 'print this help'];

const PERMISSIONS = '--permissions KEY:LEVEL,...';

/** The help of every command, by its words after `gitstead` (`admin create-user`). */
export const COMMAND_HELP: Record<string, CommandHelp> = {
	serve: {
		usage: 'serve [options]',
		summary:
			'Run the server: the REST API at /api/v3 and /, on the data folder (created with its database on first start, ' +
			'printing the admin token once). One server per data folder.',
		options: [
			['--host ADDR', 'address to listen on (default 127.0.0.1; GITSTEAD_HOST)'],
			['--port N', 'port (default 8080; 0 picks a free one; GITSTEAD_PORT)'],
			['--data-dir DIR', 'data folder (default ./data; GITSTEAD_DATA_DIR)'],
			['--config FILE', 'configuration file (GITSTEAD_CONFIG)'],
			['--external-url URL', 'the origin clients reach (URLs in answers; GITSTEAD_EXTERNAL_URL)'],
			['--trusted-proxies ADDR,CIDR,...', 'peers whose X-Forwarded-* headers are believed (GITSTEAD_TRUSTED_PROXIES)'],
			['--log-format logfmt|json', 'log lines as key=value (default) or JSON objects (GITSTEAD_LOG_FORMAT)'],
			['--log-level debug|info|warn|error', 'the least severe lines written (default info; GITSTEAD_LOG_LEVEL)'],
			[
				'--shutdown-timeout SECONDS',
				'on SIGTERM/SIGINT, how long requests in flight may take (default 10; GITSTEAD_SHUTDOWN_TIMEOUT)',
			],
			HELP_OPTION,
		],
		examples: ['serve --port 8080 --data-dir /srv/gitstead', 'serve --config /etc/gitstead.toml --log-format json'],
	},
	openapi: {
		usage: 'openapi',
		summary:
			'Print the OpenAPI 3.1 description of the API, generated from the route table (the same bytes GET /openapi.json serves): ' +
			'paths, parameters, request bodies, GitHub’s response schemas and each route’s permissions (x-github-permissions, ' +
			'x-accepted-token-kinds, x-rate-limit-category, x-access, x-resource-guard). Opens no database.',
		options: [HELP_OPTION],
		examples: ['openapi > gitstead-openapi.json'],
	},
	routes: {
		usage: 'routes [--json | --markdown]',
		summary:
			'Print the route table: method, path, the fine-grained permissions needed (X-Accepted-GitHub-Permissions format), ' +
			'accepted token kinds, rate-limit category and access rule. Opens no database.',
		options: [
			['--json', 'one JSON object: {"routes": [...]} with the policy, scopes and guard too'],
			['--markdown', 'the Markdown table docs/ROUTES.md carries (npm run routes:doc rewrites it)'],
			HELP_OPTION,
		],
		examples: ['routes', 'routes --json', 'routes | grep /labels'],
	},
	version: {
		usage: 'version',
		summary: 'Print the version (also gitstead --version, -v).',
		options: [HELP_OPTION],
		examples: ['version'],
	},
	admin: {
		usage: 'admin <command> [options]',
		summary: 'Administer the data folder beside (or without) a running server; gitstead admin --help lists the commands.',
		options: ADMIN_COMMON_OPTIONS,
		examples: ['admin --help', 'admin create-user alice --help'],
	},
	'admin init': {
		usage: 'admin init [options]',
		summary:
			'Create the data folder and its database (serve does this too); on an existing database say so and change nothing (but a pending schema upgrade).',
		examples: ['admin init --data-dir /srv/gitstead'],
	},
	'admin create-user': {
		usage: 'admin create-user LOGIN [options]',
		summary: 'Create a user.',
		options: [
			['--site-admin', 'make the user a site administrator'],
			['--email E', 'the user’s email (private unless --public-email)'],
			['--public-email', 'show the email on the public profile'],
			['--name N', 'display name'],
			['--password-stdin', 'read a password for the web interface from standard input (first line)'],
		],
		examples: [
			'admin create-user alice --email alice@example.com --name "Alice Liddell"',
			'printf %s "$PASS" | gitstead admin create-user alice --password-stdin',
		],
	},
	'admin set-password': {
		usage: 'admin set-password LOGIN',
		summary:
			'Set the password a user signs in to the web interface with (/login): asked twice on a terminal, else read from ' +
			"standard input (first line). Stored as a scrypt hash; the user's browser sessions end.",
		examples: ['admin set-password alice', 'printf %s "$PASS" | gitstead admin set-password alice'],
	},
	'admin verify-email': {
		usage: 'admin verify-email LOGIN EMAIL',
		summary:
			'Mark an email address a user added (POST /user/emails) verified: Gitstead sends no verification mail. A verified ' +
			"address links the user's commits and signatures made with it, as the primary address does.",
		examples: ['admin verify-email alice alice@work.example'],
	},
	'admin suspend': {
		usage: 'admin suspend LOGIN [--reason TEXT] [--unsuspend]',
		summary:
			'Suspend a user: no sign-in to the web interface, browser sessions ended, tokens refused (403 "Sorry. Your account ' +
			'was suspended."). --unsuspend lifts it.',
		options: [
			['--reason TEXT', 'why (kept with the suspension)'],
			['--unsuspend', 'lift the suspension'],
		],
		examples: ['admin suspend mallory --reason "left the company"', 'admin suspend mallory --unsuspend'],
	},
	'admin site-admin': {
		usage: 'admin site-admin LOGIN [--remove]',
		summary:
			'Make a user a site administrator (the site admin area at /stafftools, global webhooks, every repository) or, with ' +
			'--remove, no longer one. A suspended user is not promoted; the last site administrator is not removed.',
		options: [['--remove', 'take the role away']],
		examples: ['admin site-admin alice', 'admin site-admin alice --remove'],
	},
	'admin create-enterprise': {
		usage: 'admin create-enterprise SLUG --owner LOGIN [options]',
		summary: 'Create an enterprise owned by a user.',
		options: [
			['--owner LOGIN', 'the enterprise owner (required)'],
			['--name N', 'display name'],
		],
		examples: ['admin create-enterprise acme-corp --owner alice'],
	},
	'admin create-org': {
		usage: 'admin create-org LOGIN --owner LOGIN [options]',
		summary: 'Create an organization with its first owner.',
		options: [
			['--owner LOGIN', 'the first owner (required)'],
			['--enterprise SLUG', 'the enterprise it belongs to'],
			['--name N', 'display name'],
		],
		examples: ['admin create-org acme --owner alice'],
	},
	'admin add-member': {
		usage: 'admin add-member ORG LOGIN [options]',
		summary: 'Make a user a member (or owner) of an organization.',
		options: [['--role member|admin', 'member (default) or admin (an owner)']],
		examples: ['admin add-member acme bob --role admin'],
	},
	'admin create-token': {
		usage: 'admin create-token LOGIN [options]',
		summary: 'Create a token for a user and print it once (stored only as a SHA-256 hash).',
		options: [
			['--kind KIND', 'classic (default), fine-grained, oauth, user-to-server or installation'],
			['--scopes a,b', 'classic and oauth tokens: OAuth scopes'],
			[PERMISSIONS, 'fine-grained, user-to-server and installation tokens: permissions (level read, write or admin)'],
			['--org ORG', 'the one account a fine-grained, user-to-server or installation token reaches'],
			['--app SLUG', 'the app to act through when several are installed on --org'],
			['--expires-in DAYS', 'days until it expires (installation tokens: always 60 minutes)'],
			['--note TEXT', 'a note shown in list-tokens'],
		],
		examples: [
			'admin create-token alice --scopes repo,admin:org',
			'admin create-token alice --kind fine-grained --org acme --permissions issues:write,metadata:read',
		],
	},
	'admin create-app': {
		usage: 'admin create-app NAME --owner LOGIN [options]',
		summary: 'Register a GitHub App with an RSA key pair; the private key (PKCS#1 PEM) is printed once or written to a file.',
		options: [
			['--owner LOGIN', 'the user or organization owning the app (required)'],
			[PERMISSIONS, 'the permissions the app asks for'],
			['--events a,b', 'webhook events it subscribes to'],
			['--description TEXT', 'the app’s description'],
			['--private-key-file FILE', 'write the private key here (mode 600) instead of printing it'],
			['--webhook-url URL', 'where the app receives the events of its installations (GitHub App webhook)'],
			['--webhook-secret TEXT', 'the secret that signs its deliveries (X-Hub-Signature-256)'],
			['--webhook-secret-file FILE', 'read that secret from a file instead, "-" for standard input'],
			['--webhook-content-type json|form', 'how deliveries are encoded (default json)'],
			['--webhook-insecure-ssl', 'do not verify the receiver’s TLS certificate'],
			['--webhook-inactive', 'keep the webhook but send nothing'],
		],
		examples: [
			'admin create-app "CI Bot" --owner acme --permissions checks:write,metadata:read --private-key-file ci-bot.pem',
			'admin create-app "Triage" --owner acme --permissions issues:write --events issues,issue_comment --webhook-url https://bot.example.com/api/github/webhooks --webhook-secret-file secret.txt',
		],
	},
	'admin install-app': {
		usage: 'admin install-app APP ACCOUNT [options]',
		summary: 'Install an app (by slug) on an organization or user, with at most the permissions it asks for.',
		options: [[PERMISSIONS, 'the installation’s permissions (default: all the app asks for)']],
		examples: ['admin install-app ci-bot acme'],
	},
	'admin list-tokens': {
		usage: 'admin list-tokens [LOGIN] [options]',
		summary: 'List tokens (of one user, or every user): id, kind, owner, scopes or permissions, expiry, revocation.',
		examples: ['admin list-tokens alice --json'],
	},
	'admin revoke-token': {
		usage: 'admin revoke-token ID [options]',
		summary: 'Revoke a token by its id (list-tokens shows ids); a running server refuses it at once.',
		examples: ['admin revoke-token 12'],
	},
	'admin list-deliveries': {
		usage: 'admin list-deliveries [HOOK_ID] [options]',
		summary: 'Print the webhook delivery log (global, organization and repository hooks), newest first, with every attempt.',
		options: [['--limit N', 'at most N deliveries']],
		examples: ['admin list-deliveries 3 --limit 10'],
	},
	'admin block-gist': {
		usage: 'admin block-gist GIST_ID [options]',
		summary: 'Block a gist for abuse: reads answer 403 "Gist blocked" and it leaves the lists.',
		options: [
			['--reason TEXT', 'the reason recorded'],
			['--unblock', 'lift the block'],
		],
		examples: ['admin block-gist aa5a315d61ae9438b18d --reason spam'],
	},
	'admin import-runs': {
		usage: 'admin import-runs OWNER/REPO FILE [options]',
		summary: 'Load workflows, runs and jobs from a JSON file (demo data; the format is in docs/CLI.md).',
		examples: ['admin import-runs acme/app runs.json'],
	},
	'admin import-advisories': {
		usage: 'admin import-advisories FILE [options]',
		summary:
			'Load security advisories (GitHub’s global advisory JSON, an array or one object) and refresh every repository’s Dependabot alerts.',
		examples: ['admin import-advisories advisories.json'],
	},
	'admin import-external-groups': {
		usage: 'admin import-external-groups ORG FILE [options]',
		summary:
			'Import an organization’s external groups (there is no identity provider here) from a JSON array of {group_id?, group_name, members: [{member_login, member_name?, member_email?}]}: a group’s members are replaced and the teams linked to it re-synced.',
		examples: ['admin import-external-groups acme groups.json'],
	},
	'admin advance-job': {
		usage: 'admin advance-job OWNER/REPO JOB_ID STATUS [CONCLUSION] [options]',
		summary: 'Move a workflow job along as a runner would (queued → in_progress → completed with a conclusion); its run follows.',
		examples: ['admin advance-job acme/app 7 in_progress', 'admin advance-job acme/app 7 completed success'],
	},
	'admin register-runner': {
		usage: 'admin register-runner ENTERPRISE|ORG NAME [options]',
		summary:
			'Record a self-hosted runner of an enterprise, or of an organization with --org (in its default runner group unless --group).',
		options: [
			['--org', 'the first argument names an organization, not an enterprise'],
			['--os linux|macos|windows', 'the runner’s operating system (default linux)'],
			['--labels a,b', 'custom labels'],
			['--group NAME', 'the runner group'],
			['--status online|offline', 'default offline'],
			['--ephemeral', 'an ephemeral runner'],
		],
		examples: ['admin register-runner acme-corp builder-1 --labels gpu --status online'],
	},
	'admin migrate': {
		usage: 'admin migrate [options]',
		summary: 'Upgrade the database schema (serve does this on start), after copying the database to <data-dir>/backups/.',
		examples: ['admin migrate --data-dir /srv/gitstead'],
	},
	'admin backup': {
		usage: 'admin backup FILE [options]',
		summary:
			'Write one consistent .tar.gz of the database (everything committed, WAL included) and the blob folder, with a manifest of counts and SHA-256 checksums, while the server keeps serving and writing.',
		options: [['--force', 'overwrite an existing FILE']],
		examples: ['admin backup /srv/backup/gitstead-2026-11-24.tar.gz --data-dir /var/lib/gitstead'],
	},
	'admin restore': {
		usage: 'admin restore FILE [options]',
		summary:
			'Replace the data folder with a backup’s contents: checksums, schema version and integrity verified first; refused while a server holds the folder; the previous data kept beside it (the output says where).',
		examples: ['admin restore /srv/backup/gitstead-2026-11-24.tar.gz --data-dir /tmp/drill'],
	},
	'admin check': {
		usage: 'admin check [options]',
		summary:
			'Read-only health check beside a running server: integrity, foreign keys, schema version, blob files against their rows, tokens, webhooks, and git data (references name stored objects, delta bases exist); exit status 1 when a problem is found.',
		examples: ['admin check --data-dir /var/lib/gitstead --json'],
	},
	'admin gc': {
		usage: 'admin gc [options]',
		summary:
			'Git maintenance, safe beside a running server: deletes objects no reference of their fork network reaches once they are older than storage.gc_grace_days (14), deltifies objects stored whole (what the REST API writes), sets repository sizes. The server runs it weekly too.',
		options: [
			['--dry-run', 'report what would be deleted and deltified, change nothing'],
			['--grace-days N', 'keep unreachable objects younger than N days (default storage.gc_grace_days)'],
		],
		examples: ['admin gc --data-dir /var/lib/gitstead', 'admin gc --dry-run --json'],
	},
	'admin seed-demo': {
		usage: 'admin seed-demo [options]',
		summary:
			'Fill a fresh data folder with a demo enterprise (3 organizations, 20 users, 11 repositories with history, issues, pull requests, deployments, workflow runs, dependabot alerts…) and print sign-in tokens for four personas. A seeded folder is left alone.',
		options: [['--force', 'seed beside other accounts or repositories already in the folder']],
		examples: ['admin seed-demo --data-dir ./demo && gitstead serve --data-dir ./demo'],
	},
};

/** Text wrapped at 100 columns on spaces. */
function wrap(text: string, width = 100): string {
	const lines: string[] = [];
	let line = '';
	for (const word of text.split(' ')) {
		if (line && line.length + 1 + word.length > width) {
			lines.push(line);
			line = word;
		} else line = line ? `${line} ${word}` : word;
	}
	return [...lines, line].join('\n');
}

function table(rows: Array<[string, string]>): string {
	const width = Math.max(...rows.map(([flag]) => flag.length));
	return rows.map(([flag, text]) => `  ${flag.padEnd(width)}  ${text}`).join('\n');
}

/**
 * The help text of a command (its words after `gitstead`), or undefined when it has no entry.
 * Admin commands list the common admin options too.
 */
export function renderHelp(command: string): string | undefined {
	const help = COMMAND_HELP[command];
	if (!help) return undefined;
	const admin = command.startsWith('admin ');
	const parts = [`Usage: gitstead ${help.usage}`, '', wrap(help.summary)];
	if (help.options?.length) parts.push('', 'Options:', table(help.options));
	if (admin) parts.push('', 'Options for every admin command:', table(ADMIN_COMMON_OPTIONS));
	parts.push('', help.examples.length > 1 ? 'Examples:' : 'Example:', ...help.examples.map((line) => `  gitstead ${line}`));
	return `${parts.join('\n')}\n`;
}

/** The flags (`--name`, `-x`) an entry describes, own options and admin common options. */
export function describedFlags(command: string): Set<string> {
	const help = COMMAND_HELP[command];
	const rows = [...(help?.options ?? []), ...(command.startsWith('admin ') ? ADMIN_COMMON_OPTIONS : [])];
	return new Set(rows.flatMap(([flag]) => flag.split(/[ ,]+/).filter((word) => word.startsWith('-'))));
}
