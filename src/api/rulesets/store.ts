/**
 * Storage of organization rulesets, their versions, rule suites and push-rule bypass requests
 * (schema.sql: rulesets, ruleset_versions, rule_suites, push_bypass_requests). JSON columns hold
 * GitHub's shapes as given; timestamps are ISO 8601 text ('YYYY-MM-DDTHH:MM:SSZ').
 */
import type { DB } from '../../db/open';

export interface RulesetRow {
	id: number;
	/** The owner: the organization (organization rulesets) or the repository's owner (repository rulesets). */
	org_id: number;
	/** A repository ruleset's repository; null for an organization ruleset. */
	repo_id: number | null;
	/** Read with the row: the repository's name (repository rulesets), else null. */
	repo_name: string | null;
	name: string;
	target: 'branch' | 'tag' | 'push';
	enforcement: 'disabled' | 'active' | 'evaluate';
	/** JSON array */
	bypass_actors: string;
	/** JSON object or null */
	conditions: string | null;
	/** JSON array */
	rules: string;
	created_at: string;
	updated_at: string;
}

export type RulesetValues = Omit<RulesetRow, 'id' | 'org_id' | 'repo_id' | 'repo_name' | 'created_at' | 'updated_at'>;

export interface RulesetVersionRow {
	id: number;
	ruleset_id: number;
	actor_id: number | null;
	actor_type: string;
	/** JSON: the ruleset as rendered when the version was made */
	state: string;
	updated_at: string;
}

export interface RuleSuiteRow {
	id: number;
	org_id: number;
	repository_id: number;
	repository_name: string;
	actor_id: number | null;
	actor_name: string | null;
	before_sha: string;
	after_sha: string;
	ref: string;
	pushed_at: string;
	result: 'pass' | 'fail' | 'bypass';
	evaluation_result: 'pass' | 'fail' | 'bypass' | null;
	/** JSON array of evaluations (see enforce.ts) */
	rule_evaluations: string;
}

export interface BypassRequestRow {
	id: number;
	org_id: number;
	repo_id: number;
	number: number;
	requester_id: number;
	request_type: string;
	data: string | null;
	resource_identifier: string;
	status: string;
	requester_comment: string | null;
	responses: string;
	expires_at: string;
	created_at: string;
}

/** Filters of GET /orgs/{org}/rulesets/rule-suites; `since` ISO. */
export interface RuleSuiteFilter {
	since: string;
	ref?: string;
	repositoryName?: string;
	actorName?: string;
	result?: 'pass' | 'fail' | 'bypass';
}

/** Filters of GET /orgs/{org}/bypass-requests/push-rules; `since` ISO. */
export interface BypassRequestFilter {
	since: string;
	repositoryName?: string;
	requester?: string;
	reviewer?: string;
	status?: string;
}

