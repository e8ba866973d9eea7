/**
 * Captures the GraphQL documents gh sends (GH_DEBUG=api) for the commands test/gh.test.ts drives,
 * against a test server behind the TLS front of test/helpers/tls.ts, and writes each operation to
 * test/fixtures/gh/<OperationName>.graphql (test/graphql.test.ts answers them field by field).
 * Run: npx tsx scripts/capture-gh-queries.ts (needs gh and openssl).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importRuns } from '../src/api/actions/import';
import { startServer } from '../test/helpers/server';
import { capturedQueries, runGh, tlsFront } from '../test/helpers/tls';

const COMMANDS = [
	'auth status',
	'repo view olivia/web',
	'repo list olivia',
	'issue list -R olivia/web',
	'issue list -R olivia/web --state all --label bug',
	'issue view 1 -R olivia/web',
	'issue create -R olivia/web -t Captured -b Body',
	'issue comment 1 -R olivia/web -b Thanks',
	'issue close 1 -R olivia/web',
	'issue reopen 1 -R olivia/web',
	'label list -R olivia/web',
	'pr list -R olivia/web',
	'pr view 2 -R olivia/web',
	'pr create -R olivia/web -H other -B main -t Other -b Body',
	'pr review 2 -R olivia/web --comment -b Nice',
	'pr merge 2 -R olivia/web --squash',
	'repo create olivia/newrepo --public',
	'pr status -R olivia/web',
	'pr checks 2 -R olivia/web',
	'pr view 2 -R olivia/web --comments',
	'pr list -R olivia/web --search Feature',
	'issue status -R olivia/web',
	'issue list -R olivia/web --search First',
	'issue view 1 -R olivia/web --comments',
	'release list -R olivia/web',
	'release view v1.0 -R olivia/web',
	'run view 1 -R olivia/web',
	'gist list',
	'repo view olivia/web --json name,latestRelease,languages,repositoryTopics,primaryLanguage',
	'pr view 2 -R olivia/web --json files,changedFiles,reviewDecision,latestReviews,commits',
	'pr edit 4 -R olivia/web --title Retitled',
	'pr close 4 -R olivia/web',
	'pr reopen 4 -R olivia/web',
	'repo archive olivia/newrepo --yes',
	'repo view olivia/web --json hasProjectsEnabled,hasDiscussionsEnabled,isInOrganization,isMirror,mirrorUrl,viewerCanAdminister,viewerSubscription,watchers,licenseInfo,templateRepository,diskUsage,assignableUsers,projects,viewerDefaultMergeMethod,isEmpty,isUserConfigurationRepository',
	'pr view 2 -R olivia/web --json mergeCommit,mergedBy,potentialMergeCommit',
	'pr create -R olivia/web -H extra -B main -t Extra -b Body --label bug --assignee olivia',
];

(async () => {
	const s = await startServer();
	s.user('olivia');
	const token = s.fullToken('olivia');
	await s.request('POST', '/user/repos', { token, body: { name: 'web', auto_init: true } });
	await s.request('POST', '/repos/olivia/web/issues', { token, body: { title: 'First', labels: ['bug'] } });
	const main = (await s.request('GET', '/repos/olivia/web/git/ref/heads/main', { token })).body.object.sha;
	for (const branch of ['feature', 'other', 'extra']) {
		await s.request('POST', '/repos/olivia/web/git/refs', { token, body: { ref: `refs/heads/${branch}`, sha: main } });
		await s.request('PUT', `/repos/olivia/web/contents/${branch}.txt`, {
			token,
			body: { message: branch, content: Buffer.from(branch).toString('base64'), branch },
		});
	}
	await s.request('POST', '/repos/olivia/web/pulls', { token, body: { title: 'Feature', head: 'feature', base: 'main' } });
	// A commit status and a workflow run on the pull request's head (pr status, pr checks, run view) and a release.
	const head = (await s.request('GET', '/repos/olivia/web/git/ref/heads/feature', { token })).body.object.sha;
	await s.request('POST', `/repos/olivia/web/statuses/${head}`, { token, body: { state: 'success', context: 'ci/lint' } });
	const repo = s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.byLogin('olivia')!.id, 'web')!;
	importRuns(s.app, repo, {
		workflows: [{ name: 'CI', path: '.github/workflows/ci.yml', jobs: [{ name: 'build' }] }],
		runs: [
			{
				path: '.github/workflows/ci.yml',
				actor: 'olivia',
				head_sha: head,
				branch: 'feature',
				status: 'completed',
				conclusion: 'success',
				jobs: [{ name: 'build', conclusion: 'success' }],
			},
		],
	});
	await s.request('POST', '/repos/olivia/web/releases', { token, body: { tag_name: 'v1.0', name: 'One', body: 'Notes' } });
	await s.request('POST', '/gists', { token, body: { description: 'Snippets', public: true, files: { 'a.js': { content: 'let a' } } } });
	const front = await tlsFront(Number(new URL(s.origin).port));
	// Operation name → the documents seen under it (gh sends variants: RepositoryInfo of repo view and of issue create).
	const seen = new Map<string, string[]>();
	for (const command of COMMANDS) {
		const result = await runGh(front, token, command.split(' '), { debug: true });
		console.log(`${command}: exit ${result.code}`);
		for (const { query } of capturedQueries(result.stderr)) {
			const name = /(?:query|mutation)\s+([A-Za-z_]+)/.exec(query)?.[1] ?? 'Anonymous';
			const variants = seen.get(name) ?? [];
			if (variants.includes(query)) continue;
			variants.push(query);
			seen.set(name, variants);
			const file = variants.length === 1 ? name : `${name}-${variants.length}`;
			writeFileSync(join(__dirname, '..', 'test', 'fixtures', 'gh', `${file}.graphql`), `# gh 2.23: ${command}\n${query.trim()}\n`);
		}
	}
	await front.close();
	await s.close();
})();
