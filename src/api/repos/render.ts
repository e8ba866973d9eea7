/**
 * The repository record of the team repository form: GitHub's repository record with every link
 * template, counts, flags, `permissions` and `role_name`.
 */
import { securityAndAnalysisOf } from '../code-security/switches';
import { nodeId, type Urls } from '../../http/urls';
import type { AccountRow } from '../users/store';
import { simpleUser } from '../users/render';
import { LICENSES } from './licenses';
import { permissionFlags, roleName, type RepoPermission } from '../../auth/repo-permissions';
import type { RepositoryRow } from './store';
import type { App } from '../../app';

function license(urls: Urls, key: string | null) {
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

/**
 * GitHub's full-repository (GET, PATCH /repos/{owner}/{repo}, creation, forks): the repository
 * record plus `organization` (an organization's repository), `parent` and `source` (a fork's
 * parent and the root of its network, as repository records), `network_count` (the forks in the
 * network), and `temp_clone_token` as a string (Gitstead issues no clone credential: empty).
 * @param permission the caller's permission; null (a public view) omits permissions, role_name
 *   and security_and_analysis (administrators only)
 */
export function fullRepository(app: App, repo: RepositoryRow, owner: AccountRow, permission: RepoPermission | null) {
	const { urls, stores } = app;
	const record: Record<string, unknown> = {
		...repository(urls, repo, owner, permission),
		temp_clone_token: '',
		network_count: stores.repos.network(repo.id).length - 1,
	};
	if (owner.type === 'Organization') record.organization = simpleUser(urls, owner);
	if (repo.fork_parent_id !== null) {
		const parent = stores.repos.byId(repo.fork_parent_id);
		if (parent) {
			record.parent = repository(urls, parent, stores.accounts.byId(parent.owner_id)!, null);
			// The network's root: fork parents followed up (a fork of a fork's source is the original).
			let source = parent;
			while (source.fork_parent_id !== null) {
				const next = stores.repos.byId(source.fork_parent_id);
				if (!next) break;
				source = next;
			}
			record.source =
				source.id === parent.id ? record.parent : repository(urls, source, stores.accounts.byId(source.owner_id)!, null);
		}
	}
	return record;
}
