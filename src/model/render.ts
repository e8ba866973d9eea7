/**
 * GitHub's shapes that many areas embed: the simple user, the repository record and its
 * addresses, organization-simple, a team's list form, labels, milestones and the reactions
 * rollup. Pure functions of rows and the URLs: they read no store, so every area (and the event
 * payloads) may use them. An area's own forms (a full user, a team's full form, an issue) stay in
 * the area's render.ts and build on these.
 */
import { permissionFlags, roleName, type RepoPermission } from './repo-permissions';
import type { AccountRow, LabelRow, MilestoneRow, RepositoryRow, TeamRow } from './rows';
import { securityAndAnalysisOf } from './security-switches';
import { LICENSES } from './licenses';
import { nodeId, type Urls } from './urls';

export interface SimpleUser {
	login: string;
	id: number;
	node_id: string;
	avatar_url: string;
	gravatar_id: string;
	url: string;
	html_url: string;
	followers_url: string;
	following_url: string;
	gists_url: string;
	starred_url: string;
	subscriptions_url: string;
	organizations_url: string;
	repos_url: string;
	events_url: string;
	received_events_url: string;
	type: string;
	site_admin: boolean;
}

/**
 * SimpleUser of any account (users, organizations as owners, bots). The object is shared and frozen:
 * one per account and origin while its login, type and site_admin stay the same, so its URLs are
 * built (and flattened by the first JSON.stringify) once, not on every answer that embeds the
 * account. Callers copy it (`{ ...simpleUser(…), extra }`) to add fields.
 */
export function simpleUser(urls: Urls, account: Pick<AccountRow, 'id' | 'login' | 'type' | 'site_admin'>): Readonly<SimpleUser> {
	let users = simpleUsers.get(urls);
	if (users === undefined) simpleUsers.set(urls, (users = new Map()));
	const known = users.get(account.id);
	if (
		known !== undefined &&
		known.login === account.login &&
		known.type === account.type &&
		known.site_admin === (account.site_admin === 1)
	)
		return known;
	const base = `${urls.apiBase}/users/${account.login}`;
	const user: SimpleUser = {
		login: account.login,
		id: account.id,
		node_id: nodeId(account.type, account.id),
		avatar_url: `${urls.origin}/avatars/u/${account.id}`,
		gravatar_id: '',
		url: base,
		html_url: `${urls.origin}/${account.login}`,
		followers_url: `${base}/followers`,
		following_url: `${base}/following{/other_user}`,
		gists_url: `${base}/gists{/gist_id}`,
		starred_url: `${base}/starred{/owner}{/repo}`,
		subscriptions_url: `${base}/subscriptions`,
		organizations_url: `${base}/orgs`,
		repos_url: `${base}/repos`,
		events_url: `${base}/events{/privacy}`,
		received_events_url: `${base}/received_events`,
		type: account.type,
		site_admin: account.site_admin === 1,
	};
	// Bounded: a site with more accounts than this in play rebuilds the ones it evicted.
	if (users.size >= SIMPLE_USERS_PER_ORIGIN) users.clear();
	users.set(account.id, Object.freeze(user));
	return user;
}

/** The simple users made for each origin's URLs, by account id (simpleUser). */
const simpleUsers = new WeakMap<Urls, Map<number, Readonly<SimpleUser>>>();
/** How many accounts' simple-user objects one origin keeps (about 1.5 KB each). */
const SIMPLE_USERS_PER_ORIGIN = 2048;

/**
 * GitHub's license-simple for a LICENSES key; 'other' is a license GitHub does not recognise
 * (spdx_id NOASSERTION, no url); null for no key or an unknown one.
 */
export function license(urls: Urls, key: string | null) {
	if (key === 'other') return { key: 'other', name: 'Other', spdx_id: 'NOASSERTION', url: null, node_id: nodeId('License', 0) };
	if (!key) return null;
	const known = LICENSES[key];
	if (!known) return null;
	return {
		key,
		name: known.name,
		spdx_id: known.spdx_id,
		url: `${urls.apiBase}/licenses/${key}`,
		node_id: nodeId('License', known.id),
		html_url: `${urls.origin}/licenses/${key}`,
	};
}

