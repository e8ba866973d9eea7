-- Gitstead's whole schema, read top to bottom.
--
-- A fresh database gets this file and is stamped with PRAGMA user_version = schema version
-- (src/db/migrate.ts). Older databases are upgraded in place by the ordered steps in
-- src/db/migrations.ts, which must end in exactly this schema (test/storage.test.ts checks it).
--
-- Conventions:
--   * Resource timestamps (created_at, updated_at, ...) are ISO 8601 UTC text 'YYYY-MM-DDTHH:MM:SSZ',
--     exactly as the API returns them; they sort lexically.
--   * Internal timers (expires_at, reset_at, run_at, ...) are INTEGER epoch seconds.
--   * Booleans are INTEGER 0/1.
--   * A CHECK on a list of more than two values is written `c = a OR c = b OR …`, not `c IN (…)`,
--     which SQLite checks through an index it builds for every row written (src/db/migrations.ts).
--   * Logins, organization names, enterprise slugs and repository names compare case-insensitively.

-- Instance-wide facts: the instance id, when the database was created, ...
CREATE TABLE settings (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE enterprises (
  id          INTEGER PRIMARY KEY,
  slug        TEXT NOT NULL UNIQUE COLLATE NOCASE,
  name        TEXT NOT NULL,
  description TEXT,
  website_url TEXT,
  -- Enterprise policy: may organizations convert members to outside collaborators?
  allow_outside_collaborators INTEGER NOT NULL DEFAULT 1,
  created_at  TEXT NOT NULL,
  updated_at  TEXT NOT NULL
);

-- Users, organizations and app bots share one id space, as accounts do on GitHub.
CREATE TABLE accounts (
  id          INTEGER PRIMARY KEY,
  login       TEXT NOT NULL UNIQUE COLLATE NOCASE,
  type        TEXT NOT NULL CHECK (type = 'User' OR type = 'Organization' OR type = 'Bot'),
  name        TEXT,
  email       TEXT,
  company     TEXT,
  blog        TEXT,
  location    TEXT,
  bio         TEXT,
  description TEXT,                                   -- organizations
  site_admin  INTEGER NOT NULL DEFAULT 0,             -- users
  -- Organization settings.
  enterprise_id INTEGER REFERENCES enterprises(id) ON DELETE SET NULL,
  billing_email TEXT,
  default_repository_permission TEXT NOT NULL DEFAULT 'read'
    CHECK (default_repository_permission = 'none' OR default_repository_permission = 'read' OR default_repository_permission = 'write' OR default_repository_permission = 'admin'),
  members_can_create_repositories INTEGER NOT NULL DEFAULT 1,
  members_can_create_teams        INTEGER NOT NULL DEFAULT 1,
  has_organization_projects       INTEGER NOT NULL DEFAULT 1,
  has_repository_projects         INTEGER NOT NULL DEFAULT 1,
  created_at  TEXT NOT NULL,
  updated_at  TEXT NOT NULL,
  -- Schema 2. Organizations: whether members may fork its private and internal repositories.
  members_can_fork_private_repositories INTEGER NOT NULL DEFAULT 0,
  -- Schema 2. Users: whether `email` is shown to others (GitHub's public email); it is private otherwise.
  email_public INTEGER NOT NULL DEFAULT 0,
  -- Schema 11. Organizations: the rest of GitHub's members_can_* policies (organization-full).
  members_can_create_public_repositories   INTEGER NOT NULL DEFAULT 1,
  members_can_create_private_repositories  INTEGER NOT NULL DEFAULT 1,
  members_can_create_internal_repositories INTEGER NOT NULL DEFAULT 1,
  members_can_create_pages                 INTEGER NOT NULL DEFAULT 1,
  members_can_create_public_pages          INTEGER NOT NULL DEFAULT 1,
  members_can_create_private_pages         INTEGER NOT NULL DEFAULT 1,
  members_can_delete_repositories          INTEGER NOT NULL DEFAULT 1,
  members_can_change_repo_visibility       INTEGER NOT NULL DEFAULT 1,
  members_can_invite_outside_collaborators INTEGER NOT NULL DEFAULT 1,
  members_can_delete_issues                INTEGER NOT NULL DEFAULT 0,
  members_can_view_dependency_insights     INTEGER NOT NULL DEFAULT 1,
  -- Schema 21. Organizations: the rest of GitHub's "Update an organization" settings.
  twitter_username                                             TEXT,
  web_commit_signoff_required                                  INTEGER NOT NULL DEFAULT 0,
  advanced_security_enabled_for_new_repositories               INTEGER NOT NULL DEFAULT 0,
  dependabot_alerts_enabled_for_new_repositories               INTEGER NOT NULL DEFAULT 0,
  dependabot_security_updates_enabled_for_new_repositories     INTEGER NOT NULL DEFAULT 0,
  dependency_graph_enabled_for_new_repositories                INTEGER NOT NULL DEFAULT 0,
  secret_scanning_enabled_for_new_repositories                 INTEGER NOT NULL DEFAULT 0,
  secret_scanning_push_protection_enabled_for_new_repositories INTEGER NOT NULL DEFAULT 0,
  secret_scanning_push_protection_custom_link_enabled          INTEGER NOT NULL DEFAULT 0,
  secret_scanning_push_protection_custom_link                  TEXT,
  deploy_keys_enabled_for_repositories                         INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX accounts_enterprise ON accounts(enterprise_id) WHERE enterprise_id IS NOT NULL;

CREATE TABLE enterprise_members (
  enterprise_id INTEGER NOT NULL REFERENCES enterprises(id) ON DELETE CASCADE,
  user_id       INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  role          TEXT NOT NULL CHECK (role IN ('owner', 'billing_manager')),
  created_at    TEXT NOT NULL,
  PRIMARY KEY (enterprise_id, user_id)
) WITHOUT ROWID;

-- Organization membership. role 'admin' is an organization owner. A pending row is an invitation.
CREATE TABLE org_memberships (
  org_id     INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  user_id    INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  role       TEXT NOT NULL CHECK (role IN ('admin', 'member')),
  state      TEXT NOT NULL CHECK (state IN ('active', 'pending')),
  public     INTEGER NOT NULL DEFAULT 0,              -- publicized membership
  inviter_id INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (org_id, user_id)
) WITHOUT ROWID;
CREATE INDEX org_memberships_user ON org_memberships(user_id);

CREATE TABLE teams (
  id                   INTEGER PRIMARY KEY,
  org_id               INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name                 TEXT NOT NULL,
  slug                 TEXT NOT NULL,
  description          TEXT,
  privacy              TEXT NOT NULL CHECK (privacy IN ('secret', 'closed')),
  notification_setting TEXT NOT NULL
    CHECK (notification_setting IN ('notifications_enabled', 'notifications_disabled')),
  permission           TEXT NOT NULL DEFAULT 'pull',  -- closing down: default permission for new repos
  -- Deleting a parent team deletes its child teams, as an organization owner's delete does on GitHub.
  parent_id            INTEGER REFERENCES teams(id) ON DELETE CASCADE,
  ldap_dn              TEXT,
  created_at           TEXT NOT NULL,
  updated_at           TEXT NOT NULL,
  UNIQUE (org_id, slug)
);
-- Names are unique per organization case-insensitively: equal names give equal slugs, so the
-- UNIQUE (org_id, slug) constraint enforces it without an index of its own.
CREATE INDEX teams_parent ON teams(parent_id) WHERE parent_id IS NOT NULL;

-- Team membership. A pending row waits for the user to accept the organization invitation.
CREATE TABLE team_memberships (
  team_id    INTEGER NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  user_id    INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  role       TEXT NOT NULL CHECK (role IN ('member', 'maintainer')),
  state      TEXT NOT NULL CHECK (state IN ('active', 'pending')),
  created_at TEXT NOT NULL,
  PRIMARY KEY (team_id, user_id)
) WITHOUT ROWID;
CREATE INDEX team_memberships_user ON team_memberships(user_id);

CREATE TABLE repositories (
  id             INTEGER PRIMARY KEY,
  owner_id       INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name           TEXT NOT NULL COLLATE NOCASE,
  description    TEXT,
  homepage       TEXT,
  visibility     TEXT NOT NULL CHECK (visibility = 'public' OR visibility = 'private' OR visibility = 'internal'),
  fork_parent_id INTEGER REFERENCES repositories(id) ON DELETE SET NULL,
  default_branch TEXT NOT NULL DEFAULT 'main',
  language       TEXT,
  license_key    TEXT,
  topics         TEXT NOT NULL DEFAULT '[]',          -- JSON array of strings
  has_issues     INTEGER NOT NULL DEFAULT 1,
  open_issues_count INTEGER NOT NULL DEFAULT 0,      -- open issues and pull requests, kept by triggers on issues
  stargazers_count  INTEGER NOT NULL DEFAULT 0,      -- stars, kept by triggers on stars (schema 6)
  subscribers_count INTEGER NOT NULL DEFAULT 0,      -- watchers (subscribed), kept by triggers on repository_subscriptions (schema 6)
  has_projects   INTEGER NOT NULL DEFAULT 1,
  has_wiki       INTEGER NOT NULL DEFAULT 1,
  has_downloads  INTEGER NOT NULL DEFAULT 1,
  has_discussions INTEGER NOT NULL DEFAULT 0,
  is_template    INTEGER NOT NULL DEFAULT 0,
  archived       INTEGER NOT NULL DEFAULT 0,
  -- security_and_analysis: advanced security (dependency review of private repositories) and
  -- delegated alert dismissal (dependabot alerts are dismissed through reviewed requests).
  advanced_security          INTEGER NOT NULL DEFAULT 0,
  delegated_alert_dismissal  INTEGER NOT NULL DEFAULT 0,
  allow_squash_merge     INTEGER NOT NULL DEFAULT 1,
  allow_merge_commit     INTEGER NOT NULL DEFAULT 1,
  allow_rebase_merge     INTEGER NOT NULL DEFAULT 1,
  allow_auto_merge       INTEGER NOT NULL DEFAULT 0,
  delete_branch_on_merge INTEGER NOT NULL DEFAULT 0,
  created_at     TEXT NOT NULL,
  updated_at     TEXT NOT NULL,
  pushed_at      TEXT,
  -- Schema 11: merge and fork settings of GitHub's full repository form, and forks_count (direct
  -- forks, kept by triggers below).
  allow_forking               INTEGER NOT NULL DEFAULT 1,
  web_commit_signoff_required INTEGER NOT NULL DEFAULT 0,
  allow_update_branch         INTEGER NOT NULL DEFAULT 0,
  use_squash_pr_title_as_default INTEGER NOT NULL DEFAULT 0,
  squash_merge_commit_title   TEXT NOT NULL DEFAULT 'COMMIT_OR_PR_TITLE'
    CHECK (squash_merge_commit_title IN ('PR_TITLE', 'COMMIT_OR_PR_TITLE')),
  squash_merge_commit_message TEXT NOT NULL DEFAULT 'COMMIT_MESSAGES'
    CHECK (squash_merge_commit_message = 'PR_BODY' OR squash_merge_commit_message = 'COMMIT_MESSAGES' OR squash_merge_commit_message = 'BLANK'),
  merge_commit_title          TEXT NOT NULL DEFAULT 'MERGE_MESSAGE'
    CHECK (merge_commit_title IN ('PR_TITLE', 'MERGE_MESSAGE')),
  merge_commit_message        TEXT NOT NULL DEFAULT 'PR_TITLE'
    CHECK (merge_commit_message = 'PR_BODY' OR merge_commit_message = 'PR_TITLE' OR merge_commit_message = 'BLANK'),
  forks_count                 INTEGER NOT NULL DEFAULT 0,
  -- Schema 21: the security switches a code security configuration drives (JSON: setting name → 1
  -- enabled / 0 disabled; absent: Gitstead's default, src/api/code-security/switches.ts).
  security_settings           TEXT NOT NULL DEFAULT '{}',
  -- Schema 28: kilobytes of git data (GitHub's `size`), set by pushes and gc.
  size                        INTEGER NOT NULL DEFAULT 0,
  UNIQUE (owner_id, name)
);
CREATE INDEX repositories_fork_parent ON repositories(fork_parent_id) WHERE fork_parent_id IS NOT NULL;

-- Direct repository access. For an organization repository, a collaborator who is not an
-- organization member is an outside collaborator.
CREATE TABLE repository_collaborators (
  repo_id    INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
  user_id    INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  permission TEXT NOT NULL CHECK (permission = 'pull' OR permission = 'triage' OR permission = 'push' OR permission = 'maintain' OR permission = 'admin'),
  role_id    INTEGER REFERENCES custom_repository_roles(id) ON DELETE SET NULL, -- a custom role granting `permission` and more (schema 22)
  created_at TEXT NOT NULL,
  PRIMARY KEY (repo_id, user_id)
) WITHOUT ROWID;
CREATE INDEX repository_collaborators_user ON repository_collaborators(user_id);

-- Repository invitations (GitHub's "Repository invitations"): PUT …/collaborators/{username} for a
-- user who is not yet a collaborator invites them; accepting inserts repository_collaborators and
-- deletes the invitation, declining or revoking deletes it. Expired (expires_at passed, 7 days) rows
-- stay listed with `expired` true until replaced or deleted (schema 11).
CREATE TABLE repository_invitations (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: notification subjects name invitations by id
  repo_id    INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
  invitee_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  inviter_id INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
  permission TEXT NOT NULL CHECK (permission = 'pull' OR permission = 'triage' OR permission = 'push' OR permission = 'maintain' OR permission = 'admin'),
  role_id    INTEGER REFERENCES custom_repository_roles(id) ON DELETE SET NULL, -- a custom role granting `permission` and more (schema 22)
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  UNIQUE (repo_id, invitee_id)
);
CREATE INDEX repository_invitations_invitee ON repository_invitations(invitee_id);
CREATE INDEX repository_invitations_inviter ON repository_invitations(inviter_id) WHERE inviter_id IS NOT NULL;

CREATE TABLE team_repositories (
  team_id    INTEGER NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  repo_id    INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
  permission TEXT NOT NULL CHECK (permission = 'pull' OR permission = 'triage' OR permission = 'push' OR permission = 'maintain' OR permission = 'admin'),
  role_id    INTEGER REFERENCES custom_repository_roles(id) ON DELETE SET NULL, -- a custom role granting `permission` and more (schema 22)
  created_at TEXT NOT NULL,
  PRIMARY KEY (team_id, repo_id)
) WITHOUT ROWID;
CREATE INDEX team_repositories_repo ON team_repositories(repo_id);

-- Custom property definitions: repository properties defined by
-- an organization (org_id), or organization properties defined by an enterprise (enterprise_id).
CREATE TABLE custom_property_definitions (
  id                      INTEGER PRIMARY KEY,
  org_id                  INTEGER REFERENCES accounts(id) ON DELETE CASCADE,
  enterprise_id           INTEGER REFERENCES enterprises(id) ON DELETE CASCADE,
  property_name           TEXT NOT NULL COLLATE NOCASE,
  value_type              TEXT NOT NULL CHECK (value_type = 'string' OR value_type = 'single_select' OR value_type = 'multi_select' OR value_type = 'true_false' OR value_type = 'url'),
  required                INTEGER NOT NULL DEFAULT 0,
  default_value           TEXT,                       -- JSON: a string, an array of strings, or NULL
  description             TEXT,
  allowed_values          TEXT,                       -- JSON array of strings, ordered, or NULL
  values_editable_by      TEXT,
  require_explicit_values INTEGER NOT NULL DEFAULT 0, -- organization definitions only
  created_at              TEXT NOT NULL,
  updated_at              TEXT NOT NULL,
  CHECK ((org_id IS NULL) <> (enterprise_id IS NULL)),
  UNIQUE (org_id, property_name),
  UNIQUE (enterprise_id, property_name)
);

-- Billing budgets of an organization or an enterprise.
CREATE TABLE budgets (
  id                    TEXT PRIMARY KEY,           -- UUID
  org_id                INTEGER REFERENCES accounts(id) ON DELETE CASCADE,
  enterprise_id         INTEGER REFERENCES enterprises(id) ON DELETE CASCADE,
  budget_type           TEXT NOT NULL CHECK (budget_type = 'BundlePricing' OR budget_type = 'ProductPricing' OR budget_type = 'SkuPricing'),
  budget_product_sku    TEXT NOT NULL,
  budget_scope          TEXT NOT NULL,
  budget_entity_name    TEXT NOT NULL DEFAULT '',
  user_login            TEXT,                       -- the user of a `user` scope budget
  budget_amount         INTEGER NOT NULL CHECK (budget_amount >= 0),  -- whole dollars, or licenses
  prevent_further_usage INTEGER NOT NULL,
  will_alert            INTEGER NOT NULL DEFAULT 0,
  alert_recipients      TEXT NOT NULL DEFAULT '[]', -- JSON array of logins
  created_at            TEXT NOT NULL,
  updated_at            TEXT NOT NULL,
  CHECK ((org_id IS NULL) <> (enterprise_id IS NULL))
);
CREATE INDEX budgets_org ON budgets(org_id) WHERE org_id IS NOT NULL;
CREATE INDEX budgets_enterprise ON budgets(enterprise_id) WHERE enterprise_id IS NOT NULL;

-- Self-hosted runner groups of an enterprise or (schema 26) of an organization:
-- exactly one of enterprise_id and org_id. Every enterprise and every organization has one default
-- group, made with it, that cannot be deleted.
CREATE TABLE runner_groups (
  id                              INTEGER PRIMARY KEY,
  enterprise_id                   INTEGER REFERENCES enterprises(id) ON DELETE CASCADE,
  name                            TEXT NOT NULL COLLATE NOCASE,
  visibility                      TEXT NOT NULL CHECK (visibility = 'all' OR visibility = 'selected' OR visibility = 'private'),
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
CREATE UNIQUE INDEX runner_groups_default ON runner_groups(enterprise_id) WHERE is_default = 1;
CREATE UNIQUE INDEX runner_groups_org_name ON runner_groups(org_id, name) WHERE org_id IS NOT NULL;
CREATE UNIQUE INDEX runner_groups_org_default ON runner_groups(org_id) WHERE is_default = 1 AND org_id IS NOT NULL;

-- Organizations a `selected` enterprise runner group is available to.
CREATE TABLE runner_group_organizations (
  group_id INTEGER NOT NULL REFERENCES runner_groups(id) ON DELETE CASCADE,
  org_id   INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  PRIMARY KEY (group_id, org_id)
) WITHOUT ROWID;

-- Repositories a `selected` organization runner group is available to (schema 26).
CREATE TABLE runner_group_repositories (
  group_id INTEGER NOT NULL REFERENCES runner_groups(id) ON DELETE CASCADE,
  repo_id  INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
  PRIMARY KEY (group_id, repo_id)
) WITHOUT ROWID;
CREATE INDEX runner_group_repositories_repo ON runner_group_repositories(repo_id);

-- Self-hosted runners registered (gitstead admin register-runner) with an enterprise or (schema 26)
-- an organization; each is in exactly one group of its owner.
CREATE TABLE runners (
  id            INTEGER PRIMARY KEY,
  enterprise_id INTEGER REFERENCES enterprises(id) ON DELETE CASCADE,
  group_id      INTEGER NOT NULL REFERENCES runner_groups(id),
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
CREATE INDEX runners_group ON runners(group_id);
CREATE UNIQUE INDEX runners_org_name ON runners(org_id, name) WHERE org_id IS NOT NULL;

CREATE TABLE runner_labels (
  id        INTEGER PRIMARY KEY,
  runner_id INTEGER NOT NULL REFERENCES runners(id) ON DELETE CASCADE,
  name      TEXT NOT NULL,
  type      TEXT NOT NULL CHECK (type IN ('read-only', 'custom')),
  UNIQUE (runner_id, name)
);

-- Organization migrations (https://docs.github.com/en/rest/migrations/orgs): an export
-- is queued as `pending`, run by a background task (exporting → exported or failed), and leaves a
-- .tar.gz in the blob folder (archive_path) until it is deleted.
CREATE TABLE migrations (
  id                     INTEGER PRIMARY KEY,
  org_id                 INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  guid                   TEXT NOT NULL UNIQUE,
  state                  TEXT NOT NULL CHECK (state = 'pending' OR state = 'exporting' OR state = 'exported' OR state = 'failed'),
  lock_repositories      INTEGER NOT NULL DEFAULT 0,
  exclude_metadata       INTEGER NOT NULL DEFAULT 0,
  exclude_git_data       INTEGER NOT NULL DEFAULT 0,
  exclude_attachments    INTEGER NOT NULL DEFAULT 0,
  exclude_releases       INTEGER NOT NULL DEFAULT 0,
  exclude_owner_projects INTEGER NOT NULL DEFAULT 0,
  org_metadata_only      INTEGER NOT NULL DEFAULT 0,
  exclude                TEXT NOT NULL DEFAULT '[]',  -- JSON: related items left out of responses
  archive_path           TEXT,                        -- file name below <blob_dir>/migrations; NULL when none
  archive_deleted_at     TEXT,
  failure                TEXT,
  created_at             TEXT NOT NULL,
  updated_at             TEXT NOT NULL
);
CREATE INDEX migrations_org ON migrations(org_id);

-- Repositories of a migration; `locked` while lock_repositories holds them (until unlocked).
CREATE TABLE migration_repositories (
  migration_id INTEGER NOT NULL REFERENCES migrations(id) ON DELETE CASCADE,
  repo_id      INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
  locked       INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (migration_id, repo_id)
) WITHOUT ROWID;
CREATE INDEX migration_repositories_locked ON migration_repositories(repo_id) WHERE locked = 1;

-- Webhooks, every kind served by the one delivery engine (src/webhooks): global hooks (repo_id
-- and org_id NULL), organization hooks (org_id) and
-- repository hooks (repo_id). The table keeps the name it had when it held global hooks only.
-- Deleting the repository or organization deletes its hooks, and with them their deliveries.
CREATE TABLE global_webhooks (
  id           INTEGER PRIMARY KEY,
  active       INTEGER NOT NULL DEFAULT 1,
  events       TEXT NOT NULL,                       -- JSON array of event names ("*": every event)
  url          TEXT NOT NULL,
  content_type TEXT NOT NULL DEFAULT 'form' CHECK (content_type IN ('json', 'form')),
  insecure_ssl TEXT NOT NULL DEFAULT '0' CHECK (insecure_ssl IN ('0', '1')),
  secret       TEXT,                                -- needed to sign deliveries; never returned
  created_at   TEXT NOT NULL,
  updated_at   TEXT NOT NULL,
  repo_id      INTEGER REFERENCES repositories(id) ON DELETE CASCADE,  -- a repository hook (schema 7)
  org_id       INTEGER REFERENCES accounts(id) ON DELETE CASCADE,      -- an organization hook (schema 7)
  -- The hook's last answer (GitHub's last_response), updated with every attempt (schema 7).
  last_response_code    INTEGER,
  last_response_status  TEXT NOT NULL DEFAULT 'unused',
  last_response_message TEXT,
  -- A GitHub App's webhook (schema 31): one per app; it receives the events of the app's installations.
  app_id       INTEGER REFERENCES apps(id) ON DELETE CASCADE
);
CREATE INDEX global_webhooks_repo ON global_webhooks(repo_id) WHERE repo_id IS NOT NULL;
CREATE INDEX global_webhooks_org ON global_webhooks(org_id) WHERE org_id IS NOT NULL;
CREATE UNIQUE INDEX global_webhooks_app ON global_webhooks(app_id) WHERE app_id IS NOT NULL;

-- One delivery of one event to one hook, written in the transaction of the change that caused it
-- and sent by the webhook-deliveries job (retried with backoff while state is 'queued').
CREATE TABLE webhook_deliveries (
  id              INTEGER PRIMARY KEY,
  hook_id         INTEGER NOT NULL REFERENCES global_webhooks(id) ON DELETE CASCADE,
  guid            TEXT NOT NULL,                    -- X-GitHub-Delivery; kept by redeliveries
  event           TEXT NOT NULL,
  action          TEXT,
  payload         TEXT NOT NULL,                    -- the JSON payload exactly as delivered
  state           TEXT NOT NULL DEFAULT 'queued' CHECK (state = 'queued' OR state = 'delivered' OR state = 'failed'),
  redelivery      INTEGER NOT NULL DEFAULT 0,
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,                          -- epoch seconds while queued
  status          TEXT,                             -- of the last attempt: "OK", "failed to connect", ...
  status_code     INTEGER,                          -- of the last attempt; NULL without a response
  duration        REAL,                             -- seconds, of the last attempt
  delivered_at    TEXT,                             -- time of the last attempt
  created_at      TEXT NOT NULL,
  repository_id   INTEGER,                          -- the event's repository, if any (schema 7; no key: it outlives it)
  installation_id INTEGER                           -- an app hook's delivery: the installation it is for (schema 31; no key)
);
CREATE INDEX webhook_deliveries_hook ON webhook_deliveries(hook_id, id);
-- Queued deliveries per hook in due order: the delivery pass takes the oldest due one of each hook
-- with no attempt in flight, so a hook's backlog is never scanned for another's (schema 3).
CREATE INDEX webhook_deliveries_queued ON webhook_deliveries(hook_id, next_attempt_at) WHERE state = 'queued';

-- Every attempt of a delivery: the delivery log.
CREATE TABLE webhook_delivery_attempts (
  id               INTEGER PRIMARY KEY,
  delivery_id      INTEGER NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  attempted_at     TEXT NOT NULL,
  duration         REAL NOT NULL,                   -- seconds
  status           TEXT NOT NULL,
  status_code      INTEGER,
  request_headers  TEXT NOT NULL,                   -- JSON object
  response_headers TEXT,                            -- JSON object
  response_body    TEXT                             -- at most 64 KiB
);
CREATE INDEX webhook_delivery_attempts_delivery ON webhook_delivery_attempts(delivery_id);

-- GitHub Apps (gitstead admin create-app): an app authenticates with JWTs signed by its private
-- key (only the public key is kept) and acts through its bot account, `<slug>[bot]`.
CREATE TABLE apps (
  id           INTEGER PRIMARY KEY,
  slug         TEXT NOT NULL UNIQUE COLLATE NOCASE,
  name         TEXT NOT NULL,
  description  TEXT,
  owner_id     INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  bot_id       INTEGER NOT NULL REFERENCES accounts(id),
  client_id    TEXT NOT NULL UNIQUE,
  public_key   TEXT NOT NULL,                       -- PEM (SPKI)
  permissions  TEXT NOT NULL DEFAULT '{}',          -- JSON {permission_key: level} the app asks for
  events       TEXT NOT NULL DEFAULT '[]',          -- JSON array
  external_url TEXT,
  created_at   TEXT NOT NULL,
  updated_at   TEXT NOT NULL
);

-- An app installed on an account (gitstead admin install-app), with the permissions granted.
CREATE TABLE installations (
  id                   INTEGER PRIMARY KEY,
  app_id               INTEGER NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  account_id           INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  permissions          TEXT NOT NULL,               -- JSON, at most the app's
  repository_selection TEXT NOT NULL DEFAULT 'all' CHECK (repository_selection IN ('all', 'selected')),
  suspended_at         TEXT,
  created_at           TEXT NOT NULL,
  updated_at           TEXT NOT NULL,
  UNIQUE (app_id, account_id)
);

-- Gists (GitHub's gists API) and their comments.
CREATE TABLE gists (
  id          INTEGER PRIMARY KEY,
  gist_id     TEXT NOT NULL UNIQUE,                   -- the public id: 32 hex characters
  owner_id    INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  description TEXT,
  public      INTEGER NOT NULL DEFAULT 0,
  created_at  TEXT NOT NULL,
  updated_at  TEXT NOT NULL,
  blocked_at  TEXT,                                   -- set by `gitstead admin block-gist`: reads answer 403
  block_reason TEXT,
  -- Schema 12. The gist this one was forked from (POST /gists/{gist_id}/forks); NULL: not a fork.
  fork_of_id  INTEGER REFERENCES gists(id) ON DELETE SET NULL
);
CREATE INDEX gists_owner ON gists(owner_id, updated_at);
CREATE INDEX gists_public ON gists(updated_at) WHERE public = 1;

CREATE TABLE gist_files (
  gist_id  INTEGER NOT NULL REFERENCES gists(id) ON DELETE CASCADE,
  filename TEXT NOT NULL,
  content  TEXT NOT NULL,
  PRIMARY KEY (gist_id, filename)
) WITHOUT ROWID;

-- Gist stars, forks and revisions (schema 12). A gist's history is one gist_revisions row per
-- create or change of its files (description changes are not revisions, as GitHub's): the files
-- as they were (JSON: filename → content), who made it, when, and the lines added and deleted.
-- version is the revision's id (40 hex characters). A fork copies its source's revisions.
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

-- body_html and body_text: the body rendered when it was written (src/api/markdown/render.ts
-- renderBody), read back for the html, text and full media types (schema version 2).
CREATE TABLE gist_comments (
  id         INTEGER PRIMARY KEY,
  gist_id    INTEGER NOT NULL REFERENCES gists(id) ON DELETE CASCADE,
  user_id    INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  body       TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  body_html  TEXT,
  body_text  TEXT
);
CREATE INDEX gist_comments_gist ON gist_comments(gist_id, id);

-- Labels of a repository (names unique case-insensitively); issues refer to them through issue_labels.
CREATE TABLE labels (
  id          INTEGER PRIMARY KEY,
  repo_id     INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
  name        TEXT NOT NULL COLLATE NOCASE,
  color       TEXT NOT NULL,                          -- six hex digits, without '#'
  description TEXT,
  is_default  INTEGER NOT NULL DEFAULT 0,             -- one of the labels every new repository gets
  UNIQUE (repo_id, name)
);

-- Milestones of a repository (GitHub's milestones), numbered per repository from 1, titles unique per
-- repository. open_issues and closed_issues count the issues and pull requests in the milestone,
-- kept by triggers on issues (below). due_on and closed_at: ISO timestamps.
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

-- Issues and pull requests (every pull request is an issue), numbered per repository from 1.
-- state_reason: completed, not_planned, duplicate or reopened (NULL for a new issue).
-- body_html and body_text: the body rendered when it was written (NULL without a body).
CREATE TABLE issues (
  id                 INTEGER PRIMARY KEY,
  repo_id            INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
  number             INTEGER NOT NULL,
  title              TEXT NOT NULL,
  body               TEXT,
  user_id            INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  state              TEXT NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'closed')),
  state_reason       TEXT CHECK (state_reason = 'completed' OR state_reason = 'not_planned' OR state_reason = 'duplicate' OR state_reason = 'reopened'),
  locked             INTEGER NOT NULL DEFAULT 0,
  active_lock_reason TEXT CHECK (active_lock_reason = 'off-topic' OR active_lock_reason = 'too heated' OR active_lock_reason = 'resolved' OR active_lock_reason = 'spam'),
  pull_request       INTEGER NOT NULL DEFAULT 0,       -- 1: this issue is a pull request
  comments           INTEGER NOT NULL DEFAULT 0,       -- number of issue_comments, kept with them
  closed_by_id       INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
  created_at         TEXT NOT NULL,
  updated_at         TEXT NOT NULL,
  closed_at          TEXT,
  body_html          TEXT,
  body_text          TEXT,
  milestone_id       INTEGER REFERENCES milestones(id) ON DELETE SET NULL,
  reaction_counts    TEXT NOT NULL DEFAULT '{}',       -- JSON {content: count} of its reactions, kept by triggers on reactions
  UNIQUE (repo_id, number)
);
CREATE INDEX issues_repo_state ON issues(repo_id, state, number);
-- Only issues with a milestone (schema 46): most have none, and `milestone_id = ?` implies it.
CREATE INDEX issues_milestone ON issues(milestone_id, state) WHERE milestone_id IS NOT NULL;
CREATE INDEX issues_user ON issues(user_id);

-- repositories.open_issues_count and milestones.open_issues, closed_issues follow the issues'
-- states and milestones. A new issue's counts are one trigger (schema 46): SQLite runs a
-- sub-program for every trigger of a row, whether its WHEN holds or not; an update of nothing a
-- condition names finds no row (a NULL milestone_id matches none).
CREATE TRIGGER issues_counts_insert AFTER INSERT ON issues BEGIN
  UPDATE repositories SET open_issues_count = open_issues_count + 1 WHERE id = NEW.repo_id AND NEW.state = 'open';
  UPDATE milestones SET open_issues = open_issues + (NEW.state = 'open'), closed_issues = closed_issues + (NEW.state = 'closed')
  WHERE id = NEW.milestone_id;
END;
CREATE TRIGGER issues_count_delete AFTER DELETE ON issues WHEN OLD.state = 'open' BEGIN
  UPDATE repositories SET open_issues_count = open_issues_count - 1 WHERE id = OLD.repo_id;
END;
CREATE TRIGGER issues_count_state AFTER UPDATE OF state ON issues WHEN OLD.state <> NEW.state BEGIN
  UPDATE repositories SET open_issues_count = open_issues_count + (CASE NEW.state WHEN 'open' THEN 1 ELSE -1 END) WHERE id = NEW.repo_id;
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
END;

CREATE TABLE issue_labels (
  issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
  label_id INTEGER NOT NULL REFERENCES labels(id) ON DELETE CASCADE,
  PRIMARY KEY (issue_id, label_id)
) WITHOUT ROWID;
CREATE INDEX issue_labels_label ON issue_labels(label_id);

-- Assignees of an issue (at most 10), in the order they were given.
CREATE TABLE issue_assignees (
  issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
  user_id  INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  PRIMARY KEY (issue_id, user_id)
) WITHOUT ROWID;
CREATE INDEX issue_assignees_user ON issue_assignees(user_id);

-- Pull requests: a pull request IS an issue (issues.pull_request = 1: its number,
-- title, body, state, labels, assignees, milestone and comments); this row adds what only a pull
-- request has. repo_id is the base repository (the issue's); head_repo_id the repository holding
-- the head branch (the same one, or a fork in its network; NULL once that repository is deleted).
-- head_sha and base_sha follow their branches (src/api/pulls/follow.ts, called from the reference
-- writes of src/api/git/writes.ts). merged_at, merged_by_id and merge_commit_sha are set by the
-- merge; mergeable (NULL unknown, 0, 1) and mergeable_state hold the last mergeability computed,
-- for the head and base shas in mergeable_head_sha / mergeable_base_sha (stale when they differ).
CREATE TABLE pull_requests (
  issue_id              INTEGER PRIMARY KEY REFERENCES issues(id) ON DELETE CASCADE,
  repo_id               INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
  head_repo_id          INTEGER REFERENCES repositories(id) ON DELETE SET NULL,
  head_ref              TEXT NOT NULL,                   -- branch name, without refs/heads/
  head_sha              TEXT NOT NULL,
  base_ref              TEXT NOT NULL,                   -- branch name, without refs/heads/
  base_sha              TEXT NOT NULL,
  draft                 INTEGER NOT NULL DEFAULT 0,
  maintainer_can_modify INTEGER NOT NULL DEFAULT 0,
  merged_at             TEXT,
  merged_by_id          INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
  merge_commit_sha      TEXT,
  mergeable             INTEGER,                         -- NULL: not computed (or needs the merge engine)
  mergeable_state       TEXT NOT NULL DEFAULT 'unknown',
  mergeable_head_sha    TEXT,
  mergeable_base_sha    TEXT
);
CREATE INDEX pull_requests_head ON pull_requests(head_repo_id, head_ref);
CREATE INDEX pull_requests_base ON pull_requests(repo_id, base_ref);

-- Auto-merge of an open pull request (GitHub's enablePullRequestAutoMerge, REST's auto_merge): who
-- enabled it, the merge method and the commit's title and message to use (NULL: the method's
-- defaults). The merge happens, as that user, once the base branch's protection lets it (required
-- reviews and status checks); the row goes with the merge or disablePullRequestAutoMerge.
CREATE TABLE pull_request_auto_merges (
  issue_id       INTEGER PRIMARY KEY REFERENCES pull_requests(issue_id) ON DELETE CASCADE,
  enabled_by_id  INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
  merge_method   TEXT NOT NULL CHECK (merge_method = 'merge' OR merge_method = 'squash' OR merge_method = 'rebase'),
  commit_title   TEXT,
  commit_message TEXT,
  author_email   TEXT,
  enabled_at     TEXT NOT NULL
);

-- Review requests of a pull request (GitHub's requested_reviewers / requested_teams): a user or a
-- team, never both; a review submitted by a requested user removes the user's row.
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

-- Reviews of a pull request (GitHub's pull-request-review). PENDING reviews are their author's
-- alone (one per user and pull request); submitted_at is set when the review is submitted. body
-- is '' when none was given; body_html and body_text are rendered when it is written.
CREATE TABLE pull_request_reviews (
  id           INTEGER PRIMARY KEY,
  issue_id     INTEGER NOT NULL REFERENCES pull_requests(issue_id) ON DELETE CASCADE,
  user_id      INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  state        TEXT NOT NULL CHECK (state = 'PENDING' OR state = 'COMMENTED' OR state = 'APPROVED' OR state = 'CHANGES_REQUESTED' OR state = 'DISMISSED'),
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

-- Review comments (GitHub's pull-request-review-comment): comments on a line (or a range of
-- lines) of a pull request's diff, each in a review; replies name their thread's first comment.
-- position counts the lines of the file's patch below its first hunk header; line/side number the
-- line in the file (RIGHT the head's, LEFT the merge base's); diff_hunk is the patch from the
-- hunk's header to the line. Bodies are rendered when written.
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
CREATE INDEX pull_request_review_comments_review ON pull_request_review_comments(review_id, id);

-- Comments on issues and pull requests; body_html and
-- body_text: the body rendered when it was written.
CREATE TABLE issue_comments (
  id         INTEGER PRIMARY KEY,
  repo_id    INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
  issue_id   INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
  user_id    INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  body       TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  body_html  TEXT,
  body_text  TEXT,
  reaction_counts TEXT NOT NULL DEFAULT '{}'          -- JSON {content: count} of its reactions, kept by triggers on reactions
);
CREATE INDEX issue_comments_repo ON issue_comments(repo_id, id);
CREATE INDEX issue_comments_repo_created ON issue_comments(repo_id, created_at, id);
CREATE INDEX issue_comments_repo_updated ON issue_comments(repo_id, updated_at, id);
CREATE INDEX issue_comments_issue ON issue_comments(issue_id, id);

-- Reactions (GitHub's reactions API) to an issue (comment_id NULL) or to one of its comments: one per
-- subject, user and content. The subject's reaction_counts follows them (triggers below).
CREATE TABLE reactions (
  id         INTEGER PRIMARY KEY,
  issue_id   INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
  comment_id INTEGER REFERENCES issue_comments(id) ON DELETE CASCADE,
  user_id    INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  content    TEXT NOT NULL CHECK (content = '+1' OR content = '-1' OR content = 'laugh' OR content = 'confused' OR content = 'heart' OR content = 'hooray' OR content = 'rocket' OR content = 'eyes'),
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
END;

-- ===== git objects (src/api/git) =====
-- Fork networks (GitHub's): a repository and every fork of it share one object store. A new
-- repository starts a network, a fork joins its parent's (triggers below); the network goes with
-- its last repository, and its objects with it.
CREATE TABLE git_networks (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,      -- never reused: objects are found by it
  created_at TEXT NOT NULL
);
CREATE TABLE git_network_members (
  repo_id    INTEGER PRIMARY KEY REFERENCES repositories(id) ON DELETE CASCADE,
  network_id INTEGER NOT NULL REFERENCES git_networks(id) ON DELETE CASCADE
);
CREATE INDEX git_network_members_network ON git_network_members(network_id);
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
END;

-- Git objects of a network (blobs, trees, commits, annotated tags), addressed by their git object
-- id: the SHA-1 of "<type> <size>\0<content>", as `git hash-object` computes it. `data` is a zlib
-- stream, exactly a pack entry's payload: the whole content, or a git delta against `base_id`
-- (an object of the same network; chains at most 50 deep, git's pack.depth).
CREATE TABLE git_objects (
  id         INTEGER PRIMARY KEY,
  network_id INTEGER NOT NULL REFERENCES git_networks(id) ON DELETE CASCADE,
  oid        BLOB NOT NULL,                           -- 20 bytes
  type       INTEGER NOT NULL CHECK (type BETWEEN 1 AND 4), -- pack type: 1 commit, 2 tree, 3 blob, 4 tag
  size       INTEGER NOT NULL,                        -- bytes of content
  base_id    INTEGER,                                 -- delta base (git_objects.id), NULL: data is whole
  depth      INTEGER NOT NULL DEFAULT 0,              -- deltas below this one in its chain
  data_size  INTEGER,                                 -- bytes the delta inflates to (NULL when whole: size)
  data       BLOB NOT NULL                            -- zlib stream
);
CREATE UNIQUE INDEX git_objects_oid ON git_objects(network_id, oid);
CREATE INDEX git_objects_commits ON git_objects(network_id) WHERE type = 1;
-- When objects were stored, for gc's grace period: every object with an id from `first_id` on was
-- stored at or after `created_at` (ids only grow while objects are young), one row an hour at most.
CREATE TABLE git_object_epochs (
  first_id   INTEGER PRIMARY KEY,
  created_at INTEGER NOT NULL                         -- epoch seconds
);
-- Stored objects a push's new objects name (their closure is what the push relies on): gc keeps
-- them, and what they reach, for the grace period, as git freshens the objects it finds.
CREATE TABLE git_fresh (
  object_id  INTEGER PRIMARY KEY,                     -- git_objects.id
  created_at INTEGER NOT NULL                         -- epoch seconds
);

-- The commit graph: each commit's parents in order (position 0 is the first parent), for
-- fast-forward checks, merge bases and reachability without parsing commits.
CREATE TABLE git_commit_parents (
  network_id INTEGER NOT NULL REFERENCES git_networks(id) ON DELETE CASCADE,
  commit_oid BLOB NOT NULL,
  position   INTEGER NOT NULL,
  parent_oid BLOB NOT NULL,
  PRIMARY KEY (network_id, commit_oid, position)
) WITHOUT ROWID;

-- What a full clone of a repository sends (git's reachability bitmaps): the objects reachable from
-- its branches and tags, valid while those still point to `tips`. Written by pushes and full
-- clones, dropped by every other reference change (src/api/git/writes.ts moveRef).
CREATE TABLE git_reachable (
  repo_id INTEGER PRIMARY KEY REFERENCES repositories(id) ON DELETE CASCADE,
  tips    TEXT NOT NULL,                              -- the sorted tip ids of refs/heads/* and refs/tags/*, space-separated
  rows    BLOB NOT NULL                               -- git_objects ids, ascending, as deflated varint gaps
);

-- References (refs/heads/<branch>, refs/tags/<tag>) of a repository.
CREATE TABLE git_refs (
  repo_id    INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
  name       TEXT NOT NULL,                           -- full name, case-sensitive: refs/heads/main
  sha        TEXT NOT NULL,                           -- 40 lowercase hex digits: an object of the repository's network
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (repo_id, name)
) WITHOUT ROWID;
-- ===== end git objects =====

-- ===== branch protection (src/api/branches) =====
-- Protection of one branch, by its exact name (GitHub's branch protection API). `settings` is JSON
-- (src/api/branches/store.ts ProtectionSettings): required_status_checks, enforce_admins,
-- required_pull_request_reviews, restrictions (account and app ids), required_signatures and the
-- boolean rules. Renaming the branch moves the row; the ref writes of src/api/git/writes.ts enforce it.
CREATE TABLE branch_protections (
  id         INTEGER PRIMARY KEY,
  repo_id    INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
  branch     TEXT NOT NULL,                           -- branch name without refs/heads/, case-sensitive
  settings   TEXT NOT NULL,                           -- JSON ProtectionSettings
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (repo_id, branch)
);
-- Branches renamed (POST …/branches/{branch}/rename): GET …/branches/<old> answers 301 to the new
-- name while no branch of the old name exists. A chain of renames points every old name at the latest.
CREATE TABLE branch_renames (
  repo_id  INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
  old_name TEXT NOT NULL,
  new_name TEXT NOT NULL,
  PRIMARY KEY (repo_id, old_name)
) WITHOUT ROWID;
-- ===== end branch protection =====

-- ===== deployments and environments (src/api/deployments) =====
-- Deployments of a repository (GitHub's deployments API). Gitstead does not resolve refs yet:
-- sha holds the ref as given. environment may change with a status; original_environment never.
CREATE TABLE deployments (
  id                     INTEGER PRIMARY KEY,
  repo_id                INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
  ref                    TEXT NOT NULL,
  sha                    TEXT NOT NULL,
  task                   TEXT NOT NULL DEFAULT 'deploy',
  payload                TEXT NOT NULL DEFAULT '{}',  -- JSON: an object or a string, as given
  original_environment   TEXT NOT NULL,
  environment            TEXT NOT NULL COLLATE NOCASE,
  description            TEXT,
  creator_id             INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
  performed_via_app_id   INTEGER REFERENCES apps(id) ON DELETE SET NULL,
  transient_environment  INTEGER NOT NULL DEFAULT 0,
  production_environment INTEGER NOT NULL DEFAULT 0,
  auto_merge             INTEGER NOT NULL DEFAULT 1,  -- stored only: Gitstead merges nothing
  required_contexts      TEXT,                        -- JSON array, NULL = all contexts; not enforced
  created_at             TEXT NOT NULL,
  updated_at             TEXT NOT NULL
);
CREATE INDEX deployments_repo ON deployments(repo_id, id);
CREATE INDEX deployments_repo_environment ON deployments(repo_id, environment, id);

-- Statuses of a deployment; the newest is the deployment's state.
CREATE TABLE deployment_statuses (
  id              INTEGER PRIMARY KEY,
  deployment_id   INTEGER NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
  state           TEXT NOT NULL CHECK (state = 'error' OR state = 'failure' OR state = 'inactive' OR state = 'in_progress' OR state = 'queued' OR state = 'pending' OR state = 'success'),
  description     TEXT NOT NULL DEFAULT '',         -- at most 140 characters
  environment     TEXT NOT NULL,
  target_url      TEXT NOT NULL DEFAULT '',
  log_url         TEXT NOT NULL DEFAULT '',
  environment_url TEXT NOT NULL DEFAULT '',
  creator_id      INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
  created_at      TEXT NOT NULL,
  updated_at      TEXT NOT NULL
);
CREATE INDEX deployment_statuses_deployment ON deployment_statuses(deployment_id, id);

-- Deployment environments of a repository; names are unique per repository, case-insensitively.
-- branch_policy: NULL (every branch may deploy), 'protected' (protected branches only) or
-- 'custom' (names matching the environment's deployment_branch_policies).
CREATE TABLE environments (
  id                  INTEGER PRIMARY KEY,
  repo_id             INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
  name                TEXT NOT NULL COLLATE NOCASE,
  wait_timer          INTEGER NOT NULL DEFAULT 0,      -- minutes, 0 to 43200
  prevent_self_review INTEGER NOT NULL DEFAULT 0,
  branch_policy       TEXT CHECK (branch_policy IN ('protected', 'custom')),
  created_at          TEXT NOT NULL,
  updated_at          TEXT NOT NULL,
  can_admins_bypass   INTEGER NOT NULL DEFAULT 1,
  UNIQUE (repo_id, name)
);

-- The protection rules an environment shows (one per type while its setting is on), for their ids.
CREATE TABLE environment_protection_rules (
  id             INTEGER PRIMARY KEY,
  environment_id INTEGER NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
  type           TEXT NOT NULL CHECK (type = 'wait_timer' OR type = 'required_reviewers' OR type = 'branch_policy'),
  UNIQUE (environment_id, type)
);

-- Required reviewers of an environment (at most six): a user or a team, in the order given.
CREATE TABLE environment_reviewers (
  id             INTEGER PRIMARY KEY,
  environment_id INTEGER NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
  user_id        INTEGER REFERENCES accounts(id) ON DELETE CASCADE,
  team_id        INTEGER REFERENCES teams(id) ON DELETE CASCADE,
  CHECK ((user_id IS NULL) <> (team_id IS NULL))
);
CREATE INDEX environment_reviewers_environment ON environment_reviewers(environment_id, id);

-- Name patterns (shell-style globs; wildcards do not match '/') that branches or tags must match
-- to deploy to an environment whose branch_policy is 'custom'.
CREATE TABLE deployment_branch_policies (
  id             INTEGER PRIMARY KEY,
  environment_id INTEGER NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
  name           TEXT NOT NULL,
  type           TEXT NOT NULL DEFAULT 'branch' CHECK (type IN ('branch', 'tag')),
  created_at     TEXT NOT NULL,
  updated_at     TEXT NOT NULL,
  UNIQUE (environment_id, type, name)
);
-- ===== end deployments and environments =====

-- ===== workflows, runs and jobs (src/api/actions) =====
-- Workflows of a repository. Gitstead runs no workflows and reads
-- no workflow files: a workflow is registered by importRuns (demo data) or by the first dispatch of
-- its file name, with its jobs and their `needs`; a dispatched run gets one job per entry.
CREATE TABLE workflows (
  id              INTEGER PRIMARY KEY,
  repo_id         INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
  name            TEXT NOT NULL,
  path            TEXT NOT NULL,                       -- .github/workflows/ci.yml
  state           TEXT NOT NULL DEFAULT 'active'
    CHECK (state = 'active' OR state = 'deleted' OR state = 'disabled_fork' OR state = 'disabled_inactivity' OR state = 'disabled_manually'),
  jobs            TEXT NOT NULL DEFAULT '[]',          -- JSON [{name, needs: [job names]}], in order
  last_run_number INTEGER NOT NULL DEFAULT 0,          -- run_number of the newest run
  runs_count      INTEGER NOT NULL DEFAULT 0,          -- its runs: unfiltered total_count without a scan
  created_at      TEXT NOT NULL,
  updated_at      TEXT NOT NULL,
  UNIQUE (repo_id, path)
);

-- Workflow runs. status/conclusion move only along the transitions of
-- src/api/actions/service.ts; a completed run has a conclusion, any other none. run_attempt grows by
-- one per re-run. The indexes serve GET .../actions/runs: each search filter has one that also
-- yields the list order (created_at, then id, descending) and the `created` range, and carries the
-- other filter columns after (created_at, id), so combined filters are checked without reading the
-- table (4 weak filters over 100,000 runs: ~2 ms instead of ~40 ms; ~350 bytes of index per run).
CREATE TABLE workflow_runs (
  id                  INTEGER PRIMARY KEY,
  repo_id             INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
  workflow_id         INTEGER NOT NULL REFERENCES workflows(id) ON DELETE CASCADE,
  run_number          INTEGER NOT NULL,
  run_attempt         INTEGER NOT NULL DEFAULT 1,
  check_suite_id      INTEGER NOT NULL,                -- Gitstead keeps no check suites: the run's id unless imported
  event               TEXT NOT NULL,
  display_title       TEXT NOT NULL,
  head_branch         TEXT,
  head_sha            TEXT NOT NULL,                   -- lower-case hex
  head_commit         TEXT,                            -- JSON {tree_id, message, timestamp, author, committer}; NULL: unknown
  pull_requests       TEXT NOT NULL DEFAULT '[]',      -- JSON [{id, number, head {ref, sha}, base {ref, sha}}]
  status              TEXT NOT NULL CHECK (status = 'requested' OR status = 'queued' OR status = 'in_progress' OR status = 'waiting' OR status = 'pending' OR status = 'completed'),
  conclusion          TEXT CHECK (conclusion = 'success' OR conclusion = 'failure' OR conclusion = 'neutral' OR conclusion = 'cancelled' OR conclusion = 'skipped' OR conclusion = 'timed_out' OR conclusion = 'action_required' OR conclusion = 'stale'),
  actor_id            INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
  triggering_actor_id INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
  run_started_at      TEXT NOT NULL,
  created_at          TEXT NOT NULL,
  updated_at          TEXT NOT NULL,
  CHECK ((status = 'completed') = (conclusion IS NOT NULL))
);
CREATE INDEX workflow_runs_repo ON workflow_runs(repo_id, created_at, id,
  workflow_id, head_branch, event, status, conclusion, actor_id);
CREATE INDEX workflow_runs_workflow ON workflow_runs(workflow_id, created_at, id,
  repo_id, head_branch, event, status, conclusion, actor_id);
CREATE INDEX workflow_runs_branch ON workflow_runs(repo_id, head_branch, created_at, id,
  workflow_id, event, status, conclusion, actor_id);
CREATE INDEX workflow_runs_event ON workflow_runs(repo_id, event, created_at, id,
  workflow_id, head_branch, status, conclusion, actor_id);
CREATE INDEX workflow_runs_status ON workflow_runs(repo_id, status, created_at, id,
  workflow_id, head_branch, event, conclusion, actor_id);
CREATE INDEX workflow_runs_conclusion ON workflow_runs(repo_id, conclusion, created_at, id,
  workflow_id, head_branch, event, status, actor_id) WHERE conclusion IS NOT NULL;
CREATE INDEX workflow_runs_actor ON workflow_runs(repo_id, actor_id, created_at, id,
  workflow_id, head_branch, event, status, conclusion);
-- head_sha and check_suite_id match few runs: no need to carry the other columns.
CREATE INDEX workflow_runs_head_sha ON workflow_runs(repo_id, head_sha, created_at);
CREATE INDEX workflow_runs_check_suite ON workflow_runs(repo_id, check_suite_id, created_at);

-- Jobs of a run, one row per job and attempt: a re-run writes the next attempt's rows (re-run jobs
-- queued, the others copied), so earlier attempts stay readable (filter=all).
CREATE TABLE workflow_jobs (
  id                INTEGER PRIMARY KEY,
  run_id            INTEGER NOT NULL REFERENCES workflow_runs(id) ON DELETE CASCADE,
  run_attempt       INTEGER NOT NULL,
  name              TEXT NOT NULL,
  needs             TEXT NOT NULL DEFAULT '[]',        -- JSON names of the jobs of the same attempt it waits for
  status            TEXT NOT NULL CHECK (status = 'requested' OR status = 'queued' OR status = 'in_progress' OR status = 'waiting' OR status = 'pending' OR status = 'completed'),
  conclusion        TEXT CHECK (conclusion = 'success' OR conclusion = 'failure' OR conclusion = 'neutral' OR conclusion = 'cancelled' OR conclusion = 'skipped' OR conclusion = 'timed_out' OR conclusion = 'action_required'),
  labels            TEXT NOT NULL DEFAULT '[]',        -- JSON array of runner labels
  steps             TEXT NOT NULL DEFAULT '[]',        -- JSON [{name, status, conclusion, number, started_at, completed_at}]
  runner_id         INTEGER,
  runner_name       TEXT,
  runner_group_id   INTEGER,
  runner_group_name TEXT,
  created_at        TEXT NOT NULL,
  started_at        TEXT NOT NULL,
  completed_at      TEXT,
  UNIQUE (run_id, run_attempt, name),
  CHECK ((status = 'completed') = (conclusion IS NOT NULL))
);
-- ===== end workflows, runs and jobs =====

-- ===== dependency graph (src/api/dependency-graph) =====
-- Dependency snapshots submitted for a commit. Every
-- snapshot is kept, so dependency review can read the dependencies of older commits; the latest
-- one per (job_correlator, detector_name) is the repository's current state.
CREATE TABLE dependency_snapshots (
  id               INTEGER PRIMARY KEY,
  repo_id          INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
  version          INTEGER NOT NULL,
  job_id           TEXT NOT NULL,
  job_correlator   TEXT NOT NULL,
  job_html_url     TEXT,
  sha              TEXT NOT NULL,                      -- commit id, lowercase hex
  ref              TEXT NOT NULL,                      -- refs/heads/<branch> that triggered it
  detector_name    TEXT NOT NULL,
  detector_version TEXT NOT NULL,
  detector_url     TEXT NOT NULL,
  metadata         TEXT NOT NULL DEFAULT '{}',         -- JSON object, at most 8 scalar values
  scanned          TEXT NOT NULL,                      -- ISO timestamp of the scan
  created_at       TEXT NOT NULL
);
CREATE INDEX dependency_snapshots_latest ON dependency_snapshots(repo_id, job_correlator, detector_name, id);
CREATE INDEX dependency_snapshots_sha ON dependency_snapshots(repo_id, sha);

-- The manifests of a snapshot; path is file.source_location, else the manifest's name.
CREATE TABLE dependency_manifests (
  id          INTEGER PRIMARY KEY,
  snapshot_id INTEGER NOT NULL REFERENCES dependency_snapshots(id) ON DELETE CASCADE,
  key         TEXT NOT NULL,
  name        TEXT NOT NULL,
  path        TEXT NOT NULL,
  metadata    TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX dependency_manifests_snapshot ON dependency_manifests(snapshot_id);

-- Resolved dependencies of a manifest, parsed from their package-url.
CREATE TABLE dependency_packages (
  manifest_id  INTEGER NOT NULL REFERENCES dependency_manifests(id) ON DELETE CASCADE,
  package_url  TEXT NOT NULL,
  ecosystem    TEXT NOT NULL,                          -- GitHub's ecosystem names: npm, pip, maven, rubygems, go, ...
  name         TEXT NOT NULL,
  version      TEXT,
  relationship TEXT CHECK (relationship IN ('direct', 'indirect')),
  scope        TEXT CHECK (scope IN ('runtime', 'development')),
  metadata     TEXT NOT NULL DEFAULT '{}',
  dependencies TEXT NOT NULL DEFAULT '[]'              -- JSON array of the package-urls of direct children
);
CREATE INDEX dependency_packages_manifest ON dependency_packages(manifest_id);
-- ===== end dependency graph =====

-- ===== dependabot alerts and dismissal requests (src/api/dependabot) =====
-- GitHub global security advisories, imported from GitHub's JSON (GET /advisories) with
-- importAdvisories, since Gitstead is offline. Upserted by ghsa_id; JSON columns keep GitHub's shapes.
CREATE TABLE security_advisories (
  id                   INTEGER PRIMARY KEY,
  ghsa_id              TEXT NOT NULL UNIQUE COLLATE NOCASE,
  cve_id               TEXT,
  type                 TEXT NOT NULL DEFAULT 'reviewed' CHECK (type = 'reviewed' OR type = 'unreviewed' OR type = 'malware'),
  summary              TEXT NOT NULL,
  description          TEXT,
  -- 'unknown' advisories are kept but never match a dependency (alerts need a severity).
  severity             TEXT NOT NULL CHECK (severity = 'low' OR severity = 'medium' OR severity = 'high' OR severity = 'critical' OR severity = 'unknown'),
  cvss                 TEXT,                           -- JSON {vector_string, score} or NULL
  cvss_severities      TEXT,                           -- JSON {cvss_v3, cvss_v4} or NULL
  epss                 TEXT,                           -- JSON as imported, or NULL
  cwes                 TEXT NOT NULL DEFAULT '[]',     -- JSON [{cwe_id, name}]
  identifiers          TEXT NOT NULL DEFAULT '[]',     -- JSON [{type, value}]
  reference_urls       TEXT NOT NULL DEFAULT '[]',     -- JSON array of URL strings (GitHub's `references`)
  source_code_location TEXT,
  published_at         TEXT NOT NULL,
  updated_at           TEXT NOT NULL,
  withdrawn_at         TEXT,                           -- withdrawn advisories match nothing; their alerts are removed
  imported_at          TEXT NOT NULL
);

-- Vulnerable packages of an advisory: replaced whole on every import of the advisory. Entries
-- without a package name or range are not stored (they cannot match).
CREATE TABLE advisory_vulnerabilities (
  id                       INTEGER PRIMARY KEY,
  advisory_id              INTEGER NOT NULL REFERENCES security_advisories(id) ON DELETE CASCADE,
  ecosystem                TEXT NOT NULL,              -- GitHub's names: npm, pip, maven, rubygems, nuget, go, composer, rust, ...
  package_name             TEXT NOT NULL,              -- as the advisory writes it
  package_key              TEXT NOT NULL,              -- as compared: lower-cased (pip: PEP 503) for pip, nuget, composer
  vulnerable_version_range TEXT NOT NULL,              -- GitHub's syntax: ">= 1.0.0, < 1.2.3"
  first_patched_version    TEXT
);
CREATE INDEX advisory_vulnerabilities_advisory ON advisory_vulnerabilities(advisory_id);
CREATE INDEX advisory_vulnerabilities_package ON advisory_vulnerabilities(ecosystem, package_key);

-- Per-repository number sequences of alerts and dismissal requests (numbers are never reused,
-- even when alerts of a withdrawn advisory are removed).
CREATE TABLE dependabot_sequences (
  repo_id            INTEGER PRIMARY KEY REFERENCES repositories(id) ON DELETE CASCADE,
  alerts             INTEGER NOT NULL DEFAULT 0,       -- last alert number given
  dismissal_requests INTEGER NOT NULL DEFAULT 0        -- last dismissal request number given
);

-- Dependabot alerts: one per (manifest, package, advisory) of a repository, opened, fixed and
-- reopened by refreshAlerts from the repository's current dependencies; dismissed and reopened
-- through the API. The vulnerable range and patched version are those that matched last.
CREATE TABLE dependabot_alerts (
  id                       INTEGER PRIMARY KEY,
  repo_id                  INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
  number                   INTEGER NOT NULL,
  advisory_id              INTEGER NOT NULL REFERENCES security_advisories(id) ON DELETE CASCADE,
  manifest_path            TEXT NOT NULL,
  ecosystem                TEXT NOT NULL,              -- GitHub's ecosystem names
  package_name             TEXT NOT NULL,              -- as the dependency names it
  package_key              TEXT NOT NULL,              -- as compared (see advisory_vulnerabilities)
  version                  TEXT,                       -- the vulnerable version last seen
  scope                    TEXT CHECK (scope IN ('runtime', 'development')),
  relationship             TEXT CHECK (relationship = 'direct' OR relationship = 'transitive' OR relationship = 'unknown'),
  vulnerable_version_range TEXT NOT NULL,
  first_patched_version    TEXT,
  state                    TEXT NOT NULL CHECK (state = 'open' OR state = 'dismissed' OR state = 'fixed' OR state = 'auto_dismissed'),
  dismissed_at             TEXT,
  dismissed_by_id          INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
  dismissed_reason         TEXT CHECK (dismissed_reason = 'fix_started' OR dismissed_reason = 'inaccurate' OR dismissed_reason = 'no_bandwidth' OR dismissed_reason = 'not_used' OR dismissed_reason = 'tolerable_risk'),
  dismissed_comment        TEXT,
  fixed_at                 TEXT,
  auto_dismissed_at        TEXT,
  created_at               TEXT NOT NULL,
  updated_at               TEXT NOT NULL,
  UNIQUE (repo_id, number),
  UNIQUE (repo_id, manifest_path, ecosystem, package_key, advisory_id)
);
CREATE INDEX dependabot_alerts_advisory ON dependabot_alerts(advisory_id);

-- Requests to dismiss a dependabot alert under delegated alert dismissal. status: open → approved | denied | cancelled | expired (after expires_at,
-- by the dismissal-request-expiry job; reads already show an overdue open request as expired).
CREATE TABLE dependabot_dismissal_requests (
  id                INTEGER PRIMARY KEY,
  repo_id           INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
  number            INTEGER NOT NULL,                  -- per repository
  alert_id          INTEGER NOT NULL REFERENCES dependabot_alerts(id) ON DELETE CASCADE,
  requester_id      INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  reason            TEXT NOT NULL CHECK (reason = 'fix_started' OR reason = 'inaccurate' OR reason = 'no_bandwidth' OR reason = 'not_used' OR reason = 'tolerable_risk'),
  requester_comment TEXT,
  status            TEXT NOT NULL
    CHECK (status = 'pending' OR status = 'open' OR status = 'approved' OR status = 'denied' OR status = 'expired' OR status = 'completed' OR status = 'cancelled'),
  expires_at        TEXT NOT NULL,
  created_at        TEXT NOT NULL,
  updated_at        TEXT NOT NULL,
  UNIQUE (repo_id, number)
);
-- At most one open request per alert.
CREATE UNIQUE INDEX dependabot_dismissal_requests_open ON dependabot_dismissal_requests(alert_id) WHERE status = 'open';
CREATE INDEX dependabot_dismissal_requests_alert ON dependabot_dismissal_requests(alert_id, id);
CREATE INDEX dependabot_dismissal_requests_repo ON dependabot_dismissal_requests(repo_id, created_at);
CREATE INDEX dependabot_dismissal_requests_expiry ON dependabot_dismissal_requests(expires_at) WHERE status = 'open';

-- Reviews of a dismissal request (its `responses`).
CREATE TABLE dependabot_dismissal_responses (
  id          INTEGER PRIMARY KEY,
  request_id  INTEGER NOT NULL REFERENCES dependabot_dismissal_requests(id) ON DELETE CASCADE,
  reviewer_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  status      TEXT NOT NULL CHECK (status = 'approved' OR status = 'denied' OR status = 'dismissed'),
  message     TEXT,
  created_at  TEXT NOT NULL
);
CREATE INDEX dependabot_dismissal_responses_request ON dependabot_dismissal_responses(request_id);
CREATE INDEX dependabot_dismissal_responses_reviewer ON dependabot_dismissal_responses(reviewer_id);
-- ===== end dependabot alerts and dismissal requests =====

-- Access tokens. Only the SHA-256 of a token is stored; the secret is shown once at creation.
CREATE TABLE tokens (
  id                INTEGER PRIMARY KEY,
  kind              TEXT NOT NULL
    CHECK (kind = 'classic' OR kind = 'fine-grained' OR kind = 'oauth' OR kind = 'user-to-server' OR kind = 'installation'),
  token_hash        BLOB NOT NULL UNIQUE,             -- SHA-256 of the whole token string
  token_last_eight  TEXT NOT NULL,                    -- shown by `admin list-tokens`
  user_id           INTEGER REFERENCES accounts(id) ON DELETE CASCADE,  -- acting user; NULL for installation tokens
  created_by_id     INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
  scopes            TEXT NOT NULL DEFAULT '',         -- classic and OAuth tokens: normalized, comma separated
  permissions       TEXT NOT NULL DEFAULT '{}',       -- fine-grained and app tokens: JSON {permission_key: level}
  resource_owner_id INTEGER REFERENCES accounts(id) ON DELETE CASCADE,  -- account a fine-grained/app token is limited to
  -- App tokens: the installation they act through (its permissions bound theirs).
  installation_id   INTEGER REFERENCES installations(id) ON DELETE CASCADE,
  repository_ids    TEXT,                             -- JSON array: an installation token limited to these repositories
  note              TEXT,
  created_at        INTEGER NOT NULL,
  expires_at        INTEGER,
  last_used_at      INTEGER,
  revoked_at        INTEGER,
  CHECK ((kind = 'installation') = (user_id IS NULL)),
  CHECK (kind NOT IN ('installation', 'user-to-server') OR installation_id IS NOT NULL)
);
CREATE INDEX tokens_user ON tokens(user_id);

-- Rate-limit windows per principal ('user:1', 'installation:2', 'ip:127.0.0.1') and resource
-- (core, search, ...). Counted in memory, written here by a job every second, loaded on start.
CREATE TABLE rate_limit_windows (
  principal TEXT NOT NULL,
  resource  TEXT NOT NULL,
  used      INTEGER NOT NULL,
  reset_at  INTEGER NOT NULL,
  PRIMARY KEY (principal, resource)
) WITHOUT ROWID;

-- Durable background work: a row is written in the same transaction as the request that needs
-- it, then a job runs it. A crash never loses it.
CREATE TABLE background_tasks (
  id         INTEGER PRIMARY KEY,
  kind       TEXT NOT NULL,
  payload    TEXT NOT NULL,                           -- JSON
  state      TEXT NOT NULL DEFAULT 'queued' CHECK (state = 'queued' OR state = 'done' OR state = 'failed'),
  attempts   INTEGER NOT NULL DEFAULT 0,
  run_at     INTEGER NOT NULL,
  last_error TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX background_tasks_due ON background_tasks(run_at) WHERE state = 'queued';

-- The domain-event log (src/events/log.ts): one row per state change GitHub reports as an activity
-- event, a notification or a webhook, written in the transaction of the change. Rows with a
-- feed_type are the activity feeds (GET /events, /repos/{owner}/{repo}/events, ...), newest first;
-- the events-prune job keeps 30 days (schema 5).
CREATE TABLE events (
  id         INTEGER PRIMARY KEY,
  event      TEXT NOT NULL,                         -- GitHub's webhook event name (issues, push, ...)
  action     TEXT,
  actor_id   INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
  repo_id    INTEGER REFERENCES repositories(id) ON DELETE CASCADE,
  repo_name  TEXT,                                  -- owner/name when it happened
  org_id     INTEGER REFERENCES accounts(id) ON DELETE CASCADE,
  public     INTEGER NOT NULL,                      -- 1: a public repository's event
  feed_type  TEXT,                                  -- GitHub's Event type (IssuesEvent, ...); NULL: not in feeds
  payload    TEXT,                                  -- the feed payload (JSON) as it was
  created_at TEXT NOT NULL,
  notification TEXT                                 -- what notification threads derive from it (JSON), after commit
);
-- The feeds' indexes (schema 9: created_at, public and repo_id ride along, so counting a feed and
-- finding its newest event read the index alone).
CREATE INDEX events_repo ON events(repo_id, id, created_at, public) WHERE feed_type IS NOT NULL;
CREATE INDEX events_org ON events(org_id, id, created_at, public, repo_id) WHERE feed_type IS NOT NULL;
CREATE INDEX events_actor ON events(actor_id, id, created_at, public, repo_id) WHERE feed_type IS NOT NULL;
CREATE INDEX events_public ON events(id, created_at) WHERE feed_type IS NOT NULL AND public = 1;
CREATE INDEX events_created ON events(created_at);
-- The invitations sent to a repository in the last day (GitHub's 50 per repository per 24 hours; schema 11).
CREATE INDEX events_repository_invitations ON events(repo_id, created_at) WHERE event = 'repository_invitation';
-- How many feed events were ever deleted (pruned, their repository or organization deleted) or
-- hidden (their repository made private): part of every feed's version (its ETag), kept by
-- triggers whoever makes the change (schema 9).
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
END;
-- Notification threads are derived from the log after the commit of each change
-- (src/events/notifications.ts): event_id is the newest event already derived from. Deleting the
-- newest events (a repository's, with it) lowers it to the newest left, so an id SQLite hands out
-- again is derived from when it comes back.
CREATE TABLE notification_watermark (
  id       INTEGER PRIMARY KEY CHECK (id = 1),
  event_id INTEGER NOT NULL
);
INSERT INTO notification_watermark (id, event_id) VALUES (1, 0);
CREATE TRIGGER events_watermark AFTER DELETE ON events
WHEN OLD.id <= (SELECT event_id FROM notification_watermark WHERE id = 1) BEGIN
  UPDATE notification_watermark SET event_id = (SELECT coalesce(max(id), 0) FROM events)
  WHERE id = 1 AND event_id > (SELECT coalesce(max(id), 0) FROM events);
END;

-- The names a repository had (schema 10): requests naming an old name are redirected to the
-- repository (301 for GET and HEAD, 307 otherwise), as GitHub does, until a repository takes the
-- name again. Kept by triggers, whoever renames.
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
END;

-- Starring and watching (GitHub's activity API, schema 6). A star bookmarks a repository for a user;
-- a subscription says whether the user watches it (subscribed) or ignores its notifications
-- (ignored; never both). Rows stay when the user loses read access to the repository (GitHub keeps
-- them); lists hide them. repositories.stargazers_count and subscribers_count follow by triggers.
CREATE TABLE stars (
  user_id    INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  repo_id    INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,                          -- starred_at
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

-- Notifications (src/api/notifications): subjects (what a
-- thread is about, one row per object) and threads (one per user and subject). Derived from the
-- domain-event log by its notifications subscriber (src/events/notifications.ts) in the
-- transaction of the change; a thread is listed from its first notification on (schema 8).
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
CREATE INDEX notification_threads_subject ON notification_threads(subject_id, subscribed);

-- Schema 11. A repository's forks_count follows its direct forks.
CREATE TRIGGER repositories_fork_added AFTER INSERT ON repositories WHEN NEW.fork_parent_id IS NOT NULL BEGIN
  UPDATE repositories SET forks_count = forks_count + 1 WHERE id = NEW.fork_parent_id;
END;
CREATE TRIGGER repositories_fork_removed AFTER DELETE ON repositories WHEN OLD.fork_parent_id IS NOT NULL BEGIN
  UPDATE repositories SET forks_count = forks_count - 1 WHERE id = OLD.fork_parent_id;
END;

-- Schema 11. Repository topics (GitHub's rules: lowercase letters, digits and hyphens, 50
-- characters, 20 per repository), in the order given; repositories.topics (JSON) follows them by
-- triggers, so every repository record carries them without a query.
CREATE TABLE repository_topics (
  repo_id  INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
  name     TEXT NOT NULL,
  position INTEGER NOT NULL,
  PRIMARY KEY (repo_id, name)
) WITHOUT ROWID;
CREATE INDEX repository_topics_name ON repository_topics(name);
CREATE TRIGGER repository_topics_added AFTER INSERT ON repository_topics BEGIN
  UPDATE repositories SET topics = (SELECT json_group_array(name) FROM (SELECT name FROM repository_topics WHERE repo_id = NEW.repo_id ORDER BY position))
  WHERE id = NEW.repo_id;
END;
CREATE TRIGGER repository_topics_removed AFTER DELETE ON repository_topics BEGIN
  UPDATE repositories SET topics = (SELECT json_group_array(name) FROM (SELECT name FROM repository_topics WHERE repo_id = OLD.repo_id ORDER BY position))
  WHERE id = OLD.repo_id;
END;

-- Search (schema 11): full-text indexes for GET /search/repositories and GET /search/issues
-- (repositories: name, description; issues: title, body; issue comments: body).
-- External-content FTS5 tables (the text stays in repositories and issues), kept by triggers;
-- unicode61 with remove_diacritics 2, so "café" matches "cafe".
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
-- Issues are indexed after their commit, not by a trigger on insert (src/api/search/issue-index.ts):
-- issues_fts is contentless (deleting by rowid needs no old text), issues_fts_watermark names the
-- highest issue id indexed, and issues_fts_pending the indexed issues whose title or body changed
-- (or which were deleted) since; an issue above the watermark is indexed as it is when the indexer runs.
-- Deleting the highest issues lowers the watermark, so an id SQLite gives again is indexed too.
CREATE VIRTUAL TABLE issues_fts USING fts5(title, body, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
CREATE TABLE issues_fts_watermark (
  id       INTEGER PRIMARY KEY CHECK (id = 1),
  issue_id INTEGER NOT NULL
);
INSERT INTO issues_fts_watermark (id, issue_id) VALUES (1, 0);
CREATE TABLE issues_fts_pending (
  issue_id INTEGER PRIMARY KEY
);
CREATE TRIGGER issues_fts_update AFTER UPDATE OF title, body ON issues
WHEN (OLD.title IS NOT NEW.title OR OLD.body IS NOT NEW.body) AND NEW.id <= (SELECT issue_id FROM issues_fts_watermark WHERE id = 1) BEGIN
  INSERT OR IGNORE INTO issues_fts_pending (issue_id) VALUES (NEW.id);
END;
CREATE TRIGGER issues_fts_delete AFTER DELETE ON issues
WHEN OLD.id <= (SELECT issue_id FROM issues_fts_watermark WHERE id = 1) BEGIN
  INSERT OR IGNORE INTO issues_fts_pending (issue_id) VALUES (OLD.id);
  UPDATE issues_fts_watermark SET issue_id = (SELECT coalesce(max(id), 0) FROM issues)
  WHERE id = 1 AND issue_id > (SELECT coalesce(max(id), 0) FROM issues);
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

-- ===== commit statuses (src/api/statuses) =====
-- Statuses posted for commits (GitHub's "Commit statuses"): every one is kept, newest last; the
-- combined status of a commit is the newest row per context (schema 11).
CREATE TABLE commit_statuses (
  id          INTEGER PRIMARY KEY,
  repo_id     INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
  sha         TEXT NOT NULL,                          -- the commit, full lower-case hex
  state       TEXT NOT NULL CHECK (state = 'error' OR state = 'failure' OR state = 'pending' OR state = 'success'),
  context     TEXT NOT NULL,
  description TEXT,
  target_url  TEXT,
  creator_id  INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
  created_at  TEXT NOT NULL,
  updated_at  TEXT NOT NULL
);
-- Lists (newest first) walk (repo_id, sha, id); the latest per context seeks (repo_id, sha, context).
CREATE INDEX commit_statuses_commit ON commit_statuses(repo_id, sha, id);
CREATE INDEX commit_statuses_context ON commit_statuses(repo_id, sha, context, id);
-- ===== end commit statuses =====

-- ===== releases (src/api/releases) =====
-- Releases of a repository (GitHub's "Releases"): the body is rendered when written (body_html,
-- body_text); drafts have no published_at. make_latest is the latest write's choice; is_latest
-- marks the release chosen as the repository's latest (make_latest true), at most one. An asset's
-- bytes are the file <blob_dir>/release-assets/<blob>, written by the upload before its row
-- (schema 11).
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
  make_latest      TEXT NOT NULL DEFAULT 'true' CHECK (make_latest = 'true' OR make_latest = 'false' OR make_latest = 'legacy'),
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
  blob           TEXT NOT NULL,                    -- file name in <blob_dir>/release-assets
  created_at     TEXT NOT NULL,
  updated_at     TEXT NOT NULL,
  UNIQUE (release_id, name)
);
CREATE INDEX release_assets_repo ON release_assets(repo_id);
-- ===== end releases =====

-- ===== check runs of apps (src/api/checks) =====
-- Check runs GitHub Apps create (POST …/check-runs) and their suites, one per (repository, commit,
-- app). GitHub Actions' suites and runs are the workflow runs and jobs (not stored here). Ids start
-- at 2^40 (src/api/checks/store.ts CHECK_ID_BASE), apart from the workflow jobs' and runs' ids that
-- the check routes share (schema 11).
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
  status         TEXT NOT NULL CHECK (status = 'queued' OR status = 'in_progress' OR status = 'completed' OR status = 'waiting' OR status = 'requested' OR status = 'pending'),
  conclusion     TEXT CHECK (conclusion = 'action_required' OR conclusion = 'cancelled' OR conclusion = 'failure' OR conclusion = 'neutral' OR conclusion = 'success' OR conclusion = 'skipped' OR conclusion = 'stale' OR conclusion = 'timed_out'),
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
CREATE INDEX check_runs_suite ON check_runs(suite_id, name, id);
-- ===== end check runs =====

-- The organization audit log (GET /orgs/{org}/audit-log; schema 21): derived from the domain-event
-- log in the transaction of each administrative change (src/events/audit.ts), with the acting token's
-- id and kind, the client address and the request id; kept events.audit_retention_days.
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
CREATE INDEX audit_log_created ON audit_log(created_at);

-- Roles (schema 22). Custom repository roles: a base role (the `permission` of the grants that name
-- the role in role_id) and repository fine-grained permissions on top (src/api/roles). Organization
-- roles are predefined (all_repo_read … all_repo_admin: that role on every repository of the
-- organization), assigned to members and teams.
CREATE TABLE custom_repository_roles (
  id          INTEGER PRIMARY KEY,
  org_id      INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name        TEXT NOT NULL COLLATE NOCASE,
  description TEXT,
  base_role   TEXT NOT NULL CHECK (base_role = 'read' OR base_role = 'triage' OR base_role = 'write' OR base_role = 'maintain'),
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
-- ===== repository rulesets =====
-- Organization rulesets (GitHub's "REST API endpoints for rules"): bypass actors, conditions and
-- rules kept as GitHub's JSON; every create and update stores a version (its state as rendered).
CREATE TABLE rulesets (
  id            INTEGER PRIMARY KEY,
  org_id        INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name          TEXT NOT NULL,
  target        TEXT NOT NULL CHECK (target = 'branch' OR target = 'tag' OR target = 'push'),
  enforcement   TEXT NOT NULL CHECK (enforcement = 'disabled' OR enforcement = 'active' OR enforcement = 'evaluate'),
  bypass_actors TEXT NOT NULL,  -- JSON array of {actor_id, actor_type, bypass_mode}
  conditions    TEXT,           -- JSON object, or NULL
  rules         TEXT NOT NULL,  -- JSON array of {type, parameters?}
  created_at    TEXT NOT NULL,
  updated_at    TEXT NOT NULL,
  repo_id       INTEGER REFERENCES repositories(id) ON DELETE CASCADE  -- a repository ruleset's; NULL: the organization's
);
-- Names are unique among an organization's rulesets and among each repository's own.
CREATE UNIQUE INDEX rulesets_org_name ON rulesets(org_id, name) WHERE repo_id IS NULL;
CREATE UNIQUE INDEX rulesets_repo_name ON rulesets(repo_id, name) WHERE repo_id IS NOT NULL;
CREATE TABLE ruleset_versions (
  id         INTEGER PRIMARY KEY,  -- version_id
  ruleset_id INTEGER NOT NULL REFERENCES rulesets(id) ON DELETE CASCADE,
  actor_id   INTEGER,              -- the account that made the version (kept if it is deleted)
  actor_type TEXT NOT NULL,        -- 'User' or 'Integration' ...
  state      TEXT NOT NULL,        -- JSON: the ruleset as it was
  updated_at TEXT NOT NULL
);
CREATE INDEX ruleset_versions_ruleset ON ruleset_versions(ruleset_id, id);
-- Rule suites: one per evaluated reference update (rule insights); kept when the ruleset or the
-- repository goes, as GitHub keeps its insights.
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
  result            TEXT NOT NULL CHECK (result = 'pass' OR result = 'fail' OR result = 'bypass'),
  evaluation_result TEXT CHECK (evaluation_result = 'pass' OR evaluation_result = 'fail' OR evaluation_result = 'bypass'),
  rule_evaluations  TEXT NOT NULL  -- JSON array
);
CREATE INDEX rule_suites_org ON rule_suites(org_id, pushed_at);
-- Push-rule bypass requests (GET /orgs/{org}/bypass-requests/push-rules). Nothing creates them yet:
-- Gitstead has no push protection flow asking for a bypass.
CREATE TABLE push_bypass_requests (
  id                  INTEGER PRIMARY KEY,
  org_id              INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  repo_id             INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
  number              INTEGER NOT NULL,
  requester_id        INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  request_type        TEXT NOT NULL,
  data                TEXT,          -- JSON array of {ruleset_id, ruleset_name, total_violations, rule_type}
  resource_identifier TEXT NOT NULL,
  status              TEXT NOT NULL CHECK (status = 'pending' OR status = 'denied' OR status = 'approved' OR status = 'cancelled' OR status = 'completed' OR status = 'expired' OR status = 'deleted' OR status = 'open'),
  requester_comment   TEXT,
  responses           TEXT NOT NULL DEFAULT '[]',  -- JSON array of {id, reviewer: {actor_id, actor_name}, status, created_at}
  expires_at          TEXT NOT NULL,
  created_at          TEXT NOT NULL,
  UNIQUE (repo_id, number)
);
CREATE INDEX push_bypass_requests_org ON push_bypass_requests(org_id, created_at);
-- ===== end repository rulesets =====
-- ===== organization security settings =====
-- Schema 21: organization security settings. Code security configurations of an
-- organization (org_id NULL: the GitHub-provided configuration, target_type global) with their
-- settings as GitHub's field names (JSON), which configuration is the default for new repositories
-- of an organization, and which configuration each repository is attached to (the switches it
-- drives are repositories.security_settings).
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
  default_for_new_repos TEXT NOT NULL CHECK (default_for_new_repos = 'all' OR default_for_new_repos = 'private_and_internal' OR default_for_new_repos = 'public'),
  PRIMARY KEY (org_id, configuration_id)
);
CREATE TABLE code_security_attachments (
  repo_id          INTEGER PRIMARY KEY REFERENCES repositories(id) ON DELETE CASCADE,
  configuration_id INTEGER NOT NULL REFERENCES code_security_configurations(id) ON DELETE CASCADE,
  attached_at      TEXT NOT NULL
);
CREATE INDEX code_security_attachments_configuration ON code_security_attachments(configuration_id, repo_id);
-- Security managers (teams whose members read the security alerts of every repository of the
-- organization), and Dependabot's repository access (private and internal repositories Dependabot
-- may reach when updating dependencies; default_level applies to new repositories).
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
-- Immutable releases: an organization's policy (enforced_repositories all | none | selected; no
-- row: none) and its selected repositories; the releases published while their repository was
-- enforced (immutable: assets and tag locked). A row outlives its release (release_id NULL) so the
-- tag name is never used again (GitHub: "tag_name was used by an immutable release").
CREATE TABLE immutable_release_settings (
  org_id                INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
  enforced_repositories TEXT NOT NULL CHECK (enforced_repositories = 'all' OR enforced_repositories = 'none' OR enforced_repositories = 'selected')
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
-- Secret scanning pattern configurations of an organization: the push protection setting chosen
-- for provider patterns (JSON: token_type → enabled | disabled; absent: not-set) and the version
-- a change must name (null until the first change).
CREATE TABLE secret_scanning_pattern_configs (
  org_id            INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
  version           TEXT NOT NULL,
  provider_settings TEXT NOT NULL DEFAULT '{}'
);
-- ===== end organization security settings =====
-- ===== organization Actions settings (src/api/org-actions) =====
-- One row per organization that changed a setting (absent: GitHub's defaults). The JSON columns
-- hold arrays of strings.
CREATE TABLE org_actions_settings (
  org_id                                 INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
  enabled_repositories                   TEXT NOT NULL DEFAULT 'all' CHECK (enabled_repositories = 'all' OR enabled_repositories = 'none' OR enabled_repositories = 'selected'),
  allowed_actions                        TEXT NOT NULL DEFAULT 'all' CHECK (allowed_actions = 'all' OR allowed_actions = 'local_only' OR allowed_actions = 'selected'),
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
  self_hosted_enabled_repositories       TEXT NOT NULL DEFAULT 'all' CHECK (self_hosted_enabled_repositories = 'all' OR self_hosted_enabled_repositories = 'none' OR self_hosted_enabled_repositories = 'selected'),
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
CREATE INDEX org_actions_repositories_repo ON org_actions_repositories(repo_id);
-- ===== end organization Actions settings =====

-- External groups and installation repositories (schema 23). External groups are imported (`gitstead admin
-- import-external-groups`; there is no identity provider): a group's members by login, a team linked to one
-- group at most (its members follow the group's). An installation with repository_selection 'selected' reaches
-- the repositories listed in installation_repositories (none listed: none).
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
CREATE INDEX installation_repositories_repository ON installation_repositories(repository_id);

-- Schema 29. Signing in to the web interface: a user's password (scrypt, `gitstead admin set-password`), the
-- browser sessions it opens (only the SHA-256 of the cookie's secret is stored; each session has its own CSRF
-- secret; epoch seconds), and suspended users (who can neither sign in nor use their tokens).
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
);

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
  visibility     TEXT CHECK (visibility = 'all' OR visibility = 'private' OR visibility = 'selected'),  -- organization ones
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
  kind        TEXT NOT NULL CHECK (kind = 'authentication' OR kind = 'signing' OR kind = 'deploy'),
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
CREATE INDEX gpg_signature_checks_key ON gpg_signature_checks(gpg_key_id);

-- Issue events (schema 32; GitHub's issue events and the events of an issue's timeline): derived
-- from the domain-event log (src/events/log.ts) in the transaction of each change, and from
-- commits that reference an issue when they are pushed (one `referenced` event per commit and
-- issue). `details` is JSON: label {name, color}, assignee_id, milestone {title}, rename {from, to},
-- requested_reviewer_id / requested_team {id, name, slug}, lock_reason, state_reason,
-- dismissed_review, before/after (force pushes), from/to (base changes), branch.
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

-- Each repository's latest push (schema 33): the ref, its commit before (NULL: created) and after
-- (NULL: deleted); POST /repos/{owner}/{repo}/hooks/{id}/tests sends that push again.
CREATE TABLE repository_pushes (
  repo_id    INTEGER PRIMARY KEY REFERENCES repositories(id) ON DELETE CASCADE,
  ref        TEXT NOT NULL,
  before_sha TEXT,
  after_sha  TEXT,
  pushed_at  TEXT NOT NULL
);

-- Code search (schema 36; GET /search/code): the files of each repository's default branch, text
-- files of at most 384 KB (GitHub's limit), at most 20,000 per repository, indexed by the
-- `code-search-index` background task when the default branch moves (src/api/search/code-index.ts),
-- never in the request or the push's transaction. code_search_repos says which commit is indexed;
-- code_search_fts holds each file's text under the trigram tokenizer (substring matching, any
-- language), its rowid the file's id. A binary file (binary 1) is listed without text, so that it
-- is not read again at every push.
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
END;

-- Commit search (schema 37; GET /search/commits): the commits of each repository's default
-- branch (at most 100,000 per repository), indexed by the same background task as code search.
-- Dates are ISO UTC; author_id/committer_id are the accounts the emails belonged to when indexed.
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
  -- Schema 42, for the repository statistics (src/api/stats/service.ts, whose task fills them):
  -- lines added and deleted against the first parent (a root commit: against nothing; a merge
  -- counts none), as `git log --shortstat`, NULL until counted (repositories of 10,000 commits or
  -- more are not counted, as GitHub does not); the author's time zone in minutes east of UTC.
  additions       INTEGER,
  deletions       INTEGER,
  author_offset   INTEGER,
  UNIQUE (repo_id, sha)
);
CREATE INDEX commit_search_committer_date ON commit_search(committer_date);
CREATE INDEX commit_search_stats_pending ON commit_search(repo_id) WHERE author_offset IS NULL;
CREATE VIRTUAL TABLE commit_search_fts USING fts5(message, content='commit_search', content_rowid='id', tokenize='unicode61 remove_diacritics 2');
CREATE TRIGGER commit_search_fts_insert AFTER INSERT ON commit_search BEGIN
  INSERT INTO commit_search_fts (rowid, message) VALUES (NEW.id, NEW.message);
END;
CREATE TRIGGER commit_search_fts_delete AFTER DELETE ON commit_search BEGIN
  INSERT INTO commit_search_fts (commit_search_fts, rowid, message) VALUES ('delete', OLD.id, OLD.message);
END;

-- Pinned issues (schema 38; GraphQL pinIssue/unpinIssue, Repository.pinnedIssues): at most 3 per
-- repository (GitHub's limit), in the order pinned.
CREATE TABLE issue_pins (
  issue_id     INTEGER PRIMARY KEY REFERENCES issues(id) ON DELETE CASCADE,
  repo_id      INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
  pinned_by_id INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
  pinned_at    TEXT NOT NULL
);
CREATE INDEX issue_pins_repo ON issue_pins(repo_id, pinned_at);

-- Issue numbers that left their repository (schema 38): transferred to another repository
-- (transferred 1; issue_id: the issue where it is now, NULL once deleted there) or deleted
-- (transferred 0). Numbers are never given again; GET of an old number answers 301 to a
-- transferred issue and 410 for a deleted one, as GitHub does.
CREATE TABLE issue_tombstones (
  repo_id     INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
  number      INTEGER NOT NULL,
  issue_id    INTEGER REFERENCES issues(id) ON DELETE SET NULL,
  transferred INTEGER NOT NULL,
  created_at  TEXT NOT NULL,
  PRIMARY KEY (repo_id, number)
) WITHOUT ROWID;
CREATE INDEX issue_tombstones_issue ON issue_tombstones(issue_id);
-- A transferred issue (src/api/issues/admin.ts) moves its open count with it.
CREATE TRIGGER issues_count_move AFTER UPDATE OF repo_id ON issues WHEN OLD.repo_id <> NEW.repo_id AND NEW.state = 'open' BEGIN
  UPDATE repositories SET open_issues_count = open_issues_count - 1 WHERE id = OLD.repo_id;
  UPDATE repositories SET open_issues_count = open_issues_count + 1 WHERE id = NEW.repo_id;
END;

-- Workflow job logs (schema 39): imported with runs (`gitstead admin import-runs`), each job's log
-- a file of the blob folder (`<blob_dir>/job-logs/<sha-256 of its bytes>`, so equal logs share a
-- file); steps is JSON [{number, start, end}], the byte range of each step's lines in it.
CREATE TABLE workflow_job_logs (
  job_id INTEGER PRIMARY KEY REFERENCES workflow_jobs(id) ON DELETE CASCADE,
  blob   TEXT NOT NULL,
  size   INTEGER NOT NULL,
  steps  TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX workflow_job_logs_blob ON workflow_job_logs(blob);

-- A user's email addresses beyond the account's own (schema 41; GET/POST/DELETE /user/emails).
-- The account's `email` is its primary address (verified; `email_public` is its visibility); these
-- are the others, unverified when added through the API until a site administrator verifies them
-- (`gitstead admin verify-email`). An address belongs to one account at most, without case.
CREATE TABLE user_emails (
  id         INTEGER PRIMARY KEY,
  user_id    INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  email      TEXT NOT NULL COLLATE NOCASE UNIQUE,
  verified   INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL
);
CREATE INDEX user_emails_user ON user_emails(user_id, id);