/** Prepares the statements. */
export function createRulesetStore(db: DB) {
	const ROW = 'SELECT rulesets.*, (SELECT name FROM repositories WHERE id = rulesets.repo_id) AS repo_name FROM rulesets';
	const byOrg = db.prepare(`${ROW} WHERE org_id = ? AND repo_id IS NULL ORDER BY id`);
	const get = db.prepare(`${ROW} WHERE org_id = ? AND repo_id IS NULL AND id = ?`);
	const byName = db.prepare('SELECT id FROM rulesets WHERE org_id = ? AND repo_id IS NULL AND name = ?').pluck();
	const byRepo = db.prepare(`${ROW} WHERE repo_id = ? ORDER BY id`);
	const getInRepo = db.prepare(`${ROW} WHERE repo_id = ? AND id = ?`);
	const byId = db.prepare(`${ROW} WHERE id = ?`);
	const byRepoName = db.prepare('SELECT id FROM rulesets WHERE repo_id = ? AND name = ?').pluck();
	const insert =
		db.prepare(`INSERT INTO rulesets (org_id, repo_id, name, target, enforcement, bypass_actors, conditions, rules, created_at,
		updated_at) VALUES (@org_id, @repo_id, @name, @target, @enforcement, @bypass_actors, @conditions, @rules, @now, @now)`);
	const update = db.prepare(`UPDATE rulesets SET name = @name, target = @target, enforcement = @enforcement,
		bypass_actors = @bypass_actors, conditions = @conditions, rules = @rules, updated_at = @now WHERE id = @id`);
	const remove = db.prepare('DELETE FROM rulesets WHERE org_id = ? AND id = ?');
	const exists = db.prepare('SELECT 1 FROM rulesets WHERE id = ?').pluck();

	const insertVersion = db.prepare(
		'INSERT INTO ruleset_versions (ruleset_id, actor_id, actor_type, state, updated_at) VALUES (?, ?, ?, ?, ?)',
	);
	const versions = db.prepare('SELECT * FROM ruleset_versions WHERE ruleset_id = ? ORDER BY id DESC LIMIT ? OFFSET ?');
	const versionCount = db.prepare('SELECT COUNT(*) FROM ruleset_versions WHERE ruleset_id = ?').pluck();
	const version = db.prepare('SELECT * FROM ruleset_versions WHERE ruleset_id = ? AND id = ?');

	const insertSuite =
		db.prepare(`INSERT INTO rule_suites (org_id, repository_id, repository_name, actor_id, actor_name, before_sha, after_sha, ref,
		pushed_at, result, evaluation_result, rule_evaluations)
		VALUES (@org_id, @repository_id, @repository_name, @actor_id, @actor_name, @before_sha, @after_sha, @ref, @pushed_at, @result, @evaluation_result, @rule_evaluations)`);
	const suite = db.prepare('SELECT * FROM rule_suites WHERE org_id = ? AND id = ?');
	const suiteWhere = `org_id = @org AND pushed_at >= @since
		AND (@ref IS NULL OR ref = @ref OR ref = 'refs/heads/' || @ref OR ref = 'refs/tags/' || @ref)
		AND (@repo IS NULL OR repository_name = @repo COLLATE NOCASE)
		AND (@actor IS NULL OR actor_name = @actor COLLATE NOCASE)
		AND (@result IS NULL OR result = @result)`;
	const suites = db.prepare(`SELECT * FROM rule_suites WHERE ${suiteWhere} ORDER BY pushed_at DESC, id DESC LIMIT @limit OFFSET @offset`);
	const suiteCount = db.prepare(`SELECT COUNT(*) FROM rule_suites WHERE ${suiteWhere}`).pluck();

	const bypassWhere = `b.org_id = @org AND b.created_at >= @since
		AND (@repo IS NULL OR r.name = @repo COLLATE NOCASE)
		AND (@requester IS NULL OR a.login = @requester COLLATE NOCASE)
		AND (@reviewer IS NULL OR EXISTS (SELECT 1 FROM json_each(b.responses) j WHERE json_extract(j.value, '$.reviewer.actor_name') = @reviewer COLLATE NOCASE))
		AND (@status IS NULL OR b.status = @status)`;
	const insertBypass =
		db.prepare(`INSERT INTO push_bypass_requests (org_id, repo_id, number, requester_id, request_type, data, resource_identifier,
		status, requester_comment, responses, expires_at, created_at)
		VALUES (@org_id, @repo_id, (SELECT COALESCE(MAX(number), 0) + 1 FROM push_bypass_requests WHERE repo_id = @repo_id), @requester_id, @request_type, @data,
		@resource_identifier, @status, @requester_comment, @responses, @expires_at, @created_at)`);
	const bypassFrom = 'push_bypass_requests b JOIN repositories r ON r.id = b.repo_id JOIN accounts a ON a.id = b.requester_id';
	const bypassRequests = db.prepare(
		`SELECT b.* FROM ${bypassFrom} WHERE ${bypassWhere} ORDER BY b.created_at DESC, b.id DESC LIMIT @limit OFFSET @offset`,
	);
	const bypassCount = db.prepare(`SELECT COUNT(*) FROM ${bypassFrom} WHERE ${bypassWhere}`).pluck();

	const suiteParams = (org: number, f: RuleSuiteFilter) => ({
		org,
		since: f.since,
		ref: f.ref ?? null,
		repo: f.repositoryName ?? null,
		actor: f.actorName ?? null,
		result: f.result ?? null,
	});
	const bypassParams = (org: number, f: BypassRequestFilter) => ({
		org,
		since: f.since,
		repo: f.repositoryName ?? null,
		requester: f.requester ?? null,
		reviewer: f.reviewer ?? null,
		status: f.status ?? null,
	});

	return {
		/** The organization's rulesets (not its repositories' own), oldest first. */
		list: (orgId: number) => byOrg.all(orgId) as RulesetRow[],
		get: (orgId: number, id: number) => get.get(orgId, id) as RulesetRow | undefined,
		/** The id of the organization's ruleset of that name, if any. */
		idByName: (orgId: number, name: string) => byName.get(orgId, name) as number | undefined,
		/** A repository's own rulesets (repository rulesets), oldest first. */
		listInRepo: (repoId: number) => byRepo.all(repoId) as RulesetRow[],
		getInRepo: (repoId: number, id: number) => getInRepo.get(repoId, id) as RulesetRow | undefined,
		/** The id of the repository's own ruleset of that name, if any. */
		idByRepoName: (repoId: number, name: string) => byRepoName.get(repoId, name) as number | undefined,
		/** True while the ruleset exists (rule suites show evaluations of deleted ones as such). */
		exists: (id: number) => exists.get(id) !== undefined,
		/**
		 * @param repoId the repository of a repository ruleset; null for an organization ruleset
		 * @param now ISO timestamp @returns the new row
		 */
		insert(orgId: number, values: RulesetValues, now: string, repoId: number | null = null): RulesetRow {
			const id = Number(insert.run({ ...values, org_id: orgId, repo_id: repoId, now }).lastInsertRowid);
			return byId.get(id) as RulesetRow;
		},
		/** @param now ISO timestamp @returns the row as updated */
		update(row: RulesetRow, values: RulesetValues, now: string): RulesetRow {
			update.run({ ...values, id: row.id, now });
			return byId.get(row.id) as RulesetRow;
		},
		remove: (orgId: number, id: number) => remove.run(orgId, id).changes > 0,

		/** Stores a version (`state` JSON). @returns its version_id */
		addVersion: (rulesetId: number, actorId: number | null, actorType: string, state: string, updatedAt: string) =>
			Number(insertVersion.run(rulesetId, actorId, actorType, state, updatedAt).lastInsertRowid),
		/** Versions, newest first. */
		versions: (rulesetId: number, limit: number, offset: number) => versions.all(rulesetId, limit, offset) as RulesetVersionRow[],
		versionCount: (rulesetId: number) => versionCount.get(rulesetId) as number,
		version: (rulesetId: number, versionId: number) => version.get(rulesetId, versionId) as RulesetVersionRow | undefined,

		/** @returns the new rule suite's id */
		addSuite: (row: Omit<RuleSuiteRow, 'id'>) => Number(insertSuite.run(row).lastInsertRowid),
		suite: (orgId: number, id: number) => suite.get(orgId, id) as RuleSuiteRow | undefined,
		/** Rule suites matching the filter, newest first. */
		suites: (orgId: number, filter: RuleSuiteFilter, limit: number, offset: number) =>
			suites.all({ ...suiteParams(orgId, filter), limit, offset }) as RuleSuiteRow[],
		suiteCount: (orgId: number, filter: RuleSuiteFilter) => suiteCount.get(suiteParams(orgId, filter)) as number,

		/**
		 * Stores a push-rule bypass request (numbered within its repository). No Gitstead flow makes
		 * one yet (there is no push protection asking for a bypass); imports and tests call it.
		 * @returns its id
		 */
		addBypassRequest: (row: Omit<BypassRequestRow, 'id' | 'number'>) => Number(insertBypass.run(row).lastInsertRowid),
		/** Push-rule bypass requests matching the filter, newest first. */
		bypassRequests: (orgId: number, filter: BypassRequestFilter, limit: number, offset: number) =>
			bypassRequests.all({ ...bypassParams(orgId, filter), limit, offset }) as BypassRequestRow[],
		bypassRequestCount: (orgId: number, filter: BypassRequestFilter) => bypassCount.get(bypassParams(orgId, filter)) as number,
	};
}

export type RulesetStore = ReturnType<typeof createRulesetStore>;
