/**
 * Loading a hook's delivery from a route's `{delivery_id}`: shared by the repository, organization,
 * global (site admin) and app webhook routes.
 */
import { notFound } from '../../model/errors';
import { idParam, type Context } from '../../http/route';
import type { DeliveryRow, HookRow } from '../../webhooks/store';

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
