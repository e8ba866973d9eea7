/**
 * The gitstead command: `serve`, `admin …`, `openapi`, `routes`, `version`, `--help`.
 * --help (of every command: src/cli/help.ts), version, openapi and routes never open the database.
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { closeApp, openApp } from './compose';
import { version } from './build-info';
import { ADMIN_COMMANDS, ADMIN_HELP, parseAdmin } from './cli/admin';
import { renderHelp } from './cli/help';
import { argsError, CliError, createOutput, describeError } from './cli/output';
import { runOpenapi, runRoutes } from './cli/routes';
import { parseStorage, STORAGE_COMMANDS } from './cli/storage';
import { serve } from './cli/serve';
import { ConfigError, loadConfig, parseLogFormat, parseLogLevel, parsePort, parseSeconds, splitList, type Overrides } from './config';
import { createLogger } from './log';

const HELP = `Gitstead ${version}: a self-hosted source-code hosting server speaking GitHub's REST API.

Usage:
  gitstead serve [--host 127.0.0.1] [--port 8080] [--data-dir ./data] [--config FILE] [--external-url URL]
                 [--trusted-proxies ADDR,CIDR,...] [--log-format logfmt|json] [--log-level debug|info|warn|error]
                 [--shutdown-timeout SECONDS]
  gitstead admin init [--data-dir ./data]  create the data folder and database (serve does too)
  gitstead admin <command> [options]      (gitstead admin --help lists the commands)
  gitstead openapi                         print the API's OpenAPI 3.1 description (GET /openapi.json)
  gitstead routes [--json | --markdown]    print the route table with each route's permissions
  gitstead version
  gitstead --help                          gitstead <command> --help: that command's usage

Environment variables GITSTEAD_HOST, GITSTEAD_PORT, GITSTEAD_DATA_DIR, GITSTEAD_CONFIG,
GITSTEAD_EXTERNAL_URL, GITSTEAD_TRUSTED_PROXIES, GITSTEAD_LOG_FORMAT, GITSTEAD_LOG_LEVEL and GITSTEAD_SHUTDOWN_TIMEOUT
stand in for the flags of the same name. One server serves a data folder at
a time (a second serve on it exits naming the first); admin commands run beside it.
GITSTEAD_METRICS_TOKEN sets [metrics] token (GET /metrics then requires Authorization: Bearer <token>).
GET /healthz and GET /metrics are served at the root, without authentication (docs/OPERATIONS.md: Health and metrics).
SIGTERM or SIGINT stops serve gracefully: requests in flight are answered (up to --shutdown-timeout seconds,
default 10), then it exits 0; a second signal while it stops exits at once with status 1.
`;

function fail(message: string, code = 1): never {
	process.stderr.write(`gitstead: error: ${message}\n`);
	process.exit(code);
}

function overrides(values: Record<string, string | boolean | undefined>): Overrides {
	const text = (key: string) => (typeof values[key] === 'string' ? (values[key] as string) : undefined);
	const port = text('port');
	return {
		host: text('host'),
		port: port === undefined ? undefined : parsePort(port, '--port'),
		dataDir: text('data-dir'),
		config: text('config'),
		externalUrl: text('external-url'),
		trustedProxies: text('trusted-proxies') === undefined ? undefined : splitList(text('trusted-proxies')!),
		logLevel: text('log-level') === undefined ? undefined : parseLogLevel(text('log-level')!, '--log-level'),
		logFormat: text('log-format') === undefined ? undefined : parseLogFormat(text('log-format')!, '--log-format'),
		shutdownTimeout: text('shutdown-timeout') === undefined ? undefined : parseSeconds(text('shutdown-timeout')!, '--shutdown-timeout'),
	};
}

async function runServe(args: string[]): Promise<void> {
	const { values, positionals } = parseArgs({
		args,
		options: {
			host: { type: 'string' },
			port: { type: 'string' },
			'data-dir': { type: 'string' },
			config: { type: 'string' },
			'external-url': { type: 'string' },
			'trusted-proxies': { type: 'string' },
			'log-format': { type: 'string' },
			'log-level': { type: 'string' },
			'shutdown-timeout': { type: 'string' },
			help: { type: 'boolean', short: 'h' },
		},
		allowPositionals: true,
		strict: true,
	});
	if (values.help) return void process.stdout.write(renderHelp('serve')!);
	if (positionals.length) throw new CliError(`unexpected argument "${positionals[0]}"`);
	const config = loadConfig(overrides(values));
	const starting = serve(config);
	// Handlers first: a signal that arrives while the server is still starting (it has already
	// logged its address) stops it cleanly too, releasing the data folder's lock. A second signal
	// while stopping gives up on the drain: exit 1 at once (the kernel drops the lock; SQLite
	// recovers the WAL at the next start).
	let stopping = false;
	const shutdown = (signal: string) => {
		if (stopping) {
			createLogger('info', undefined, config.log.format).warn(`received ${signal} again while stopping: exiting at once`);
			process.exit(1);
		}
		stopping = true;
		starting
			.then((serving) => serving.stop(signal))
			.then(
				() => process.exit(0),
				(error) => fail(`stopping failed: ${(error as Error).message}`),
			);
	};
	process.on('SIGINT', () => shutdown('SIGINT'));
	process.on('SIGTERM', () => shutdown('SIGTERM'));
	await starting;
}

/** backup, restore, check (src/cli/storage.ts): they open the data folder themselves. */
async function runStorage(name: string, args: string[]): Promise<void> {
	const { command, values, positionals } = parseStorage(name, args);
	if (values.help) return void process.stdout.write(ADMIN_HELP);
	await command.standalone(loadConfig(overrides(values)), values, positionals, createOutput(values.json === true));
}

