/**
 * A stock GitHub client (@octokit/rest) drives the repository-object routes
 * through the methods Octokit names: gists and gist comments, issues and issue comments,
 * deployments, statuses, environments and branch policies, workflow runs and jobs, git tags and
 * refs, dependency submission and review, and dependabot dismissal requests.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { importRuns } from '../src/api/actions/import';
import { importAdvisories } from '../src/api/dependabot/service';
import { startServer, type TestServer } from './helpers/server';

type Octokit = import('@octokit/rest', { with: { 'resolution-mode': 'import' }}).Octokit;

const test = suite('octokit-objects');
let s: TestServer;
let octokit: Octokit;
const owner = 'acme';
const repo = 'shop';

test.before(async () => {
	s = await startServer();
	s.user('olivia');
	s.org('acme', 'olivia');
	const { Octokit } = await import('@octokit/rest');
	octokit = new Octokit({ auth: s.fullToken('olivia'), baseUrl: s.api, log: { debug() {}, info() {}, warn() {}, error() {} } });
	await octokit.rest.repos.createInOrg({ org: owner, name: repo });
});
test.after(() => s.close());

test('gists and gist comments', async () => {
	const gist = await octokit.rest.gists.create({ description: 'notes', public: false, files: { 'a.md': { content: '# A' } } });
	const gist_id = gist.data.id!;
	const comment = await octokit.rest.gists.createComment({ gist_id, body: 'first **comment**' });
	assert.is(comment.status, 201);
	const html = await octokit.rest.gists.getComment({ gist_id, comment_id: comment.data.id, mediaType: { format: 'html' } });
	assert.match((html.data as { body_html?: string }).body_html!, '<strong>comment</strong>');
	await octokit.rest.gists.updateComment({ gist_id, comment_id: comment.data.id, body: 'edited' });
	const comments = await octokit.paginate(octokit.rest.gists.listComments, { gist_id, per_page: 1 });
	assert.equal(
		comments.map((c) => c.body),
		['edited'],
	);
	await octokit.rest.gists.deleteComment({ gist_id, comment_id: comment.data.id });
	const updated = await octokit.rest.gists.update({ gist_id, files: { 'b.txt': { content: 'b' } } });
	assert.equal(Object.keys(updated.data.files!), ['a.md', 'b.txt']);
	assert.is((await octokit.rest.gists.list()).data.length, 1);
	await octokit.rest.gists.delete({ gist_id });
});

test('issues, labels and issue comments', async () => {
	const issue = await octokit.rest.issues.create({ owner, repo, title: 'Broken', body: 'It *breaks*', labels: ['bug'] });
	const issue_number = issue.data.number;
	assert.is(issue_number, 1);
	await octokit.rest.issues.addLabels({ owner, repo, issue_number, labels: ['p1'] });
	const labels = await octokit.rest.issues.listLabelsOnIssue({ owner, repo, issue_number });
	assert.equal(
		labels.data.map((l) => l.name),
		['bug', 'p1'],
	);
	const created = await octokit.rest.issues.createComment({ owner, repo, issue_number, body: 'on it' });
	assert.is(created.data.author_association, 'MEMBER');
	const second = await octokit.rest.issues.createComment({ owner, repo, issue_number, body: 'done' });
	s.clock.advance(60_000);
	await octokit.rest.issues.updateComment({ owner, repo, comment_id: created.data.id, body: 'on it (edited)' });
	const got = await octokit.rest.issues.getComment({ owner, repo, comment_id: created.data.id, mediaType: { format: 'full' } });
	assert.is(got.data.body, 'on it (edited)');
	assert.ok(got.data.body_html && got.data.body_text);
	const forIssue = await octokit.paginate(octokit.rest.issues.listComments, { owner, repo, issue_number, per_page: 1 });
	assert.equal(
		forIssue.map((c) => c.id),
		[created.data.id, second.data.id],
	);
	const forRepo = await octokit.rest.issues.listCommentsForRepo({ owner, repo, sort: 'updated', direction: 'desc' });
	assert.is(forRepo.data[0].id, created.data.id);
	await octokit.rest.issues.deleteComment({ owner, repo, comment_id: second.data.id });
	const closed = await octokit.rest.issues.update({ owner, repo, issue_number, state: 'closed', state_reason: 'completed' });
	assert.is(closed.data.state, 'closed');
	const all = await octokit.paginate(octokit.rest.issues.listForRepo, { owner, repo, state: 'all' });
	assert.equal(
		all.map((i) => [i.number, i.comments]),
		[[1, 1]],
	);
	const fetched = await octokit.rest.issues.get({ owner, repo, issue_number });
	assert.is(fetched.data.closed_by?.login, 'olivia');
	const label = await octokit.rest.issues.createLabel({ owner, repo, name: 'triage', color: 'c0ffee' });
	assert.is(label.data.color, 'c0ffee');
	assert.ok((await octokit.paginate(octokit.rest.issues.listLabelsForRepo, { owner, repo })).some((l) => l.name === 'triage'));
});

test('deployments, statuses, environments and branch policies', async () => {
	const deployment = await octokit.rest.repos.createDeployment({
		owner,
		repo,
		ref: 'main',
		environment: 'staging',
		auto_merge: false,
		required_contexts: [],
	});
	assert.is(deployment.status, 201);
	const deployment_id = (deployment.data as { id: number }).id;
	const status = await octokit.rest.repos.createDeploymentStatus({
		owner,
		repo,
		deployment_id,
		state: 'success',
		log_url: 'https://ci.example/1',
	});
	assert.is(status.data.target_url, 'https://ci.example/1');
	const statuses = await octokit.rest.repos.listDeploymentStatuses({ owner, repo, deployment_id });
	assert.equal(
		statuses.data.map((x) => x.state),
		['success'],
	);
	const one = await octokit.rest.repos.getDeploymentStatus({ owner, repo, deployment_id, status_id: status.data.id });
	assert.is(one.data.environment, 'staging');
	assert.is((await octokit.rest.repos.listDeployments({ owner, repo })).data.length, 1);

	await octokit.rest.repos.createOrUpdateEnvironment({
		owner,
		repo,
		environment_name: 'prod/eu',
		deployment_branch_policy: { protected_branches: false, custom_branch_policies: true },
	});
	const environment_name = 'prod/eu';
	const policy = await octokit.rest.repos.createDeploymentBranchPolicy({ owner, repo, environment_name, name: 'release/*/*' });
	assert.is(policy.data.name, 'release/*/*');
	const policies = await octokit.rest.repos.listDeploymentBranchPolicies({ owner, repo, environment_name });
	assert.is(policies.data.total_count, 1);
	const branch_policy_id = policy.data.id!;
	assert.is(
		(await octokit.rest.repos.getDeploymentBranchPolicy({ owner, repo, environment_name, branch_policy_id })).data.name,
		'release/*/*',
	);
	const renamed = await octokit.rest.repos.updateDeploymentBranchPolicy({
		owner,
		repo,
		environment_name,
		branch_policy_id,
		name: 'release/*',
	});
	assert.is(renamed.data.name, 'release/*');
	await octokit.rest.repos.deleteDeploymentBranchPolicy({ owner, repo, environment_name, branch_policy_id });
	assert.is((await octokit.rest.repos.getEnvironment({ owner, repo, environment_name })).data.name, 'prod/eu');
});

