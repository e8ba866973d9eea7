/**
 * Gitstead's configuration: built-in defaults < config file (TOML) < GITSTEAD_* environment
 * variables < command-line flags. The commented template is config/gitstead.toml.
 */
import { existsSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { isAbsolute, join, resolve } from 'node:path';
import * as v from 'valibot';
import { LOG_FORMATS, LOG_LEVELS, type LogFormat, type LogLevel } from './log';

// smol-toml ships a CommonJS build, but its type declarations are ESM-only.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { parse: parseToml } = require('smol-toml') as { parse(text: string): Record<string, unknown> };

/** The rate-limit resources of GET /rate_limit. */
export const RATE_RESOURCES = [
	'core',
	'search',
	'code_search',
	'graphql',
	'integration_manifest',
	'dependency_snapshots',
	'dependency_sbom',
	'actions_runner_registration',
	'scim',
	'code_scanning_autofix',
	'source_import',
] as const;
export type RateResource = (typeof RATE_RESOURCES)[number];

export interface Config {
	server: {
		host: string;
		port: number;
		/** Origin clients use, without /api/v3 and without a trailing slash. */
		external_url: string;
		/** Bytes. */
		body_limit: number;
		/** Longest request target (the URL of the request line), in bytes; longer answers 414. */
		max_url_bytes: number;
		/** Largest header block (names and values), in bytes; larger answers 431. */
		max_header_bytes: number;
		/** Seconds a stopping server (SIGTERM, SIGINT) lets requests and webhook attempts in flight finish before it closes what is left. */
		shutdown_timeout_seconds: number;
		/**
		 * Peers (addresses or CIDR ranges) whose X-Forwarded-For/-Proto/-Host and Forwarded headers
		 * are believed: they set the client address and each answer's external URL (src/http/proxy.ts).
		 */
		trusted_proxies: string[];
	};
	log: {
		/** Entries below this level are dropped (admin commands write warnings and errors only). */
		level: LogLevel;
		format: LogFormat;
		/** One access-log line per request (`serve`); formerly `[server] log_requests`, still read. */
		access: boolean;
	};
	storage: {
		/** Absolute path. */
		data_dir: string;
		synchronous: 'normal' | 'full';
		/** Milliseconds a statement waits for another connection's write lock before SQLITE_BUSY (a 503). */
		busy_timeout_ms: number;
		/** Blob folder (migration archives, release assets), relative to data_dir; '' = no blob storage. */
		blob_dir: string;
		/** Largest release asset accepted by an upload, in bytes (streamed to the blob folder); larger answers 413. */
		max_asset_bytes: number;
		/** Largest pack a clone or fetch over git's HTTP protocol may ask for (uncompressed object bytes); larger is refused with a git error. */
		max_pack_bytes: number;
		/** Largest pack a push may send, in bytes (GitHub: 2 GiB); larger is refused with `unpack` and an error line. */
		max_push_bytes: number;
		/** Most objects one pushed pack may hold. */
		max_push_objects: number;
		/** Largest object (file) a push may bring, in bytes (GitHub refuses files over 100 MiB). */
		max_object_bytes: number;
		/** Days an object no reference reaches is kept before `gitstead admin gc` drops it (git's gc.pruneExpire: 2 weeks). */
		gc_grace_days: number;
	};
	rate_limit: {
		enabled: boolean;
		/** Seconds. */
		window_seconds: number;
		/** Requests per window; `core_unauthenticated` and `search_unauthenticated` count per client IP address. */
		limits: Record<RateResource | 'core_unauthenticated' | 'search_unauthenticated', number>;
	};
	ldap: { sync_enabled: boolean };
	billing: {
		/** Billing budgets answer 404 ("feature not enabled") when false. */
		budgets_enabled: boolean;
	};
	polling: {
		/** Seconds: X-Poll-Interval of activity feeds and notifications when the server is not busy. */
		interval_seconds: number;
	};
	events: {
		/** Days an event is kept in the activity feeds (GitHub: 30). */
		retention_days: number;
		/** Events at most in one timeline (GitHub: 300). */
		timeline_limit: number;
		/** Days an organization's audit-log entry is kept (GitHub Enterprise Server: 180 for web events). */
		audit_retention_days: number;
	};
	webhooks: {
		/** Attempts per delivery before it is marked failed. */
		max_attempts: number;
		/** Seconds before the first retry; each later retry waits twice as long. */
		retry_base_seconds: number;
		/** Seconds one attempt may take in all: connecting, sending, and reading the whole answer. */
		timeout_seconds: number;
		/** Attempts in flight at the same time, over all hooks (each hook has at most one). */
		concurrency: number;
		/**
		 * Hosts (names or IP literals, compared exactly and case-insensitively with a hook URL's
		 * host) that may receive deliveries although they are loopback, link-local or unspecified
		 * addresses (src/webhooks/targets.ts).
		 */
		allowed_hosts: string[];
	};
	notifications: {
		/**
		 * Threads PUT /notifications (and the repository form) marks within the request; with more,
		 * it answers 202 and a background task marks them, this many per transaction.
		 */
		mark_read_batch: number;
	};
	health: {
		/**
		 * Bytes that must stay free on the disk holding storage.data_dir: below it GET /healthz answers
		 * 503 "fail", below twice it "warn" (src/http/health.ts); 0 switches the disk check off.
		 */
		min_free_bytes: number;
	};
	metrics: {
		/** GET /metrics answers (Prometheus text format); false → 404, like an unknown path, and nothing is counted. */
		enabled: boolean;
		/** Non-empty: GET /metrics requires `Authorization: Bearer <token>` (401 otherwise). */
		token: string;
	};
}

/** Paths and URLs derived from a Config. */
export interface Resolved extends Config {
	/** Origin for html_url fields, e.g. http://127.0.0.1:8080 */
	origin: string;
	/** Base of every API URL, e.g. http://127.0.0.1:8080/api/v3 */
	apiBase: string;
	databaseFile: string;
	/** Absolute blob folder, or null when blob storage is switched off. */
	blobDir: string | null;
	/** Config file actually read, if any. */
	configFile: string | null;
}

export function defaultConfig(): Config {
	return {
		server: {
			host: '127.0.0.1',
			port: 8080,
			external_url: '',
			body_limit: 5 * 1024 * 1024,
			max_url_bytes: 8 * 1024,
			max_header_bytes: 16 * 1024,
			shutdown_timeout_seconds: 10,
			trusted_proxies: [],
		},
		log: { level: 'info', format: 'logfmt', access: true },
		storage: {
			data_dir: './data',
			synchronous: 'normal',
			busy_timeout_ms: 5000,
			blob_dir: 'blobs',
			max_asset_bytes: 2 * 1024 * 1024 * 1024,
			max_pack_bytes: 2 * 1024 * 1024 * 1024,
			max_push_bytes: 2 * 1024 * 1024 * 1024,
			max_push_objects: 10_000_000,
			max_object_bytes: 100 * 1024 * 1024,
			gc_grace_days: 14,
		},
		rate_limit: {
			enabled: true,
			window_seconds: 3600,
			limits: {
				core: 5000,
				core_unauthenticated: 60,
				search: 30,
				search_unauthenticated: 10,
				code_search: 10,
				graphql: 5000,
				integration_manifest: 5000,
				dependency_snapshots: 100,
				dependency_sbom: 100,
				actions_runner_registration: 10000,
				scim: 15000,
				code_scanning_autofix: 10,
				source_import: 100,
			},
		},
		ldap: { sync_enabled: false },
		billing: { budgets_enabled: true },
		polling: { interval_seconds: 60 },
		events: { retention_days: 30, timeline_limit: 300, audit_retention_days: 180 },
		webhooks: { max_attempts: 5, retry_base_seconds: 10, timeout_seconds: 10, concurrency: 4, allowed_hosts: [] },
		notifications: { mark_read_batch: 1000 },
		health: { min_free_bytes: 100 * 1024 * 1024 },
		metrics: { enabled: true, token: '' },
	};
}

const count = v.pipe(v.number(), v.integer(), v.minValue(0));

/** A DNS host name: dot-separated labels of letters, digits, hyphens (not at either end) and underscores. */
const HOST_NAME = /^(?=.{1,253}\.?$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*\.?$/i;
/** webhooks.allowed_hosts entry: a host name or an IP address (IPv6 with or without brackets), no port or scheme. */
const hostEntry = v.pipe(
	v.string(),
	v.check(
		(text) => HOST_NAME.test(text) || isIP(text.replace(/^\[(.*)\]$/, '$1')) !== 0,
		'must be a host name or an IP address, without a scheme or port',
	),
);
const limitsSchema = v.strictObject(
	Object.fromEntries(
		[...RATE_RESOURCES, 'core_unauthenticated', 'search_unauthenticated'].map((name) => [name, v.optional(count)]),
	) as Record<RateResource | 'core_unauthenticated' | 'search_unauthenticated', v.OptionalSchema<typeof count, undefined>>,
);

/** Shape of a config file: every key optional, unknown keys rejected so typos are caught. */
const fileSchema = v.strictObject({
	server: v.optional(
		v.strictObject({
			host: v.optional(v.pipe(v.string(), v.minLength(1))),
			port: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(65535))),
			external_url: v.optional(v.string()),
			body_limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1024))),
			max_url_bytes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(256), v.maxValue(1024 * 1024))),
			max_header_bytes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1024), v.maxValue(1024 * 1024))),
			/** Before `[log] access`: read as its value when `[log] access` is not set. */
			log_requests: v.optional(v.boolean()),
			shutdown_timeout_seconds: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(3600))),
			trusted_proxies: v.optional(v.array(v.pipe(v.string(), v.minLength(1)))),
		}),
	),
	log: v.optional(
		v.strictObject({
			level: v.optional(v.picklist(LOG_LEVELS)),
			format: v.optional(v.picklist(LOG_FORMATS)),
			access: v.optional(v.boolean()),
		}),
	),
	storage: v.optional(
		v.strictObject({
			data_dir: v.optional(v.pipe(v.string(), v.minLength(1))),
			synchronous: v.optional(v.picklist(['normal', 'full'])),
			busy_timeout_ms: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(600_000))),
			blob_dir: v.optional(v.string()),
			max_asset_bytes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
			max_pack_bytes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
			max_push_bytes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(32))),
			max_push_objects: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100_000_000))),
			max_object_bytes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2 ** 31 - 1))),
			gc_grace_days: v.optional(v.pipe(v.number(), v.minValue(0))),
		}),
	),
	rate_limit: v.optional(
		v.strictObject({
			enabled: v.optional(v.boolean()),
			window_seconds: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
			limits: v.optional(limitsSchema),
		}),
	),
	ldap: v.optional(v.strictObject({ sync_enabled: v.optional(v.boolean()) })),
	billing: v.optional(v.strictObject({ budgets_enabled: v.optional(v.boolean()) })),
	polling: v.optional(v.strictObject({ interval_seconds: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))) })),
	events: v.optional(
		v.strictObject({
			retention_days: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
			timeline_limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
			audit_retention_days: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
		}),
	),
	webhooks: v.optional(
		v.strictObject({
			max_attempts: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100))),
			retry_base_seconds: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
			timeout_seconds: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(300))),
			concurrency: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(64))),
			allowed_hosts: v.optional(v.array(hostEntry)),
		}),
	),
	notifications: v.optional(
		v.strictObject({ mark_read_batch: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1_000_000))) }),
	),
	health: v.optional(
		v.strictObject({ min_free_bytes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(Number.MAX_SAFE_INTEGER))) }),
	),
	metrics: v.optional(v.strictObject({ enabled: v.optional(v.boolean()), token: v.optional(v.string()) })),
});

