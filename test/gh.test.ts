/**
 * The GitHub CLI itself (gh, when installed) against Gitstead behind a TLS front
 * (test/helpers/tls.ts: self-signed certificate, GH_HOST=localhost:PORT, GH_ENTERPRISE_TOKEN,
 * SSL_CERT_FILE): gh auth status, repo view, issue list/create/view/close/status/list --search,
 * label list/create, pr list/view/create/review/merge/status/checks/diff/view --comments, repo
 * create/fork, release list/view, run list/view, search issues/prs/repos, api graphql --paginate,
 * gist list/view, repo view --json and pr view --json with fields beyond the defaults, pr
 * edit/close/reopen, repo archive.
 * Skipped, with a message, when `which gh` finds no gh.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { importRuns } from '../src/api/actions/import';
import { startServer, type TestServer } from './helpers/server';
import { findGh, runGh, tlsFront, type TlsFront } from './helpers/tls';

const test = suite('gh');
const gh = findGh();
let s: TestServer;
let front: TlsFront;
let olivia: string;
let eve: string;

if (!gh) {
	console.log('test/gh.test.ts: skipped — the gh CLI is not installed (`which gh` found nothing)');
} else {
	test.before(async () => {
		s = await startServer();
		s.user('olivia');
		s.user('eve');
		olivia = s.fullToken('olivia');
		eve = s.fullToken('eve');
		await s.request('POST', '/user/repos', { token: olivia, body: { name: 'web', auto_init: true, description: 'The website' } });
		await s.request('POST', '/user/repos', { token: olivia, body: { name: 'vault', private: true } });
		await s.request('POST', '/repos/olivia/web/issues', {
			token: olivia,
			body: { title: 'Broken link', body: 'On the front page', labels: ['bug'] },
		});
		const main = (await s.get('/repos/olivia/web/git/ref/heads/main', olivia)).body.object.sha;
		for (const branch of ['feature', 'other', 'extra']) {
			await s.request('POST', '/repos/olivia/web/git/refs', { token: olivia, body: { ref: `refs/heads/${branch}`, sha: main } });
			await s.request('PUT', `/repos/olivia/web/contents/${branch}.txt`, {
				token: olivia,
				body: { message: branch, content: Buffer.from(branch).toString('base64'), branch },
			});
		}
		await s.request('POST', '/repos/olivia/web/pulls', {
			token: olivia,
			body: { title: 'Add the feature', head: 'feature', base: 'main' },
		});
		// The pull request's head gets a commit status and a workflow run (pr status, pr checks, run list/view); a release.
		const head = (await s.get('/repos/olivia/web/git/ref/heads/feature', olivia)).body.object.sha;
		await s.request('POST', `/repos/olivia/web/statuses/${head}`, {
			token: olivia,
			body: { state: 'success', context: 'ci/lint', target_url: 'https://ci.test/1' },
		});
		importRuns(s.app, s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.byLogin('olivia')!.id, 'web')!, {
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
		await s.request('POST', '/repos/olivia/web/releases', {
			token: olivia,
			body: { tag_name: 'v1.0', name: 'First release', body: 'The notes' },
		});
		await s.request('POST', '/repos/olivia/web/issues/2/comments', { token: eve, body: { body: 'Looks good to me' } });
		front = await tlsFront(Number(new URL(s.origin).port));
	});
	test.after(async () => {
		await front?.close();
		await s?.close();
	});

	test("gh auth status: logged in as the token's user, with its scopes", async () => {
		const r = await runGh(front, olivia, ['auth', 'status']);
		assert.is(r.code, 0, r.stderr);
		assert.match(r.stderr, `Logged in to ${front.host} as olivia (GH_ENTERPRISE_TOKEN)`);
		assert.match(r.stderr, 'Token scopes: repo');
	});

	test('gh repo view: name and description; a hidden repository is not found', async () => {
		const r = await runGh(front, olivia, ['repo', 'view', 'olivia/web']);
		assert.is(r.code, 0, r.stderr);
		assert.match(r.stdout, /name:\s+olivia\/web/);
		assert.match(r.stdout, /description:\s+The website/);
		const hidden = await runGh(front, eve, ['repo', 'view', 'olivia/vault']);
		assert.is(hidden.code, 1, 'gh fails');
		assert.match(hidden.stderr, "Could not resolve to a Repository with the name 'olivia/vault'.");
	});

	test('gh issue list / create / view / close', async () => {
		const list = await runGh(front, olivia, ['issue', 'list', '-R', 'olivia/web']);
		assert.is(list.code, 0, list.stderr);
		assert.match(list.stdout, /^1\tOPEN\tBroken link\tbug\t/m);
		const created = await runGh(front, olivia, ['issue', 'create', '-R', 'olivia/web', '-t', 'From gh', '-b', 'Made by the CLI']);
		assert.is(created.code, 0, created.stderr);
		assert.match(
			created.stdout,
			`${s.origin}/olivia/web/issues/3`,
			"gh prints the new issue's URL (number 3: the pull request took 2)",
		);
		const rest = await s.get('/repos/olivia/web/issues/3', olivia);
		assert.is(rest.body.title, 'From gh');
		assert.is(rest.body.body, 'Made by the CLI');
		const view = await runGh(front, olivia, ['issue', 'view', '3', '-R', 'olivia/web']);
		assert.is(view.code, 0, view.stderr);
		assert.match(view.stdout, /title:\s+From gh/);
		assert.match(view.stdout, /state:\s+OPEN/);
		assert.match(view.stdout, /author:\s+olivia/);
		assert.match(view.stdout, 'Made by the CLI');
		const refused = await runGh(front, eve, ['issue', 'close', '3', '-R', 'olivia/web']);
		assert.is(refused.code, 1, 'another user may not close it');
		const close = await runGh(front, olivia, ['issue', 'close', '3', '-R', 'olivia/web']);
		assert.is(close.code, 0, close.stderr);
		assert.match(close.stderr, 'Closed issue #3 (From gh)');
		assert.is((await s.get('/repos/olivia/web/issues/3', olivia)).body.state, 'closed');
		const all = await runGh(front, olivia, ['issue', 'list', '-R', 'olivia/web', '--state', 'closed']);
		assert.match(all.stdout, /^3\tCLOSED\tFrom gh\t/m);
	});

	test('gh label list / create', async () => {
		const created = await runGh(front, olivia, ['label', 'create', 'ux', '-R', 'olivia/web', '-c', 'ff00ff', '-d', 'User experience']);
		assert.is(created.code, 0, created.stderr);
		const list = await runGh(front, olivia, ['label', 'list', '-R', 'olivia/web']);
		assert.is(list.code, 0, list.stderr);
		assert.match(list.stdout, /^ux\tUser experience\t#ff00ff$/m);
		assert.match(list.stdout, /^bug\t/m);
	});

	test('gh pr list', async () => {
		const r = await runGh(front, olivia, ['pr', 'list', '-R', 'olivia/web']);
		assert.is(r.code, 0, r.stderr);
		assert.match(r.stdout, /^2\tAdd the feature\tfeature\tOPEN/m);
	});

	test('gh pr view', async () => {
		const r = await runGh(front, olivia, ['pr', 'view', '2', '-R', 'olivia/web']);
		assert.is(r.code, 0, r.stderr);
		assert.match(r.stdout, /title:\s+Add the feature/);
		assert.match(r.stdout, /state:\s+OPEN/);
		assert.match(r.stdout, /author:\s+olivia/);
		assert.match(r.stdout, /url:\s+.*\/olivia\/web\/pull\/2/);
	});

	test('gh pr create / review / merge', async () => {
		const created = await runGh(front, olivia, [
			'pr',
			'create',
			'-R',
			'olivia/web',
			'-H',
			'other',
			'-B',
			'main',
			'-t',
			'Other',
			'-b',
			'Body',
		]);
		assert.is(created.code, 0, created.stderr);
		const number = Number(created.stdout.trim().split('/').pop());
		assert.match(created.stdout, `/olivia/web/pull/${number}`, "gh prints the pull request's URL");
		const review = await runGh(front, olivia, ['pr', 'review', String(number), '-R', 'olivia/web', '--comment', '-b', 'Nice']);
		assert.is(review.code, 0, review.stderr);
		const reviews = await s.get(`/repos/olivia/web/pulls/${number}/reviews`, olivia);
		assert.equal(
			reviews.body.map((r: { state: string; body: string }) => [r.state, r.body]),
			[['COMMENTED', 'Nice']],
			'the REST twin stored the review',
		);
		const merged = await runGh(front, olivia, ['pr', 'merge', String(number), '-R', 'olivia/web', '--squash']);
		assert.is(merged.code, 0, merged.stderr);
		assert.is((await s.get(`/repos/olivia/web/pulls/${number}`, olivia)).body.merged, true);
		const refused = await runGh(front, eve, ['pr', 'merge', '2', '-R', 'olivia/web', '--squash']);
		assert.is(refused.code, 1, 'eve may not merge');
	});

	test('gh repo create', async () => {
		const r = await runGh(front, olivia, ['repo', 'create', 'olivia/newrepo', '--public', '-d', 'Made by gh']);
		assert.is(r.code, 0, r.stderr);
		const rest = await s.get('/repos/olivia/newrepo', olivia);
		assert.is(rest.status, 200);
		assert.is(rest.body.description, 'Made by gh');
		assert.is(rest.body.private, false);
	});

	test('gh pr status: the pull request the viewer created, with its checks', async () => {
		const r = await runGh(front, olivia, ['pr', 'status', '-R', 'olivia/web']);
		assert.is(r.code, 0, r.stderr);
		assert.match(r.stdout, /Created by you\n\s+#2\s+Add the feature \[feature\]\n\s+✓ Checks passing/, r.stdout);
		assert.match(r.stdout, /Requesting a code review from you\n\s+You have no pull requests to review/);
	});

	test('gh pr checks: the check run and the commit status of the head commit', async () => {
		const r = await runGh(front, olivia, ['pr', 'checks', '2', '-R', 'olivia/web']);
		assert.is(r.code, 0, r.stderr);
		assert.match(r.stdout, /^build\tpass\t/m);
		assert.match(r.stdout, /^ci\/lint\tpass\t\S+\thttps:\/\/ci\.test\/1$/m);
	});

	test('gh pr view --comments and gh pr diff', async () => {
		const comments = await runGh(front, olivia, ['pr', 'view', '2', '-R', 'olivia/web', '--comments']);
		assert.is(comments.code, 0, comments.stderr);
		assert.match(comments.stdout, /author:\s+eve/);
		assert.match(comments.stdout, 'Looks good to me');
		const diff = await runGh(front, olivia, ['pr', 'diff', '2', '-R', 'olivia/web']);
		assert.is(diff.code, 0, diff.stderr);
		assert.match(diff.stdout, '+++ b/feature.txt');
		assert.match(diff.stdout, /^\+feature/m);
	});

	test('gh release list / view', async () => {
		const list = await runGh(front, olivia, ['release', 'list', '-R', 'olivia/web']);
		assert.is(list.code, 0, list.stderr);
		assert.match(list.stdout, /^First release\tLatest\tv1\.0\t/m);
		const view = await runGh(front, olivia, ['release', 'view', 'v1.0', '-R', 'olivia/web']);
		assert.is(view.code, 0, view.stderr);
		assert.match(view.stdout, /title:\s+First release/);
		assert.match(view.stdout, /tag:\s+v1\.0/);
		assert.match(view.stdout, 'The notes');
		const missing = await runGh(front, olivia, ['release', 'view', 'v9', '-R', 'olivia/web']);
		assert.is(missing.code, 1, 'no release for the tag');
	});

	test('gh run list / view; gh workflow disable / enable', async () => {
		const list = await runGh(front, olivia, ['run', 'list', '-R', 'olivia/web']);
		assert.is(list.code, 0, list.stderr);
		assert.match(list.stdout, /^completed\tsuccess\tCI\tCI\tfeature\tpush\t\d+\t/m);
		const id = list.stdout.split('\t')[6];
		const view = await runGh(front, olivia, ['run', 'view', id, '-R', 'olivia/web']);
		assert.is(view.code, 0, view.stderr);
		assert.match(view.stdout, /✓ feature CI/);
		assert.match(view.stdout, /✓ build in \S+ \(ID \d+\)/);
		const disable = await runGh(front, olivia, ['workflow', 'disable', 'CI', '-R', 'olivia/web']);
		assert.is(disable.code, 0, disable.stderr);
		assert.is(
			(await s.get('/repos/olivia/web/actions/workflows/ci.yml', olivia)).body.state,
			'disabled_manually',
			'gh workflow disable',
		);
		const enable = await runGh(front, olivia, ['workflow', 'enable', 'CI', '-R', 'olivia/web']);
		assert.is(enable.code, 0, enable.stderr);
		assert.is((await s.get('/repos/olivia/web/actions/workflows/ci.yml', olivia)).body.state, 'active', 'gh workflow enable');
	});

	test('gh search issues / prs / repos; gh issue list --search; gh issue status', async () => {
		const issues = await runGh(front, olivia, ['search', 'issues', 'Broken', '--repo', 'olivia/web']);
		assert.is(issues.code, 0, issues.stderr);
		assert.match(issues.stdout, /^olivia\/web\t1\topen\tBroken link\tbug\t/m);
		const prs = await runGh(front, olivia, ['search', 'prs', 'feature', '--repo', 'olivia/web']);
		assert.is(prs.code, 0, prs.stderr);
		assert.match(prs.stdout, /^olivia\/web\t2\topen\tAdd the feature\t/m);
		const repos = await runGh(front, olivia, ['search', 'repos', 'website']);
		assert.is(repos.code, 0, repos.stderr);
		assert.match(repos.stdout, /^olivia\/web\tThe website\tpublic\t/m);
		assert.not.match(repos.stdout, 'olivia/vault', 'private repositories are found by their owner only when they match');
		const search = await runGh(front, olivia, ['issue', 'list', '-R', 'olivia/web', '--search', 'Broken']);
		assert.is(search.code, 0, search.stderr);
		assert.match(search.stdout, /^1\tOPEN\tBroken link\tbug\t/m);
		await s.request('POST', '/repos/olivia/web/milestones', { token: olivia, body: { title: 'Launch' } });
		await s.request('PATCH', '/repos/olivia/web/issues/1', { token: olivia, body: { milestone: 1 } });
		const milestone = await runGh(front, olivia, ['issue', 'list', '-R', 'olivia/web', '--milestone', 'Launch']);
		assert.is(milestone.code, 0, milestone.stderr);
		assert.match(milestone.stdout, /^1\tOPEN\tBroken link\t/m, 'gh issue list --milestone: the issue in it');
		const byNumber = await runGh(front, olivia, ['issue', 'list', '-R', 'olivia/web', '--milestone', '1']);
		assert.match(byNumber.stdout, /^1\tOPEN\tBroken link\t/m, 'gh issue list --milestone NUMBER');
		const status = await runGh(front, olivia, ['issue', 'status', '-R', 'olivia/web']);
		assert.is(status.code, 0, status.stderr);
		assert.match(status.stdout, /Issues opened by you\n\s+1\tOPEN\tBroken link/);
		assert.match(status.stdout, /Issues assigned to you\n\s+There are no issues assigned to you/);
	});

	test('gh repo fork: the REST fork for the caller', async () => {
		const r = await runGh(front, eve, ['repo', 'fork', 'olivia/web', '--clone=false']);
		assert.is(r.code, 0, r.stderr);
		const fork = await s.get('/repos/eve/web', eve);
		assert.is(fork.status, 200, 'eve/web exists');
		assert.is(fork.body.fork, true);
		assert.is(fork.body.parent.full_name, 'olivia/web');
		const forks = await runGh(front, eve, ['repo', 'list', '--fork']);
		assert.is(forks.code, 0, forks.stderr);
		assert.match(forks.stdout, /^eve\/web\t.*fork/m, 'gh repo list --fork lists the fork');
		const sources = await runGh(front, eve, ['repo', 'list', '--source']);
		assert.is(sources.code, 0, sources.stderr);
		assert.not.match(sources.stdout, 'eve/web', 'gh repo list --source leaves it out');
	});

	test('gh api graphql --paginate: follows pageInfo.endCursor', async () => {
		const query =
			'query($endCursor: String) { repository(owner: "olivia", name: "web") { issues(first: 1, after: $endCursor, orderBy: {field: CREATED_AT, direction: ASC}) { nodes { number } pageInfo { hasNextPage endCursor } } } }';
		const r = await runGh(front, olivia, [
			'api',
			'graphql',
			'--paginate',
			'-f',
			`query=${query}`,
			'--jq',
			'.data.repository.issues.nodes[].number',
		]);
		assert.is(r.code, 0, r.stderr);
		const numbers = r.stdout.trim().split('\n').map(Number);
		const total = (await s.get('/search/issues?q=repo:olivia/web+is:issue', olivia)).body.total_count;
		assert.ok(total >= 2, 'at least two issues, so two pages');
		assert.is(numbers.length, total, 'one page per issue, every page fetched');
		assert.equal(
			numbers,
			[...numbers].sort((a, b) => a - b),
			'in order',
		);
	});

	test('gh gist list (GraphQL viewer.gists) and gh gist view (REST)', async () => {
		const made = await s.request('POST', '/gists', {
			token: olivia,
			body: { description: 'Snippets', public: true, files: { 'a.js': { content: 'let a = 1' } } },
		});
		await s.request('POST', '/gists', {
			token: olivia,
			body: { description: 'Hidden', public: false, files: { 'b.txt': { content: 'b' } } },
		});
		const list = await runGh(front, olivia, ['gist', 'list']);
		assert.is(list.code, 0, list.stderr);
		assert.match(list.stdout, new RegExp(`^${made.body.id}\tSnippets\t1 file\tpublic\t`, 'm'));
		assert.match(list.stdout, /\tHidden\t1 file\tsecret\t/);
		const secret = await runGh(front, olivia, ['gist', 'list', '--secret']);
		assert.not.match(secret.stdout, 'Snippets', '--secret: the secret ones only');
		const view = await runGh(front, olivia, ['gist', 'view', made.body.id, '--raw']);
		assert.is(view.code, 0, view.stderr);
		assert.match(view.stdout, 'let a = 1');
	});

	test('gh repo view --json and gh pr view --json with the fields beyond the defaults', async () => {
		const repo = await runGh(front, olivia, [
			'repo',
			'view',
			'olivia/web',
			'--json',
			'name,latestRelease,repositoryTopics,languages,primaryLanguage',
		]);
		assert.is(repo.code, 0, repo.stderr);
		assert.is(JSON.parse(repo.stdout).latestRelease.tagName, 'v1.0');
		const settings = await runGh(front, eve, [
			'repo',
			'view',
			'olivia/web',
			'--json',
			'viewerCanAdminister,viewerSubscription,isEmpty,isInOrganization,watchers,projects,licenseInfo',
		]);
		assert.is(settings.code, 0, settings.stderr);
		assert.equal(JSON.parse(settings.stdout), {
			isEmpty: false,
			isInOrganization: false,
			licenseInfo: null,
			projects: [],
			viewerCanAdminister: false,
			viewerSubscription: 'UNSUBSCRIBED',
			watchers: { totalCount: 1 },
		});
		const pr = await runGh(front, olivia, [
			'pr',
			'view',
			'2',
			'-R',
			'olivia/web',
			'--json',
			'files,changedFiles,reviewDecision,latestReviews,commits,statusCheckRollup,mergeCommit,mergedBy',
		]);
		assert.is(pr.code, 0, pr.stderr);
		const json = JSON.parse(pr.stdout);
		assert.equal(json.files, [{ path: 'feature.txt', additions: 1, deletions: 0 }]);
		assert.is(json.changedFiles, 1);
		assert.is(json.mergeCommit, null, 'not merged');
		assert.is(json.commits[0].messageHeadline, 'feature');
		assert.equal(json.statusCheckRollup.map((c: { name?: string; context?: string }) => c.name ?? c.context).sort(), [
			'build',
			'ci/lint',
		]);
	});

	test('gh pr edit / close / reopen; gh repo archive', async () => {
		const edit = await runGh(front, olivia, [
			'pr',
			'edit',
			'2',
			'-R',
			'olivia/web',
			'--title',
			'The feature, edited',
			'--add-label',
			'bug',
		]);
		assert.is(edit.code, 0, edit.stderr);
		const rest = (await s.get('/repos/olivia/web/pulls/2', olivia)).body;
		assert.is(rest.title, 'The feature, edited');
		assert.equal(
			rest.labels.map((l: { name: string }) => l.name),
			['bug'],
		);
		const refused = await runGh(front, eve, ['pr', 'edit', '2', '-R', 'olivia/web', '--title', 'Hijacked']);
		assert.is(refused.code, 1, 'eve may not edit it');
		const close = await runGh(front, olivia, ['pr', 'close', '2', '-R', 'olivia/web']);
		assert.is(close.code, 0, close.stderr);
		assert.is((await s.get('/repos/olivia/web/pulls/2', olivia)).body.state, 'closed');
		const reopen = await runGh(front, olivia, ['pr', 'reopen', '2', '-R', 'olivia/web']);
		assert.is(reopen.code, 0, reopen.stderr);
		assert.is((await s.get('/repos/olivia/web/pulls/2', olivia)).body.state, 'open');
		await s.request('POST', '/user/repos', { token: olivia, body: { name: 'attic' } });
		const archive = await runGh(front, olivia, ['repo', 'archive', 'olivia/attic', '--yes']);
		assert.is(archive.code, 0, archive.stderr);
		assert.is((await s.get('/repos/olivia/attic', olivia)).body.archived, true);
	});

	test('gh pr create with --label, --assignee and --reviewer (updatePullRequest, requestReviews)', async () => {
		const r = await runGh(front, olivia, [
			'pr',
			'create',
			'-R',
			'olivia/web',
			'-H',
			'extra',
			'-B',
			'main',
			'-t',
			'Extra',
			'-b',
			'More',
			'--label',
			'bug',
			'--assignee',
			'olivia',
			'--reviewer',
			'eve',
		]);
		assert.is(r.code, 0, r.stderr);
		const number = Number(r.stdout.trim().split('/').pop());
		const pr = (await s.get(`/repos/olivia/web/pulls/${number}`, olivia)).body;
		assert.equal(
			pr.labels.map((l: { name: string }) => l.name),
			['bug'],
		);
		assert.equal(
			pr.assignees.map((a: { login: string }) => a.login),
			['olivia'],
		);
		assert.equal(
			pr.requested_reviewers.map((u: { login: string }) => u.login),
			['eve'],
		);
		const status = await runGh(front, eve, ['pr', 'status', '-R', 'olivia/web']);
		assert.is(status.code, 0, status.stderr);
		assert.match(status.stdout, new RegExp(`Requesting a code review from you\\n\\s+#${number}\\s+Extra \\[extra\\]`), status.stdout);
	});
}

test.run();
