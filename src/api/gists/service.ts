/**
 * Reading gists, shared by the REST routes and GraphQL: the list and single forms (GitHub's
 * base-gist and gist-simple with `history`, `forks` and `fork_of`) and the lists of gists.
 */
import type { App } from '../../app';
import type { GistRow } from '../../model/rows';
import { gist, gistForkEntry, gistRevision } from './render';
import type { GistFileRow } from './store';

/**
 * The list forms of gists (files without contents unless `withContent`), their files, comment
 * counts and owners read in one query each.
 */
export function renderGists(app: App, rows: GistRow[], withContent: boolean) {
	const { stores, urls } = app;
	const ids = rows.map((row) => row.id);
	const files = new Map<number, GistFileRow[]>();
	for (const file of stores.gists.files(ids)) {
		const list = files.get(file.gist_id);
		if (list) list.push(file);
		else files.set(file.gist_id, [file]);
	}
	const counts = stores.gists.commentCounts(ids);
	const owners = stores.accounts.mapByIds(rows.map((row) => row.owner_id));
	return rows.map((row) => gist(urls, row, owners.get(row.owner_id)!, files.get(row.id) ?? [], counts.get(row.id) ?? 0, withContent));
}

/** Revisions and forks a single gist shows at most (its `history` and `forks` fields). */
const DETAIL_LIMIT = 100;

/**
 * A single gist (GET /gists/{gist_id}, and the answers of create, update and fork): with its
 * files' content, its `history` (newest first), `forks` and, for a fork, `fork_of`. `files`
 * replaces its current files (a gist at a revision).
 */
export function gistDetail(app: App, row: GistRow, files?: GistFileRow[]) {
	const { stores, urls } = app;
	const base = renderGists(app, [row], true)[0];
	const shown = files ? gist(urls, row, stores.accounts.byId(row.owner_id)!, files, base.comments, true) : base;
	const history = stores.gists.revisions(row.id, DETAIL_LIMIT, 0).rows;
	const forks = stores.gists.forks(row.id, DETAIL_LIMIT, 0).rows;
	const accounts = stores.accounts.mapByIds([
		...history.flatMap((r) => (r.user_id === null ? [] : [r.user_id])),
		...forks.map((f) => f.owner_id),
	]);
	const source = row.fork_of_id === null ? undefined : stores.gists.byId(row.fork_of_id);
	return {
		...shown,
		...(source && source.blocked_at === null ? { fork_of: renderGists(app, [source], false)[0] } : {}),
		forks: forks.map((fork) => gistForkEntry(urls, fork, accounts.get(fork.owner_id)!, stores.accounts.counts(fork.owner_id))),
		history: history.map((revision) =>
			gistRevision(urls, row, revision, revision.user_id === null ? undefined : accounts.get(revision.user_id)),
		),
	};
}

/** Which gists a list holds and in which order. */
export interface GistListFilter {
	/** One owner's gists, or everyone's (null). */
	ownerId: number | null;
	/** public, secret or all (secret gists are listed to their owner only: the caller decides). */
	visibility: 'public' | 'secret' | 'all';
	/** ISO timestamp: updated at or after it; null: any. */
	since: string | null;
	/** Default updated, newest first (GitHub's REST order). */
	sort?: 'created' | 'updated';
	direction?: 'asc' | 'desc';
}

/**
 * One page of gists (list forms, without contents) and how many the filter holds (GET /gists,
 * /gists/public, /users/{username}/gists; GraphQL's User.gists), filtered, ordered and paged in SQL.
 */
export function listGists(app: App, filter: GistListFilter, range: { limit: number; offset: number }) {
	const { rows, total } = app.stores.gists.list({
		ownerId: filter.ownerId,
		publicOnly: filter.visibility === 'public',
		secretOnly: filter.visibility === 'secret',
		since: filter.since,
		sort: filter.sort,
		direction: filter.direction,
		limit: range.limit,
		offset: range.offset,
	});
	return { items: rows.length ? renderGists(app, rows, false) : [], total };
}