test('git tags and refs; dependency submission and review', async () => {
	const tree = await octokit.rest.git.createTree({
		owner,
		repo,
		tree: [{ path: 'package.json', mode: '100644', type: 'blob', content: '{}' }],
	});
	const root = await octokit.rest.git.createCommit({ owner, repo, message: 'root', tree: tree.data.sha, parents: [] });
	await octokit.rest.git.createRef({ owner, repo, ref: 'refs/heads/main', sha: root.data.sha });
	const feature = await octokit.rest.git.createCommit({ owner, repo, message: 'feature', tree: tree.data.sha, parents: [root.data.sha] });
	await octokit.rest.git.createRef({ owner, repo, ref: 'refs/heads/feature', sha: feature.data.sha });
	const tag = await octokit.rest.git.createTag({
		owner,
		repo,
		tag: 'v1.0.0',
		message: 'First release',
		object: root.data.sha,
		type: 'commit',
		tagger: { name: 'Olivia', email: 'olivia@example.com', date: '2026-11-22T12:00:00Z' },
	});
	assert.is(tag.status, 201);
	await octokit.rest.git.createRef({ owner, repo, ref: 'refs/tags/v1.0.0', sha: tag.data.sha });
	const got = await octokit.rest.git.getTag({ owner, repo, tag_sha: tag.data.sha });
	assert.equal(got.data.verification, { verified: false, reason: 'unsigned', signature: null, payload: null, verified_at: null });
	assert.is((await octokit.rest.git.getRef({ owner, repo, ref: 'tags/v1.0.0' })).data.object.type, 'tag');

	const snapshot = (sha: string, ref: string, version: string) => ({
		owner,
		repo,
		version: 0,
		sha,
		ref,
		job: { id: 'run-1', correlator: 'ci' },
		detector: { name: 'npm', version: '1', url: 'https://example.com' },
		scanned: '2026-11-22T11:00:00Z',
		manifests: {
			lock: {
				name: 'package-lock.json',
				resolved: { lodash: { package_url: `pkg:npm/lodash@${version}`, scope: 'runtime' as const } },
			},
		},
	});
	const submitted = await octokit.rest.dependencyGraph.createRepositorySnapshot(snapshot(root.data.sha, 'refs/heads/main', '4.17.20'));
	assert.is(submitted.data.result, 'SUCCESS');
	await octokit.rest.dependencyGraph.createRepositorySnapshot(snapshot(feature.data.sha, 'refs/heads/feature', '4.17.21'));
	const diff = await octokit.rest.dependencyGraph.diffRange({ owner, repo, basehead: 'v1.0.0...feature' });
	assert.equal(
		diff.data.map((c) => `${c.change_type} ${c.name}@${c.version}`),
		['removed lodash@4.17.20', 'added lodash@4.17.21'],
	);
});

