/**
 * A hook's delivery log for the routes: one delivery from a route's `{delivery_id}` and a page of the
 * log. Shared by the repository, organization, global (site admin) and app webhook routes.
 */
import * as v from 'valibot';
import { badRequest, notFound } from '../../model/errors';
import { pageRequest } from '../../http/pipeline';
import { ok, type Reply } from '../../http/reply';
import { idParam, type Context } from '../../http/route';
import type { DeliveryRow, HookRow } from '../../webhooks/store';
import { deliveryItem } from './render';

/** Deliveries per page of the delivery log (GitHub's default and maximum). */
const DELIVERIES_PER_PAGE = { perPage: 30, maxPerPage: 100 };
/** A delivery-log cursor: the id of the last delivery of the page before, as GitHub's opaque `v1_…`. */
const CURSOR = /^v1_(\d{1,15})$/;

/** The query of a delivery-log page: GitHub's cursor pagination, filtered by outcome. */
export const deliveriesQuery = v.object({
	per_page: v.optional(v.string()),
	cursor: v.optional(v.string()),
	status: v.optional(v.picklist(['success', 'failure'])),
});

/**
 * The delivery {delivery_id} of the hook.
 * @throws DomainError 404 for an id that is not a number or a delivery of another hook
 */
export function loadDelivery(ctx: Context, hook: HookRow): DeliveryRow {
	const id = idParam(ctx.params.delivery_id);
	const row = id === null ? undefined : ctx.app.stores.webhooks.delivery(hook.id, id);
	if (!row) throw notFound();
	return row;
}

/**
 * One page of a hook's delivery log, newest first, with GitHub's cursor pagination: a `Link`
 * header with rel="next" carrying `cursor` when more deliveries follow.
 * @throws DomainError 400 for a cursor that is not one this server gave
 */
export function deliveriesPage(ctx: Context<v.InferOutput<typeof deliveriesQuery>>, listPath: string, hook: HookRow): Reply {
	const { perPage } = pageRequest(ctx.query, DELIVERIES_PER_PAGE.perPage, DELIVERIES_PER_PAGE.maxPerPage);
	let before = Number.MAX_SAFE_INTEGER;
	if (ctx.query.cursor !== undefined && ctx.query.cursor !== '') {
		const match = CURSOR.exec(ctx.query.cursor);
		if (!match) throw badRequest('Invalid cursor');
		before = Number(match[1]);
	}
	const status = ctx.query.status ?? null;
	const rows = ctx.app.stores.webhooks.deliveriesBefore({ hookId: hook.id, status, before, limit: perPage + 1 });
	const page = rows.slice(0, perPage);
	const reply = ok(page.map(deliveryItem));
	if (rows.length > perPage) {
		const params = new URLSearchParams({ per_page: String(perPage), cursor: `v1_${page[page.length - 1].id}` });
		if (status) params.set('status', status);
		reply.headers = { Link: `<${ctx.app.urls.api(listPath)}?${params.toString()}>; rel="next"` };
	}
	return reply;
}
