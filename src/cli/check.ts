/**
 * `gitstead admin check`: a read-only health check of a data folder, safe beside a running server
 * (the database is opened read-only; in WAL mode its reads block no writer).
 *
 * Checks, each named in its findings: `integrity` (PRAGMA integrity_check), `foreign_keys` (PRAGMA
 * foreign_key_check), `schema` (user_version against this build, and schema.sql's tables present),
 * `blobs` (every release asset and migration archive row names an existing file of its recorded
 * size; files no row names are warnings), `tokens` (hash format, kinds, the columns each kind
 * needs, installation tokens bound to an installation and expiring, permission JSON), `webhooks`
 * (hooks of existing owners, URLs that parse, event lists, deliveries of existing hooks).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { schemaSql } from '../build-info';
import type { Resolved } from '../config';
import { isLevel } from '../auth/permissions';
import { INSTALLATION_TOKEN_SECONDS, TOKEN_KINDS } from '../auth/tokens';
import { SCHEMA_VERSION } from '../db/migrations';
import { openDatabase, type DB } from '../db/open';
import { blobReferences, isSafeBlobPath, MANAGED_BLOB_FOLDERS } from './blob-refs';
import type { StorageCommand } from './backup';
import { CliError } from './output';

/** One problem found. */
export interface Finding {
	check: 'integrity' | 'foreign_keys' | 'schema' | 'blobs' | 'tokens' | 'webhooks' | 'git';
	/** error: the data is damaged or inconsistent (exit 1); warning: worth a look, not damage. */
	severity: 'error' | 'warning';
	message: string;
}

/** The report: ok when no finding is an error. */
export interface CheckReport {
	ok: boolean;
	database: string;
	schema_version: number;
	findings: Finding[];
}

/** At most this many findings of one kind are listed; the rest are summed up in one more. */
const LIMIT = 50;

function limited(findings: Finding[], check: Finding['check'], severity: Finding['severity'], messages: string[]): void {
	for (const message of messages.slice(0, LIMIT)) findings.push({ check, severity, message });
	if (messages.length > LIMIT) findings.push({ check, severity, message: `… and ${messages.length - LIMIT} more like these` });
}

