/**
 * Commit statuses (GitHub's "Commit statuses" REST API): create a status for a commit, list a
 * reference's statuses (newest first), and the combined status (the latest status per context).
 *
 * Permissions: reads take Commit statuses (read), public for public repositories; creating takes
 * Commit statuses (write) — classic scope repo:status or repo — and push access.
 */
import * as v from 'valibot';
import { notFound } from '../../model/errors';
import { created, paged } from '../../http/reply';
import { route, type Context } from '../../http/route';
import { isoSeconds } from '../../time';
import { repository, repositoryPaths } from '../../model/render';
import type { AccountRow } from '../../model/rows';
import { status } from './render';
import { combinedState, commitOfRef, createStatus, latestStatusesByContext, MAX_DESCRIPTION, STATUS_STATES } from './service';
import { STATUSES_READ } from './access';

const READ = STATUSES_READ;
const WRITE = { permissions: [{ statuses: 'write' as const }], access: 'authenticated' as const };

const statusBody = v.object({
	state: v.picklist(STATUS_STATES, `state is not included in the list (${STATUS_STATES.join(', ')})`),
	target_url: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(2048, 'target_url is too long (maximum is 2048 characters)')))),
	description: v.optional(
		v.nullable(v.pipe(v.string(), v.maxLength(MAX_DESCRIPTION, `description is too long (maximum is ${MAX_DESCRIPTION} characters)`))),
	),
	context: v.optional(
		v.pipe(v.string(), v.minLength(1, "context can't be blank"), v.maxLength(255, 'context is too long (maximum is 255 characters)')),
	),
});

const apiOf = (ctx: Context) => repositoryPaths(ctx.app.urls, ctx.repo.owner.login, ctx.repo.repo.name).api;

/** The commit {ref} names. @throws DomainError 404 "No commit found for SHA: <ref>" */
function commitOf(ctx: Context): string {
	const sha = commitOfRef(ctx.app, ctx.repo.repo, ctx.params.ref);
	if (!sha) throw notFound(`No commit found for SHA: ${ctx.params.ref}`);
	return sha;
}

/** Creators of several statuses, each loaded once. */
function creators(ctx: Context, ids: Array<number | null>): Map<number, AccountRow> {
	const out = new Map<number, AccountRow>();
	for (const id of ids) {
		if (id === null || out.has(id)) continue;
		const account = ctx.app.stores.accounts.byId(id);
		if (account) out.set(id, account);
	}
	return out;
}

export const statusRoutes = [
	route({
		...WRITE,
		method: 'POST',
		path: '/repos/{owner}/{repo}/statuses/{sha}',
		resource: { repo: 'push' },
		docs: 'commits/statuses#create-a-commit-status',
		errorResource: 'Status',
		body: statusBody,
		handler(ctx) {
			const row = createStatus(ctx.app, ctx.repo.repo, ctx.params.sha, ctx.body, ctx.principal.actorId, isoSeconds(ctx.now));
			const creator = row.creator_id === null ? undefined : ctx.app.stores.accounts.byId(row.creator_id);
			const body = status(ctx.app.urls, apiOf(ctx), row, creator);
			return created(body, body.url);
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/commits/{ref}/statuses',
		resource: { repo: 'read' },
		docs: 'commits/statuses#list-commit-statuses-for-a-reference',
		pagination: true,
		handler(ctx) {
			const sha = commitOf(ctx);
			const { rows, total } = ctx.app.stores.statuses.list(ctx.repo.repo.id, sha, ctx.page.perPage, ctx.page.offset);
			const people = creators(
				ctx,
				rows.map((row) => row.creator_id),
			);
			const api = apiOf(ctx);
			return paged(
				rows.map((row) => status(ctx.app.urls, api, row, row.creator_id === null ? undefined : people.get(row.creator_id))),
				total,
			);
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/commits/{ref}/status',
		resource: { repo: 'read' },
		docs: 'commits/statuses#get-the-combined-status-for-a-specific-reference',
		pagination: { perPage: 100, maxPerPage: 100 },
		handler(ctx) {
			const sha = commitOf(ctx);
			const latest = latestStatusesByContext(ctx.app, ctx.repo.repo.id, sha);
			const shown = latest.slice(ctx.page.offset, ctx.page.offset + ctx.page.perPage);
			const people = creators(
				ctx,
				shown.map((row) => row.creator_id),
			);
			const api = apiOf(ctx);
			return {
				status: 200,
				total: latest.length,
				body: {
					state: combinedState(latest),
					statuses: shown.map((row) =>
						status(ctx.app.urls, api, row, row.creator_id === null ? undefined : people.get(row.creator_id), false),
					),
					sha,
					total_count: latest.length,
					repository: repository(ctx.app.urls, ctx.repo.repo, ctx.repo.owner, null),
					commit_url: `${api}/commits/${sha}`,
					url: `${api}/commits/${sha}/status`,
				},
			};
		},
	}),
];
