/**
 * Storage (one SQLite file, schema.sql, PRAGMA user_version upgrades, WAL, foreign keys).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { renderBody } from '../src/model/markdown/render';
import { migrate } from '../src/db/migrate';
import { SCHEMA_VERSION, type Migration, type UpgradeTools } from '../src/db/migrations';
import { openDatabase, type DB } from '../src/db/open';
import { createTransaction } from '../src/db/transaction';

const test = suite('storage');
let dir: string;
const tools: UpgradeTools = { renderBody };

/**
 * A database's structure: every table's columns (in name order: a column added by an upgrade comes
 * last, where schema.sql may list it earlier), every index's columns, every trigger's name.
 */
function shape(db: DB) {
	const names = (type: string) =>
		db
			.prepare("SELECT name FROM sqlite_master WHERE type = ? AND name NOT LIKE 'sqlite_%' ORDER BY name")
			.pluck()
			.all(type) as string[];
	const columns = (table: string) =>
		(db.pragma(`table_info(${table})`) as Array<{ name: string }>)
			.map(({ cid: _cid, ...column }: Record<string, unknown>) => column)
			.sort((a, b) => String(a.name).localeCompare(String(b.name)));
	return {
		tables: Object.fromEntries(names('table').map((table) => [table, columns(table)])),
		indexes: Object.fromEntries(names('index').map((index) => [index, db.pragma(`index_xinfo(${index})`)])),
		triggers: names('trigger'),
	};
}

test.before(() => {
	dir = mkdtempSync(join(tmpdir(), 'gitstead-storage-'));
});
test.after(() => rmSync(dir, { recursive: true, force: true }));

