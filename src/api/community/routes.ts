/**
 * GET /repos/{owner}/{repo}/community/profile (GitHub's community metrics): the community health
 * files of the default branch (src/api/community/service.ts), the repository's description,
 * homepage and license, and a health percentage.
 * https://docs.github.com/rest/metrics/community#get-community-profile-metrics
 */
import { ok } from '../../http/reply';
import { route, type RouteDeclaration } from '../../http/route';
import { encodePath } from '../contents/render';
import { repository } from '../../model/render';
import type { AccountRow, RepositoryRow } from '../../model/rows';
import type { Urls } from '../../model/urls';
import { communityProfile, type CommunityFile, type CommunityProfile } from './service';

/** GitHub's community-profile answer for a repository's profile. */
function profileBody(urls: Urls, repo: RepositoryRow, owner: AccountRow, profile: CommunityProfile) {
	const rendered = repository(urls, repo, owner, null);
	const link = (file: CommunityFile | null) =>
		file && {
			url: `${rendered.url}/contents/${encodePath(file.path)}`,
			html_url: `${rendered.html_url}/blob/${encodePath(repo.default_branch)}/${encodePath(file.path)}`,
		};
	const conduct = profile.codeOfConduct;
	return {
		health_percentage: profile.healthPercentage,
		description: repo.description,
		documentation: repo.homepage || null,
		files: {
			code_of_conduct: conduct && {
				key: conduct.key,
				name: conduct.name,
				url: urls.api(`/codes_of_conduct/${conduct.key}`),
				html_url: link(conduct)?.html_url ?? null,
			},
			code_of_conduct_file: link(conduct),
			license: rendered.license,
			contributing: link(profile.files.contributing),
			readme: link(profile.files.readme),
			issue_template: link(profile.issueTemplate),
			pull_request_template: link(profile.pullRequestTemplate),
		},
		updated_at: repo.updated_at,
		content_reports_enabled: false,
	};
}

export const communityRoutes: RouteDeclaration[] = [
	route({
		method: 'GET',
		path: '/repos/{owner}/{repo}/community/profile',
		docs: 'metrics/community#get-community-profile-metrics',
		permissions: [{ metadata: 'read' }],
		access: 'public',
		resource: { repo: 'read' },
		handler(ctx) {
			return ok(profileBody(ctx.app.urls, ctx.repo.repo, ctx.repo.owner, communityProfile(ctx.app, ctx.repo.repo)));
		},
	}),
];
