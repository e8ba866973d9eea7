/**
 * GET /orgs/{org}/audit-log (GitHub's "Get the audit log for an organization"): the organization's
 * audit-log entries, derived from the domain-event log (src/events/audit.ts), newest first, filtered
 * by `phrase` (src/api/audit-log/phrase.ts), `include` (web, git, all) and the cursors `after` and
 * `before` (an entry's `_document_id`). Organization owners only; classic tokens need
 * read:audit_log, fine-grained ones organization administration (read), as the permission matrix says.
 */
import * as v from 'valibot';
import { invalidField } from '../../model/errors';
import { paged } from '../../http/reply';
import { route } from '../../http/route';
import type { AuditRow } from '../../events/audit-store';
import { parsePhrase } from './phrase';

/** An entry's `_document_id`, which is also its cursor: the entry's id, base64url-encoded. */
export function documentId(id: number): string {
	return Buffer.from(`audit:${id}`).toString('base64url');
}

function cursor(text: string, field: string): number {
	const match = /^audit:(\d{1,15})$/.exec(Buffer.from(text, 'base64url').toString('utf8'));
	if (!match) throw invalidField('AuditLog', field, `"${text}" is not a cursor of this audit log (use an entry's _document_id)`);
	return Number(match[1]);
}

/**
 * An entry as GitHub's audit-log-event shows it: @timestamp and created_at in epoch milliseconds,
 * absent fields left out, the action's own fields (permission, visibility, …) at the top level.
 */
export function auditEvent(row: AuditRow): Record<string, unknown> {
	const entry: Record<string, unknown> = {
		'@timestamp': row.created_at,
		_document_id: documentId(row.id),
		action: row.action,
		operation_type: row.operation_type,
		created_at: row.created_at,
	};
	const optional: Array<[string, unknown]> = [
		['actor', row.actor],
		['actor_id', row.actor_id],
		['actor_ip', row.actor_ip],
		['org', row.org],
		['org_id', row.org_id],
		['user', row.user],
		['user_id', row.user_id],
		['repo', row.repo],
		['repo_id', row.repo_id],
		['team', row.team],
		['token_id', row.token_id],
		['programmatic_access_type', row.programmatic_access_type],
		['token_scopes', row.token_scopes],
		['user_agent', row.user_agent],
		['request_id', row.request_id],
	];
	for (const [key, value] of optional) if (value !== null) entry[key] = value;
	const data = JSON.parse(row.data) as Record<string, unknown>;
	for (const [key, value] of Object.entries(data)) if (!(key in entry)) entry[key] = value;
	return entry;
}

const query = v.looseObject({
	phrase: v.optional(v.pipe(v.string(), v.maxLength(1024))),
	include: v.optional(v.picklist(['web', 'git', 'all'])),
	after: v.optional(v.pipe(v.string(), v.maxLength(200))),
	before: v.optional(v.pipe(v.string(), v.maxLength(200))),
	order: v.optional(v.picklist(['desc', 'asc'])),
});

export const auditLogRoutes = [
	route({
		method: 'GET',
		path: '/orgs/{org}/audit-log',
		docs: 'orgs/orgs#get-the-audit-log-for-an-organization',
		permissions: 'matrix',
		access: 'authenticated',
		// GitHub: "The authenticated user must be an organization owner"; classic tokens: read:audit_log.
		resource: { org: 'owner' },
		scopes: ['read:audit_log'],
		errorResource: 'AuditLog',
		query,
		pagination: { perPage: 30, maxPerPage: 100 },
		handler(ctx) {
			const order = ctx.query.order ?? 'desc';
			const { where, params } = parsePhrase(ctx.query.phrase ?? '', ctx.query.include ?? 'web', ctx.now);
			const conditions = [where];
			// Cursors follow the order: `after` goes on past an entry, `before` back from it.
			if (ctx.query.after !== undefined) {
				conditions.push(order === 'desc' ? 'id < ?' : 'id > ?');
				params.push(cursor(ctx.query.after, 'after'));
			}
			if (ctx.query.before !== undefined) {
				conditions.push(order === 'desc' ? 'id > ?' : 'id < ?');
				params.push(cursor(ctx.query.before, 'before'));
			}
			const { rows, total } = ctx.app.stores.auditLog.page(ctx.org.org.id, {
				where: conditions.join(' AND '),
				params,
				order,
				limit: ctx.page.perPage,
				offset: ctx.page.offset,
			});
			return paged(rows.map(auditEvent), total);
		},
	}),
];
