/**
 * GitHub Advanced Security active committers of an organization (GitHub's billing
 * get-github-advanced-security-active-committers-for-an-organization): for each repository with
 * the product enabled, the users who authored commits on any of its branches in the last 90 days
 * (commit emails matched to accounts as commit authors are: the account's email or its noreply
 * address; unmatched emails count no one), with the date and email of each one's latest commit.
 */
import type { App } from '../../app';
import { AuthorLookup } from '../commits/render';
import { repositorySwitches } from '../code-security/switches';
import { walkCommits } from '../git/graph';
import type { RepositoryRow, AccountRow } from '../../model/rows';

/** GitHub's window for an active committer, in milliseconds. */
export const ACTIVE_WINDOW_MS = 90 * 24 * 60 * 60 * 1000;
/** Commits walked per branch at most. */
const MAX_WALK = 10_000;

export interface CommitterEntry {
	user_login: string;
	/** YYYY-MM-DD of the user's latest commit in the window. */
	last_pushed_date: string;
	last_pushed_email: string;
}

/** The product a repository counts for: code_security (advanced security), secret_protection (secret scanning too). */
export function productEnabled(app: App, repo: RepositoryRow, product: 'code_security' | 'secret_protection' | undefined): boolean {
	if (repo.advanced_security === 1) return true;
	return product === 'secret_protection' && repositorySwitches(app, repo.id).secret_scanning === 1;
}

/**
 * The active committers of one repository, by login.
 * @param nowMs epoch milliseconds
 */
export function activeCommitters(app: App, repo: RepositoryRow, nowMs: number, authors: AuthorLookup): CommitterEntry[] {
	const cutoff = Math.floor((nowMs - ACTIVE_WINDOW_MS) / 1000);
	const latest = new Map<string, { account: AccountRow; seconds: number; email: string }>();
	const seen = new Set<string>();
	const { rows } = app.stores.git.matchingRefs(repo.id, 'refs/heads/', 1000, 0);
	for (const ref of rows) {
		const { commits } = walkCommits(app, repo.id, ref.sha, { exclude: seen, stopAfter: MAX_WALK });
		for (const commit of commits) {
			seen.add(commit.sha);
			const { author } = commit.data;
			if (author.seconds < cutoff) continue;
			const account = authors.account(author.email);
			if (!account || account.type !== 'User') continue;
			const known = latest.get(account.login);
			if (!known || known.seconds < author.seconds)
				latest.set(account.login, { account, seconds: author.seconds, email: author.email });
		}
	}
	return [...latest.values()]
		.sort((a, b) => a.account.login.localeCompare(b.account.login))
		.map((entry) => ({
			user_login: entry.account.login,
			last_pushed_date: new Date(entry.seconds * 1000).toISOString().slice(0, 10),
			last_pushed_email: entry.email,
		}));
}

/**
 * The organization's answer: repositories with the product enabled and their committers (a page of
 * them), the distinct committers over all of them, and over every repository of the organization
 * (maximum_advanced_security_committers: the licences needed if every repository enabled it).
 */
export function advancedSecurityCommitters(
	app: App,
	org: AccountRow,
	product: 'code_security' | 'secret_protection' | undefined,
	nowMs: number,
	page: { limit: number; offset: number },
) {
	const authors = new AuthorLookup(app);
	const all = app.stores.repos.forOwner(org.id);
	const everyone = new Set<string>();
	const enabledUsers = new Set<string>();
	const enabled: Array<{ name: string; advanced_security_committers: number; advanced_security_committers_breakdown: CommitterEntry[] }> =
		[];
	for (const repo of all) {
		const committers = activeCommitters(app, repo, nowMs, authors);
		for (const c of committers) everyone.add(c.user_login);
		if (!productEnabled(app, repo, product)) continue;
		for (const c of committers) enabledUsers.add(c.user_login);
		enabled.push({
			name: `${org.login}/${repo.name}`,
			advanced_security_committers: committers.length,
			advanced_security_committers_breakdown: committers,
		});
	}
	return {
		total_advanced_security_committers: enabledUsers.size,
		total_count: enabled.length,
		maximum_advanced_security_committers: everyone.size,
		repositories: enabled.slice(page.offset, page.offset + page.limit),
	};
}
