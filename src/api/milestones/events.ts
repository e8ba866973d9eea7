/**
 * Domain events of milestones: GitHub's `milestone` webhook (created, edited with the previous
 * values in `changes`, deleted, closed, opened), recorded through the event log inside the
 * transaction of the change. GitHub shows milestones in no activity feed and notifies no one.
 */
import type { Context } from '../../http/route';
import type { RepoAccess } from '../../auth/access/types';
import { record } from '../../events/log';
import { inRepository } from '../../events/payloads';
import { repositoryPaths } from '../../model/render';
import { milestone } from '../../model/render';
import type { MilestoneRow } from '../../model/rows';

export type MilestoneAction = 'created' | 'edited' | 'deleted' | 'closed' | 'opened';

/** The milestone as events show it (its creator loaded). */
export function milestoneObject(ctx: Context, access: RepoAccess, row: MilestoneRow) {
	const creator = row.creator_id === null ? null : ctx.app.stores.accounts.byId(row.creator_id);
	return milestone(ctx.app.urls, repositoryPaths(ctx.app.urls, access.owner.login, access.repo.name), row, creator);
}

/** One milestone event; `changes`: the edited fields' previous values (edited only). */
export function recordMilestone(
	ctx: Context,
	access: RepoAccess,
	action: MilestoneAction,
	row: MilestoneRow,
	changes?: Record<string, { from: unknown }>,
): void {
	record(ctx.app, {
		event: 'milestone',
		action,
		actorId: ctx.principal.actorId,
		repo: access.repo,
		webhook: () => ({
			milestone: milestoneObject(ctx, access, row),
			...(changes && Object.keys(changes).length ? { changes } : {}),
			...inRepository(ctx.app, access.repo, ctx.principal.actorId),
		}),
	});
}
