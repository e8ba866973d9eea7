/**
 * Append-only list of schema upgrades. Step N upgrades a database at user_version N-1 to N.
 * Never reorder or delete a step; retire one by making it a no-op. After the last step the
 * database must equal a fresh schema.sql (test/storage.test.ts compares the two).
 *
 * Version 1 is the first released schema.
 */
import type { DB } from './open';

/**
 * What upgrade steps may use from the layers above the database; the caller of migrate passes
 * them (src/compose.ts), so this layer imports nothing from above.
 */
export interface UpgradeTools {
	/** A Markdown body's stored renderings (src/api/markdown/render.ts renderBody). */
	renderBody(source: string): { html: string; text: string };
}

export interface Migration {
	version: number;
	description: string;
	up(db: DB, tools: UpgradeTools): void;
}

/** Rows whose bodies are rendered per batch while upgrading (bounds the memory used). */
const RENDER_BATCH = 500;

/**
 * Adds body_html and body_text to a table with `id` and `body` columns and fills them for every
 * row with a body, in batches by ascending id.
 */
function addRenderedBody(db: DB, table: string, tools: UpgradeTools): void {
	db.exec(`ALTER TABLE ${table} ADD COLUMN body_html TEXT; ALTER TABLE ${table} ADD COLUMN body_text TEXT;`);
	const batch = db.prepare(`SELECT id, body FROM ${table} WHERE id > ? AND body IS NOT NULL ORDER BY id LIMIT ${RENDER_BATCH}`);
	const store = db.prepare(`UPDATE ${table} SET body_html = ?, body_text = ? WHERE id = ?`);
	for (let after = 0; ; ) {
		const rows = batch.all(after) as Array<{ id: number; body: string }>;
		for (const row of rows) {
			const { html, text } = tools.renderBody(row.body);
			store.run(html, text, row.id);
		}
		if (rows.length < RENDER_BATCH) break;
		after = rows[rows.length - 1].id;
	}
}

