/**
 * Storage (issue: one SQLite file, schema.sql, PRAGMA user_version upgrades, WAL, foreign keys).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { migrate } from '../src/db/migrate';
import { SCHEMA_VERSION, type Migration } from '../src/db/migrations';
import { openDatabase } from '../src/db/open';

const test = suite('storage');
let dir: string;

test.before(() => {
	dir = mkdtempSync(join(tmpdir(), 'gitstead-storage-'));
});
test.after(() => rmSync(dir, { recursive: true, force: true }));

test('a fresh database gets schema.sql, its version, WAL and foreign keys', () => {
	const db = openDatabase(join(dir, 'fresh.db'));
	const result = migrate(db);
	assert.equal(result, { from: 0, to: SCHEMA_VERSION, created: true });
	assert.is(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
	assert.is(db.pragma('journal_mode', { simple: true }), 'wal');
	assert.is(db.pragma('foreign_keys', { simple: true }), 1);
	assert.ok((db.pragma('busy_timeout', { simple: true }) as number) >= 1000);
	const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all();
	for (const table of ['accounts', 'teams', 'team_memberships', 'org_memberships', 'repositories', 'tokens', 'rate_limit_windows']) {
		assert.ok(tables.includes(table), `~> ${table}`);
	}
	assert.equal(migrate(db), { from: SCHEMA_VERSION, to: SCHEMA_VERSION, created: false }, '~> a second start changes nothing');
	db.close();
});

test('an older database is upgraded in place by the ordered steps, in one transaction', () => {
	const db = openDatabase(join(dir, 'old.db'));
	migrate(db);
	db.prepare("INSERT INTO settings (key, value) VALUES ('kept', 'yes')").run();
	const steps: Migration[] = [
		{ version: SCHEMA_VERSION + 1, description: 'add a table', up: (d) => d.exec('CREATE TABLE extra (id INTEGER PRIMARY KEY)') },
		{ version: SCHEMA_VERSION + 2, description: 'add a column', up: (d) => d.exec('ALTER TABLE extra ADD COLUMN note TEXT') },
	];
	const result = migrate(db, steps, SCHEMA_VERSION + 2);
	assert.equal(result, { from: SCHEMA_VERSION, to: SCHEMA_VERSION + 2, created: false });
	assert.is(db.prepare("SELECT value FROM settings WHERE key = 'kept'").pluck().get(), 'yes', '~> data survives');
	assert.ok(db.prepare("SELECT sql FROM sqlite_master WHERE name = 'extra'").pluck().get());
	const failing: Migration[] = [{ version: SCHEMA_VERSION + 3, description: 'broken', up: (d) => d.exec('CREATE TABLE extra (x)') }];
	assert.throws(() => migrate(db, failing, SCHEMA_VERSION + 3));
	assert.is(db.pragma('user_version', { simple: true }), SCHEMA_VERSION + 2, '~> a failed upgrade changes nothing');
	db.close();
});

test('a database from a newer Gitstead, or not a Gitstead database, is refused with a clear reason', () => {
	const newer = openDatabase(join(dir, 'newer.db'));
	newer.pragma(`user_version = ${SCHEMA_VERSION + 5}`);
	assert.throws(() => migrate(newer), /newer than this Gitstead/);
	newer.close();
	const foreign = openDatabase(join(dir, 'foreign.db'));
	foreign.exec('CREATE TABLE something (x)');
	assert.throws(() => migrate(foreign), /not a Gitstead database/);
	foreign.close();
});

test('foreign keys cascade: deleting an organization removes its teams and memberships', () => {
	const db = openDatabase(join(dir, 'cascade.db'));
	migrate(db);
	const now = '2026-01-01T00:00:00Z';
	db.prepare("INSERT INTO accounts (id, login, type, created_at, updated_at) VALUES (1, 'u', 'User', ?, ?), (2, 'o', 'Organization', ?, ?)").run(now, now, now, now);
	db.prepare("INSERT INTO teams (id, org_id, name, slug, privacy, notification_setting, created_at, updated_at) VALUES (1, 2, 't', 't', 'closed', 'notifications_enabled', ?, ?)").run(now, now);
	db.prepare("INSERT INTO team_memberships (team_id, user_id, role, state, created_at) VALUES (1, 1, 'member', 'active', ?)").run(now);
	db.prepare('DELETE FROM accounts WHERE id = 2').run();
	assert.is(db.prepare('SELECT count(*) FROM teams').pluck().get(), 0);
	assert.is(db.prepare('SELECT count(*) FROM team_memberships').pluck().get(), 0);
	db.close();
});

test('a version-1 database (the first released schema, test/fixtures/schema-v1.sql) upgrades to exactly schema.sql, its rows kept', () => {
	const shape = (db: ReturnType<typeof openDatabase>) => {
		const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all() as string[];
		const columns = Object.fromEntries(
			tables.map((table) => [
				table,
				(db.pragma(`table_info(${table})`) as Array<{ name: string; type: string; notnull: number; dflt_value: unknown; pk: number }>)
					.map((c) => `${c.name} ${c.type} ${c.notnull} ${c.dflt_value} ${c.pk}`)
					.sort(),
			]),
		);
		const indexes = db.prepare("SELECT name, tbl_name, sql FROM sqlite_master WHERE type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY name").all();
		return { columns, indexes };
	};
	const fresh = openDatabase(join(dir, 'fresh-v.db'));
	migrate(fresh);
	const old = openDatabase(join(dir, 'v1.db'));
	old.exec(readFileSync(join(__dirname, 'fixtures', 'schema-v1.sql'), 'utf8'));
	old.pragma('user_version = 1');
	old.prepare("INSERT INTO accounts (login, type, email, created_at, updated_at) VALUES ('kept', 'User', 'k@example.test', 'x', 'x')").run();
	assert.equal(migrate(old), { from: 1, to: SCHEMA_VERSION, created: false });
	assert.equal(shape(old), shape(fresh), '~> the upgraded schema equals schema.sql: columns, indexes, triggers');
	const kept = old.prepare("SELECT * FROM accounts WHERE login = 'kept'").get() as Record<string, unknown>;
	assert.is(kept.email, 'k@example.test', '~> rows survive');
	assert.is(kept.email_public, 0, '~> new columns take their defaults (schema 2)');
	assert.ok(old.prepare("SELECT 1 FROM sqlite_master WHERE name = 'webhook_deliveries_queued'").get(), '~> the per-hook delivery index (schema 3)');
	fresh.close();
	old.close();
});

test.run();