test('a fresh database gets schema.sql, its version, WAL and foreign keys', () => {
	const db = openDatabase(join(dir, 'fresh.db'));
	const result = migrate(db, tools);
	assert.equal(result, { from: 0, to: SCHEMA_VERSION, created: true });
	assert.is(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
	assert.is(db.pragma('journal_mode', { simple: true }), 'wal');
	assert.is(db.pragma('foreign_keys', { simple: true }), 1);
	assert.ok((db.pragma('busy_timeout', { simple: true }) as number) >= 1000);
	const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all();
	for (const table of ['accounts', 'teams', 'team_memberships', 'org_memberships', 'repositories', 'tokens', 'rate_limit_windows']) {
		assert.ok(tables.includes(table), `~> ${table}`);
	}
	assert.equal(migrate(db, tools), { from: SCHEMA_VERSION, to: SCHEMA_VERSION, created: false }, '~> a second start changes nothing');
	db.close();
});

test('an older database is upgraded in place by the ordered steps, in one transaction', () => {
	const db = openDatabase(join(dir, 'old.db'));
	migrate(db, tools);
	db.prepare("INSERT INTO settings (key, value) VALUES ('kept', 'yes')").run();
	const steps: Migration[] = [
		{ version: SCHEMA_VERSION + 1, description: 'add a table', up: (d) => d.exec('CREATE TABLE extra (id INTEGER PRIMARY KEY)') },
		{ version: SCHEMA_VERSION + 2, description: 'add a column', up: (d) => d.exec('ALTER TABLE extra ADD COLUMN note TEXT') },
	];
	const result = migrate(db, tools, steps, SCHEMA_VERSION + 2);
	assert.equal(result, { from: SCHEMA_VERSION, to: SCHEMA_VERSION + 2, created: false });
	assert.is(db.prepare("SELECT value FROM settings WHERE key = 'kept'").pluck().get(), 'yes', '~> data survives');
	assert.ok(db.prepare("SELECT sql FROM sqlite_master WHERE name = 'extra'").pluck().get());
	const failing: Migration[] = [{ version: SCHEMA_VERSION + 3, description: 'broken', up: (d) => d.exec('CREATE TABLE extra (x)') }];
	assert.throws(() => migrate(db, tools, failing, SCHEMA_VERSION + 3));
	assert.is(db.pragma('user_version', { simple: true }), SCHEMA_VERSION + 2, '~> a failed upgrade changes nothing');
	db.close();
});

test('a database from a newer Gitstead, or not a Gitstead database, is refused with a clear reason', () => {
	const newer = openDatabase(join(dir, 'newer.db'));
	newer.pragma(`user_version = ${SCHEMA_VERSION + 5}`);
	assert.throws(() => migrate(newer, tools), /newer than this Gitstead/);
	newer.close();
	const foreign = openDatabase(join(dir, 'foreign.db'));
	foreign.exec('CREATE TABLE something (x)');
	assert.throws(() => migrate(foreign, tools), /not a Gitstead database/);
	foreign.close();
});

test('foreign keys cascade: deleting an organization removes its teams and memberships', () => {
	const db = openDatabase(join(dir, 'cascade.db'));
	migrate(db, tools);
	const now = '2026-01-01T00:00:00Z';
	db.prepare(
		"INSERT INTO accounts (id, login, type, created_at, updated_at) VALUES (1, 'u', 'User', ?, ?), (2, 'o', 'Organization', ?, ?)",
	).run(now, now, now, now);
	db.prepare(
		"INSERT INTO teams (id, org_id, name, slug, privacy, notification_setting, created_at, updated_at) VALUES (1, 2, 't', 't', 'closed', 'notifications_enabled', ?, ?)",
	).run(now, now);
	db.prepare("INSERT INTO team_memberships (team_id, user_id, role, state, created_at) VALUES (1, 1, 'member', 'active', ?)").run(now);
	db.prepare('DELETE FROM accounts WHERE id = 2').run();
	assert.is(db.prepare('SELECT count(*) FROM teams').pluck().get(), 0);
	assert.is(db.prepare('SELECT count(*) FROM team_memberships').pluck().get(), 0);
	db.close();
});

test('a version-1 database (the first released schema, test/fixtures/schema-v1.sql) upgrades to exactly schema.sql, its rows kept and bodies rendered', () => {
	const fresh = openDatabase(join(dir, 'fresh-v.db'));
	migrate(fresh, tools);
	const db = openDatabase(join(dir, 'v1.db'));
	db.exec(readFileSync(join(__dirname, 'fixtures', 'schema-v1.sql'), 'utf8'));
	db.pragma('user_version = 1');
	const now = '2026-01-01T00:00:00Z';
	db.prepare("INSERT INTO accounts (id, login, type, email, created_at, updated_at) VALUES (1, 'u', 'User', 'u@example.test', ?, ?)").run(
		now,
		now,
	);
	db.prepare("INSERT INTO repositories (id, owner_id, name, visibility, created_at, updated_at) VALUES (1, 1, 'r', 'public', ?, ?)").run(
		now,
		now,
	);
	const issue = db.prepare(
		'INSERT INTO issues (id, repo_id, number, title, body, user_id, created_at, updated_at) VALUES (?, 1, ?, ?, ?, 1, ?, ?)',
	);
	issue.run(1, 1, 'with a body', 'Some **bold** <script>x</script> text', now, now);
	issue.run(2, 2, 'without', null, now, now);
	const comment = db.prepare(
		'INSERT INTO issue_comments (repo_id, issue_id, user_id, body, created_at, updated_at) VALUES (1, 1, 1, ?, ?, ?)',
	);
	for (let i = 0; i < 1201; i++) comment.run(`comment _${i}_`, now, now); // more than two batches of 500
	db.prepare("INSERT INTO gists (id, gist_id, owner_id, created_at, updated_at) VALUES (1, 'abc', 1, ?, ?)").run(now, now);
	db.prepare("INSERT INTO gist_comments (gist_id, user_id, body, created_at, updated_at) VALUES (1, 1, '# Title', ?, ?)").run(now, now);
	db.prepare("INSERT INTO gist_files (gist_id, filename, content) VALUES (1, 'a.txt', 'one\ntwo\nthree'), (1, 'b.txt', 'x\n')").run();

	assert.equal(migrate(db, tools), { from: 1, to: SCHEMA_VERSION, created: false });
	assert.equal(shape(db), shape(fresh), '~> the upgraded schema equals a fresh schema.sql: columns, indexes, triggers');
	// Schema 45: no CHECK lists more than two values with IN (SQLite would build an index per row).
	for (const [name, database] of [
		['upgraded', db],
		['fresh', fresh],
	] as const) {
		const inLists = (database.prepare("SELECT sql FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]).flatMap(
			(sql) => sql.match(/CHECK \(\w+ IN \([^()]*,[^()]*,[^()]*\)\)/g) ?? [],
		);
		assert.equal(inLists, [], `~> ${name}: CHECKs on more than two values are comparisons`);
	}
	assert.throws(
		() => db.prepare("UPDATE issues SET state_reason = 'bogus' WHERE id = 1").run(),
		/CHECK constraint failed/,
		'~> the rewritten CHECK still refuses a value outside its list',
	);
	db.prepare("UPDATE issues SET state_reason = 'not_planned' WHERE id = 1").run();
	const kept = db.prepare('SELECT * FROM accounts WHERE id = 1').get() as Record<string, unknown>;
	assert.is(kept.email, 'u@example.test', '~> rows survive');
	assert.is(kept.email_public, 0, '~> new columns take their defaults (schema 2)');
	assert.ok(
		db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'webhook_deliveries_queued'").get(),
		'~> the per-hook delivery index (schema 3)',
	);
	// Schema 4: bodies rendered.
	const issues = db.prepare('SELECT id, body_html, body_text FROM issues ORDER BY id').all();
	assert.equal(issues, [
		{ id: 1, body_html: '<p dir="auto">Some <strong>bold</strong>  text</p>', body_text: 'Some bold  text' },
		{ id: 2, body_html: null, body_text: null },
	]);
	const comments = db.prepare('SELECT body_html FROM issue_comments ORDER BY id').pluck().all() as string[];
	assert.is(comments.length, 1201);
	assert.is(comments[0], '<p dir="auto">comment <em>0</em></p>');
	assert.is(comments[1200], '<p dir="auto">comment <em>1200</em></p>');
	assert.equal(db.prepare('SELECT body_html, body_text FROM gist_comments').get(), { body_html: '<h1>Title</h1>', body_text: 'Title' });
	// Schema 6 (starring and watching): a user's repositories are watched by their owner, and counted.
	assert.equal(db.prepare('SELECT user_id, repo_id, subscribed, ignored, created_at FROM repository_subscriptions').all(), [
		{ user_id: 1, repo_id: 1, subscribed: 1, ignored: 0, created_at: now },
	]);
	assert.equal(db.prepare('SELECT stargazers_count, subscribers_count FROM repositories WHERE id = 1').get(), {
		stargazers_count: 0,
		subscribers_count: 1,
	});
	// Schema 11 (search): the full-text indexes hold the rows that were there before.
	assert.equal(db.prepare("SELECT rowid FROM issues_fts WHERE issues_fts MATCH 'bold'").pluck().all(), [1], '~> issues indexed');
	assert.is(
		db.prepare("SELECT count(*) FROM issue_comments_fts WHERE issue_comments_fts MATCH 'comment'").pluck().get(),
		1201,
		'~> comments indexed',
	);
	assert.equal(
		db.prepare("SELECT rowid FROM repositories_fts WHERE repositories_fts MATCH 'r'").pluck().all(),
		[1],
		'~> repositories indexed',
	);
	// Schema 12 (gist history): every gist gets one revision of its files as they are.
	const revision = db.prepare('SELECT gist_id, user_id, committed_at, additions, deletions, files FROM gist_revisions').all() as Array<
		Record<string, unknown>
	>;
	assert.equal(revision, [
		{ gist_id: 1, user_id: 1, committed_at: now, additions: 4, deletions: 0, files: '{"a.txt":"one\\ntwo\\nthree","b.txt":"x\\n"}' },
	]);
	db.close();
	fresh.close();
});

test('the webhooks upgrade step: global hooks, their deliveries and attempts are kept as global hooks of the table every kind of hook shares', () => {
	const db = openDatabase(join(dir, 'hooks-v6.db'));
	db.exec(readFileSync(join(__dirname, 'fixtures', 'schema-v1.sql'), 'utf8'));
	db.pragma('user_version = 1');
	migrate(db, tools, undefined, 6);
	const now = '2026-01-01T00:00:00Z';
	db.prepare(
		"INSERT INTO global_webhooks (id, events, url, secret, created_at, updated_at) VALUES (7, '[\"user\"]', 'http://10.0.0.1/h', 's', ?, ?)",
	).run(now, now);
	db.prepare("INSERT INTO webhook_deliveries (id, hook_id, guid, event, payload, created_at) VALUES (3, 7, 'g', 'user', '{}', ?)").run(
		now,
	);
	db.prepare(
		"INSERT INTO webhook_delivery_attempts (delivery_id, attempted_at, duration, status, request_headers) VALUES (3, ?, 0.1, 'OK', '{}')",
	).run(now);
	assert.equal(migrate(db, tools), { from: 6, to: SCHEMA_VERSION, created: false });
	const hook = db.prepare('SELECT * FROM global_webhooks WHERE id = 7').get() as Record<string, unknown>;
	assert.equal(
		[hook.url, hook.secret, hook.repo_id, hook.org_id, hook.last_response_status],
		['http://10.0.0.1/h', 's', null, null, 'unused'],
		'~> a global hook still',
	);
	assert.is(db.prepare('SELECT count(*) FROM webhook_deliveries WHERE hook_id = 7').pluck().get(), 1, '~> its delivery kept');
	assert.is(db.prepare('SELECT count(*) FROM webhook_delivery_attempts WHERE delivery_id = 3').pluck().get(), 1, '~> and its attempt');
	// The new columns cascade: deleting a repository deletes its hooks and their deliveries.
	db.prepare("INSERT INTO accounts (id, login, type, created_at, updated_at) VALUES (1, 'u', 'User', ?, ?)").run(now, now);
	db.prepare("INSERT INTO repositories (id, owner_id, name, visibility, created_at, updated_at) VALUES (1, 1, 'r', 'public', ?, ?)").run(
		now,
		now,
	);
	db.prepare(
		"INSERT INTO global_webhooks (id, events, url, repo_id, created_at, updated_at) VALUES (8, '[\"push\"]', 'http://10.0.0.1/r', 1, ?, ?)",
	).run(now, now);
	db.prepare("INSERT INTO webhook_deliveries (hook_id, guid, event, payload, created_at) VALUES (8, 'g2', 'push', '{}', ?)").run(now);
	db.prepare('DELETE FROM repositories WHERE id = 1').run();
	assert.is(db.prepare('SELECT count(*) FROM global_webhooks WHERE id = 8').pluck().get(), 0, '~> the repository hook went');
	assert.is(db.prepare("SELECT count(*) FROM webhook_deliveries WHERE guid = 'g2'").pluck().get(), 0, '~> with its delivery');
	db.close();
});

test('group commit (src/db/transaction.ts): one commit per turn, each write in its own savepoint; a failed commit rolls back the group and rejects every waiter', async () => {
	const db = openDatabase(join(dir, 'group.db'));
	db.exec(
		'CREATE TABLE parent (id INTEGER PRIMARY KEY); CREATE TABLE child (id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)',
	);
	let rollbacks = 0;
	const transaction = createTransaction(db, () => rollbacks++, { batch: true });
	const count = (table: string) => db.prepare(`SELECT count(*) FROM ${table}`).pluck().get();

	// A turn: two writes and a failing one share the group; the failing one leaves nothing.
	transaction.grouped(() => db.prepare('INSERT INTO parent (id) VALUES (1)').run());
	assert.throws(() =>
		transaction.grouped(() => {
			db.prepare('INSERT INTO parent (id) VALUES (2)').run();
			throw new Error('refused');
		}),
	);
	transaction.grouped(() => db.prepare('INSERT INTO parent (id) VALUES (3)').run());
	assert.ok(db.inTransaction, '~> the group is open until the end of the turn');
	assert.is(rollbacks, 1, '~> the refused write that had written rolled back its savepoint and cleared the caches');
	// An ungrouped write (a job, a service) joins the open group.
	transaction(() => db.prepare('INSERT INTO parent (id) VALUES (4)').run());
	const other = openDatabase(join(dir, 'group.db'));
	assert.is(other.prepare('SELECT count(*) FROM parent').pluck().get(), 0, '~> another connection sees nothing before the commit');
	await transaction.durable();
	assert.ok(!db.inTransaction, '~> committed');
	assert.equal(other.prepare('SELECT id FROM parent ORDER BY id').pluck().all(), [1, 3, 4], '~> the group, without the refused write');
	assert.is(await transaction.durable(), undefined, '~> nothing pending: durable at once');

	// Outside a group, a plain transaction commits at once.
	transaction(() => db.prepare('INSERT INTO parent (id) VALUES (5)').run());
	assert.ok(!db.inTransaction);
	assert.is(other.prepare('SELECT count(*) FROM parent').pluck().get(), 4);

	// A commit that fails (a deferred foreign key): every write of the group is gone, every waiter told.
	transaction.grouped(() => db.prepare('INSERT INTO parent (id) VALUES (6)').run());
	transaction.grouped(() => db.prepare('INSERT INTO child (id, parent_id) VALUES (1, 999)').run());
	const waiters = [transaction.durable(), transaction.durable()];
	const outcomes = await Promise.allSettled(waiters);
	assert.equal(
		outcomes.map((o) => o.status),
		['rejected', 'rejected'],
		'~> both waiters learn the commit failed',
	);
	assert.match(String((outcomes[0] as PromiseRejectedResult).reason), /FOREIGN KEY/);
	assert.ok(!db.inTransaction, '~> rolled back');
	assert.is(count('parent'), 4, '~> the group’s other write is gone too');
	assert.is(count('child'), 0);
	assert.is(rollbacks, 2, '~> caches cleared');

	// The next turn commits again; flush() commits an open group at once (closing, checkpoints).
	transaction.grouped(() => db.prepare('INSERT INTO parent (id) VALUES (7)').run());
	transaction.flush();
	assert.ok(!db.inTransaction);
	assert.is(other.prepare('SELECT count(*) FROM parent').pluck().get(), 5);
	other.close();
	db.close();
});

test('group commit: beforeCommit runs at the end of the group, inside it; its writes commit with the group; none without a group', async () => {
	const db = openDatabase(join(dir, 'hooks.db'));
	db.exec('CREATE TABLE writes (id INTEGER PRIMARY KEY, n INTEGER); CREATE TABLE derived (total INTEGER)');
	const transaction = createTransaction(db, () => undefined, { batch: true });
	const other = openDatabase(join(dir, 'hooks.db'));
	assert.is(
		transaction.beforeCommit(() => undefined),
		false,
		'~> no group open: nothing registered',
	);
	const seen: number[] = [];
	transaction.grouped(() => db.prepare('INSERT INTO writes (n) VALUES (1)').run());
	assert.ok(
		transaction.beforeCommit(() => {
			// It sees the whole group, and writes inside it.
			const total = db.prepare('SELECT sum(n) FROM writes').pluck().get() as number;
			seen.push(total);
			transaction(() => db.prepare('INSERT INTO derived (total) VALUES (?)').run(total));
		}),
	);
	assert.ok(
		transaction.beforeCommit(() => {
			transaction(() => db.prepare('INSERT INTO derived (total) VALUES (-1)').run());
			throw new Error('a hook that fails');
		}),
	);
	transaction.grouped(() => db.prepare('INSERT INTO writes (n) VALUES (2)').run());
	assert.equal(seen, [], '~> not before the end of the turn');
	await transaction.durable();
	assert.equal(seen, [3], '~> once, with every write of the group');
	assert.ok(!db.inTransaction);
	assert.equal(
		other.prepare('SELECT total FROM derived').pluck().all(),
		[3],
		'~> committed with the group; the failing hook left nothing',
	);
	assert.equal(other.prepare('SELECT n FROM writes ORDER BY id').pluck().all(), [1, 2], '~> and the group still committed');
	other.close();
	db.close();
});

test("group commit, flat (REST): a request is one savepoint, its services' transactions inside it run without their own; a nested failure the request catches leaves none of its writes", async () => {
	const db = openDatabase(join(dir, 'flat.db'));
	db.exec('CREATE TABLE item (id INTEGER PRIMARY KEY)');
	const transaction = createTransaction(db, () => undefined, { batch: true });
	const insert = (id: number) => db.prepare('INSERT INTO item (id) VALUES (?)').run(id);
	const runs = { count: 0 };
	transaction.grouped(
		() => {
			runs.count++;
			transaction(() => insert(1));
		},
		{ flat: true },
	);
	assert.is(runs.count, 1, '~> ran once: nothing failed');
	// A nested transaction that writes then throws, the request catching it and going on: rolled
	// back and run again with nested savepoints, so the failed half is not kept.
	let attempts = 0;
	transaction.grouped(
		() => {
			attempts++;
			insert(10);
			try {
				transaction(() => {
					insert(11);
					throw new Error('refused');
				});
			} catch {
				// handled: the request answers something else
			}
			insert(12);
		},
		{ flat: true },
	);
	assert.is(attempts, 2, '~> run again with savepoints');
	await transaction.durable();
	assert.equal(db.prepare('SELECT id FROM item ORDER BY id').pluck().all(), [1, 10, 12], '~> the caught failure left nothing');
	// A failure that ends the request rolls all of it back.
	assert.throws(() =>
		transaction.grouped(
			() => {
				insert(20);
				transaction(() => {
					insert(21);
					throw new Error('refused');
				});
			},
			{ flat: true },
		),
	);
	await transaction.durable();
	assert.equal(db.prepare('SELECT id FROM item ORDER BY id').pluck().all(), [1, 10, 12]);
	db.close();
});

test.run();