/** Settings that flags and GITSTEAD_* variables may override. */
export interface Overrides {
	host?: string;
	port?: number;
	dataDir?: string;
	externalUrl?: string;
	trustedProxies?: string[];
	config?: string;
	/** metrics.token (GITSTEAD_METRICS_TOKEN: a secret is better kept out of the file). */
	metricsToken?: string;
	logLevel?: LogLevel;
	logFormat?: LogFormat;
	/** Seconds (server.shutdown_timeout_seconds). */
	shutdownTimeout?: number;
}

/** Error in configuration; its message is one line meant for a person. */
export class ConfigError extends Error {}

/**
 * Reads GITSTEAD_HOST, GITSTEAD_PORT, GITSTEAD_DATA_DIR, GITSTEAD_EXTERNAL_URL,
 * GITSTEAD_TRUSTED_PROXIES (comma-separated), GITSTEAD_CONFIG and GITSTEAD_METRICS_TOKEN.
 */
export function environmentOverrides(env: NodeJS.ProcessEnv): Overrides {
	const out: Overrides = {};
	if (env.GITSTEAD_HOST) out.host = env.GITSTEAD_HOST;
	if (env.GITSTEAD_PORT) out.port = parsePort(env.GITSTEAD_PORT, 'GITSTEAD_PORT');
	if (env.GITSTEAD_DATA_DIR) out.dataDir = env.GITSTEAD_DATA_DIR;
	if (env.GITSTEAD_EXTERNAL_URL) out.externalUrl = env.GITSTEAD_EXTERNAL_URL;
	if (env.GITSTEAD_TRUSTED_PROXIES !== undefined) out.trustedProxies = splitList(env.GITSTEAD_TRUSTED_PROXIES);
	if (env.GITSTEAD_CONFIG) out.config = env.GITSTEAD_CONFIG;
	if (env.GITSTEAD_METRICS_TOKEN !== undefined) out.metricsToken = env.GITSTEAD_METRICS_TOKEN;
	if (env.GITSTEAD_LOG_LEVEL) out.logLevel = parseLogLevel(env.GITSTEAD_LOG_LEVEL, 'GITSTEAD_LOG_LEVEL');
	if (env.GITSTEAD_LOG_FORMAT) out.logFormat = parseLogFormat(env.GITSTEAD_LOG_FORMAT, 'GITSTEAD_LOG_FORMAT');
	if (env.GITSTEAD_SHUTDOWN_TIMEOUT) out.shutdownTimeout = parseSeconds(env.GITSTEAD_SHUTDOWN_TIMEOUT, 'GITSTEAD_SHUTDOWN_TIMEOUT');
	return out;
}