test('workflow runs: list with filters, re-run a job', async () => {
	const imported = importRuns(s.app, `${owner}/${repo}`, {
		workflows: [{ name: 'CI', path: '.github/workflows/ci.yml', jobs: [{ name: 'build' }, { name: 'test', needs: ['build'] }] }],
		runs: [
			{ path: '.github/workflows/ci.yml', actor: 'olivia', branch: 'main', conclusion: 'failure' },
			{ path: '.github/workflows/ci.yml', actor: 'olivia', branch: 'dev', conclusion: 'success' },
		],
	});
	const failed = await octokit.rest.actions.listWorkflowRunsForRepo({ owner, repo, branch: 'main', status: 'failure' });
	assert.is(failed.data.total_count, 1);
	const run = failed.data.workflow_runs[0];
	assert.is(run.id, imported.run_ids[0]);
	const all = await octokit.paginate(octokit.rest.actions.listWorkflowRunsForRepo, { owner, repo, per_page: 1 });
	assert.is(all.length, 2, '~> the paginator reads workflow_runs after total_count');
	const jobs = await octokit.rest.actions.listJobsForWorkflowRun({ owner, repo, run_id: run.id });
	const build = jobs.data.jobs.find((j) => j.name === 'build')!;
	const rerun = await octokit.rest.actions.reRunJobForWorkflowRun({ owner, repo, job_id: build.id, enable_debug_logging: true });
	assert.is(rerun.status, 201);
	const again = await octokit.rest.actions.getWorkflowRun({ owner, repo, run_id: run.id });
	assert.equal([again.data.status, again.data.run_attempt], ['queued', 2]);
});