/** A repository's addresses: API base (…/api/v3/repos/{owner}/{repo}) and web base (origin/{owner}/{repo}). */
export interface RepositoryPaths {
	api: string;
	html: string;
}

export const repositoryPaths = (urls: Urls, ownerLogin: string, name: string): RepositoryPaths => ({
	api: urls.api(`/repos/${ownerLogin}/${name}`),
	html: urls.html(`/${ownerLogin}/${name}`),
});

/**
 * A repository record.
 * @param permission the permission to report (the caller's, or a team's on team routes); null omits permissions/role_name
 */
export function repository(urls: Urls, repo: RepositoryRow, owner: AccountRow, permission: RepoPermission | null) {
	const full = `${owner.login}/${repo.name}`;
	const api = `${urls.apiBase}/repos/${full}`;
	const record = {
		id: repo.id,
		node_id: nodeId('Repository', repo.id),
		name: repo.name,
		full_name: full,
		owner: simpleUser(urls, owner),
		private: repo.visibility !== 'public',
		html_url: `${urls.origin}/${full}`,
		description: repo.description,
		fork: repo.fork_parent_id !== null,
		url: api,
		archive_url: `${api}/{archive_format}{/ref}`,
		assignees_url: `${api}/assignees{/user}`,
		blobs_url: `${api}/git/blobs{/sha}`,
		branches_url: `${api}/branches{/branch}`,
		collaborators_url: `${api}/collaborators{/collaborator}`,
		comments_url: `${api}/comments{/number}`,
		commits_url: `${api}/commits{/sha}`,
		compare_url: `${api}/compare/{base}...{head}`,
		contents_url: `${api}/contents/{+path}`,
		contributors_url: `${api}/contributors`,
		deployments_url: `${api}/deployments`,
		downloads_url: `${api}/downloads`,
		events_url: `${api}/events`,
		forks_url: `${api}/forks`,
		git_commits_url: `${api}/git/commits{/sha}`,
		git_refs_url: `${api}/git/refs{/sha}`,
		git_tags_url: `${api}/git/tags{/sha}`,
		git_url: `git://${urls.host}/${full}.git`,
		issue_comment_url: `${api}/issues/comments{/number}`,
		issue_events_url: `${api}/issues/events{/number}`,
		issues_url: `${api}/issues{/number}`,
		keys_url: `${api}/keys{/key_id}`,
		labels_url: `${api}/labels{/name}`,
		languages_url: `${api}/languages`,
		merges_url: `${api}/merges`,
		milestones_url: `${api}/milestones{/number}`,
		notifications_url: `${api}/notifications{?since,all,participating}`,
		pulls_url: `${api}/pulls{/number}`,
		releases_url: `${api}/releases{/id}`,
		ssh_url: `git@${urls.host.replace(/:\d+$/, '')}:${full}.git`,
		stargazers_url: `${api}/stargazers`,
		statuses_url: `${api}/statuses/{sha}`,
		subscribers_url: `${api}/subscribers`,
		subscription_url: `${api}/subscription`,
		tags_url: `${api}/tags`,
		teams_url: `${api}/teams`,
		trees_url: `${api}/git/trees{/sha}`,
		clone_url: `${urls.origin}/${full}.git`,
		mirror_url: null,
		hooks_url: `${api}/hooks`,
		svn_url: `${urls.origin}/${full}`,
		homepage: repo.homepage,
		language: repo.language,
		forks_count: repo.forks_count,
		// GitHub's watchers and watchers_count are the stargazers (watching meant starring before 2012).
		stargazers_count: repo.stargazers_count,
		watchers_count: repo.stargazers_count,
		size: repo.size,
		default_branch: repo.default_branch,
		open_issues_count: repo.open_issues_count,
		is_template: repo.is_template === 1,
		topics: JSON.parse(repo.topics) as string[],
		has_issues: repo.has_issues === 1,
		has_projects: repo.has_projects === 1,
		has_wiki: repo.has_wiki === 1,
		has_pages: false,
		has_downloads: repo.has_downloads === 1,
		has_discussions: repo.has_discussions === 1,
		archived: repo.archived === 1,
		disabled: false,
		visibility: repo.visibility,
		pushed_at: repo.pushed_at,
		created_at: repo.created_at,
		updated_at: repo.updated_at,
		allow_rebase_merge: repo.allow_rebase_merge === 1,
		// GitHub's temporary clone credential: Gitstead issues none. A string in GitHub's description of
		// every repository-embedding shape (never null): empty.
		temp_clone_token: '',
		allow_squash_merge: repo.allow_squash_merge === 1,
		allow_auto_merge: repo.allow_auto_merge === 1,
		delete_branch_on_merge: repo.delete_branch_on_merge === 1,
		allow_merge_commit: repo.allow_merge_commit === 1,
		subscribers_count: repo.subscribers_count,
		network_count: 0,
		license: license(urls, repo.license_key),
		forks: repo.forks_count,
		open_issues: repo.open_issues_count,
		watchers: repo.stargazers_count,
		template_repository: null,
		allow_update_branch: repo.allow_update_branch === 1,
		use_squash_pr_title_as_default: repo.use_squash_pr_title_as_default === 1,
		squash_merge_commit_title: repo.squash_merge_commit_title,
		squash_merge_commit_message: repo.squash_merge_commit_message,
		merge_commit_title: repo.merge_commit_title,
		merge_commit_message: repo.merge_commit_message,
		allow_forking: repo.allow_forking === 1,
		// The organization's web_commit_signoff_required applies to every repository it owns.
		web_commit_signoff_required: repo.web_commit_signoff_required === 1 || owner.web_commit_signoff_required === 1,
	};
	if (!permission) return record;
	const withPermissions = { ...record, permissions: permissionFlags(permission), role_name: roleName(permission) };
	if (permission !== 'admin') return withPermissions;
	// GitHub shows security_and_analysis to administrators only (every switch: src/api/code-security/switches.ts).
	return { ...withPermissions, security_and_analysis: securityAndAnalysisOf(repo) };
}