/** @throws ConfigError unless `text` is debug, info, warn or error */
export function parseLogLevel(text: string, what: string): LogLevel {
	if (!(LOG_LEVELS as readonly string[]).includes(text))
		throw new ConfigError(`${what} must be one of ${LOG_LEVELS.join(', ')}, got "${text}"`);
	return text as LogLevel;
}

/** @throws ConfigError unless `text` is logfmt or json */
export function parseLogFormat(text: string, what: string): LogFormat {
	if (!(LOG_FORMATS as readonly string[]).includes(text))
		throw new ConfigError(`${what} must be one of ${LOG_FORMATS.join(', ')}, got "${text}"`);
	return text as LogFormat;
}

/** A number of seconds, 0 to 3600 (fractions allowed). @throws ConfigError otherwise */
export function parseSeconds(text: string, what: string): number {
	const seconds = Number(text);
	if (!/^\d+(\.\d+)?$/.test(text) || seconds > 3600) throw new ConfigError(`${what} must be a number of seconds (0-3600), got "${text}"`);
	return seconds;
}

/** "a, b,c" → ["a", "b", "c"] (flags and variables that take a list). */
export function splitList(text: string): string[] {
	return text
		.split(',')
		.map((item) => item.trim())
		.filter((item) => item !== '');
}

