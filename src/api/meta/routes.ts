/**
 * Service discovery: GET / (the API root's URL templates: every one GHES 3.19's schema requires,
 * some naming routes Gitstead does not serve, as GitHub's root names them), GET /meta (GitHub Enterprise Server's
 * installed_version, which clients read to detect an enterprise server) and GET /versions.
 */
import { enterpriseVersion } from '../../build-info';
import { API_VERSIONS } from '../../http/negotiation';
import { ok } from '../../http/reply';
import { route } from '../../http/route';

export const metaRoutes = [
	route({
		method: 'GET',
		path: '/',
		docs: 'meta/meta#github-api-root',
		permissions: [],
		access: 'public',
		resource: 'none',
		handler(ctx) {
			const api = ctx.app.urls.apiBase;
			const search = (kind: string) => `${api}/search/${kind}?q={query}{&page,per_page,sort,order}`;
			return ok({
				current_user_url: `${api}/user`,
				current_user_authorizations_html_url: `${ctx.app.urls.origin}/settings/connections/applications{/client_id}`,
				authorizations_url: `${api}/authorizations`,
				code_search_url: search('code'),
				commit_search_url: search('commits'),
				emails_url: `${api}/user/emails`,
				emojis_url: `${api}/emojis`,
				events_url: `${api}/events`,
				feeds_url: `${api}/feeds`,
				followers_url: `${api}/user/followers`,
				following_url: `${api}/user/following{/target}`,
				gists_url: `${api}/gists{/gist_id}`,
				hub_url: `${api}/hub`,
				issue_search_url: search('issues'),
				issues_url: `${api}/issues`,
				keys_url: `${api}/user/keys`,
				label_search_url: `${api}/search/labels?q={query}&repository_id={repository_id}{&page,per_page}`,
				notifications_url: `${api}/notifications`,
				organization_url: `${api}/orgs/{org}`,
				organization_repositories_url: `${api}/orgs/{org}/repos{?type,page,per_page,sort}`,
				organization_teams_url: `${api}/orgs/{org}/teams`,
				public_gists_url: `${api}/gists/public`,
				rate_limit_url: `${api}/rate_limit`,
				repository_url: `${api}/repos/{owner}/{repo}`,
				repository_search_url: search('repositories'),
				current_user_repositories_url: `${api}/user/repos{?type,page,per_page,sort}`,
				starred_url: `${api}/user/starred{/owner}{/repo}`,
				starred_gists_url: `${api}/gists/starred`,
				topic_search_url: search('topics'),
				user_url: `${api}/users/{user}`,
				user_organizations_url: `${api}/user/orgs`,
				user_repositories_url: `${api}/users/{user}/repos{?type,page,per_page,sort}`,
				user_search_url: search('users'),
			});
		},
	}),
	route({
		method: 'GET',
		path: '/meta',
		docs: 'meta/meta#get-apiname-meta-information',
		permissions: [],
		access: 'public',
		resource: 'none',
		handler: () => ok({ verifiable_password_authentication: false, installed_version: enterpriseVersion }),
	}),
	route({
		method: 'GET',
		path: '/versions',
		docs: 'meta/meta#get-all-api-versions',
		permissions: [],
		access: 'public',
		resource: 'none',
		handler: () => ok([...API_VERSIONS]),
	}),
];
