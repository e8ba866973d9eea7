/**
 * Prepared statements for user_emails (schema 41): a user's email addresses beyond the account's
 * own (`accounts.email`, the primary one), each unique across accounts without case.
 */
import type { DB } from '../../db/open';

/** One added address. */
export interface UserEmailRow {
	id: number;
	user_id: number;
	email: string;
	/** 0/1: verified by a site administrator (addresses added through the API start unverified). */
	verified: number;
	/** ISO timestamp. */
	created_at: string;
}

/** Creates the user email store. */
export function createUserEmailStore(db: DB) {
	const list = db.prepare('SELECT * FROM user_emails WHERE user_id = ? ORDER BY id');
	const count = db.prepare('SELECT count(*) FROM user_emails WHERE user_id = ?').pluck();
	const insert = db.prepare('INSERT INTO user_emails (user_id, email, verified, created_at) VALUES (?, ?, ?, ?)');
	const remove = db.prepare('DELETE FROM user_emails WHERE user_id = ? AND email = ?');
	const verify = db.prepare('UPDATE user_emails SET verified = 1 WHERE user_id = ? AND email = ?');
	// The account an address belongs to: its primary address (users only) or one of its added ones.
	const owner = db.prepare(`
		SELECT id FROM accounts WHERE type = 'User' AND email = @email COLLATE NOCASE
		UNION ALL SELECT user_id FROM user_emails WHERE email = @email
		LIMIT 1`);
	return {
		/** A user's added addresses, oldest first. */
		ofUser: (userId: number) => list.all(userId) as UserEmailRow[],
		/** How many addresses a user added. */
		count: (userId: number) => count.get(userId) as number,
		/** The id of the user an address belongs to (primary or added, without case), or undefined. */
		ownerOf(email: string): number | undefined {
			const row = owner.get({ email }) as { id: number } | undefined;
			return row?.id;
		},
		/** Adds addresses to a user. @param now ISO timestamp */
		add(userId: number, emails: readonly string[], verified: boolean, now: string): void {
			for (const email of emails) insert.run(userId, email, verified ? 1 : 0, now);
		},
		/** Takes addresses from a user (matched without case). */
		remove(userId: number, emails: readonly string[]): void {
			for (const email of emails) remove.run(userId, email);
		},
		/** Marks one of a user's added addresses verified. @returns whether the user has it */
		verify: (userId: number, email: string) => verify.run(userId, email).changes > 0,
	};
}
