/**
 * Prepared statements for gists, their files and their comments. Comment bodies are rendered
 * here, when they are written, and stored next to the source (body_html, body_text).
 */
import type { DB } from '../../db/open';
import type { CommentColumns, GistRow } from '../../model/rows';
import { renderBody } from '../../model/markdown/render';

/** One revision of a gist's files (GET /gists/{gist_id}/commits). */
export interface GistRevisionRow {
	id: number;
	gist_id: number;
	/** 40 hex characters. */
	version: string;
	/** Who made it; null once that account is deleted. */
	user_id: number | null;
	/** ISO timestamp. */
	committed_at: string;
	/** Lines added and deleted against the revision before. */
	additions: number;
	deletions: number;
	/** JSON: filename → content, the files as they were. */
	files: string;
}

export interface GistFileRow {
	gist_id: number;
	filename: string;
	content: string;
}

export interface GistCommentRow extends CommentColumns {
	gist_id: number;
}

export type GistStore = ReturnType<typeof createGistStore>;

export function createGistStore(db: DB) {
	const byGistId = db.prepare('SELECT * FROM gists WHERE gist_id = ?');
	const insert = db.prepare(`
		INSERT INTO gists (gist_id, owner_id, description, public, created_at, updated_at)
		VALUES (@gist_id, @owner_id, @description, @public, @now, @now)`);
	const touch = db.prepare('UPDATE gists SET description = ?, updated_at = ? WHERE id = ?');
	const remove = db.prepare('DELETE FROM gists WHERE id = ?');
	const block = db.prepare('UPDATE gists SET blocked_at = ?, block_reason = ? WHERE id = ?');
	const files = db.prepare('SELECT * FROM gist_files WHERE gist_id IN (SELECT value FROM json_each(?)) ORDER BY filename');
	const putFile = db.prepare(`
		INSERT INTO gist_files (gist_id, filename, content) VALUES (?, ?, ?)
		ON CONFLICT (gist_id, filename) DO UPDATE SET content = excluded.content`);
	const removeFile = db.prepare('DELETE FROM gist_files WHERE gist_id = ? AND filename = ?');
	const fileCount = db.prepare('SELECT count(*) FROM gist_files WHERE gist_id = ?').pluck();
	// ownerId: one owner's gists, or NULL for everyone's; visibility: public, secret or all.
	const LIST_WHERE = `(@ownerId IS NULL OR owner_id = @ownerId)
		AND (@visibility = 'all' OR public = (@visibility = 'public'))
		AND (@since IS NULL OR updated_at >= @since) AND blocked_at IS NULL`;
	const listBy = (column: string, direction: 'ASC' | 'DESC') =>
		db.prepare(`SELECT * FROM gists WHERE ${LIST_WHERE} ORDER BY ${column} ${direction}, id ${direction} LIMIT @limit OFFSET @offset`);
	const lists = {
		'updated desc': listBy('updated_at', 'DESC'),
		'updated asc': listBy('updated_at', 'ASC'),
		'created desc': listBy('created_at', 'DESC'),
		'created asc': listBy('created_at', 'ASC'),
	};
	const count = db.prepare(`SELECT count(*) FROM gists WHERE ${LIST_WHERE}`).pluck();
	const commentCounts = db.prepare(
		'SELECT gist_id, count(*) AS n FROM gist_comments WHERE gist_id IN (SELECT value FROM json_each(?)) GROUP BY gist_id',
	);
	const comments = db.prepare('SELECT * FROM gist_comments WHERE gist_id = ? ORDER BY id LIMIT ? OFFSET ?');
	const commentTotal = db.prepare('SELECT count(*) FROM gist_comments WHERE gist_id = ?').pluck();
	const comment = db.prepare('SELECT * FROM gist_comments WHERE gist_id = ? AND id = ?');
	const insertComment = db.prepare(
		'INSERT INTO gist_comments (gist_id, user_id, body, body_html, body_text, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
	);
	const updateComment = db.prepare('UPDATE gist_comments SET body = ?, body_html = ?, body_text = ?, updated_at = ? WHERE id = ?');
	const removeComment = db.prepare('DELETE FROM gist_comments WHERE id = ?');
	const byId = db.prepare('SELECT * FROM gists WHERE id = ?');
	const setForkOf = db.prepare('UPDATE gists SET fork_of_id = ? WHERE id = ?');
	const forks = db.prepare('SELECT * FROM gists WHERE fork_of_id = ? AND blocked_at IS NULL ORDER BY id LIMIT ? OFFSET ?');
	const forkTotal = db.prepare('SELECT count(*) FROM gists WHERE fork_of_id = ? AND blocked_at IS NULL').pluck();
	const forkBy = db.prepare('SELECT * FROM gists WHERE fork_of_id = ? AND owner_id = ?');
	const star = db.prepare('INSERT INTO gist_stars (gist_id, user_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING');
	const unstar = db.prepare('DELETE FROM gist_stars WHERE gist_id = ? AND user_id = ?');
	const starred = db.prepare('SELECT 1 FROM gist_stars WHERE gist_id = ? AND user_id = ?').pluck();
	const starredList = db.prepare(`
		SELECT g.* FROM gist_stars s JOIN gists g ON g.id = s.gist_id
		WHERE s.user_id = @userId AND g.blocked_at IS NULL AND (@since IS NULL OR g.updated_at >= @since)
		ORDER BY s.created_at DESC, g.id DESC LIMIT @limit OFFSET @offset`);
	const starredTotal = db
		.prepare(`
		SELECT count(*) FROM gist_stars s JOIN gists g ON g.id = s.gist_id
		WHERE s.user_id = @userId AND g.blocked_at IS NULL AND (@since IS NULL OR g.updated_at >= @since)`)
		.pluck();
	const insertRevision = db.prepare(`
		INSERT INTO gist_revisions (gist_id, version, user_id, committed_at, additions, deletions, files)
		VALUES (@gist_id, @version, @user_id, @committed_at, @additions, @deletions, @files)`);
	const copyRevisions = db.prepare(`
		INSERT INTO gist_revisions (gist_id, version, user_id, committed_at, additions, deletions, files)
		SELECT ?, version, user_id, committed_at, additions, deletions, files FROM gist_revisions WHERE gist_id = ? ORDER BY id`);
	const revisions = db.prepare('SELECT * FROM gist_revisions WHERE gist_id = ? ORDER BY id DESC LIMIT ? OFFSET ?');
	const revisionTotal = db.prepare('SELECT count(*) FROM gist_revisions WHERE gist_id = ?').pluck();
	const revision = db.prepare('SELECT * FROM gist_revisions WHERE gist_id = ? AND version = ?');

	return {
		byGistId: (gistId: string) => byGistId.get(gistId) as GistRow | undefined,
		/** @param now ISO timestamp */
		insert(gist: { gist_id: string; owner_id: number; description: string | null; public: boolean }, now: string): GistRow {
			insert.run({ ...gist, public: gist.public ? 1 : 0, now });
			return byGistId.get(gist.gist_id) as GistRow;
		},
		/** Sets the description and updated_at. @param now ISO timestamp */
		touch: (id: number, description: string | null, now: string) => void touch.run(description, now, id),
		remove: (id: number) => void remove.run(id),
		/** Blocks (reason and ISO time) or unblocks (nulls) a gist. */
		block: (id: number, blockedAt: string | null, reason: string | null) => void block.run(blockedAt, reason, id),
		/** Files of several gists, in one query. */
		files: (ids: number[]) => files.all(JSON.stringify(ids)) as GistFileRow[],
		putFile: (id: number, filename: string, content: string) => void putFile.run(id, filename, content),
		removeFile: (id: number, filename: string) => removeFile.run(id, filename).changes > 0,
		fileCount: (id: number) => fileCount.get(id) as number,
		/**
		 * Gists (unblocked) of one owner or everyone's (`ownerId` null): public ones only
		 * (`publicOnly`), secret ones only (`secretOnly`) or both, updated at or after `since`;
		 * ordered by `sort` (default: updated, newest first).
		 */
		list(filter: {
			ownerId: number | null;
			publicOnly: boolean;
			secretOnly?: boolean;
			since: string | null;
			sort?: 'created' | 'updated';
			direction?: 'asc' | 'desc';
			limit: number;
			offset: number;
		}) {
			const params = {
				ownerId: filter.ownerId,
				visibility: filter.publicOnly ? 'public' : filter.secretOnly ? 'secret' : 'all',
				since: filter.since,
				limit: filter.limit,
				offset: filter.offset,
			};
			const order = `${filter.sort ?? 'updated'} ${filter.direction ?? 'desc'}` as const;
			return { rows: lists[order].all(params) as GistRow[], total: count.get(params) as number };
		},
		/** gist id → number of comments, for several gists. */
		commentCounts(ids: number[]): Map<number, number> {
			return new Map((commentCounts.all(JSON.stringify(ids)) as Array<{ gist_id: number; n: number }>).map((r) => [r.gist_id, r.n]));
		},
		comments(gistId: number, limit: number, offset: number) {
			return { rows: comments.all(gistId, limit, offset) as GistCommentRow[], total: commentTotal.get(gistId) as number };
		},
		comment: (gistId: number, id: number) => comment.get(gistId, id) as GistCommentRow | undefined,
		/** Adds a comment with its body rendered. @param now ISO timestamp */
		insertComment(gistId: number, userId: number, body: string, now: string): GistCommentRow {
			const { html, text } = renderBody(body);
			return comment.get(
				gistId,
				Number(insertComment.run(gistId, userId, body, html, text, now, now).lastInsertRowid),
			) as GistCommentRow;
		},
		/** Replaces a comment's body and its rendering. @param now ISO timestamp */
		updateComment(row: GistCommentRow, body: string, now: string): GistCommentRow {
			const { html, text } = body === row.body ? { html: row.body_html, text: row.body_text } : renderBody(body);
			updateComment.run(body, html, text, now, row.id);
			return comment.get(row.gist_id, row.id) as GistCommentRow;
		},
		removeComment: (id: number) => void removeComment.run(id),
		byId: (id: number) => byId.get(id) as GistRow | undefined,
		/** Marks `id` as a fork of `sourceId`. */
		setForkOf: (id: number, sourceId: number) => void setForkOf.run(sourceId, id),
		/** A gist's forks, oldest first (blocked ones left out). */
		forks(gistId: number, limit: number, offset: number) {
			return { rows: forks.all(gistId, limit, offset) as GistRow[], total: forkTotal.get(gistId) as number };
		},
		/** The user's fork of a gist, if any. */
		forkBy: (gistId: number, ownerId: number) => forkBy.get(gistId, ownerId) as GistRow | undefined,
		/** Stars a gist (again: nothing changes). @param now ISO timestamp */
		star: (gistId: number, userId: number, now: string) => void star.run(gistId, userId, now),
		unstar: (gistId: number, userId: number) => void unstar.run(gistId, userId),
		starred: (gistId: number, userId: number) => starred.get(gistId, userId) === 1,
		/** The gists a user starred, most recently starred first (blocked ones left out). */
		starredList(filter: { userId: number; since: string | null; limit: number; offset: number }) {
			return { rows: starredList.all(filter) as GistRow[], total: starredTotal.get(filter) as number };
		},
		insertRevision: (row: Omit<GistRevisionRow, 'id'>) => void insertRevision.run(row),
		/** Copies every revision of `fromId` to `toId` (a fork keeps its source's history). */
		copyRevisions: (toId: number, fromId: number) => void copyRevisions.run(toId, fromId),
		/** A gist's revisions, newest first. */
		revisions(gistId: number, limit: number, offset: number) {
			return { rows: revisions.all(gistId, limit, offset) as GistRevisionRow[], total: revisionTotal.get(gistId) as number };
		},
		revision: (gistId: number, version: string) => revision.get(gistId, version) as GistRevisionRow | undefined,
	};
}
