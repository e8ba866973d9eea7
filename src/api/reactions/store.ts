/**
 * Prepared statements for reactions to issues and issue comments (GitHub's reactions API). The
 * subject's `reaction_counts` column (JSON {content: count}) is kept by triggers (schema.sql), so
 * rendering an issue or comment needs no query for its rollup.
 */
import type { DB } from '../../db/open';

/** GitHub's reaction contents. */
export const REACTION_CONTENTS = ['+1', '-1', 'laugh', 'confused', 'heart', 'hooray', 'rocket', 'eyes'] as const;
export type ReactionContent = (typeof REACTION_CONTENTS)[number];

export interface ReactionRow {
	id: number;
	issue_id: number;
	/** null: a reaction to the issue itself */
	comment_id: number | null;
	user_id: number;
	content: ReactionContent;
	/** ISO timestamp */
	created_at: string;
}

/** What a reaction is to: an issue (comment null) or one of its comments. */
export interface ReactionSubject {
	issueId: number;
	commentId: number | null;
}

export type ReactionStore = ReturnType<typeof createReactionStore>;

/** Prepares the reaction statements on `db` (once per open database). */
export function createReactionStore(db: DB) {
	// One set of statements per kind of subject, so each uses its partial unique index.
	const statements = (subject: string) => {
		const where = `${subject} AND (@content IS NULL OR content = @content)`;
		return {
			find: db.prepare(`SELECT * FROM reactions WHERE ${subject} AND user_id = @userId AND content = @content`),
			list: db.prepare(`SELECT * FROM reactions WHERE ${where} ORDER BY id LIMIT @limit OFFSET @offset`),
			count: db.prepare(`SELECT count(*) FROM reactions WHERE ${where}`).pluck(),
		};
	};
	const onIssue = statements('issue_id = @issueId AND comment_id IS NULL');
	const onComment = statements('comment_id = @commentId');
	const of = (subject: ReactionSubject) => (subject.commentId === null ? onIssue : onComment);
	const byId = db.prepare('SELECT * FROM reactions WHERE id = ?');
	const insert = db.prepare(
		'INSERT INTO reactions (issue_id, comment_id, user_id, content, created_at) VALUES (@issueId, @commentId, @userId, @content, @now)',
	);
	const remove = db.prepare('DELETE FROM reactions WHERE id = ?');

	return {
		byId: (id: number) => byId.get(id) as ReactionRow | undefined,
		/** The user's reaction with that content to the subject, if any. */
		find: (subject: ReactionSubject, userId: number, content: ReactionContent) =>
			of(subject).find.get({ ...subject, userId, content }) as ReactionRow | undefined,
		/** Adds a reaction (the subject's counts follow by trigger). @param now ISO timestamp */
		insert(subject: ReactionSubject, userId: number, content: ReactionContent, now: string): ReactionRow {
			return byId.get(insert.run({ ...subject, userId, content, now }).lastInsertRowid) as ReactionRow;
		},
		/** Deletes a reaction (the subject's counts follow by trigger). */
		remove: (id: number) => void remove.run(id),
		/** A subject's reactions in ascending id order, optionally of one content; one page and the total. */
		list(subject: ReactionSubject, content: ReactionContent | null, limit: number, offset: number) {
			const statements = of(subject);
			return {
				rows: statements.list.all({ ...subject, content, limit, offset }) as ReactionRow[],
				total: statements.count.get({ ...subject, content }) as number,
			};
		},
	};
}