export function parsePort(text: string, what: string): number {
	const port = Number(text);
	if (!/^\d+$/.test(text) || port > 65535) throw new ConfigError(`${what} must be a port number (0-65535), got "${text}"`);
	return port;
}

/**
 * Builds the effective configuration.
 * @param flags command-line overrides (win over env)
 * @param env environment (GITSTEAD_* variables)
 * @param cwd folder relative paths resolve against
 * @throws ConfigError for an unreadable or invalid file, or a bad value
 */
export function loadConfig(flags: Overrides = {}, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Resolved {
	const fromEnv = environmentOverrides(env);
	const overrides: Overrides = { ...fromEnv, ...stripUndefined(flags) };
	const config = defaultConfig();

	let configFile: string | null = null;
	if (overrides.config) {
		configFile = resolve(cwd, overrides.config);
		if (!existsSync(configFile)) throw new ConfigError(`config file ${configFile} does not exist`);
	} else {
		const dataDir = resolve(cwd, overrides.dataDir ?? config.storage.data_dir);
		const candidate = join(dataDir, 'gitstead.toml');
		if (existsSync(candidate)) configFile = candidate;
	}
	if (configFile) merge(config, readConfigFile(configFile));

	if (overrides.host) config.server.host = overrides.host;
	if (overrides.port !== undefined) config.server.port = overrides.port;
	if (overrides.dataDir) config.storage.data_dir = overrides.dataDir;
	if (overrides.externalUrl !== undefined) config.server.external_url = overrides.externalUrl;
	if (overrides.trustedProxies !== undefined) config.server.trusted_proxies = overrides.trustedProxies;
	if (overrides.metricsToken !== undefined) config.metrics.token = overrides.metricsToken;
	if (overrides.logLevel) config.log.level = overrides.logLevel;
	if (overrides.logFormat) config.log.format = overrides.logFormat;
	if (overrides.shutdownTimeout !== undefined) config.server.shutdown_timeout_seconds = overrides.shutdownTimeout;

	return resolveConfig(config, cwd, configFile);
}

/** Derives absolute paths and the URL bases. @throws ConfigError for a bad external_url. */
export function resolveConfig(config: Config, cwd = process.cwd(), configFile: string | null = null): Resolved {
	const dataDir = isAbsolute(config.storage.data_dir) ? config.storage.data_dir : resolve(cwd, config.storage.data_dir);
	config.storage.data_dir = dataDir;
	const origin = externalOrigin(config);
	return {
		...config,
		origin,
		apiBase: `${origin}/api/v3`,
		databaseFile: join(dataDir, 'gitstead.db'),
		blobDir: config.storage.blob_dir.trim() === '' ? null : resolve(dataDir, config.storage.blob_dir),
		configFile,
	};
}

function externalOrigin(config: Config): string {
	let text = config.server.external_url.trim();
	if (!text) {
		const host = config.server.host.includes(':') ? `[${config.server.host}]` : config.server.host;
		const shown = host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host;
		return `http://${shown}:${config.server.port}`;
	}
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		throw new ConfigError(`external_url must be an absolute http(s) URL, got "${text}"`);
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		throw new ConfigError(`external_url must use http or https, got "${text}"`);
	}
	text = `${url.origin}${url.pathname}`.replace(/\/+$/, '');
	return text.endsWith('/api/v3') ? text.slice(0, -'/api/v3'.length) : text;
}