test('dependabot alerts and dismissal requests (octokit.request, both spellings)', async () => {
	const shop = s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.byLogin(owner)!.id, repo)!;
	s.app.stores.repos.setSecurity(shop.id, { advanced_security: 0, delegated_alert_dismissal: 1 });
	importAdvisories(
		s.app,
		[
			{
				ghsa_id: 'GHSA-jf85-cpcp-j695',
				summary: 'Prototype Pollution in lodash',
				description: 'lodash before 4.17.12 is vulnerable.',
				type: 'reviewed',
				severity: 'critical',
				identifiers: [],
				references: [],
				published_at: '2019-07-10T19:45:23Z',
				updated_at: '2024-01-01T00:00:00Z',
				withdrawn_at: null,
				vulnerabilities: [
					{
						package: { ecosystem: 'npm', name: 'lodash' },
						vulnerable_version_range: '< 4.17.21',
						first_patched_version: '4.17.21',
					},
				],
			},
		],
		'2026-11-22T12:00:00Z',
	);
	const main = (await octokit.rest.git.getRef({ owner, repo, ref: 'heads/main' })).data.object.sha;
	await octokit.rest.dependencyGraph.createRepositorySnapshot({
		owner,
		repo,
		version: 0,
		sha: main,
		ref: 'refs/heads/main',
		job: { id: '2', correlator: 'ci' },
		detector: { name: 'npm', version: '1', url: 'https://example.com' },
		scanned: '2026-11-22T12:00:00Z',
		manifests: { lock: { name: 'package-lock.json', resolved: { lodash: { package_url: 'pkg:npm/lodash@4.17.20' } } } },
	});
	const alerts = await octokit.rest.dependabot.listAlertsForRepo({ owner, repo });
	assert.equal(
		alerts.data.map((a) => [a.number, a.state]),
		[[1, 'open']],
	);
	s.user('rita');
	s.app.stores.repos.setCollaborator(shop.id, s.app.stores.accounts.user('rita')!.id, 'push', '2026-11-22T12:00:00Z');
	const { Octokit } = await import('@octokit/rest');
	const rita = new Octokit({ auth: s.fullToken('rita'), baseUrl: s.api, log: { debug() {}, info() {}, warn() {}, error() {} } });
	const created = await rita.request('POST /repos/{owner}/{repo}/dismissal-requests/dependabot/{alert_number}', {
		owner,
		repo,
		alert_number: 1,
		dismissed_reason: 'tolerable_risk',
		dismissed_comment: 'only in tests',
	});
	assert.is(created.status, 201);
	const listed = await octokit.request('GET /repos/{owner}/{repo}/dismissal-requests/depbot', { owner, repo });
	assert.equal(
		listed.data.map((r: any) => [r.status, r.requester.actor_name, r.request_type]),
		[['open', 'rita', 'depbot_alert_dismissal']],
	);
	const org = await octokit.request('GET /orgs/{org}/dismissal-requests/dependabot', { org: owner });
	assert.is(org.data.length, 1);
	await octokit.request('PATCH /repos/{owner}/{repo}/dismissal-requests/dependabot/{alert_number}', {
		owner,
		repo,
		alert_number: 1,
		status: 'approve',
		message: 'ok',
	});
	const got = await octokit.request('GET /repos/{owner}/{repo}/dismissal-requests/dependabot/{alert_number}', {
		owner,
		repo,
		alert_number: 1,
	});
	assert.is(got.data.status, 'approved');
	const alert = await octokit.rest.dependabot.getAlert({ owner, repo, alert_number: 1 });
	assert.equal([alert.data.state, alert.data.dismissed_reason], ['dismissed', 'tolerable_risk']);
});

test.run();
