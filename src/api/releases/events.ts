/**
 * Domain events of releases (GitHub's `release` webhook; ReleaseEvent in the activity feeds, for
 * the `published` action only, as GitHub shows it), recorded through the event log inside the
 * transaction of the change. Actions: created (also for drafts), published (a release made
 * public, new or from a draft), released (published as a full release, or a pre-release changed
 * to one), prereleased (published as a pre-release), unpublished (made a draft again), edited
 * (with `changes`: the previous values), deleted. Payload: action, release, changes (edited),
 * repository, organization, sender.
 */
import { isImmutable } from '../immutable-releases/enforce';
import type { App } from '../../app';
import { record } from '../../events/log';
import { inRepository } from '../../events/payloads';
import { repositoryPaths } from '../../model/render';
import type { RepositoryRow } from '../../model/rows';
import { release } from './render';
import type { AssetRow, ReleaseRow } from './store';

export type ReleaseAction = 'created' | 'published' | 'released' | 'prereleased' | 'unpublished' | 'edited' | 'deleted';

/** The release as events show it (the default media type: body as written). */
export function releaseObject(app: App, repo: RepositoryRow, row: ReleaseRow, assets?: AssetRow[]) {
	const owner = app.stores.accounts.byId(repo.owner_id)!;
	const list = assets ?? app.stores.releases.assetsOf([row.id]).get(row.id) ?? [];
	return release(
		app.urls,
		repositoryPaths(app.urls, owner.login, repo.name),
		row,
		list,
		(id) => (id === null ? undefined : app.stores.accounts.byId(id)),
		null,
		isImmutable(app, row.id),
	);
}

/**
 * Records one release event.
 * @param changes for `edited`: each changed field's previous value ({ name: { from } }, …)
 * @param assets the release's assets when they are gone from the store already (deleted)
 */
export function recordRelease(
	app: App,
	repo: RepositoryRow,
	action: ReleaseAction,
	row: ReleaseRow,
	actorId: number | null,
	changes?: Record<string, unknown>,
	assets?: AssetRow[],
): void {
	let object: ReturnType<typeof releaseObject> | undefined;
	const shown = () => (object ??= releaseObject(app, repo, row, assets));
	record(app, {
		event: 'release',
		action,
		actorId,
		repo,
		feed: action === 'published' ? { type: 'ReleaseEvent', payload: { action, release: shown() } } : undefined,
		webhook: () => ({
			release: shown(),
			...(changes && Object.keys(changes).length ? { changes } : {}),
			...inRepository(app, repo, actorId),
		}),
	});
}

/** The events of a release becoming public: published, then released or prereleased. */
export function recordPublished(app: App, repo: RepositoryRow, row: ReleaseRow, actorId: number | null): void {
	recordRelease(app, repo, 'published', row, actorId);
	recordRelease(app, repo, row.prerelease ? 'prereleased' : 'released', row, actorId);
}