function readConfigFile(file: string): v.InferOutput<typeof fileSchema> {
	let data: unknown;
	try {
		data = parseToml(readFileSync(file, 'utf8'));
	} catch (error) {
		throw new ConfigError(`cannot read config file ${file}: ${(error as Error).message.split('\n')[0]}`);
	}
	const result = v.safeParse(fileSchema, data);
	if (!result.success) {
		const issue = result.issues[0];
		const path = v.getDotPath(issue) ?? '(top level)';
		throw new ConfigError(`config file ${file}: ${path}: ${issue.message}`);
	}
	return result.output;
}

function merge(config: Config, file: v.InferOutput<typeof fileSchema>): void {
	const { log_requests: logRequests, ...server } = file.server ?? {};
	Object.assign(config.server, stripUndefined(server));
	if (logRequests !== undefined) config.log.access = logRequests;
	Object.assign(config.log, stripUndefined(file.log ?? {}));
	Object.assign(config.storage, stripUndefined(file.storage ?? {}));
	const { limits, ...rate } = file.rate_limit ?? {};
	Object.assign(config.rate_limit, stripUndefined(rate));
	Object.assign(config.rate_limit.limits, stripUndefined(limits ?? {}));
	Object.assign(config.ldap, stripUndefined(file.ldap ?? {}));
	Object.assign(config.billing, stripUndefined(file.billing ?? {}));
	Object.assign(config.polling, stripUndefined(file.polling ?? {}));
	Object.assign(config.events, stripUndefined(file.events ?? {}));
	Object.assign(config.webhooks, stripUndefined(file.webhooks ?? {}));
	Object.assign(config.notifications, stripUndefined(file.notifications ?? {}));
	Object.assign(config.health, stripUndefined(file.health ?? {}));
	Object.assign(config.metrics, stripUndefined(file.metrics ?? {}));
}

function stripUndefined<T extends object>(value: T): Partial<T> {
	return Object.fromEntries(Object.entries(value).filter(([, x]) => x !== undefined)) as Partial<T>;
}