/** Fields of GitHub's simple-repository, in order (a subset of the repository record). */
const SIMPLE_REPOSITORY_FIELDS = [
	'id',
	'node_id',
	'name',
	'full_name',
	'owner',
	'private',
	'html_url',
	'description',
	'fork',
	'url',
	'archive_url',
	'assignees_url',
	'blobs_url',
	'branches_url',
	'collaborators_url',
	'comments_url',
	'commits_url',
	'compare_url',
	'contents_url',
	'contributors_url',
	'deployments_url',
	'downloads_url',
	'events_url',
	'forks_url',
	'git_commits_url',
	'git_refs_url',
	'git_tags_url',
	'issue_comment_url',
	'issue_events_url',
	'issues_url',
	'keys_url',
	'labels_url',
	'languages_url',
	'merges_url',
	'milestones_url',
	'notifications_url',
	'pulls_url',
	'releases_url',
	'stargazers_url',
	'statuses_url',
	'subscribers_url',
	'subscription_url',
	'tags_url',
	'teams_url',
	'trees_url',
	'hooks_url',
] as const;

/** GitHub's simple-repository of a repository. */
export function simpleRepository(urls: Urls, repo: RepositoryRow, owner: AccountRow) {
	const full = repository(urls, repo, owner, null) as Record<string, unknown>;
	return Object.fromEntries(SIMPLE_REPOSITORY_FIELDS.map((field) => [field, full[field]]));
}

/** GitHub's organization-simple (membership records, runner-group organization lists). */
export function orgSimple(urls: Urls, org: AccountRow) {
	const base = `${urls.apiBase}/orgs/${org.login}`;
	return {
		login: org.login,
		id: org.id,
		node_id: nodeId('Organization', org.id),
		url: base,
		repos_url: `${base}/repos`,
		events_url: `${base}/events`,
		hooks_url: `${base}/hooks`,
		issues_url: `${base}/issues`,
		members_url: `${base}/members{/member}`,
		public_members_url: `${base}/public_members{/member}`,
		avatar_url: `${urls.origin}/avatars/u/${org.id}`,
		description: org.description,
	};
}