async function runAdmin(args: string[]): Promise<void> {
	const [name, ...rest] = args;
	if (!name || name === '--help' || name === '-h' || name === 'help') return void process.stdout.write(ADMIN_HELP);
	if (!ADMIN_COMMANDS[name] && !STORAGE_COMMANDS[name]) throw new CliError(`unknown admin command "${name}" (see gitstead admin --help)`);
	// The command's own help, before its arguments are checked (a missing LOGIN is no error here).
	if (rest.includes('--help') || rest.includes('-h')) return void process.stdout.write(renderHelp(`admin ${name}`) ?? ADMIN_HELP);
	if (STORAGE_COMMANDS[name]) return runStorage(name, rest);
	const { command, values, positionals } = parseAdmin(name, rest);
	const config = loadConfig(overrides(values));
	const createdFolder = !existsSync(config.storage.data_dir);
	// Admin commands log warnings and errors only (their output is the command's own).
	const log = createLogger(config.log.level === 'error' ? 'error' : 'warn', undefined, config.log.format);
	const app = openApp(config, { log, create: command.createsDatabase === true });
	try {
		await command.run(app, values, positionals, createOutput(values.json === true), { createdFolder });
	} finally {
		closeApp(app);
	}
}

async function main(argv: string[]): Promise<void> {
	const [command, ...args] = argv;
	switch (command) {
		case 'serve':
			return runServe(args);
		case 'admin':
			return runAdmin(args);
		case 'openapi':
			return runOpenapi(args);
		case 'routes':
			return runRoutes(args);
		case 'version':
		case '--version':
		case '-v':
			if (args.includes('--help') || args.includes('-h')) return void process.stdout.write(renderHelp('version')!);
			return void process.stdout.write(`gitstead ${version}\n`);
		case undefined:
		case 'help':
		case '--help':
		case '-h':
			return void process.stdout.write(HELP);
		default:
			throw new CliError(`unknown command "${command}" (see gitstead --help)`);
	}
}

// A closed pipe (gitstead routes | head) ends the output, not in a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
	if (error.code === 'EPIPE') process.exit(0);
	throw error;
});

main(process.argv.slice(2)).catch((error: unknown) => {
	if (error instanceof CliError || error instanceof ConfigError) fail(error.message);
	const code = (error as { code?: string }).code;
	if (code?.startsWith('ERR_PARSE_ARGS'))
		fail(argsError(error, process.argv[2] === 'serve' ? 'serve' : '').message.replace('gitstead  ', 'gitstead '));
	fail(describeError(error));
});