/** The tables schema.sql creates. */
function schemaTables(): string[] {
	return [...schemaSql().matchAll(/^\s*CREATE TABLE (?:IF NOT EXISTS )?["`]?(\w+)/gim)].map((match) => match[1]);
}

function checkSchema(db: DB, findings: Finding[]): number {
	const version = db.pragma('user_version', { simple: true }) as number;
	if (version === 0) {
		findings.push({
			check: 'schema',
			severity: 'error',
			message: 'the database has no schema version (user_version 0): it is not a Gitstead database',
		});
	} else if (version > SCHEMA_VERSION) {
		findings.push({
			check: 'schema',
			severity: 'error',
			message: `schema version ${version} is newer than this Gitstead's (${SCHEMA_VERSION}); run the Gitstead that wrote it`,
		});
	} else if (version < SCHEMA_VERSION) {
		findings.push({
			check: 'schema',
			severity: 'warning',
			message: `schema version ${version} is older than this Gitstead's (${SCHEMA_VERSION}); the server upgrades it when it starts`,
		});
	} else {
		const present = new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]);
		const missing = schemaTables().filter((table) => !present.has(table));
		limited(
			findings,
			'schema',
			'error',
			missing.map((table) => `table ${table} of schema.sql is missing`),
		);
	}
	return version;
}

function checkIntegrity(db: DB, findings: Finding[]): void {
	const rows = db.pragma('integrity_check') as { integrity_check: string }[];
	const problems = rows.map((row) => row.integrity_check).filter((text) => text !== 'ok');
	limited(
		findings,
		'integrity',
		'error',
		problems.map((text) => `integrity_check: ${text}`),
	);
}

function checkForeignKeys(db: DB, findings: Finding[]): void {
	const rows = db.pragma('foreign_key_check') as { table: string; rowid: number | null; parent: string; fkid: number }[];
	limited(
		findings,
		'foreign_keys',
		'error',
		rows.map((row) => `${row.table} row ${row.rowid ?? '(without rowid)'} refers to a missing ${row.parent} row`),
	);
}

function checkBlobs(db: DB, blobDir: string | null, findings: Finding[]): void {
	const references = blobReferences(db);
	if (blobDir === null) {
		if (references.length)
			findings.push({
				check: 'blobs',
				severity: 'error',
				message: `${references.length} rows name blobs but blob storage is off (storage.blob_dir = "")`,
			});
		return;
	}
	const errors: string[] = [];
	const named = new Set<string>();
	for (const reference of references) {
		named.add(reference.path);
		if (!isSafeBlobPath(reference.path)) {
			errors.push(`${reference.owner} names a blob outside its folder: ${reference.path}`);
			continue;
		}
		const file = join(blobDir, reference.path);
		let size: number;
		try {
			size = statSync(file).size;
		} catch {
			errors.push(`${reference.owner}: its blob ${file} is missing`);
			continue;
		}
		if (reference.size !== null && size !== reference.size)
			errors.push(`${reference.owner}: its blob ${file} has ${size} bytes, the row records ${reference.size}`);
	}
	limited(findings, 'blobs', 'error', errors);
	const orphans: string[] = [];
	for (const folder of MANAGED_BLOB_FOLDERS) {
		const path = join(blobDir, folder);
		if (!existsSync(path)) continue;
		for (const name of readdirSync(path)) {
			// Uploads in progress are written under a temporary name first; they are not orphans yet.
			if (!named.has(`${folder}/${name}`))
				orphans.push(`${join(path, name)} is named by no row (an upload in progress, or left over)`);
		}
	}
	limited(findings, 'blobs', 'warning', orphans);
}

interface TokenRow {
	id: number;
	kind: string;
	hash_type: string;
	hash_length: number;
	last_eight_length: number;
	user_id: number | null;
	scopes: string;
	permissions: string;
	resource_owner_id: number | null;
	installation_id: number | null;
	installation_exists: number | null;
	created_at: number;
	expires_at: number | null;
	revoked_at: number | null;
	last_used_at: number | null;
}

function checkTokens(db: DB, findings: Finding[], now: number): void {
	const rows = db
		.prepare(
			`SELECT t.id, t.kind, typeof(t.token_hash) AS hash_type, length(t.token_hash) AS hash_length, length(t.token_last_eight) AS last_eight_length,
				t.user_id, t.scopes, t.permissions, t.resource_owner_id, t.installation_id, i.id AS installation_exists,
				t.created_at, t.expires_at, t.revoked_at, t.last_used_at
			FROM tokens t LEFT JOIN installations i ON i.id = t.installation_id ORDER BY t.id`,
		)
		.all() as TokenRow[];
	const errors: string[] = [];
	const warnings: string[] = [];
	for (const row of rows) {
		const name = `token ${row.id} (${row.kind})`;
		if (!(TOKEN_KINDS as readonly string[]).includes(row.kind)) {
			errors.push(`token ${row.id} has an unknown kind "${row.kind}"`);
			continue;
		}
		if (row.hash_type !== 'blob' || row.hash_length !== 32)
			errors.push(`${name}: its hash is not a 32-byte SHA-256 (${row.hash_type}, ${row.hash_length} bytes)`);
		if (row.last_eight_length !== 8) warnings.push(`${name}: token_last_eight has ${row.last_eight_length} characters, not 8`);
		const scoped = row.kind === 'classic' || row.kind === 'oauth';
		if ((row.kind === 'installation') !== (row.user_id === null))
			errors.push(`${name}: ${row.kind === 'installation' ? 'acts as a user' : 'acts as no user'}`);
		let permissions: unknown;
		try {
			permissions = JSON.parse(row.permissions);
		} catch {
			permissions = undefined;
		}
		if (!permissions || typeof permissions !== 'object' || Array.isArray(permissions)) {
			errors.push(`${name}: its permissions are not a JSON object`);
		} else {
			const bad = Object.entries(permissions as Record<string, unknown>).filter(
				([, level]) => typeof level !== 'string' || !isLevel(level),
			);
			if (bad.length)
				errors.push(`${name}: permission levels other than read, write or admin (${bad.map(([key]) => key).join(', ')})`);
			if (scoped && Object.keys(permissions as object).length) errors.push(`${name}: a scoped token carries permissions`);
		}
		if (scoped && row.resource_owner_id !== null) errors.push(`${name}: a scoped token is limited to a resource owner`);
		if (scoped && row.installation_id !== null) errors.push(`${name}: a scoped token is tied to an installation`);
		if (!scoped && row.scopes !== '') errors.push(`${name}: carries scopes (${row.scopes})`);
		if (!scoped && row.resource_owner_id === null) errors.push(`${name}: has no resource owner`);
		if (row.kind === 'installation' || row.kind === 'user-to-server') {
			if (row.installation_id === null) errors.push(`${name}: is tied to no installation`);
			else if (row.installation_exists === null) errors.push(`${name}: its installation ${row.installation_id} does not exist`);
		}
		if (row.kind === 'installation' && (row.expires_at === null || row.expires_at - row.created_at > INSTALLATION_TOKEN_SECONDS)) {
			errors.push(`${name}: an installation token valid for more than ${INSTALLATION_TOKEN_SECONDS / 60} minutes`);
		}
		if (row.expires_at !== null && row.expires_at < row.created_at) warnings.push(`${name}: expires before it was created`);
		if (row.revoked_at !== null && row.revoked_at < row.created_at) warnings.push(`${name}: revoked before it was created`);
		if (row.last_used_at !== null && row.last_used_at > now + 86400) warnings.push(`${name}: last used in the future (a wrong clock?)`);
	}
	limited(findings, 'tokens', 'error', errors);
	limited(findings, 'tokens', 'warning', warnings);
}

function checkWebhooks(db: DB, findings: Finding[]): void {
	const hooks = db
		.prepare(
			`SELECT h.id, h.url, h.events, h.repo_id, h.org_id, r.id AS repo_exists, a.type AS org_type
			FROM global_webhooks h LEFT JOIN repositories r ON r.id = h.repo_id LEFT JOIN accounts a ON a.id = h.org_id ORDER BY h.id`,
		)
		.all() as {
		id: number;
		url: string;
		events: string;
		repo_id: number | null;
		org_id: number | null;
		repo_exists: number | null;
		org_type: string | null;
	}[];
	const errors: string[] = [];
	for (const hook of hooks) {
		const name = `hook ${hook.id}`;
		if (hook.repo_id !== null && hook.org_id !== null)
			errors.push(`${name}: belongs to both repository ${hook.repo_id} and organization ${hook.org_id}`);
		if (hook.repo_id !== null && hook.repo_exists === null) errors.push(`${name}: its repository ${hook.repo_id} does not exist`);
		if (hook.org_id !== null && hook.org_type !== 'Organization') {
			errors.push(`${name}: its organization ${hook.org_id} ${hook.org_type === null ? 'does not exist' : `is a ${hook.org_type}`}`);
		}
		let url: URL | null = null;
		try {
			url = new URL(hook.url);
		} catch {
			url = null;
		}
		if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
			errors.push(`${name}: its URL "${hook.url}" is not an http(s) URL`);
		let events: unknown;
		try {
			events = JSON.parse(hook.events);
		} catch {
			events = undefined;
		}
		if (!Array.isArray(events) || !events.every((event) => typeof event === 'string'))
			errors.push(`${name}: its events are not a JSON array of names`);
	}
	const orphanDeliveries = db
		.prepare(
			'SELECT d.id, d.hook_id FROM webhook_deliveries d LEFT JOIN global_webhooks h ON h.id = d.hook_id WHERE h.id IS NULL ORDER BY d.id',
		)
		.all() as { id: number; hook_id: number }[];
	for (const row of orphanDeliveries) errors.push(`delivery ${row.id}: its hook ${row.hook_id} does not exist`);
	const badPayloads = db.prepare('SELECT id FROM webhook_deliveries WHERE NOT json_valid(payload) ORDER BY id').pluck().all() as number[];
	for (const id of badPayloads) errors.push(`delivery ${id}: its payload is not JSON`);
	const orphanAttempts = db
		.prepare(
			'SELECT a.id, a.delivery_id FROM webhook_delivery_attempts a LEFT JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.id IS NULL ORDER BY a.id',
		)
		.all() as { id: number; delivery_id: number }[];
	for (const row of orphanAttempts) errors.push(`delivery attempt ${row.id}: its delivery ${row.delivery_id} does not exist`);
	limited(findings, 'webhooks', 'error', errors);
	const stuck = db
		.prepare("SELECT count(*) FROM webhook_deliveries WHERE state = 'queued' AND next_attempt_at IS NULL")
		.pluck()
		.get() as number;
	if (stuck)
		findings.push({
			check: 'webhooks',
			severity: 'warning',
			message: `${stuck} queued deliveries have no next attempt time and will never be sent`,
		});
}

/**
 * Git data: every reference names an object of its repository's fork network, every delta's base
 * exists, every repository belongs to a network.
 */
function checkGit(db: DB, findings: Finding[]): void {
	const errors: string[] = [];
	const dangling = db
		.prepare(
			`SELECT r.repo_id, r.name, r.sha FROM git_refs r JOIN git_network_members m ON m.repo_id = r.repo_id
			WHERE NOT EXISTS (SELECT 1 FROM git_objects o WHERE o.network_id = m.network_id AND o.oid = unhex(r.sha)) ORDER BY r.repo_id, r.name`,
		)
		.all() as { repo_id: number; name: string; sha: string }[];
	for (const ref of dangling) errors.push(`repository ${ref.repo_id}: ${ref.name} names ${ref.sha}, which is not stored`);
	const orphans = db
		.prepare(
			'SELECT o.id, o.base_id FROM git_objects o WHERE o.base_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM git_objects b WHERE b.id = o.base_id AND b.network_id = o.network_id) ORDER BY o.id',
		)
		.all() as { id: number; base_id: number }[];
	for (const row of orphans) errors.push(`git object row ${row.id}: its delta base (row ${row.base_id}) is not stored`);
	const homeless = db
		.prepare(
			'SELECT r.id FROM repositories r WHERE NOT EXISTS (SELECT 1 FROM git_network_members m WHERE m.repo_id = r.id) ORDER BY r.id',
		)
		.pluck()
		.all() as number[];
	for (const id of homeless) errors.push(`repository ${id} belongs to no fork network`);
	limited(findings, 'git', 'error', errors);
}

/** Runs one check, turning an unexpected failure (e.g. a damaged table) into an error finding. */
function guarded(findings: Finding[], check: Finding['check'], run: () => void): void {
	try {
		run();
	} catch (error) {
		findings.push({ check, severity: 'error', message: `the check could not run: ${(error as Error).message}` });
	}
}

/**
 * Checks the configured data folder's database and blobs, read-only.
 * @param now epoch seconds (token times are compared with it)
 * @throws CliError when there is no database to check
 */
export function checkDataFolder(config: Resolved, now = Math.floor(Date.now() / 1000)): CheckReport {
	const file = config.databaseFile;
	if (!existsSync(file)) throw new CliError(`there is no database at ${file} (see --data-dir)`);
	const findings: Finding[] = [];
	let db: DB;
	try {
		db = openDatabase(file, { readonly: true, mustExist: true, busyTimeoutMs: config.storage.busy_timeout_ms });
	} catch (error) {
		findings.push({ check: 'integrity', severity: 'error', message: `cannot open ${file}: ${(error as Error).message}` });
		return { ok: false, database: file, schema_version: 0, findings };
	}
	let version = 0;
	try {
		guarded(findings, 'integrity', () => checkIntegrity(db, findings));
		guarded(findings, 'foreign_keys', () => checkForeignKeys(db, findings));
		guarded(findings, 'schema', () => {
			version = checkSchema(db, findings);
		});
		guarded(findings, 'blobs', () => checkBlobs(db, config.blobDir, findings));
		// The row checks read this build's columns: an older schema is checked once upgraded.
		if (version === SCHEMA_VERSION) {
			guarded(findings, 'tokens', () => checkTokens(db, findings, now));
			guarded(findings, 'webhooks', () => checkWebhooks(db, findings));
			guarded(findings, 'git', () => checkGit(db, findings));
		}
	} finally {
		db.close();
	}
	return { ok: !findings.some((finding) => finding.severity === 'error'), database: file, schema_version: version, findings };
}

/** `check`, registered in ADMIN_COMMANDS (src/cli/admin.ts). Exit code 1 when an error is found. */
export const CHECK_COMMANDS: Record<string, StorageCommand> = {
	check: {
		options: {},
		positionals: [],
		async standalone(config, _values, _positionals, out) {
			const report = checkDataFolder(config);
			const errors = report.findings.filter((finding) => finding.severity === 'error').length;
			const warnings = report.findings.length - errors;
			const summary = report.ok
				? `${report.database}: healthy (schema version ${report.schema_version}${warnings ? `, ${warnings} warnings` : ''})`
				: `${report.database}: ${errors} problems found${warnings ? ` and ${warnings} warnings` : ''}`;
			out.result(
				report,
				[...report.findings.map((finding) => `${finding.severity}\t${finding.check}\t${finding.message}`), summary].join('\n'),
			);
			if (!report.ok) process.exitCode = 1;
		},
	},
};
