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
import { codeOfConductKind, communityFiles, type CommunityFile } from './service';

export const communityRoutes: RouteDeclaration[] = [
	route({
		method: 'GET',
		path: '/repos/{owner}/{repo}/community/profile',
		docs: 'metrics/community#get-community-profile-metrics',
		permissions: [{ metadata: 'read' }],
		access: 'public',
		resource: { repo: 'read' },
		handler(ctx) {
			const { repo, owner } = ctx.repo;
			const files = communityFiles(ctx.app, repo);
			const rendered = repository(ctx.app.urls, repo, owner, null);
			const link = (file: CommunityFile | null) =>
				file && {
					url: `${rendered.url}/contents/${encodePath(file.path)}`,
					html_url: `${rendered.html_url}/blob/${encodePath(repo.default_branch)}/${encodePath(file.path)}`,
				};
			const conduct = files.codeOfConduct;
			const kind = conduct && codeOfConductKind(conduct);
			const issueTemplate =
				files.issueTemplate ??
				(files.issueTemplates[0]
					? { path: `.github/ISSUE_TEMPLATE/${files.issueTemplates[0].filename}`, text: files.issueTemplates[0].body }
					: null);
			const prTemplate = files.pullRequestTemplates[0];
			const checks = [
				Boolean(repo.description),
				files.readme !== null,
				conduct !== null,
				files.contributing !== null,
				rendered.license !== null,
				issueTemplate !== null,
				prTemplate !== undefined,
			];
			return ok({
				health_percentage: Math.round((100 * checks.filter(Boolean).length) / checks.length),
				description: repo.description,
				documentation: repo.homepage || null,
				files: {
					code_of_conduct: conduct &&
						kind && {
							key: kind.key,
							name: kind.name,
							url: ctx.app.urls.api(`/codes_of_conduct/${kind.key}`),
							html_url: link(conduct)?.html_url ?? null,
						},
					code_of_conduct_file: link(conduct),
					license: rendered.license,
					contributing: link(files.contributing),
					readme: link(files.readme),
					issue_template: link(issueTemplate),
					pull_request_template: prTemplate ? link({ path: prTemplate.path, text: prTemplate.body }) : null,
				},
				updated_at: repo.updated_at,
				content_reports_enabled: false,
			});
		},
	}),
];
