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
	{
		version: 8,
		description: 'notifications: subjects and per-user threads; the participants of existing issues (authors, commenters, assignees) follow them',
		up(db) {
			db.exec(`
				CREATE TABLE notification_subjects (
				  id                  INTEGER PRIMARY KEY,
				  repository_id       INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
				  type                TEXT NOT NULL,                -- GitHub's subject.type: Issue, PullRequest, RepositoryInvitation, ...
				  subject_id          INTEGER NOT NULL,             -- the object's own id within its type (issues.id, ...)
				  title               TEXT NOT NULL,
				  path                TEXT,                         -- subject.url below the repository's API address (/issues/7); NULL: none
				  latest_comment_path TEXT,                         -- subject.latest_comment_url likewise
				  UNIQUE (type, subject_id)
				);
				CREATE TABLE notification_threads (
				  id            INTEGER PRIMARY KEY,
				  user_id       INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
				  subject_id    INTEGER NOT NULL REFERENCES notification_subjects(id) ON DELETE CASCADE,
				  repository_id INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
				  reason        TEXT,                               -- the thread's reason at its latest notification; NULL before the first
				  standing      TEXT,                               -- what the user is to the subject so far (the next notification's reason at least)
				  subscribed    INTEGER NOT NULL DEFAULT 0,         -- 1: follows the thread (took part, named in it, or subscribed by hand)
				  ignored       INTEGER NOT NULL DEFAULT 0,         -- 1: muted until the user comments or is mentioned
				  subscribed_at TEXT,
				  unread        INTEGER NOT NULL DEFAULT 0,
				  done          INTEGER NOT NULL DEFAULT 0,         -- 1: marked done, out of the lists until its next notification
				  updated_at    TEXT,                               -- the latest notification; NULL: none yet (not listed)
				  last_read_at  TEXT,
				  UNIQUE (user_id, subject_id)
				);
				CREATE INDEX notification_threads_inbox ON notification_threads(user_id, updated_at) WHERE updated_at IS NOT NULL;
				CREATE INDEX notification_threads_subject ON notification_threads(subject_id, subscribed);`);
			// Issues opened before notifications existed: their participants follow them from now on
			// (no notification, nothing unread), so the next comment reaches them as it would have.
			db.exec(`
				INSERT INTO notification_subjects (repository_id, type, subject_id, title, path, latest_comment_path)
				SELECT repo_id, CASE WHEN pull_request = 1 THEN 'PullRequest' ELSE 'Issue' END, id, title,
					CASE WHEN pull_request = 1 THEN '/pulls/' ELSE '/issues/' END || number,
					coalesce('/issues/comments/' || (SELECT max(c.id) FROM issue_comments c WHERE c.issue_id = issues.id),
						CASE WHEN pull_request = 1 THEN '/pulls/' ELSE '/issues/' END || number)
				FROM issues;
				INSERT INTO notification_threads (user_id, subject_id, repository_id, standing, subscribed, subscribed_at)
				SELECT p.user_id, s.id, s.repository_id,
					CASE max(p.rank) WHEN 3 THEN 'assign' WHEN 2 THEN 'author' ELSE 'comment' END, 1, min(p.at)
				FROM (
					SELECT id AS issue_id, user_id, 2 AS rank, created_at AS at FROM issues
					UNION ALL SELECT issue_id, user_id, 1, created_at FROM issue_comments
					UNION ALL SELECT a.issue_id, a.user_id, 3, i.created_at FROM issue_assignees a JOIN issues i ON i.id = a.issue_id
				) p
				JOIN notification_subjects s ON s.type IN ('Issue', 'PullRequest') AND s.subject_id = p.issue_id
				JOIN accounts u ON u.id = p.user_id AND u.type = 'User'
				GROUP BY p.user_id, s.id;`);
		},
	},
	{
		version: 9,
		description: 'feed versions: a count of removed or hidden feed events, kept by triggers; covering feed indexes',
		up(db) {
			db.exec(`
				DROP INDEX events_repo;
				DROP INDEX events_org;
				DROP INDEX events_actor;
				DROP INDEX events_public;
				CREATE INDEX events_repo ON events(repo_id, id, created_at, public) WHERE feed_type IS NOT NULL;
				CREATE INDEX events_org ON events(org_id, id, created_at, public, repo_id) WHERE feed_type IS NOT NULL;
				CREATE INDEX events_actor ON events(actor_id, id, created_at, public, repo_id) WHERE feed_type IS NOT NULL;
				CREATE INDEX events_public ON events(id, created_at) WHERE feed_type IS NOT NULL AND public = 1;
				CREATE TABLE events_version (
				  id      INTEGER PRIMARY KEY CHECK (id = 1),
				  removed INTEGER NOT NULL
				);
				INSERT INTO events_version (id, removed) VALUES (1, 0);
				CREATE TRIGGER events_removed AFTER DELETE ON events WHEN OLD.feed_type IS NOT NULL BEGIN
				  UPDATE events_version SET removed = removed + 1 WHERE id = 1;
				END;
				CREATE TRIGGER events_hidden AFTER UPDATE OF public ON events WHEN OLD.feed_type IS NOT NULL AND OLD.public <> NEW.public BEGIN
				  UPDATE events_version SET removed = removed + 1 WHERE id = 1;
				END;`);
		},
	},
	{
		version: 10,
		description: 'repository redirects: the names a repository had, kept by triggers on rename',
		up(db) {
			db.exec(`
				CREATE TABLE repository_redirects (
				  owner_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
				  name     TEXT NOT NULL COLLATE NOCASE,            -- a name the repository had
				  repo_id  INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
				  PRIMARY KEY (owner_id, name)
				) WITHOUT ROWID;
				CREATE INDEX repository_redirects_repo ON repository_redirects(repo_id);
				CREATE TRIGGER repositories_renamed AFTER UPDATE OF name ON repositories WHEN OLD.name <> NEW.name BEGIN
				  DELETE FROM repository_redirects WHERE owner_id = NEW.owner_id AND name = NEW.name;
				  INSERT OR REPLACE INTO repository_redirects (owner_id, name, repo_id) VALUES (OLD.owner_id, OLD.name, OLD.id);
				END;
				CREATE TRIGGER repositories_name_taken AFTER INSERT ON repositories BEGIN
				  DELETE FROM repository_redirects WHERE owner_id = NEW.owner_id AND name = NEW.name;
				END;`);
		},
	},
	{
		version: 11,
		description: 'branch protection: one row of JSON settings per protected branch; renamed branches',
		up(db) {
			db.exec(`
				CREATE TABLE branch_protections (
				  id         INTEGER PRIMARY KEY,
				  repo_id    INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
				  branch     TEXT NOT NULL,
				  settings   TEXT NOT NULL,
				  created_at TEXT NOT NULL,
				  updated_at TEXT NOT NULL,
				  UNIQUE (repo_id, branch)
				);
				CREATE TABLE branch_renames (
				  repo_id  INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
				  old_name TEXT NOT NULL,
				  new_name TEXT NOT NULL,
				  PRIMARY KEY (repo_id, old_name)
				) WITHOUT ROWID;`);
		},
	},
];

/** The schema version schema.sql describes. */
export const SCHEMA_VERSION = 1 + migrations.length;