/** Canonical API URL of a team: /organizations/{org_id}/team/{team_id} (GitHub's own form). */
export function teamUrl(urls: Urls, team: Pick<TeamRow, 'org_id' | 'id'>): string {
	return `${urls.apiBase}/organizations/${team.org_id}/team/${team.id}`;
}

/** GitHub's ownership type of a team: every team here belongs to an organization (enterprise teams are not served). */
const TEAM_TYPE = 'organization';

/** The parent summary embedded in a team (GitHub's nullable-team-simple). */
function parentSummary(urls: Urls, orgLogin: string, parent: TeamRow) {
	const url = teamUrl(urls, parent);
	return {
		id: parent.id,
		node_id: nodeId('Team', parent.id),
		url,
		members_url: `${url}/members{/member}`,
		name: parent.name,
		description: parent.description,
		permission: parent.permission,
		privacy: parent.privacy,
		notification_setting: parent.notification_setting,
		html_url: `${urls.origin}/orgs/${orgLogin}/teams/${parent.slug}`,
		repositories_url: `${url}/repos`,
		slug: parent.slug,
		type: TEAM_TYPE,
	};
}

/** The list form. */
export function teamListForm(urls: Urls, orgLogin: string, team: TeamRow, parent: TeamRow | undefined) {
	const url = teamUrl(urls, team);
	return {
		id: team.id,
		node_id: nodeId('Team', team.id),
		url,
		html_url: `${urls.origin}/orgs/${orgLogin}/teams/${team.slug}`,
		name: team.name,
		slug: team.slug,
		description: team.description,
		privacy: team.privacy,
		notification_setting: team.notification_setting,
		permission: team.permission,
		members_url: `${url}/members{/member}`,
		repositories_url: `${url}/repos`,
		parent: parent ? parentSummary(urls, orgLogin, parent) : null,
		type: TEAM_TYPE,
	};
}

/** A label; `repositoryUrl` is the repository's API URL (…/api/v3/repos/{owner}/{repo}). */
export function label(repositoryUrl: string, row: LabelRow) {
	return {
		id: row.id,
		node_id: nodeId('Label', row.id),
		url: `${repositoryUrl}/labels/${encodeURIComponent(row.name)}`,
		name: row.name,
		color: row.color,
		default: row.is_default === 1,
		description: row.description,
	};
}

/** A milestone; `creator` null when the account is gone. */
export function milestone(urls: Urls, paths: RepositoryPaths, row: MilestoneRow, creator: AccountRow | null | undefined) {
	const url = `${paths.api}/milestones/${row.number}`;
	return {
		url,
		html_url: `${paths.html}/milestone/${row.number}`,
		labels_url: `${url}/labels`,
		id: row.id,
		node_id: nodeId('Milestone', row.id),
		number: row.number,
		state: row.state,
		title: row.title,
		description: row.description,
		creator: creator ? simpleUser(urls, creator) : null,
		open_issues: row.open_issues,
		closed_issues: row.closed_issues,
		created_at: row.created_at,
		updated_at: row.updated_at,
		closed_at: row.closed_at,
		due_on: row.due_on,
	};
}

/**
 * The `reactions` rollup of an issue or comment: {url, total_count, "+1", "-1", laugh, hooray,
 * confused, heart, rocket, eyes}.
 * @param subjectUrl the issue's or comment's API URL
 * @param counts the row's reaction_counts column (JSON {content: count}, kept by triggers)
 */
export function reactionRollup(subjectUrl: string, counts: string | null | undefined) {
	const n = counts ? (JSON.parse(counts) as Record<string, number>) : {};
	const get = (content: string) => n[content] ?? 0;
	const rollup = {
		url: `${subjectUrl}/reactions`,
		total_count: 0,
		'+1': get('+1'),
		'-1': get('-1'),
		laugh: get('laugh'),
		hooray: get('hooray'),
		confused: get('confused'),
		heart: get('heart'),
		rocket: get('rocket'),
		eyes: get('eyes'),
	};
	rollup.total_count =
		rollup['+1'] + rollup['-1'] + rollup.laugh + rollup.hooray + rollup.confused + rollup.heart + rollup.rocket + rollup.eyes;
	return rollup;
}
