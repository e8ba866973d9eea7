/**
 * Prepared statements of the organization audit log (the `audit_log` table, schema 21): entries
 * derived from the domain-event log in the transaction of the change (src/events/audit.ts), read by
 * GET /orgs/{org}/audit-log (src/api/audit-log).
 */
import type { DB } from '../db/open';

export interface AuditRow {
	id: number;
	org_id: number | null;
	org: string | null;
	/** GitHub's audit action, e.g. repo.create, team.add_member. */
	action: string;
	/** web | git (GET …/audit-log?include=). */
	category: 'web' | 'git';
	/** create | modify | remove | access | transfer | authentication */
	operation_type: string;
	actor_id: number | null;
	actor: string | null;
	user_id: number | null;
	user: string | null;
	repo_id: number | null;
	/** owner/name */
	repo: string | null;
	team: string | null;
	token_id: number | null;
	/** GitHub's words: "personal access token (classic)", "GitHub App user-to-server token", … */
	programmatic_access_type: string | null;
	/** Classic/OAuth tokens: their scopes, comma-separated. */
	token_scopes: string | null;
	actor_ip: string | null;
	user_agent: string | null;
	request_id: string | null;
	/** JSON object: the action's own fields (permission, visibility, old name, …). */
	data: string;
	/** Epoch milliseconds. */
	created_at: number;
}

/** The conditions of one page of the audit log (built from the `phrase` by src/api/audit-log/phrase.ts). */
export interface AuditQuery {
	/** SQL boolean expression over audit_log columns, with `?` placeholders. */
	where: string;
	params: unknown[];
	order: 'asc' | 'desc';
	limit: number;
	offset: number;
}

export type AuditStore = ReturnType<typeof createAuditStore>;

export function createAuditStore(db: DB) {
	const insert = db.prepare(`
		INSERT INTO audit_log (event_id, org_id, org, action, category, operation_type, actor_id, actor, user_id, user, repo_id, repo,
			team, token_id, programmatic_access_type, token_scopes, actor_ip, user_agent, request_id, data, created_at)
		VALUES (@event_id, @org_id, @org, @action, @category, @operation_type, @actor_id, @actor, @user_id, @user, @repo_id, @repo,
			@team, @token_id, @programmatic_access_type, @token_scopes, @actor_ip, @user_agent, @request_id, @data, @created_at)`);
	const prune = db.prepare('DELETE FROM audit_log WHERE created_at < ?');
	// The page queries vary by phrase: a bounded set of shapes, prepared once each.
	const pages = new Map<string, ReturnType<DB['prepare']>>();
	const prepared = (sql: string) => {
		let statement = pages.get(sql);
		if (!statement) {
			if (pages.size > 256) pages.clear();
			pages.set(sql, (statement = db.prepare(sql)));
		}
		return statement;
	};
	return {
		insert: (row: Omit<AuditRow, 'id'> & { event_id: number }) => Number(insert.run(row).lastInsertRowid),
		/** Deletes entries older than `before` (epoch ms); returns how many. */
		prune: (before: number) => prune.run(before).changes,
		/** One page of an organization's entries, and how many match in all. */
		page(orgId: number, query: AuditQuery): { rows: AuditRow[]; total: number } {
			const where = `org_id = ? AND (${query.where})`;
			const rows = prepared(
				`SELECT * FROM audit_log WHERE ${where} ORDER BY id ${query.order === 'asc' ? 'ASC' : 'DESC'} LIMIT ? OFFSET ?`,
			).all([orgId, ...query.params, query.limit, query.offset]) as AuditRow[];
			const total = prepared(`SELECT count(*) FROM audit_log WHERE ${where}`)
				.pluck()
				.get([orgId, ...query.params]) as number;
			return { rows, total };
		},
	};
}
