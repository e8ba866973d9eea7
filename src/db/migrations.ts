/**
 * Append-only list of schema upgrades. Step N upgrades a database at user_version N-1 to N.
 * Never reorder or delete a step; retire one by making it a no-op. After the last step the
 * database must equal a fresh schema.sql (test/storage.test.ts compares the two).
 *
 * Version 1 is the first released schema.
 */
import { deflateSync } from 'node:zlib';
import type { DB } from './open';

/**
 * What upgrade steps may use from the layers above the database; the caller of migrate passes
 * them (src/compose.ts), so this layer imports nothing from above.
 */
export interface UpgradeTools {
	/** A Markdown body's stored renderings (src/model/markdown/render.ts renderBody). */
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

/**
 * SQLite codes `x IN (a, b, c, …)` with more than two constants as an ephemeral index built each
 * time the expression runs, and a CHECK constraint runs for every row written: three such CHECKs on
 * `issues` made its insert cost about twice as much. This rewrites each `CHECK (column IN (…))` of
 * more than two literals in a CREATE TABLE statement as the equivalent `column = a OR column = b …`
 * (the same truth value, NULL included: a NULL column passes both). schema.sql is written this way;
 * upgrade step 45 applies it to the tables of older databases.
 */
export function checksWithoutInLists(sql: string): string {
	return sql.replace(
		/CHECK \((\w+) IN \(((?:'(?:[^']|'')*'|-?\d+)(?:, *(?:'(?:[^']|'')*'|-?\d+))*)\)\)/g,
		(whole, column: string, list: string) => {
			const values = list.match(/'(?:[^']|'')*'|-?\d+/g)!;
			return values.length <= 2 ? whole : `CHECK (${values.map((value) => `${column} = ${value}`).join(' OR ')})`;
		},
	);
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
		description:
			'repository and organization webhooks: the hooks table serves every kind (repo_id, org_id), with last_response; deliveries name their repository',
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
		description:
			'notifications: subjects and per-user threads; the participants of existing issues (authors, commenters, assignees) follow them',
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
		description: 'full repository forms: merge and fork settings, forks_count; repository topics; organization members_can_* policies',
		up(db) {
			db.exec(`
				ALTER TABLE repositories ADD COLUMN allow_forking INTEGER NOT NULL DEFAULT 1;
				ALTER TABLE repositories ADD COLUMN web_commit_signoff_required INTEGER NOT NULL DEFAULT 0;
				ALTER TABLE repositories ADD COLUMN allow_update_branch INTEGER NOT NULL DEFAULT 0;
				ALTER TABLE repositories ADD COLUMN use_squash_pr_title_as_default INTEGER NOT NULL DEFAULT 0;
				ALTER TABLE repositories ADD COLUMN squash_merge_commit_title TEXT NOT NULL DEFAULT 'COMMIT_OR_PR_TITLE'
				  CHECK (squash_merge_commit_title IN ('PR_TITLE', 'COMMIT_OR_PR_TITLE'));
				ALTER TABLE repositories ADD COLUMN squash_merge_commit_message TEXT NOT NULL DEFAULT 'COMMIT_MESSAGES'
				  CHECK (squash_merge_commit_message IN ('PR_BODY', 'COMMIT_MESSAGES', 'BLANK'));
				ALTER TABLE repositories ADD COLUMN merge_commit_title TEXT NOT NULL DEFAULT 'MERGE_MESSAGE'
				  CHECK (merge_commit_title IN ('PR_TITLE', 'MERGE_MESSAGE'));
				ALTER TABLE repositories ADD COLUMN merge_commit_message TEXT NOT NULL DEFAULT 'PR_TITLE'
				  CHECK (merge_commit_message IN ('PR_BODY', 'PR_TITLE', 'BLANK'));
				ALTER TABLE repositories ADD COLUMN forks_count INTEGER NOT NULL DEFAULT 0;
				UPDATE repositories SET forks_count = (SELECT count(*) FROM repositories f WHERE f.fork_parent_id = repositories.id);
				CREATE TRIGGER repositories_fork_added AFTER INSERT ON repositories WHEN NEW.fork_parent_id IS NOT NULL BEGIN
				  UPDATE repositories SET forks_count = forks_count + 1 WHERE id = NEW.fork_parent_id;
				END;
				CREATE TRIGGER repositories_fork_removed AFTER DELETE ON repositories WHEN OLD.fork_parent_id IS NOT NULL BEGIN
				  UPDATE repositories SET forks_count = forks_count - 1 WHERE id = OLD.fork_parent_id;
				END;
				CREATE TABLE repository_topics (
				  repo_id  INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
				  name     TEXT NOT NULL,
				  position INTEGER NOT NULL,
				  PRIMARY KEY (repo_id, name)
				) WITHOUT ROWID;
				CREATE INDEX repository_topics_name ON repository_topics(name);
				INSERT OR IGNORE INTO repository_topics (repo_id, name, position)
				  SELECT r.id, lower(j.value), j.key FROM repositories r, json_each(r.topics) j;
				CREATE TRIGGER repository_topics_added AFTER INSERT ON repository_topics BEGIN
				  UPDATE repositories SET topics = (SELECT json_group_array(name) FROM (SELECT name FROM repository_topics WHERE repo_id = NEW.repo_id ORDER BY position))
				  WHERE id = NEW.repo_id;
				END;
				CREATE TRIGGER repository_topics_removed AFTER DELETE ON repository_topics BEGIN
				  UPDATE repositories SET topics = (SELECT json_group_array(name) FROM (SELECT name FROM repository_topics WHERE repo_id = OLD.repo_id ORDER BY position))
				  WHERE id = OLD.repo_id;
				END;
				ALTER TABLE accounts ADD COLUMN members_can_create_public_repositories INTEGER NOT NULL DEFAULT 1;
				ALTER TABLE accounts ADD COLUMN members_can_create_private_repositories INTEGER NOT NULL DEFAULT 1;
				ALTER TABLE accounts ADD COLUMN members_can_create_internal_repositories INTEGER NOT NULL DEFAULT 1;
				ALTER TABLE accounts ADD COLUMN members_can_create_pages INTEGER NOT NULL DEFAULT 1;
				ALTER TABLE accounts ADD COLUMN members_can_create_public_pages INTEGER NOT NULL DEFAULT 1;
				ALTER TABLE accounts ADD COLUMN members_can_create_private_pages INTEGER NOT NULL DEFAULT 1;
				ALTER TABLE accounts ADD COLUMN members_can_delete_repositories INTEGER NOT NULL DEFAULT 1;
				ALTER TABLE accounts ADD COLUMN members_can_change_repo_visibility INTEGER NOT NULL DEFAULT 1;
				ALTER TABLE accounts ADD COLUMN members_can_invite_outside_collaborators INTEGER NOT NULL DEFAULT 1;
				ALTER TABLE accounts ADD COLUMN members_can_delete_issues INTEGER NOT NULL DEFAULT 0;
				ALTER TABLE accounts ADD COLUMN members_can_view_dependency_insights INTEGER NOT NULL DEFAULT 1;`);
		},
	},
	{
		version: 12,
		description: 'milestones: the milestones table, issues.milestone_id, issue counts kept by triggers',
		up(db) {
			db.exec(`
				CREATE TABLE milestones (
				  id            INTEGER PRIMARY KEY,
				  repo_id       INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
				  number        INTEGER NOT NULL,
				  title         TEXT NOT NULL,
				  description   TEXT,
				  state         TEXT NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'closed')),
				  due_on        TEXT,
				  creator_id    INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
				  open_issues   INTEGER NOT NULL DEFAULT 0,
				  closed_issues INTEGER NOT NULL DEFAULT 0,
				  created_at    TEXT NOT NULL,
				  updated_at    TEXT NOT NULL,
				  closed_at     TEXT,
				  UNIQUE (repo_id, number),
				  UNIQUE (repo_id, title)
				);
				ALTER TABLE issues ADD COLUMN milestone_id INTEGER REFERENCES milestones(id) ON DELETE SET NULL;
				CREATE INDEX issues_milestone ON issues(milestone_id, state);
				CREATE TRIGGER issues_milestone_insert AFTER INSERT ON issues WHEN NEW.milestone_id IS NOT NULL BEGIN
				  UPDATE milestones SET open_issues = open_issues + (NEW.state = 'open'), closed_issues = closed_issues + (NEW.state = 'closed')
				  WHERE id = NEW.milestone_id;
				END;
				CREATE TRIGGER issues_milestone_delete AFTER DELETE ON issues WHEN OLD.milestone_id IS NOT NULL BEGIN
				  UPDATE milestones SET open_issues = open_issues - (OLD.state = 'open'), closed_issues = closed_issues - (OLD.state = 'closed')
				  WHERE id = OLD.milestone_id;
				END;
				CREATE TRIGGER issues_milestone_update AFTER UPDATE OF state, milestone_id ON issues
				WHEN OLD.milestone_id IS NOT NEW.milestone_id OR (NEW.milestone_id IS NOT NULL AND OLD.state <> NEW.state) BEGIN
				  UPDATE milestones SET open_issues = open_issues - (OLD.state = 'open'), closed_issues = closed_issues - (OLD.state = 'closed')
				  WHERE id = OLD.milestone_id;
				  UPDATE milestones SET open_issues = open_issues + (NEW.state = 'open'), closed_issues = closed_issues + (NEW.state = 'closed')
				  WHERE id = NEW.milestone_id;
				END;`);
		},
	},
	{
		version: 13,
		description: 'reactions to issues and issue comments; their counts on the issue or comment row, kept by triggers',
		up(db) {
			db.exec(`
				ALTER TABLE issues ADD COLUMN reaction_counts TEXT NOT NULL DEFAULT '{}';
				ALTER TABLE issue_comments ADD COLUMN reaction_counts TEXT NOT NULL DEFAULT '{}';
				CREATE TABLE reactions (
				  id         INTEGER PRIMARY KEY,
				  issue_id   INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
				  comment_id INTEGER REFERENCES issue_comments(id) ON DELETE CASCADE,
				  user_id    INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
				  content    TEXT NOT NULL CHECK (content IN ('+1', '-1', 'laugh', 'confused', 'heart', 'hooray', 'rocket', 'eyes')),
				  created_at TEXT NOT NULL
				);
				CREATE UNIQUE INDEX reactions_issue ON reactions(issue_id, user_id, content) WHERE comment_id IS NULL;
				CREATE UNIQUE INDEX reactions_comment ON reactions(comment_id, user_id, content) WHERE comment_id IS NOT NULL;
				CREATE INDEX reactions_user ON reactions(user_id);
				CREATE TRIGGER reactions_count_insert AFTER INSERT ON reactions BEGIN
				  UPDATE issues SET reaction_counts = json_set(reaction_counts, '$."' || NEW.content || '"',
				    coalesce(json_extract(reaction_counts, '$."' || NEW.content || '"'), 0) + 1) WHERE id = NEW.issue_id AND NEW.comment_id IS NULL;
				  UPDATE issue_comments SET reaction_counts = json_set(reaction_counts, '$."' || NEW.content || '"',
				    coalesce(json_extract(reaction_counts, '$."' || NEW.content || '"'), 0) + 1) WHERE id = NEW.comment_id;
				END;
				CREATE TRIGGER reactions_count_delete AFTER DELETE ON reactions BEGIN
				  UPDATE issues SET reaction_counts = json_set(reaction_counts, '$."' || OLD.content || '"',
				    coalesce(json_extract(reaction_counts, '$."' || OLD.content || '"'), 1) - 1) WHERE id = OLD.issue_id AND OLD.comment_id IS NULL;
				  UPDATE issue_comments SET reaction_counts = json_set(reaction_counts, '$."' || OLD.content || '"',
				    coalesce(json_extract(reaction_counts, '$."' || OLD.content || '"'), 1) - 1) WHERE id = OLD.comment_id;
				END;`);
		},
	},
	{
		version: 14,
		description:
			'search: FTS5 indexes of repositories (name, description), issues (title, body) and issue comments (body), kept by triggers',
		up(db) {
			db.exec(`
				CREATE VIRTUAL TABLE repositories_fts USING fts5(name, description, content='repositories', content_rowid='id', tokenize='unicode61 remove_diacritics 2');
				CREATE TRIGGER repositories_fts_insert AFTER INSERT ON repositories BEGIN
				  INSERT INTO repositories_fts (rowid, name, description) VALUES (NEW.id, NEW.name, NEW.description);
				END;
				CREATE TRIGGER repositories_fts_delete AFTER DELETE ON repositories BEGIN
				  INSERT INTO repositories_fts (repositories_fts, rowid, name, description) VALUES ('delete', OLD.id, OLD.name, OLD.description);
				END;
				CREATE TRIGGER repositories_fts_update AFTER UPDATE OF name, description ON repositories BEGIN
				  INSERT INTO repositories_fts (repositories_fts, rowid, name, description) VALUES ('delete', OLD.id, OLD.name, OLD.description);
				  INSERT INTO repositories_fts (rowid, name, description) VALUES (NEW.id, NEW.name, NEW.description);
				END;
				CREATE VIRTUAL TABLE issues_fts USING fts5(title, body, content='issues', content_rowid='id', tokenize='unicode61 remove_diacritics 2');
				CREATE TRIGGER issues_fts_insert AFTER INSERT ON issues BEGIN
				  INSERT INTO issues_fts (rowid, title, body) VALUES (NEW.id, NEW.title, NEW.body);
				END;
				CREATE TRIGGER issues_fts_delete AFTER DELETE ON issues BEGIN
				  INSERT INTO issues_fts (issues_fts, rowid, title, body) VALUES ('delete', OLD.id, OLD.title, OLD.body);
				END;
				CREATE TRIGGER issues_fts_update AFTER UPDATE OF title, body ON issues BEGIN
				  INSERT INTO issues_fts (issues_fts, rowid, title, body) VALUES ('delete', OLD.id, OLD.title, OLD.body);
				  INSERT INTO issues_fts (rowid, title, body) VALUES (NEW.id, NEW.title, NEW.body);
				END;
				CREATE VIRTUAL TABLE issue_comments_fts USING fts5(body, content='issue_comments', content_rowid='id', tokenize='unicode61 remove_diacritics 2');
				CREATE TRIGGER issue_comments_fts_insert AFTER INSERT ON issue_comments BEGIN
				  INSERT INTO issue_comments_fts (rowid, body) VALUES (NEW.id, NEW.body);
				END;
				CREATE TRIGGER issue_comments_fts_delete AFTER DELETE ON issue_comments BEGIN
				  INSERT INTO issue_comments_fts (issue_comments_fts, rowid, body) VALUES ('delete', OLD.id, OLD.body);
				END;
				CREATE TRIGGER issue_comments_fts_update AFTER UPDATE OF body ON issue_comments BEGIN
				  INSERT INTO issue_comments_fts (issue_comments_fts, rowid, body) VALUES ('delete', OLD.id, OLD.body);
				  INSERT INTO issue_comments_fts (rowid, body) VALUES (NEW.id, NEW.body);
				END;
				INSERT INTO repositories_fts (repositories_fts) VALUES ('rebuild');
				INSERT INTO issues_fts (issues_fts) VALUES ('rebuild');
				INSERT INTO issue_comments_fts (issue_comments_fts) VALUES ('rebuild');`);
		},
	},
	{
		version: 15,
		description: 'gists: stars, forks (fork_of_id) and revisions; every existing gist gets one revision of its files as they are',
		up(db) {
			db.exec(`
				ALTER TABLE gists ADD COLUMN fork_of_id INTEGER REFERENCES gists(id) ON DELETE SET NULL;
				CREATE TABLE gist_stars (
				  gist_id    INTEGER NOT NULL REFERENCES gists(id) ON DELETE CASCADE,
				  user_id    INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
				  created_at TEXT NOT NULL,
				  PRIMARY KEY (gist_id, user_id)
				) WITHOUT ROWID;
				CREATE INDEX gist_stars_user ON gist_stars(user_id, created_at);
				CREATE INDEX gists_fork_of ON gists(fork_of_id, id) WHERE fork_of_id IS NOT NULL;
				CREATE TABLE gist_revisions (
				  id           INTEGER PRIMARY KEY,
				  gist_id      INTEGER NOT NULL REFERENCES gists(id) ON DELETE CASCADE,
				  version      TEXT NOT NULL,
				  user_id      INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
				  committed_at TEXT NOT NULL,
				  additions    INTEGER NOT NULL,
				  deletions    INTEGER NOT NULL,
				  files        TEXT NOT NULL,
				  UNIQUE (gist_id, version)
				);
				CREATE INDEX gist_revisions_gist ON gist_revisions(gist_id, id);
				INSERT INTO gist_revisions (gist_id, version, user_id, committed_at, additions, deletions, files)
				SELECT g.id, lower(hex(randomblob(20))), g.owner_id, g.updated_at,
				  (SELECT coalesce(sum(length(f.content) - length(replace(f.content, char(10), '')) + (substr(f.content, -1) <> char(10))), 0)
				     FROM gist_files f WHERE f.gist_id = g.id),
				  0,
				  (SELECT coalesce(json_group_object(f.filename, f.content), '{}') FROM gist_files f WHERE f.gist_id = g.id)
				FROM gists g ORDER BY g.id;`);
		},
	},
	{
		version: 16,
		description:
			'repository invitations: pending invitations to collaborate, with their expiry; the invitations sent per repository and day',
		up(db) {
			db.exec(`
				CREATE TABLE repository_invitations (
				  id         INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: notification subjects name invitations by id
				  repo_id    INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
				  invitee_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
				  inviter_id INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
				  permission TEXT NOT NULL CHECK (permission IN ('pull', 'triage', 'push', 'maintain', 'admin')),
				  created_at TEXT NOT NULL,
				  expires_at TEXT NOT NULL,
				  UNIQUE (repo_id, invitee_id)
				);
				CREATE INDEX repository_invitations_invitee ON repository_invitations(invitee_id);
				CREATE INDEX repository_invitations_inviter ON repository_invitations(inviter_id) WHERE inviter_id IS NOT NULL;
				CREATE INDEX events_repository_invitations ON events(repo_id, created_at) WHERE event = 'repository_invitation';`);
		},
	},
	{
		version: 17,
		description: 'commit statuses, releases and release assets, check runs of apps',
		up(db) {
			db.exec(`
				CREATE TABLE commit_statuses (
				  id          INTEGER PRIMARY KEY,
				  repo_id     INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
				  sha         TEXT NOT NULL,
				  state       TEXT NOT NULL CHECK (state IN ('error', 'failure', 'pending', 'success')),
				  context     TEXT NOT NULL,
				  description TEXT,
				  target_url  TEXT,
				  creator_id  INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
				  created_at  TEXT NOT NULL,
				  updated_at  TEXT NOT NULL
				);
				CREATE INDEX commit_statuses_commit ON commit_statuses(repo_id, sha, id);
				CREATE INDEX commit_statuses_context ON commit_statuses(repo_id, sha, context, id);
				CREATE TABLE releases (
				  id               INTEGER PRIMARY KEY,
				  repo_id          INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
				  tag_name         TEXT NOT NULL,
				  target_commitish TEXT NOT NULL,
				  name             TEXT,
				  body             TEXT,
				  body_html        TEXT,
				  body_text        TEXT,
				  draft            INTEGER NOT NULL DEFAULT 0,
				  prerelease       INTEGER NOT NULL DEFAULT 0,
				  make_latest      TEXT NOT NULL DEFAULT 'true' CHECK (make_latest IN ('true', 'false', 'legacy')),
				  is_latest        INTEGER NOT NULL DEFAULT 0,
				  author_id        INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
				  created_at       TEXT NOT NULL,
				  published_at     TEXT,
				  updated_at       TEXT NOT NULL,
				  UNIQUE (repo_id, tag_name)
				);
				CREATE INDEX releases_latest ON releases(repo_id, published_at) WHERE draft = 0 AND prerelease = 0;
				CREATE TABLE release_assets (
				  id             INTEGER PRIMARY KEY,
				  release_id     INTEGER NOT NULL REFERENCES releases(id) ON DELETE CASCADE,
				  repo_id        INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
				  name           TEXT NOT NULL,
				  label          TEXT,
				  content_type   TEXT NOT NULL,
				  size           INTEGER NOT NULL,
				  sha256         TEXT NOT NULL,
				  download_count INTEGER NOT NULL DEFAULT 0,
				  uploader_id    INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
				  blob           TEXT NOT NULL,
				  created_at     TEXT NOT NULL,
				  updated_at     TEXT NOT NULL,
				  UNIQUE (release_id, name)
				);
				CREATE INDEX release_assets_repo ON release_assets(repo_id);
				CREATE TABLE check_suites (
				  id          INTEGER PRIMARY KEY,
				  repo_id     INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
				  app_id      INTEGER NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
				  head_sha    TEXT NOT NULL,
				  head_branch TEXT,
				  created_at  TEXT NOT NULL,
				  updated_at  TEXT NOT NULL,
				  UNIQUE (repo_id, head_sha, app_id)
				);
				CREATE TABLE check_runs (
				  id             INTEGER PRIMARY KEY,
				  suite_id       INTEGER NOT NULL REFERENCES check_suites(id) ON DELETE CASCADE,
				  repo_id        INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
				  name           TEXT NOT NULL,
				  head_sha       TEXT NOT NULL,
				  external_id    TEXT,
				  details_url    TEXT,
				  status         TEXT NOT NULL CHECK (status IN ('queued', 'in_progress', 'completed', 'waiting', 'requested', 'pending')),
				  conclusion     TEXT CHECK (conclusion IN ('action_required', 'cancelled', 'failure', 'neutral', 'success', 'skipped', 'stale', 'timed_out')),
				  started_at     TEXT,
				  completed_at   TEXT,
				  output_title   TEXT,
				  output_summary TEXT,
				  output_text    TEXT,
				  created_at     TEXT NOT NULL,
				  updated_at     TEXT NOT NULL,
				  CHECK ((status = 'completed') = (conclusion IS NOT NULL))
				);
				CREATE INDEX check_runs_commit ON check_runs(repo_id, head_sha, id);
				CREATE INDEX check_runs_suite ON check_runs(suite_id, name, id);`);
		},
	},
	{
		version: 18,
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
	{
		version: 19,
		description:
			'pull requests: the pull-request part of issues with pull_request = 1 (head, base, draft, merge and mergeability columns)',
		up(db) {
			db.exec(`
				CREATE TABLE pull_requests (
				  issue_id              INTEGER PRIMARY KEY REFERENCES issues(id) ON DELETE CASCADE,
				  repo_id               INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
				  head_repo_id          INTEGER REFERENCES repositories(id) ON DELETE SET NULL,
				  head_ref              TEXT NOT NULL,
				  head_sha              TEXT NOT NULL,
				  base_ref              TEXT NOT NULL,
				  base_sha              TEXT NOT NULL,
				  draft                 INTEGER NOT NULL DEFAULT 0,
				  maintainer_can_modify INTEGER NOT NULL DEFAULT 0,
				  merged_at             TEXT,
				  merged_by_id          INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
				  merge_commit_sha      TEXT,
				  mergeable             INTEGER,
				  mergeable_state       TEXT NOT NULL DEFAULT 'unknown',
				  mergeable_head_sha    TEXT,
				  mergeable_base_sha    TEXT
				);
				CREATE INDEX pull_requests_head ON pull_requests(head_repo_id, head_ref);
				CREATE INDEX pull_requests_base ON pull_requests(repo_id, base_ref);`);
		},
	},
	{
		version: 20,
		description: 'pull request reviews: review requests (users and teams), reviews, review comments',
		up(db) {
			db.exec(`
				CREATE TABLE pull_request_review_requests (
				  id         INTEGER PRIMARY KEY,
				  issue_id   INTEGER NOT NULL REFERENCES pull_requests(issue_id) ON DELETE CASCADE,
				  user_id    INTEGER REFERENCES accounts(id) ON DELETE CASCADE,
				  team_id    INTEGER REFERENCES teams(id) ON DELETE CASCADE,
				  created_at TEXT NOT NULL,
				  CHECK ((user_id IS NULL) <> (team_id IS NULL))
				);
				CREATE UNIQUE INDEX pull_request_review_requests_user ON pull_request_review_requests(issue_id, user_id) WHERE user_id IS NOT NULL;
				CREATE UNIQUE INDEX pull_request_review_requests_team ON pull_request_review_requests(issue_id, team_id) WHERE team_id IS NOT NULL;
				CREATE TABLE pull_request_reviews (
				  id           INTEGER PRIMARY KEY,
				  issue_id     INTEGER NOT NULL REFERENCES pull_requests(issue_id) ON DELETE CASCADE,
				  user_id      INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
				  state        TEXT NOT NULL CHECK (state IN ('PENDING', 'COMMENTED', 'APPROVED', 'CHANGES_REQUESTED', 'DISMISSED')),
				  body         TEXT NOT NULL DEFAULT '',
				  body_html    TEXT,
				  body_text    TEXT,
				  commit_id    TEXT NOT NULL,
				  submitted_at TEXT,
				  created_at   TEXT NOT NULL,
				  updated_at   TEXT NOT NULL
				);
				CREATE INDEX pull_request_reviews_issue ON pull_request_reviews(issue_id, id);
				CREATE UNIQUE INDEX pull_request_reviews_pending ON pull_request_reviews(issue_id, user_id) WHERE state = 'PENDING';
				CREATE TABLE pull_request_review_comments (
				  id                  INTEGER PRIMARY KEY,
				  repo_id             INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
				  issue_id            INTEGER NOT NULL REFERENCES pull_requests(issue_id) ON DELETE CASCADE,
				  review_id           INTEGER NOT NULL REFERENCES pull_request_reviews(id) ON DELETE CASCADE,
				  user_id             INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
				  in_reply_to_id      INTEGER,
				  path                TEXT NOT NULL,
				  position            INTEGER NOT NULL,
				  line                INTEGER NOT NULL,
				  side                TEXT NOT NULL CHECK (side IN ('LEFT', 'RIGHT')),
				  start_line          INTEGER,
				  start_side          TEXT CHECK (start_side IN ('LEFT', 'RIGHT')),
				  commit_id           TEXT NOT NULL,
				  diff_hunk           TEXT NOT NULL,
				  body                TEXT NOT NULL,
				  body_html           TEXT,
				  body_text           TEXT,
				  created_at          TEXT NOT NULL,
				  updated_at          TEXT NOT NULL
				);
				CREATE INDEX pull_request_review_comments_repo ON pull_request_review_comments(repo_id, id);
				CREATE INDEX pull_request_review_comments_issue ON pull_request_review_comments(issue_id, id);
				CREATE INDEX pull_request_review_comments_review ON pull_request_review_comments(review_id, id);`);
		},
	},
	{
		version: 21,
		description: 'the organization audit log, derived from the domain-event log',
		up(db) {
			db.exec(`
				CREATE TABLE audit_log (
				  id                       INTEGER PRIMARY KEY,
				  event_id                 INTEGER NOT NULL,            -- events.id it derives from (pruned sooner than this)
				  org_id                   INTEGER REFERENCES accounts(id) ON DELETE CASCADE,
				  org                      TEXT,
				  action                   TEXT NOT NULL,               -- GitHub's audit action: repo.create, team.add_member, ...
				  category                 TEXT NOT NULL CHECK (category IN ('web', 'git')),
				  operation_type           TEXT NOT NULL,
				  actor_id                 INTEGER,
				  actor                    TEXT,
				  user_id                  INTEGER,
				  user                     TEXT,
				  repo_id                  INTEGER,
				  repo                     TEXT,                        -- owner/name when it happened
				  team                     TEXT,                        -- org/slug
				  token_id                 INTEGER,                     -- the token's id, never the token
				  programmatic_access_type TEXT,
				  token_scopes             TEXT,
				  actor_ip                 TEXT,
				  user_agent               TEXT,
				  request_id               TEXT,
				  data                     TEXT NOT NULL DEFAULT '{}',
				  created_at               INTEGER NOT NULL             -- epoch milliseconds
				);
				CREATE INDEX audit_log_org ON audit_log(org_id, id);
				CREATE INDEX audit_log_created ON audit_log(created_at);`);
		},
	},
	{
		version: 22,
		description: 'roles: custom repository roles (role_id on grants and invitations), organization role assignments',
		up(db) {
			db.exec(`
				CREATE TABLE custom_repository_roles (
				  id          INTEGER PRIMARY KEY,
				  org_id      INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
				  name        TEXT NOT NULL COLLATE NOCASE,
				  description TEXT,
				  base_role   TEXT NOT NULL CHECK (base_role IN ('read', 'triage', 'write', 'maintain')),
				  permissions TEXT NOT NULL DEFAULT '[]',             -- JSON array of repository fine-grained permissions
				  created_at  TEXT NOT NULL,
				  updated_at  TEXT NOT NULL,
				  UNIQUE (org_id, name)
				);
				CREATE TABLE organization_role_assignments (
				  id         INTEGER PRIMARY KEY,
				  org_id     INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
				  role_id    INTEGER NOT NULL,                        -- a predefined organization role (src/api/roles/predefined.ts)
				  user_id    INTEGER REFERENCES accounts(id) ON DELETE CASCADE,
				  team_id    INTEGER REFERENCES teams(id) ON DELETE CASCADE,
				  created_at TEXT NOT NULL,
				  CHECK ((user_id IS NULL) <> (team_id IS NULL))
				);
				CREATE UNIQUE INDEX organization_role_assignments_user ON organization_role_assignments(org_id, role_id, user_id) WHERE user_id IS NOT NULL;
				CREATE UNIQUE INDEX organization_role_assignments_team ON organization_role_assignments(org_id, role_id, team_id) WHERE team_id IS NOT NULL;
				CREATE INDEX organization_role_assignments_user_id ON organization_role_assignments(user_id) WHERE user_id IS NOT NULL;
				CREATE INDEX organization_role_assignments_team_id ON organization_role_assignments(team_id) WHERE team_id IS NOT NULL;
				ALTER TABLE repository_collaborators ADD COLUMN role_id INTEGER REFERENCES custom_repository_roles(id) ON DELETE SET NULL;
				ALTER TABLE team_repositories ADD COLUMN role_id INTEGER REFERENCES custom_repository_roles(id) ON DELETE SET NULL;
				ALTER TABLE repository_invitations ADD COLUMN role_id INTEGER REFERENCES custom_repository_roles(id) ON DELETE SET NULL;`);
		},
	},
	{
		version: 23,
		description: 'organization rulesets: rulesets, their versions, rule suites, push-rule bypass requests',
		up(db) {
			db.exec(`
				CREATE TABLE rulesets (
				  id            INTEGER PRIMARY KEY,
				  org_id        INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
				  name          TEXT NOT NULL,
				  target        TEXT NOT NULL CHECK (target IN ('branch', 'tag', 'push')),
				  enforcement   TEXT NOT NULL CHECK (enforcement IN ('disabled', 'active', 'evaluate')),
				  bypass_actors TEXT NOT NULL,  -- JSON array of {actor_id, actor_type, bypass_mode}
				  conditions    TEXT,           -- JSON object, or NULL
				  rules         TEXT NOT NULL,  -- JSON array of {type, parameters?}
				  created_at    TEXT NOT NULL,
				  updated_at    TEXT NOT NULL,
				  UNIQUE (org_id, name)
				);
				CREATE TABLE ruleset_versions (
				  id         INTEGER PRIMARY KEY,  -- version_id
				  ruleset_id INTEGER NOT NULL REFERENCES rulesets(id) ON DELETE CASCADE,
				  actor_id   INTEGER,              -- the account that made the version (kept if it is deleted)
				  actor_type TEXT NOT NULL,        -- 'User' or 'Integration' ...
				  state      TEXT NOT NULL,        -- JSON: the ruleset as it was
				  updated_at TEXT NOT NULL
				);
				CREATE INDEX ruleset_versions_ruleset ON ruleset_versions(ruleset_id, id);
				CREATE TABLE rule_suites (
				  id                INTEGER PRIMARY KEY,
				  org_id            INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
				  repository_id     INTEGER NOT NULL,
				  repository_name   TEXT NOT NULL,
				  actor_id          INTEGER,
				  actor_name        TEXT,
				  before_sha        TEXT NOT NULL,
				  after_sha         TEXT NOT NULL,
				  ref               TEXT NOT NULL,
				  pushed_at         TEXT NOT NULL,
				  result            TEXT NOT NULL CHECK (result IN ('pass', 'fail', 'bypass')),
				  evaluation_result TEXT CHECK (evaluation_result IN ('pass', 'fail', 'bypass')),
				  rule_evaluations  TEXT NOT NULL  -- JSON array
				);
				CREATE INDEX rule_suites_org ON rule_suites(org_id, pushed_at);
				CREATE TABLE push_bypass_requests (
				  id                  INTEGER PRIMARY KEY,
				  org_id              INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
				  repo_id             INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
				  number              INTEGER NOT NULL,
				  requester_id        INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
				  request_type        TEXT NOT NULL,
				  data                TEXT,          -- JSON array of {ruleset_id, ruleset_name, total_violations, rule_type}
				  resource_identifier TEXT NOT NULL,
				  status              TEXT NOT NULL CHECK (status IN ('pending', 'denied', 'approved', 'cancelled', 'completed', 'expired', 'deleted', 'open')),
				  requester_comment   TEXT,
				  responses           TEXT NOT NULL DEFAULT '[]',  -- JSON array of {id, reviewer: {actor_id, actor_name}, status, created_at}
				  expires_at          TEXT NOT NULL,
				  created_at          TEXT NOT NULL,
				  UNIQUE (repo_id, number)
				);
				CREATE INDEX push_bypass_requests_org ON push_bypass_requests(org_id, created_at);`);
		},
	},
	{
		version: 24,
		description:
			'organization security settings: code security configurations, their defaults and attachments, repository security switches, security manager teams, Dependabot repository access, immutable releases, secret scanning pattern configurations',
		up(db) {
			db.exec(`
				CREATE TABLE code_security_configurations (
				  id          INTEGER PRIMARY KEY,
				  org_id      INTEGER REFERENCES accounts(id) ON DELETE CASCADE,
				  name        TEXT NOT NULL,
				  description TEXT NOT NULL DEFAULT '',
				  settings    TEXT NOT NULL,
				  created_at  TEXT NOT NULL,
				  updated_at  TEXT NOT NULL
				);
				CREATE UNIQUE INDEX code_security_configurations_name ON code_security_configurations(ifnull(org_id, 0), name COLLATE NOCASE);
				INSERT INTO code_security_configurations (id, org_id, name, description, settings, created_at, updated_at) VALUES (1, NULL,
				  'GitHub recommended', 'Suggested settings for Dependabot, secret scanning, and code scanning.',
				  '{"advanced_security":"enabled","dependency_graph":"enabled","dependency_graph_autosubmit_action":"not_set","dependency_graph_autosubmit_action_options":{"labeled_runners":false},"dependabot_alerts":"enabled","dependabot_security_updates":"not_set","code_scanning_default_setup":"enabled","code_scanning_default_setup_options":{"runner_type":"not_set","runner_label":null},"code_scanning_delegated_alert_dismissal":"not_set","secret_scanning":"enabled","secret_scanning_push_protection":"enabled","secret_scanning_delegated_bypass":"disabled","secret_scanning_delegated_bypass_options":{"reviewers":[]},"secret_scanning_validity_checks":"disabled","secret_scanning_non_provider_patterns":"disabled","private_vulnerability_reporting":"enabled","enforcement":"enforced"}',
				  '2024-01-01T00:00:00Z', '2024-01-01T00:00:00Z');
				CREATE TABLE code_security_defaults (
				  org_id                INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
				  configuration_id      INTEGER NOT NULL REFERENCES code_security_configurations(id) ON DELETE CASCADE,
				  default_for_new_repos TEXT NOT NULL CHECK (default_for_new_repos IN ('all', 'private_and_internal', 'public')),
				  PRIMARY KEY (org_id, configuration_id)
				);
				CREATE TABLE code_security_attachments (
				  repo_id          INTEGER PRIMARY KEY REFERENCES repositories(id) ON DELETE CASCADE,
				  configuration_id INTEGER NOT NULL REFERENCES code_security_configurations(id) ON DELETE CASCADE,
				  attached_at      TEXT NOT NULL
				);
				CREATE INDEX code_security_attachments_configuration ON code_security_attachments(configuration_id, repo_id);
				ALTER TABLE repositories ADD COLUMN security_settings TEXT NOT NULL DEFAULT '{}';
				CREATE TABLE security_manager_teams (
				  team_id INTEGER PRIMARY KEY REFERENCES teams(id) ON DELETE CASCADE,
				  org_id  INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE
				);
				CREATE INDEX security_manager_teams_org ON security_manager_teams(org_id);
				CREATE TABLE dependabot_repository_access (
				  org_id  INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
				  repo_id INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
				  PRIMARY KEY (org_id, repo_id)
				);
				CREATE TABLE dependabot_access_levels (
				  org_id        INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
				  default_level TEXT CHECK (default_level IN ('public', 'internal'))
				);
				CREATE TABLE immutable_release_settings (
				  org_id                INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
				  enforced_repositories TEXT NOT NULL CHECK (enforced_repositories IN ('all', 'none', 'selected'))
				);
				CREATE TABLE immutable_release_repositories (
				  org_id  INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
				  repo_id INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
				  PRIMARY KEY (org_id, repo_id)
				);
				CREATE TABLE immutable_releases (
				  id         INTEGER PRIMARY KEY,
				  release_id INTEGER UNIQUE REFERENCES releases(id) ON DELETE SET NULL,
				  repo_id    INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
				  tag_name   TEXT NOT NULL
				);
				CREATE INDEX immutable_releases_tag ON immutable_releases(repo_id, tag_name);
				CREATE TABLE secret_scanning_pattern_configs (
				  org_id            INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
				  version           TEXT NOT NULL,
				  provider_settings TEXT NOT NULL DEFAULT '{}'
				);`);
		},
	},
	{
		version: 25,
		description:
			'organization administration: the rest of the organization settings; organization Actions settings and their selected repositories',
		up(db) {
			db.exec(`
				ALTER TABLE accounts ADD COLUMN twitter_username TEXT;
				ALTER TABLE accounts ADD COLUMN web_commit_signoff_required INTEGER NOT NULL DEFAULT 0;
				ALTER TABLE accounts ADD COLUMN advanced_security_enabled_for_new_repositories INTEGER NOT NULL DEFAULT 0;
				ALTER TABLE accounts ADD COLUMN dependabot_alerts_enabled_for_new_repositories INTEGER NOT NULL DEFAULT 0;
				ALTER TABLE accounts ADD COLUMN dependabot_security_updates_enabled_for_new_repositories INTEGER NOT NULL DEFAULT 0;
				ALTER TABLE accounts ADD COLUMN dependency_graph_enabled_for_new_repositories INTEGER NOT NULL DEFAULT 0;
				ALTER TABLE accounts ADD COLUMN secret_scanning_enabled_for_new_repositories INTEGER NOT NULL DEFAULT 0;
				ALTER TABLE accounts ADD COLUMN secret_scanning_push_protection_enabled_for_new_repositories INTEGER NOT NULL DEFAULT 0;
				ALTER TABLE accounts ADD COLUMN secret_scanning_push_protection_custom_link_enabled INTEGER NOT NULL DEFAULT 0;
				ALTER TABLE accounts ADD COLUMN secret_scanning_push_protection_custom_link TEXT;
				ALTER TABLE accounts ADD COLUMN deploy_keys_enabled_for_repositories INTEGER NOT NULL DEFAULT 1;
				CREATE TABLE org_actions_settings (
				  org_id                                 INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
				  enabled_repositories                   TEXT NOT NULL DEFAULT 'all' CHECK (enabled_repositories IN ('all', 'none', 'selected')),
				  allowed_actions                        TEXT NOT NULL DEFAULT 'all' CHECK (allowed_actions IN ('all', 'local_only', 'selected')),
				  sha_pinning_required                   INTEGER NOT NULL DEFAULT 0,
				  github_owned_allowed                   INTEGER NOT NULL DEFAULT 1,
				  verified_allowed                       INTEGER NOT NULL DEFAULT 0,
				  patterns_allowed                       TEXT NOT NULL DEFAULT '[]',
				  default_workflow_permissions           TEXT NOT NULL DEFAULT 'read' CHECK (default_workflow_permissions IN ('read', 'write')),
				  can_approve_pull_request_reviews       INTEGER NOT NULL DEFAULT 0,
				  retention_days                         INTEGER NOT NULL DEFAULT 90,
				  approval_policy                        TEXT NOT NULL DEFAULT 'first_time_contributors',
				  run_workflows_from_fork_pull_requests  INTEGER NOT NULL DEFAULT 0,
				  send_write_tokens_to_workflows         INTEGER NOT NULL DEFAULT 0,
				  send_secrets_and_variables             INTEGER NOT NULL DEFAULT 0,
				  require_approval_for_fork_pr_workflows INTEGER NOT NULL DEFAULT 0,
				  self_hosted_enabled_repositories       TEXT NOT NULL DEFAULT 'all' CHECK (self_hosted_enabled_repositories IN ('all', 'none', 'selected')),
				  oidc_include_claim_keys                TEXT,  -- JSON array; NULL: GitHub's default subject (no customization)
				  oidc_use_immutable_subject             INTEGER NOT NULL DEFAULT 0,
				  updated_at                             TEXT NOT NULL
				);

				-- The repositories an organization selected: for Actions (list 'actions') or for self-hosted runners ('self_hosted').
				CREATE TABLE org_actions_repositories (
				  org_id  INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
				  list    TEXT NOT NULL CHECK (list IN ('actions', 'self_hosted')),
				  repo_id INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
				  PRIMARY KEY (org_id, list, repo_id)
				) WITHOUT ROWID;
				CREATE INDEX org_actions_repositories_repo ON org_actions_repositories(repo_id);`);
		},
	},
	{
		version: 26,
		description:
			'organization self-hosted runner groups and runners: runner_groups and runners belong to an enterprise or an organization; runner_group_repositories',
		up(db) {
			db.exec(`
				CREATE TABLE runner_groups_v22 (
				  id                              INTEGER PRIMARY KEY,
				  enterprise_id                   INTEGER REFERENCES enterprises(id) ON DELETE CASCADE,
				  name                            TEXT NOT NULL COLLATE NOCASE,
				  visibility                      TEXT NOT NULL CHECK (visibility IN ('all', 'selected', 'private')),
				  is_default                      INTEGER NOT NULL DEFAULT 0,
				  allows_public_repositories      INTEGER NOT NULL DEFAULT 0,
				  restricted_to_workflows         INTEGER NOT NULL DEFAULT 0,
				  selected_workflows              TEXT NOT NULL DEFAULT '[]',  -- JSON array; empty unless restricted
				  workflow_restrictions_read_only INTEGER NOT NULL DEFAULT 0,
				  network_configuration_id        TEXT,
				  created_at                      TEXT NOT NULL,
				  updated_at                      TEXT NOT NULL,
				  org_id                          INTEGER REFERENCES accounts(id) ON DELETE CASCADE,
				  UNIQUE (enterprise_id, name),
				  CHECK ((enterprise_id IS NULL) <> (org_id IS NULL))
				);
				INSERT INTO runner_groups_v22 (id, enterprise_id, name, visibility, is_default, allows_public_repositories, restricted_to_workflows,
				  selected_workflows, workflow_restrictions_read_only, network_configuration_id, created_at, updated_at)
				SELECT id, enterprise_id, name, visibility, is_default, allows_public_repositories, restricted_to_workflows,
				  selected_workflows, workflow_restrictions_read_only, network_configuration_id, created_at, updated_at FROM runner_groups;
				CREATE TABLE runner_group_organizations_v22 (
				  group_id INTEGER NOT NULL REFERENCES runner_groups_v22(id) ON DELETE CASCADE,
				  org_id   INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
				  PRIMARY KEY (group_id, org_id)
				) WITHOUT ROWID;
				INSERT INTO runner_group_organizations_v22 (group_id, org_id) SELECT group_id, org_id FROM runner_group_organizations;
				CREATE TABLE runners_v22 (
				  id            INTEGER PRIMARY KEY,
				  enterprise_id INTEGER REFERENCES enterprises(id) ON DELETE CASCADE,
				  group_id      INTEGER NOT NULL REFERENCES runner_groups_v22(id),
				  name          TEXT NOT NULL,
				  os            TEXT NOT NULL,
				  status        TEXT NOT NULL DEFAULT 'offline' CHECK (status IN ('online', 'offline')),
				  busy          INTEGER NOT NULL DEFAULT 0,
				  ephemeral     INTEGER NOT NULL DEFAULT 0,
				  version       TEXT,
				  created_at    TEXT NOT NULL,
				  org_id        INTEGER REFERENCES accounts(id) ON DELETE CASCADE,
				  UNIQUE (enterprise_id, name),
				  CHECK ((enterprise_id IS NULL) <> (org_id IS NULL))
				);
				INSERT INTO runners_v22 (id, enterprise_id, group_id, name, os, status, busy, ephemeral, version, created_at)
				SELECT id, enterprise_id, group_id, name, os, status, busy, ephemeral, version, created_at FROM runners;
				CREATE TABLE runner_labels_v22 (
				  id        INTEGER PRIMARY KEY,
				  runner_id INTEGER NOT NULL REFERENCES runners_v22(id) ON DELETE CASCADE,
				  name      TEXT NOT NULL,
				  type      TEXT NOT NULL CHECK (type IN ('read-only', 'custom')),
				  UNIQUE (runner_id, name)
				);
				INSERT INTO runner_labels_v22 (id, runner_id, name, type) SELECT id, runner_id, name, type FROM runner_labels;
				-- The old tables, children first (no foreign-key action fires), then the new ones take their names
				-- (renaming rewrites the references of the other new tables).
				DROP TABLE runner_labels;
				DROP TABLE runner_group_organizations;
				DROP TABLE runners;
				DROP TABLE runner_groups;
				ALTER TABLE runner_groups_v22 RENAME TO runner_groups;
				ALTER TABLE runner_group_organizations_v22 RENAME TO runner_group_organizations;
				ALTER TABLE runners_v22 RENAME TO runners;
				ALTER TABLE runner_labels_v22 RENAME TO runner_labels;
				CREATE UNIQUE INDEX runner_groups_default ON runner_groups(enterprise_id) WHERE is_default = 1;
				CREATE UNIQUE INDEX runner_groups_org_name ON runner_groups(org_id, name) WHERE org_id IS NOT NULL;
				CREATE UNIQUE INDEX runner_groups_org_default ON runner_groups(org_id) WHERE is_default = 1 AND org_id IS NOT NULL;
				CREATE INDEX runners_group ON runners(group_id);
				CREATE UNIQUE INDEX runners_org_name ON runners(org_id, name) WHERE org_id IS NOT NULL;
				CREATE TABLE runner_group_repositories (
				  group_id INTEGER NOT NULL REFERENCES runner_groups(id) ON DELETE CASCADE,
				  repo_id  INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
				  PRIMARY KEY (group_id, repo_id)
				) WITHOUT ROWID;
				CREATE INDEX runner_group_repositories_repo ON runner_group_repositories(repo_id);
				-- Every organization gets its default group.
				INSERT INTO runner_groups (org_id, name, visibility, is_default, created_at, updated_at)
				SELECT id, 'Default', 'all', 1, created_at, created_at FROM accounts WHERE type = 'Organization';`);
		},
	},
	{
		version: 27,
		description: 'external groups (imported), team links to them; installation repositories (selected)',
		up(db) {
			db.exec(`
				CREATE TABLE external_groups (
				  id         INTEGER PRIMARY KEY,
				  org_id     INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
				  name       TEXT NOT NULL COLLATE NOCASE,
				  updated_at TEXT NOT NULL,
				  UNIQUE (org_id, name)
				);
				CREATE TABLE external_group_members (
				  id       INTEGER PRIMARY KEY,                       -- member_id: the identity's id
				  group_id INTEGER NOT NULL REFERENCES external_groups(id) ON DELETE CASCADE,
				  login    TEXT NOT NULL COLLATE NOCASE,
				  name     TEXT,
				  email    TEXT,
				  UNIQUE (group_id, login)
				);
				CREATE TABLE team_external_groups (
				  team_id    INTEGER PRIMARY KEY REFERENCES teams(id) ON DELETE CASCADE,
				  group_id   INTEGER NOT NULL REFERENCES external_groups(id) ON DELETE CASCADE,
				  created_at TEXT NOT NULL
				);
				CREATE INDEX team_external_groups_group ON team_external_groups(group_id);
				CREATE TABLE installation_repositories (
				  installation_id INTEGER NOT NULL REFERENCES installations(id) ON DELETE CASCADE,
				  repository_id   INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
				  PRIMARY KEY (installation_id, repository_id)
				) WITHOUT ROWID;
				CREATE INDEX installation_repositories_repository ON installation_repositories(repository_id);`);
		},
	},
	{
		version: 28,
		description: 'git objects shared by fork networks, stored compressed (zlib streams, deltas allowed), ids as 20 bytes',
		up(db) {
			db.exec(`
				ALTER TABLE repositories ADD COLUMN size INTEGER NOT NULL DEFAULT 0;
				CREATE TABLE git_networks (
				  id         INTEGER PRIMARY KEY AUTOINCREMENT,
				  created_at TEXT NOT NULL
				);
				CREATE TABLE git_network_members (
				  repo_id    INTEGER PRIMARY KEY REFERENCES repositories(id) ON DELETE CASCADE,
				  network_id INTEGER NOT NULL REFERENCES git_networks(id) ON DELETE CASCADE
				);
				CREATE INDEX git_network_members_network ON git_network_members(network_id);
				CREATE TABLE git_objects_v28 (
				  id         INTEGER PRIMARY KEY,
				  network_id INTEGER NOT NULL REFERENCES git_networks(id) ON DELETE CASCADE,
				  oid        BLOB NOT NULL,
				  type       INTEGER NOT NULL CHECK (type BETWEEN 1 AND 4),
				  size       INTEGER NOT NULL,
				  base_id    INTEGER,
				  depth      INTEGER NOT NULL DEFAULT 0,
				  data_size  INTEGER,
				  data       BLOB NOT NULL
				);
				CREATE TABLE git_object_epochs (
				  first_id   INTEGER PRIMARY KEY,
				  created_at INTEGER NOT NULL
				);
				CREATE TABLE git_fresh (
				  object_id  INTEGER PRIMARY KEY,
				  created_at INTEGER NOT NULL
				);
				CREATE TABLE git_commit_parents_v28 (
				  network_id INTEGER NOT NULL REFERENCES git_networks(id) ON DELETE CASCADE,
				  commit_oid BLOB NOT NULL,
				  position   INTEGER NOT NULL,
				  parent_oid BLOB NOT NULL,
				  PRIMARY KEY (network_id, commit_oid, position)
				) WITHOUT ROWID;
				CREATE TABLE git_reachable (
				  repo_id INTEGER PRIMARY KEY REFERENCES repositories(id) ON DELETE CASCADE,
				  tips    TEXT NOT NULL,
				  rows    BLOB NOT NULL
				);`);
			// Networks: each repository joins the network of the first repository of its fork chain
			// (a fork whose parent is gone starts its own).
			const repos = db.prepare('SELECT id, fork_parent_id, created_at FROM repositories ORDER BY id').all() as Array<{
				id: number;
				fork_parent_id: number | null;
				created_at: string;
			}>;
			const parentOf = new Map(repos.map((repo) => [repo.id, repo.fork_parent_id]));
			const rootOf = (id: number) => {
				let at = id;
				for (let hops = 0; hops < 1000; hops++) {
					const parent = parentOf.get(at);
					if (parent === null || parent === undefined || !parentOf.has(parent)) return at;
					at = parent;
				}
				return at;
			};
			const addNetwork = db.prepare('INSERT INTO git_networks (created_at) VALUES (?)');
			const addMember = db.prepare('INSERT INTO git_network_members (repo_id, network_id) VALUES (?, ?)');
			const networkOfRoot = new Map<number, number>();
			const createdAt = new Map(repos.map((repo) => [repo.id, repo.created_at]));
			for (const repo of repos) {
				const root = rootOf(repo.id);
				let network = networkOfRoot.get(root);
				if (network === undefined) {
					network = Number(addNetwork.run(createdAt.get(root)).lastInsertRowid);
					networkOfRoot.set(root, network);
				}
				addMember.run(repo.id, network);
			}
			// Objects: one row per network and id (a fork's copies were the same objects), deflated.
			const batch = db.prepare(`
				SELECT o.id, m.network_id, o.sha, o.type, o.size, o.content FROM git_objects o
				JOIN git_network_members m ON m.repo_id = o.repo_id WHERE o.id > ? ORDER BY o.id LIMIT 500`);
			const insert = db.prepare(`
				INSERT INTO git_objects_v28 (network_id, oid, type, size, base_id, depth, data_size, data)
				VALUES (?, ?, ?, ?, NULL, 0, NULL, ?) ON CONFLICT DO NOTHING`);
			// Every object converted counts as stored now: gc's grace period starts with the upgrade.
			db.prepare('INSERT INTO git_object_epochs (first_id, created_at) VALUES (1, ?)').run(Math.floor(Date.now() / 1000));
			db.exec('CREATE UNIQUE INDEX git_objects_v28_oid ON git_objects_v28(network_id, oid)');
			const types: Record<string, number> = { commit: 1, tree: 2, blob: 3, tag: 4 };
			for (let after = 0; ; ) {
				const rows = batch.all(after) as Array<{
					id: number;
					network_id: number;
					sha: string;
					type: string;
					size: number;
					content: Buffer;
				}>;
				for (const row of rows)
					insert.run(row.network_id, Buffer.from(row.sha, 'hex'), types[row.type], row.size, deflateSync(row.content));
				if (rows.length < 500) break;
				after = rows[rows.length - 1].id;
			}
			db.exec(`
				INSERT INTO git_commit_parents_v28 (network_id, commit_oid, position, parent_oid)
				SELECT m.network_id, unhex(p.commit_sha), p.position, unhex(p.parent_sha)
				FROM git_commit_parents p JOIN git_network_members m ON m.repo_id = p.repo_id WHERE true
				ON CONFLICT DO NOTHING;
				DROP TABLE git_objects;
				DROP TABLE git_commit_parents;
				DROP INDEX git_objects_v28_oid;
				ALTER TABLE git_objects_v28 RENAME TO git_objects;
				ALTER TABLE git_commit_parents_v28 RENAME TO git_commit_parents;
				CREATE UNIQUE INDEX git_objects_oid ON git_objects(network_id, oid);
				CREATE INDEX git_objects_commits ON git_objects(network_id) WHERE type = 1;
				CREATE TRIGGER repositories_network AFTER INSERT ON repositories WHEN NEW.fork_parent_id IS NULL BEGIN
				  INSERT INTO git_networks (created_at) VALUES (NEW.created_at);
				  INSERT INTO git_network_members (repo_id, network_id) VALUES (NEW.id, last_insert_rowid());
				END;
				CREATE TRIGGER repositories_network_fork AFTER INSERT ON repositories WHEN NEW.fork_parent_id IS NOT NULL BEGIN
				  INSERT INTO git_network_members (repo_id, network_id)
				  SELECT NEW.id, network_id FROM git_network_members WHERE repo_id = NEW.fork_parent_id;
				END;
				CREATE TRIGGER git_network_members_last AFTER DELETE ON git_network_members
				WHEN NOT EXISTS (SELECT 1 FROM git_network_members WHERE network_id = OLD.network_id) BEGIN
				  DELETE FROM git_networks WHERE id = OLD.network_id;
				END;`);
		},
	},
	{
		version: 29,
		description: 'web sign-in: user passwords (scrypt), browser sessions, suspended users',
		up(db) {
			db.exec(`
				CREATE TABLE user_passwords (
				  user_id    INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
				  hash       TEXT NOT NULL,
				  updated_at INTEGER NOT NULL
				);
				CREATE TABLE web_sessions (
				  id           INTEGER PRIMARY KEY,
				  user_id      INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
				  token_hash   BLOB NOT NULL UNIQUE,
				  csrf_secret  TEXT NOT NULL,
				  created_at   INTEGER NOT NULL,
				  last_seen_at INTEGER NOT NULL,
				  expires_at   INTEGER NOT NULL,
				  ip           TEXT,
				  user_agent   TEXT
				);
				CREATE INDEX web_sessions_user ON web_sessions(user_id);
				CREATE TABLE user_suspensions (
				  user_id      INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
				  suspended_at TEXT NOT NULL,
				  reason       TEXT
				);`);
		},
	},
	{
		version: 30,
		description: 'Actions secrets and variables with their keys; SSH, signing, deploy and GPG keys; OpenPGP signature checks',
		up(db) {
			db.exec(`
				-- Actions secrets and variables (schema 30) of a repository, an environment or an organization:
				-- one X25519 key pair per scope (GitHub's public key, key_id); a secret is kept only as the sealed
				-- box (libsodium crypto_box_seal) the client sent, a variable in clear. Organization ones have a
				-- visibility; 'selected' reaches the repositories listed in actions_secret_repositories.
				CREATE TABLE actions_secret_keys (
				  id             INTEGER PRIMARY KEY,
				  repo_id        INTEGER REFERENCES repositories(id) ON DELETE CASCADE,
				  environment_id INTEGER REFERENCES environments(id) ON DELETE CASCADE,
				  org_id         INTEGER REFERENCES accounts(id) ON DELETE CASCADE,
				  key_id         TEXT NOT NULL UNIQUE,
				  public_key     TEXT NOT NULL,                     -- base64, 32 bytes
				  private_key    TEXT NOT NULL,                     -- base64, 32 bytes: opens the sealed boxes; never answered
				  created_at     TEXT NOT NULL,
				  CHECK ((repo_id IS NOT NULL) + (environment_id IS NOT NULL) + (org_id IS NOT NULL) = 1)
				);
				CREATE UNIQUE INDEX actions_secret_keys_scope ON actions_secret_keys(ifnull(repo_id, 0), ifnull(environment_id, 0), ifnull(org_id, 0));
				CREATE TABLE actions_secrets (
				  id             INTEGER PRIMARY KEY,
				  kind           TEXT NOT NULL CHECK (kind IN ('secret', 'variable')),
				  repo_id        INTEGER REFERENCES repositories(id) ON DELETE CASCADE,
				  environment_id INTEGER REFERENCES environments(id) ON DELETE CASCADE,
				  org_id         INTEGER REFERENCES accounts(id) ON DELETE CASCADE,
				  name           TEXT NOT NULL,                     -- upper case, as GitHub keeps it
				  value          TEXT NOT NULL,                     -- a variable's value; a secret's sealed box (base64) as sent
				  key_id         TEXT,                              -- a secret's: the key it was sealed to
				  visibility     TEXT CHECK (visibility IN ('all', 'private', 'selected')),  -- organization ones
				  created_at     TEXT NOT NULL,
				  updated_at     TEXT NOT NULL,
				  CHECK ((repo_id IS NOT NULL) + (environment_id IS NOT NULL) + (org_id IS NOT NULL) = 1)
				);
				CREATE UNIQUE INDEX actions_secrets_name ON actions_secrets(kind, ifnull(repo_id, 0), ifnull(environment_id, 0), ifnull(org_id, 0), name);
				CREATE TABLE actions_secret_repositories (
				  secret_id INTEGER NOT NULL REFERENCES actions_secrets(id) ON DELETE CASCADE,
				  repo_id   INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
				  PRIMARY KEY (secret_id, repo_id)
				) WITHOUT ROWID;
				CREATE INDEX actions_secret_repositories_repo ON actions_secret_repositories(repo_id);

				-- Keys (schema 30). public_keys: a user's SSH authentication and SSH signing keys, a repository's
				-- deploy keys ("<type> <base64>", comment dropped; fingerprint SHA256:<base64> of the key blob). An
				-- authentication or deploy key is used once on the whole site; a signing key once too.
				CREATE TABLE public_keys (
				  id          INTEGER PRIMARY KEY,
				  kind        TEXT NOT NULL CHECK (kind IN ('authentication', 'signing', 'deploy')),
				  user_id     INTEGER REFERENCES accounts(id) ON DELETE CASCADE,
				  repo_id     INTEGER REFERENCES repositories(id) ON DELETE CASCADE,
				  title       TEXT NOT NULL,
				  key         TEXT NOT NULL,
				  fingerprint TEXT NOT NULL,
				  read_only   INTEGER NOT NULL DEFAULT 0,           -- deploy keys
				  added_by_id INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
				  last_used   TEXT,
				  created_at  TEXT NOT NULL,
				  CHECK ((user_id IS NULL) <> (repo_id IS NULL))
				);
				CREATE UNIQUE INDEX public_keys_fingerprint ON public_keys(kind = 'signing', fingerprint);
				CREATE INDEX public_keys_user ON public_keys(user_id, kind) WHERE user_id IS NOT NULL;
				CREATE INDEX public_keys_repo ON public_keys(repo_id) WHERE repo_id IS NOT NULL;
				-- GPG keys: a primary key (as uploaded, armored) and its subkeys (primary_key_id), with what the
				-- armored key says of each (key id, capabilities, expiry, the user ids' emails).
				CREATE TABLE gpg_keys (
				  id                  INTEGER PRIMARY KEY,
				  user_id             INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
				  primary_key_id      INTEGER REFERENCES gpg_keys(id) ON DELETE CASCADE,
				  name                TEXT,
				  key_id              TEXT NOT NULL,                -- 16 hex digits, upper case
				  fingerprint         TEXT NOT NULL,                -- hex, upper case
				  public_key          TEXT NOT NULL,                -- base64 of the key packet
				  raw_key             TEXT,                         -- the armored key as given (primary keys)
				  emails              TEXT NOT NULL DEFAULT '[]',   -- JSON array of the user ids' emails
				  can_sign            INTEGER NOT NULL,
				  can_encrypt_comms   INTEGER NOT NULL,
				  can_encrypt_storage INTEGER NOT NULL,
				  can_certify         INTEGER NOT NULL,
				  revoked             INTEGER NOT NULL DEFAULT 0,
				  expires_at          TEXT,
				  created_at          TEXT NOT NULL
				);
				CREATE UNIQUE INDEX gpg_keys_primary ON gpg_keys(key_id) WHERE primary_key_id IS NULL;
				CREATE INDEX gpg_keys_key_id ON gpg_keys(key_id);
				CREATE INDEX gpg_keys_user ON gpg_keys(user_id) WHERE primary_key_id IS NULL;
				-- The outcome of checking an OpenPGP signature of a commit or tag object with a registered key
				-- (the library's check is asynchronous: done before the object is stored, or after a read found none).
				CREATE TABLE gpg_signature_checks (
				  sha        TEXT NOT NULL,
				  gpg_key_id INTEGER NOT NULL REFERENCES gpg_keys(id) ON DELETE CASCADE,
				  valid      INTEGER NOT NULL,
				  checked_at TEXT NOT NULL,
				  PRIMARY KEY (sha, gpg_key_id)
				) WITHOUT ROWID;
				CREATE INDEX gpg_signature_checks_key ON gpg_signature_checks(gpg_key_id);`);
		},
	},
	{
		version: 31,
		description: "GitHub Apps' webhooks: an app's hook in global_webhooks (app_id), the installation of each of its deliveries",
		up(db) {
			db.exec(`
				ALTER TABLE global_webhooks ADD COLUMN app_id INTEGER REFERENCES apps(id) ON DELETE CASCADE;
				CREATE UNIQUE INDEX global_webhooks_app ON global_webhooks(app_id) WHERE app_id IS NOT NULL;
				ALTER TABLE webhook_deliveries ADD COLUMN installation_id INTEGER;`);
		},
	},
	{
		version: 32,
		description: "issue events (the timeline's labeled, assigned, closed, merged, referenced, …); past closes and merges backfilled",
		up(db) {
			db.exec(`
				CREATE TABLE issue_events (
				  id         INTEGER PRIMARY KEY,
				  repo_id    INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
				  issue_id   INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
				  actor_id   INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
				  event      TEXT NOT NULL,
				  commit_id  TEXT,
				  details    TEXT NOT NULL DEFAULT '{}',
				  created_at TEXT NOT NULL
				);
				CREATE INDEX issue_events_issue ON issue_events(issue_id, id);
				CREATE INDEX issue_events_repo ON issue_events(repo_id, id);
				CREATE UNIQUE INDEX issue_events_referenced ON issue_events(issue_id, commit_id) WHERE event = 'referenced';
				-- What can be told of the past: who closed each closed issue and when, and each merge.
				INSERT INTO issue_events (repo_id, issue_id, actor_id, event, commit_id, details, created_at)
				SELECT i.repo_id, i.id, p.merged_by_id, 'merged', p.merge_commit_sha, '{}', p.merged_at
				FROM issues i JOIN pull_requests p ON p.issue_id = i.id WHERE p.merged_at IS NOT NULL;
				INSERT INTO issue_events (repo_id, issue_id, actor_id, event, commit_id, details, created_at)
				SELECT i.repo_id, i.id, i.closed_by_id, 'closed', NULL,
				       CASE WHEN i.state_reason IS NULL THEN '{}' ELSE json_object('state_reason', i.state_reason) END, i.closed_at
				FROM issues i WHERE i.state = 'closed' AND i.closed_at IS NOT NULL;`);
		},
	},
	{
		version: 33,
		description: "each repository's latest push (the ref and commits POST …/hooks/{id}/tests sends again)",
		up(db) {
			db.exec(`
				CREATE TABLE repository_pushes (
				  repo_id    INTEGER PRIMARY KEY REFERENCES repositories(id) ON DELETE CASCADE,
				  ref        TEXT NOT NULL,
				  before_sha TEXT,
				  after_sha  TEXT,
				  pushed_at  TEXT NOT NULL
				);`);
		},
	},
	{
		version: 34,
		description: 'environments.can_admins_bypass (GitHub: administrators may bypass protection rules unless turned off)',
		up(db) {
			db.exec('ALTER TABLE environments ADD COLUMN can_admins_bypass INTEGER NOT NULL DEFAULT 1;');
		},
	},
	{
		version: 35,
		description:
			'repository rulesets: rulesets.repo_id; names unique per organization and per repository (the table rebuilt, versions kept)',
		up(db) {
			// SQLite cannot drop a table constraint: rebuild rulesets (and ruleset_versions, which
			// references it, so that its rows are not cascaded away) without UNIQUE (org_id, name).
			db.exec(`
				CREATE TEMP TABLE ruleset_versions_kept AS SELECT * FROM ruleset_versions;
				CREATE TEMP TABLE rulesets_kept AS SELECT * FROM rulesets;
				DROP TABLE ruleset_versions;
				DROP TABLE rulesets;
				CREATE TABLE rulesets (
				  id            INTEGER PRIMARY KEY,
				  org_id        INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
				  name          TEXT NOT NULL,
				  target        TEXT NOT NULL CHECK (target IN ('branch', 'tag', 'push')),
				  enforcement   TEXT NOT NULL CHECK (enforcement IN ('disabled', 'active', 'evaluate')),
				  bypass_actors TEXT NOT NULL,
				  conditions    TEXT,
				  rules         TEXT NOT NULL,
				  created_at    TEXT NOT NULL,
				  updated_at    TEXT NOT NULL,
				  repo_id       INTEGER REFERENCES repositories(id) ON DELETE CASCADE
				);
				CREATE UNIQUE INDEX rulesets_org_name ON rulesets(org_id, name) WHERE repo_id IS NULL;
				CREATE UNIQUE INDEX rulesets_repo_name ON rulesets(repo_id, name) WHERE repo_id IS NOT NULL;
				INSERT INTO rulesets (id, org_id, name, target, enforcement, bypass_actors, conditions, rules, created_at, updated_at)
				SELECT id, org_id, name, target, enforcement, bypass_actors, conditions, rules, created_at, updated_at FROM temp.rulesets_kept;
				CREATE TABLE ruleset_versions (
				  id         INTEGER PRIMARY KEY,
				  ruleset_id INTEGER NOT NULL REFERENCES rulesets(id) ON DELETE CASCADE,
				  actor_id   INTEGER,
				  actor_type TEXT NOT NULL,
				  state      TEXT NOT NULL,
				  updated_at TEXT NOT NULL
				);
				CREATE INDEX ruleset_versions_ruleset ON ruleset_versions(ruleset_id, id);
				INSERT INTO ruleset_versions SELECT * FROM temp.ruleset_versions_kept;
				DROP TABLE temp.ruleset_versions_kept;
				DROP TABLE temp.rulesets_kept;`);
		},
	},
	{
		version: 36,
		description: 'code search: code_search_repos, code_search_files, code_search_fts (trigram); every repository queued for indexing',
		up(db) {
			db.exec(`
				CREATE TABLE code_search_repos (
				  repo_id     INTEGER PRIMARY KEY REFERENCES repositories(id) ON DELETE CASCADE,
				  commit_sha  TEXT,
				  files       INTEGER NOT NULL DEFAULT 0,
				  incomplete  INTEGER NOT NULL DEFAULT 0,
				  indexed_at  TEXT NOT NULL
				);
				CREATE TABLE code_search_files (
				  id        INTEGER PRIMARY KEY,
				  repo_id   INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
				  path      TEXT NOT NULL,
				  name      TEXT NOT NULL,
				  extension TEXT NOT NULL,
				  language  TEXT,
				  sha       TEXT NOT NULL,
				  size      INTEGER NOT NULL,
				  binary    INTEGER NOT NULL DEFAULT 0,
				  UNIQUE (repo_id, path)
				);
				CREATE VIRTUAL TABLE code_search_fts USING fts5(content, tokenize='trigram');
				CREATE TRIGGER code_search_files_delete AFTER DELETE ON code_search_files BEGIN
				  DELETE FROM code_search_fts WHERE rowid = OLD.id;
				END;`);
			// Every repository's default branch is indexed by the background task (src/api/search/code-index.ts).
			db.exec(`
				INSERT INTO background_tasks (kind, payload, run_at, created_at, updated_at)
				SELECT 'code-search-index', json_object('repoId', id), unixepoch(), unixepoch(), unixepoch() FROM repositories`);
		},
	},
	{
		version: 37,
		description: 'commit search: commit_search_repos, commit_search, commit_search_fts; every repository queued for indexing',
		up(db) {
			db.exec(`
				CREATE TABLE commit_search_repos (
				  repo_id    INTEGER PRIMARY KEY REFERENCES repositories(id) ON DELETE CASCADE,
				  commit_sha TEXT,
				  indexed_at TEXT NOT NULL
				);
				CREATE TABLE commit_search (
				  id              INTEGER PRIMARY KEY,
				  repo_id         INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
				  sha             TEXT NOT NULL,
				  tree_sha        TEXT NOT NULL,
				  parents         TEXT NOT NULL,
				  message         TEXT NOT NULL,
				  author_name     TEXT NOT NULL,
				  author_email    TEXT NOT NULL,
				  author_date     TEXT NOT NULL,
				  author_id       INTEGER,
				  committer_name  TEXT NOT NULL,
				  committer_email TEXT NOT NULL,
				  committer_date  TEXT NOT NULL,
				  committer_id    INTEGER,
				  UNIQUE (repo_id, sha)
				);
				CREATE INDEX commit_search_committer_date ON commit_search(committer_date);
				CREATE VIRTUAL TABLE commit_search_fts USING fts5(message, content='commit_search', content_rowid='id', tokenize='unicode61 remove_diacritics 2');
				CREATE TRIGGER commit_search_fts_insert AFTER INSERT ON commit_search BEGIN
				  INSERT INTO commit_search_fts (rowid, message) VALUES (NEW.id, NEW.message);
				END;
				CREATE TRIGGER commit_search_fts_delete AFTER DELETE ON commit_search BEGIN
				  INSERT INTO commit_search_fts (commit_search_fts, rowid, message) VALUES ('delete', OLD.id, OLD.message);
				END;`);
			// The code search task indexes the default branch's commits too (src/api/search/code-index.ts).
			db.exec(`
				INSERT INTO background_tasks (kind, payload, run_at, created_at, updated_at)
				SELECT 'code-search-index', json_object('repoId', id), unixepoch(), unixepoch(), unixepoch() FROM repositories`);
		},
	},
	{
		version: 38,
		description: 'issue_pins (pinned issues, 3 per repository) and issue_tombstones (transferred and deleted issue numbers)',
		up(db) {
			db.exec(`
				CREATE TABLE issue_pins (
				  issue_id     INTEGER PRIMARY KEY REFERENCES issues(id) ON DELETE CASCADE,
				  repo_id      INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
				  pinned_by_id INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
				  pinned_at    TEXT NOT NULL
				);
				CREATE INDEX issue_pins_repo ON issue_pins(repo_id, pinned_at);
				CREATE TABLE issue_tombstones (
				  repo_id     INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
				  number      INTEGER NOT NULL,
				  issue_id    INTEGER REFERENCES issues(id) ON DELETE SET NULL,
				  transferred INTEGER NOT NULL,
				  created_at  TEXT NOT NULL,
				  PRIMARY KEY (repo_id, number)
				) WITHOUT ROWID;
				CREATE INDEX issue_tombstones_issue ON issue_tombstones(issue_id);
				CREATE TRIGGER issues_count_move AFTER UPDATE OF repo_id ON issues WHEN OLD.repo_id <> NEW.repo_id AND NEW.state = 'open' BEGIN
				  UPDATE repositories SET open_issues_count = open_issues_count - 1 WHERE id = OLD.repo_id;
				  UPDATE repositories SET open_issues_count = open_issues_count + 1 WHERE id = NEW.repo_id;
				END;`);
		},
	},
	{
		version: 39,
		description: 'workflow_job_logs: job logs stored as files of the blob folder, with the byte ranges of their steps',
		up(db) {
			db.exec(`
				CREATE TABLE workflow_job_logs (
				  job_id INTEGER PRIMARY KEY REFERENCES workflow_jobs(id) ON DELETE CASCADE,
				  blob   TEXT NOT NULL,
				  size   INTEGER NOT NULL,
				  steps  TEXT NOT NULL DEFAULT '[]'
				);
				CREATE INDEX workflow_job_logs_blob ON workflow_job_logs(blob);`);
		},
	},
	{
		version: 40,
		description: 'pull_request_auto_merges: auto-merge of pull requests (enablePullRequestAutoMerge, REST auto_merge)',
		up(db) {
			db.exec(`
				CREATE TABLE pull_request_auto_merges (
				  issue_id       INTEGER PRIMARY KEY REFERENCES pull_requests(issue_id) ON DELETE CASCADE,
				  enabled_by_id  INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
				  merge_method   TEXT NOT NULL CHECK (merge_method IN ('merge', 'squash', 'rebase')),
				  commit_title   TEXT,
				  commit_message TEXT,
				  author_email   TEXT,
				  enabled_at     TEXT NOT NULL
				);`);
		},
	},
	{
		version: 41,
		description: "user_emails: a user's email addresses beyond the account's own (GET/POST/DELETE /user/emails)",
		up(db) {
			db.exec(`
				CREATE TABLE user_emails (
				  id         INTEGER PRIMARY KEY,
				  user_id    INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
				  email      TEXT NOT NULL COLLATE NOCASE UNIQUE,
				  verified   INTEGER NOT NULL DEFAULT 0,
				  created_at TEXT NOT NULL
				);
				CREATE INDEX user_emails_user ON user_emails(user_id, id);`);
		},
	},
	{
		version: 42,
		description:
			"commit_search.additions/deletions/author_offset: each indexed commit's line counts and time zone, for the repository statistics (GET …/stats/*)",
		up(db) {
			db.exec(`
				ALTER TABLE commit_search ADD COLUMN additions INTEGER;
				ALTER TABLE commit_search ADD COLUMN deletions INTEGER;
				ALTER TABLE commit_search ADD COLUMN author_offset INTEGER;
				CREATE INDEX commit_search_stats_pending ON commit_search(repo_id) WHERE author_offset IS NULL;`);
		},
	},
	{
		version: 43,
		description:
			'events.notification and notification_watermark: notification threads derived from the event log after commit, from a persisted watermark',
		up(db) {
			// Every event already recorded had its threads written in its own transaction.
			db.exec(`
				ALTER TABLE events ADD COLUMN notification TEXT;
				CREATE TABLE notification_watermark (
				  id       INTEGER PRIMARY KEY CHECK (id = 1),
				  event_id INTEGER NOT NULL
				);
				INSERT INTO notification_watermark (id, event_id) VALUES (1, (SELECT coalesce(max(id), 0) FROM events));
				CREATE TRIGGER events_watermark AFTER DELETE ON events
				WHEN OLD.id <= (SELECT event_id FROM notification_watermark WHERE id = 1) BEGIN
				  UPDATE notification_watermark SET event_id = (SELECT coalesce(max(id), 0) FROM events)
				  WHERE id = 1 AND event_id > (SELECT coalesce(max(id), 0) FROM events);
				END;`);
		},
	},
	{
		version: 44,
		description:
			'issues_fts kept by an indexer after commit (contentless, a watermark and a pending list) instead of triggers on every issue write',
		up(db) {
			db.exec(`
				DROP TRIGGER issues_fts_insert;
				DROP TRIGGER issues_fts_update;
				DROP TRIGGER issues_fts_delete;
				DROP TABLE issues_fts;
				CREATE VIRTUAL TABLE issues_fts USING fts5(title, body, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
				CREATE TABLE issues_fts_watermark (
				  id       INTEGER PRIMARY KEY CHECK (id = 1),
				  issue_id INTEGER NOT NULL
				);
				CREATE TABLE issues_fts_pending (
				  issue_id INTEGER PRIMARY KEY
				);
				INSERT INTO issues_fts (rowid, title, body) SELECT id, title, body FROM issues;
				INSERT INTO issues_fts_watermark (id, issue_id) VALUES (1, (SELECT coalesce(max(id), 0) FROM issues));
				CREATE TRIGGER issues_fts_update AFTER UPDATE OF title, body ON issues
				WHEN (OLD.title IS NOT NEW.title OR OLD.body IS NOT NEW.body) AND NEW.id <= (SELECT issue_id FROM issues_fts_watermark WHERE id = 1) BEGIN
				  INSERT OR IGNORE INTO issues_fts_pending (issue_id) VALUES (NEW.id);
				END;
				CREATE TRIGGER issues_fts_delete AFTER DELETE ON issues
				WHEN OLD.id <= (SELECT issue_id FROM issues_fts_watermark WHERE id = 1) BEGIN
				  INSERT OR IGNORE INTO issues_fts_pending (issue_id) VALUES (OLD.id);
				  UPDATE issues_fts_watermark SET issue_id = (SELECT coalesce(max(id), 0) FROM issues)
				  WHERE id = 1 AND issue_id > (SELECT coalesce(max(id), 0) FROM issues);
				END;`);
		},
	},
	{
		version: 45,
		description:
			"CHECK constraints listing more than two values written as comparisons (SQLite builds an IN list's index for every row it checks)",
		up(db) {
			// Only the constraint's text changes, into an equivalent one, which SQLite documents as safe
			// to do in place (https://www.sqlite.org/lang_altertable.html#otheralter): every stored row
			// satisfies it already, and no index or stored value depends on it.
			const tables = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND sql LIKE '%CHECK%'").all() as Array<{
				name: string;
				sql: string;
			}>;
			const changed = tables
				.map((table) => ({ ...table, rewritten: checksWithoutInLists(table.sql) }))
				.filter((t) => t.rewritten !== t.sql);
			if (changed.length === 0) return;
			const version = db.pragma('schema_version', { simple: true }) as number;
			db.unsafeMode(true); // lifts SQLite's defensive mode, which forbids writing sqlite_master
			try {
				db.pragma('writable_schema = ON');
				const update = db.prepare("UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = ?");
				for (const table of changed) update.run(table.rewritten, table.name);
				db.pragma(`schema_version = ${version + 1}`); // every connection reads the schema again
				db.pragma('writable_schema = OFF');
			} finally {
				db.unsafeMode(false);
			}
		},
	},
	{
		version: 46,
		description:
			"issues' insert triggers (the repository's open-issue count, the milestone's counts) made one: every trigger SQLite runs for a row costs a sub-program, whether its WHEN holds or not",
		up(db) {
			db.exec(`
				DROP TRIGGER issues_count_insert;
				DROP TRIGGER issues_milestone_insert;
				CREATE TRIGGER issues_counts_insert AFTER INSERT ON issues BEGIN
				  UPDATE repositories SET open_issues_count = open_issues_count + 1 WHERE id = NEW.repo_id AND NEW.state = 'open';
				  UPDATE milestones SET open_issues = open_issues + (NEW.state = 'open'), closed_issues = closed_issues + (NEW.state = 'closed')
				  WHERE id = NEW.milestone_id;
				END;
				DROP INDEX issues_milestone;
				CREATE INDEX issues_milestone ON issues(milestone_id, state) WHERE milestone_id IS NOT NULL;`);
		},
	},
];

/** The schema version schema.sql describes. */
export const SCHEMA_VERSION = 1 + migrations.length;