export const migrations: Migration[] = [
	{
		version: 2,
		description: 'organization setting members_can_fork_private_repositories; public or private user email',
		up(db) {
			db.exec(`
				ALTER TABLE accounts ADD COLUMN members_can_fork_private_repositories INTEGER NOT NULL DEFAULT 0;
				ALTER TABLE accounts ADD COLUMN email_public INTEGER NOT NULL DEFAULT 0;
			`);
		},
	},
	{
		version: 3,
		description: 'queued webhook deliveries indexed per hook, (hook_id, next_attempt_at), instead of by due time alone',
		up(db) {
			db.exec(`
				DROP INDEX webhook_deliveries_due;
				CREATE INDEX webhook_deliveries_queued ON webhook_deliveries(hook_id, next_attempt_at) WHERE state = 'queued';`);
		},
	},
	{
		version: 4,
		description: 'issue, issue comment and gist comment bodies keep their rendering (body_html, body_text)',
		up(db, tools) {
			for (const table of ['issues', 'issue_comments', 'gist_comments']) addRenderedBody(db, table, tools);
		},
	},
	{
		version: 5,
		description: 'the domain-event log (activity feeds, and what webhooks and notifications derive from)',
		up(db) {
			db.exec(`
				CREATE TABLE events (
				  id         INTEGER PRIMARY KEY,
				  event      TEXT NOT NULL,
				  action     TEXT,
				  actor_id   INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
				  repo_id    INTEGER REFERENCES repositories(id) ON DELETE CASCADE,
				  repo_name  TEXT,
				  org_id     INTEGER REFERENCES accounts(id) ON DELETE CASCADE,
				  public     INTEGER NOT NULL,
				  feed_type  TEXT,
				  payload    TEXT,
				  created_at TEXT NOT NULL
				);
				CREATE INDEX events_repo ON events(repo_id, id) WHERE feed_type IS NOT NULL;
				CREATE INDEX events_org ON events(org_id, id) WHERE feed_type IS NOT NULL;
				CREATE INDEX events_actor ON events(actor_id, id) WHERE feed_type IS NOT NULL;
				CREATE INDEX events_public ON events(id) WHERE feed_type IS NOT NULL AND public = 1;
				CREATE INDEX events_created ON events(created_at);`);
		},
	},
	{
		version: 6,
		description: 'starring and watching: stars, repository subscriptions, and the counts on repositories kept by triggers',
		up(db) {
			db.exec(`
				ALTER TABLE repositories ADD COLUMN stargazers_count INTEGER NOT NULL DEFAULT 0;
				ALTER TABLE repositories ADD COLUMN subscribers_count INTEGER NOT NULL DEFAULT 0;
				CREATE TABLE stars (
				  user_id    INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
				  repo_id    INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
				  created_at TEXT NOT NULL,
				  PRIMARY KEY (user_id, repo_id)
				) WITHOUT ROWID;
				CREATE INDEX stars_repo ON stars(repo_id, created_at);
				CREATE INDEX stars_user ON stars(user_id, created_at);
				CREATE TRIGGER stars_count_insert AFTER INSERT ON stars BEGIN
				  UPDATE repositories SET stargazers_count = stargazers_count + 1 WHERE id = NEW.repo_id;
				END;
				CREATE TRIGGER stars_count_delete AFTER DELETE ON stars BEGIN
				  UPDATE repositories SET stargazers_count = stargazers_count - 1 WHERE id = OLD.repo_id;
				END;
				CREATE TABLE repository_subscriptions (
				  user_id    INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
				  repo_id    INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
				  subscribed INTEGER NOT NULL CHECK (subscribed IN (0, 1)),
				  ignored    INTEGER NOT NULL CHECK (ignored IN (0, 1)),
				  created_at TEXT NOT NULL,
				  PRIMARY KEY (user_id, repo_id)
				) WITHOUT ROWID;
				CREATE INDEX repository_subscriptions_repo ON repository_subscriptions(repo_id, created_at) WHERE subscribed = 1;
				CREATE INDEX repository_subscriptions_user ON repository_subscriptions(user_id, created_at) WHERE subscribed = 1;
				CREATE TRIGGER subscriptions_count_insert AFTER INSERT ON repository_subscriptions WHEN NEW.subscribed = 1 BEGIN
				  UPDATE repositories SET subscribers_count = subscribers_count + 1 WHERE id = NEW.repo_id;
				END;
				CREATE TRIGGER subscriptions_count_delete AFTER DELETE ON repository_subscriptions WHEN OLD.subscribed = 1 BEGIN
				  UPDATE repositories SET subscribers_count = subscribers_count - 1 WHERE id = OLD.repo_id;
				END;
				CREATE TRIGGER subscriptions_count_update AFTER UPDATE OF subscribed ON repository_subscriptions WHEN OLD.subscribed <> NEW.subscribed BEGIN
				  UPDATE repositories SET subscribers_count = subscribers_count + (CASE NEW.subscribed WHEN 1 THEN 1 ELSE -1 END) WHERE id = NEW.repo_id;
				END;
				-- GitHub subscribes whoever creates a repository. Existing repositories of users get their
				-- owner as watcher; an organization repository's creator was not recorded.
				INSERT INTO repository_subscriptions (user_id, repo_id, subscribed, ignored, created_at)
				SELECT r.owner_id, r.id, 1, 0, r.created_at FROM repositories r JOIN accounts a ON a.id = r.owner_id AND a.type = 'User';`);
		},
	},
	{
		version: 7,
		description: 'repository and organization webhooks: the hooks table serves every kind (repo_id, org_id), with last_response; deliveries name their repository',
		up(db) {
			// Existing rows are global hooks (both NULL) and keep their ids, deliveries and attempts.
			db.exec(`
				ALTER TABLE global_webhooks ADD COLUMN repo_id INTEGER REFERENCES repositories(id) ON DELETE CASCADE;
				ALTER TABLE global_webhooks ADD COLUMN org_id INTEGER REFERENCES accounts(id) ON DELETE CASCADE;
				ALTER TABLE global_webhooks ADD COLUMN last_response_code INTEGER;
				ALTER TABLE global_webhooks ADD COLUMN last_response_status TEXT NOT NULL DEFAULT 'unused';
				ALTER TABLE global_webhooks ADD COLUMN last_response_message TEXT;
				CREATE INDEX global_webhooks_repo ON global_webhooks(repo_id) WHERE repo_id IS NOT NULL;
				CREATE INDEX global_webhooks_org ON global_webhooks(org_id) WHERE org_id IS NOT NULL;
				ALTER TABLE webhook_deliveries ADD COLUMN repository_id INTEGER;`);
		},
	},
];

/** The schema version schema.sql describes. */
export const SCHEMA_VERSION = 1 + migrations.length;
