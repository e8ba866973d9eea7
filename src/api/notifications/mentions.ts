/**
 * @mentions in Markdown bodies (issue and comment bodies): GitHub notifies a user mentioned as
 * `@login`, a whole login at a word boundary, when the login names an existing user. The rule is
 * the one the issue list's `mentioned` filter applies (`mentions` in src/api/issues/store.ts): the
 * character before `@` is not a letter, digit, `_` or backtick (so e-mail addresses and
 * `foo@bar` are not mentions), and the login runs to the first character that is not a letter,
 * digit or hyphen. Logins compare case-insensitively.
 */
import type { App } from '../../app';
import type { AccountRow } from '../users/store';

/** At most this many distinct logins are looked up per body (a bound on a hostile body's cost). */
export const MAX_MENTIONS = 50;

const MENTION = /@([a-z0-9](?:[a-z0-9-]{0,38}))/gi;

/**
 * The distinct logins `text` mentions, lowercased, in order of first appearance (at most
 * MAX_MENTIONS). A run of login characters longer than a login (39) mentions nobody.
 */
export function mentionedLogins(text: string | null | undefined): string[] {
	if (!text || !text.includes('@')) return [];
	const found = new Set<string>();
	for (const match of text.matchAll(MENTION)) {
		const at = match.index;
		const before = at === 0 ? '' : text[at - 1];
		const after = text[at + match[0].length] ?? '';
		if (/[a-z0-9_`]/i.test(before) || /[a-z0-9-]/i.test(after)) continue;
		found.add(match[1].toLowerCase());
		if (found.size >= MAX_MENTIONS) break;
	}
	return [...found];
}

/**
 * The users (accounts of type User) that `text` mentions and `previous` did not: an edit notifies
 * only the users it adds.
 */
export function newlyMentioned(app: App, text: string | null | undefined, previous?: string | null): AccountRow[] {
	const before = new Set(mentionedLogins(previous));
	const users: AccountRow[] = [];
	for (const login of mentionedLogins(text)) {
		if (before.has(login)) continue;
		const user = app.stores.accounts.user(login);
		if (user) users.push(user);
	}
	return users;
}
