/**
 * @mentions in Markdown bodies (issue and comment bodies): GitHub notifies a user mentioned as
 * `@login`, a whole login at a word boundary, when the login names an existing user. The rule is
 * the one the issue list's `mentioned` filter applies (`mentions` in src/api/issues/store.ts): the
 * character before `@` is not a letter, digit, `_` or backtick (so e-mail addresses and
 * `foo@bar` are not mentions), and the login runs to the first character that is not a letter,
 * digit or hyphen. Logins compare case-insensitively.
 */
import type { App } from '../../app';
import type { AccountRow } from '../../model/rows';

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

const TEAM_MENTION = /@([a-z0-9](?:[a-z0-9-]{0,38}))\/([a-z0-9](?:[a-z0-9_-]{0,99}))/gi;

/**
 * The distinct teams `text` mentions as `@org/team-slug`, lowercased, in order of first appearance
 * (at most MAX_MENTIONS), with the boundary rule of user mentions.
 */
export function mentionedTeams(text: string | null | undefined): Array<{ org: string; slug: string }> {
	if (!text || !text.includes('/')) return [];
	const found = new Map<string, { org: string; slug: string }>();
	for (const match of text.matchAll(TEAM_MENTION)) {
		const at = match.index;
		const before = at === 0 ? '' : text[at - 1];
		const after = text[at + match[0].length] ?? '';
		if (/[a-z0-9_`]/i.test(before) || /[a-z0-9_-]/i.test(after)) continue;
		const org = match[1].toLowerCase();
		const slug = match[2].toLowerCase();
		found.set(`${org}/${slug}`, { org, slug });
		if (found.size >= MAX_MENTIONS) break;
	}
	return [...found.values()];
}

/** Team members notified of one mention: a bound on a hostile body's fan-out. */
export const MAX_TEAM_MENTION_MEMBERS = 1000;

/**
 * The members (active, child teams' included) of the teams `text` mentions and `previous` did not,
 * GitHub's team_mention: only teams of `org` (the repository's organization; null: a user's
 * repository, where no team can be mentioned), not teams whose notification_setting is
 * notifications_disabled, and a secret team only when `actorId` belongs to it (others cannot see it).
 * @returns user ids, each once
 */
export function newlyMentionedTeamMembers(
	app: App,
	org: AccountRow | null,
	actorId: number | null,
	text: string | null | undefined,
	previous?: string | null,
): number[] {
	if (!org) return [];
	const { teams } = app.stores;
	const before = new Set(mentionedTeams(previous).map((team) => `${team.org}/${team.slug}`));
	const members = new Set<number>();
	for (const mention of mentionedTeams(text)) {
		if (mention.org !== org.login.toLowerCase() || before.has(`${mention.org}/${mention.slug}`)) continue;
		const team = teams.bySlug(org.id, mention.slug);
		if (!team || team.notification_setting === 'notifications_disabled') continue;
		if (team.privacy === 'secret') {
			const belongs =
				actorId !== null && (teams.membership(team.id, actorId)?.state === 'active' || teams.inheritedMembership(team.id, actorId));
			if (!belongs) continue;
		}
		for (const row of teams.members({ teamId: team.id, role: 'all', limit: MAX_TEAM_MENTION_MEMBERS, offset: 0 }).rows)
			members.add(row.id);
	}
	return [...members];
}
