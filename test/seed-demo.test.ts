/**
 * `gitstead admin seed-demo`: the built command seeds a fresh folder, then a server on
 * that folder answers a stock @octokit/rest, signed in with the printed persona tokens, with the
 * seeded enterprise — organizations, teams, repositories with history, issues, pull requests,
 * releases, deployments, workflow runs, dependabot alerts, feeds and notifications. A second run
 * changes nothing; a folder with other data is refused unless --force.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bundleCommand, run, serve, type Served } from './helpers/cli';

type Octokit = import('@octokit/rest', { with: { 'resolution-mode': 'import' }}).Octokit;

interface Seeded {
	already_seeded: boolean;
	api_url: string;
	personas: Array<{ login: string; role: string; token: string }>;
	counts: Record<string, number>;
	elapsed_ms: number;
}

const test = suite('seed-demo');
const gitstead = bundleCommand();
let dir: string;
let served: Served | undefined;
let seeded: Seeded;
let seedMs = 0;
/** Clients by persona login. */
const as: Record<string, Octokit> = {};
const eng = 'northwind-eng';
const shop = { owner: eng, repo: 'storefront' };

const seed = (data: string, ...args: string[]) => run(gitstead, ['admin', 'seed-demo', '--data-dir', join(dir, data), ...args]);

test.before(async () => {
	dir = mkdtempSync(join(tmpdir(), 'gitstead-seed-'));
	const started = Date.now();
	const result = seed('data', '--json');
	seedMs = Date.now() - started;
	assert.is(result.code, 0, `~> seed-demo succeeds: ${result.stderr}`);
	seeded = JSON.parse(result.stdout);
	served = await serve(gitstead, ['--data-dir', join(dir, 'data')]);
	const { Octokit } = await import('@octokit/rest');
	const quiet = { debug() {}, info() {}, warn() {}, error() {} };
	for (const persona of seeded.personas)
		as[persona.login] = new Octokit({ auth: persona.token, baseUrl: `${served.address}/api/v3`, log: quiet });
});
test.after(async () => {
	await served?.stop();
	rmSync(dir, { recursive: true, force: true });
});

test('seed-demo --json prints four personas with tokens and believable counts, in seconds', () => {
	assert.is(seeded.already_seeded, false, '~> a fresh folder is seeded');
	assert.equal(
		seeded.personas.map((p) => p.login),
		['rosa-admin', 'mchen', 'jmartin', 'cwright'],
		'~> the site administrator, an org owner, a developer and an outside collaborator',
	);
	for (const persona of seeded.personas) {
		assert.match(persona.token, /^ghp_[A-Za-z0-9]{36}$/, `~> ${persona.login} gets a classic token`);
		assert.ok(persona.role.length > 0, `~> ${persona.login}'s role is described`);
	}
	const c = seeded.counts;
	assert.is(c.users, 20, '~> 20 users');
	assert.is(c.organizations, 3, '~> 3 organizations');
	assert.ok(c.repositories >= 10, '~> about ten repositories');
	assert.ok(c.commits >= 30, '~> dozens of commits');
	assert.ok(c.issues >= 10 && c.pull_requests === 7 && c.merged_pull_requests === 1, '~> issues and seven pull requests, one merged');
	assert.ok(c.workflow_runs >= 10 && c.dependabot_alerts >= 5 && c.deployments >= 4, '~> runs, alerts and deployments');
	assert.ok(seedMs < 60_000, `~> seeding takes seconds (took ${seedMs} ms)`);
	assert.ok(seeded.elapsed_ms <= seedMs, '~> the reported time is the seeding itself');
});

test('at least five repositories have issues with comments and reactions, and a pull request', async () => {
	const repos = await as['rosa-admin'].paginate(as['rosa-admin'].rest.repos.listForOrg, { org: eng, per_page: 100 });
	const data = await as['rosa-admin'].paginate(as['rosa-admin'].rest.repos.listForOrg, { org: 'northwind-data', per_page: 100 });
	const lively: string[] = [];
	for (const repo of [...repos, ...data]) {
		const where = { owner: repo.owner.login, repo: repo.name };
		const items = await as['rosa-admin'].rest.issues.listForRepo({ ...where, state: 'all', per_page: 100 });
		const issues = items.data.filter((i) => !i.pull_request);
		const pulls = items.data.filter((i) => i.pull_request);
		const commented = issues.filter((i) => i.comments > 0);
		const reacted = issues.some((i) => (i.reactions?.total_count ?? 0) > 0);
		let commentReactions = false;
		for (const issue of commented) {
			const comments = await as['rosa-admin'].rest.issues.listComments({ ...where, issue_number: issue.number });
			if (comments.data.some((comment) => (comment.reactions?.total_count ?? 0) > 0)) commentReactions = true;
		}
		if (commented.length && reacted && commentReactions && pulls.length) lively.push(repo.full_name);
	}
	assert.ok(lively.length >= 5, `~> five or more lively repositories: ${lively.join(', ')}`);
});

test('a second run on the seeded folder changes nothing and says so', () => {
	const again = seed('data');
	assert.is(again.code, 0, `~> exit 0: ${again.stderr}`);
	assert.match(again.stdout, /already seeded/, '~> it says the folder is already seeded');
	const json = seed('data', '--json');
	assert.equal(
		JSON.parse(json.stdout),
		{ ...JSON.parse(json.stdout), already_seeded: true, personas: [], counts: {} },
		'~> --json: already_seeded, nothing created',
	);
});

test('a folder holding other data is refused unless --force', () => {
	assert.is(run(gitstead, ['admin', 'init', '--data-dir', join(dir, 'other')]).code, 0);
	assert.is(run(gitstead, ['admin', 'create-user', 'bob', '--data-dir', join(dir, 'other')]).code, 0);
	const refused = seed('other');
	assert.is(refused.code, 1, '~> exit 1');
	assert.match(refused.stderr, /already holds accounts or repositories.*--force/, '~> the message names --force');
	assert.is(seed('other', '--json').code, 1, '~> with --json too');
	const ok = seed('other', '--force', '--json');
	assert.is(ok.code, 0, `~> --force seeds beside the other data: ${ok.stderr}`);
	assert.is(JSON.parse(ok.stdout).counts.users, 20, '~> the whole demo');
});

test('the organizations, their members and nested teams are there', async () => {
	const owner = as.mchen;
	const orgs = await as['rosa-admin'].rest.orgs.listForUser({ username: 'mchen' });
	assert.ok(
		orgs.data.some((o) => o.login === eng),
		'~> mchen belongs to northwind-eng',
	);
	const org = await owner.rest.orgs.get({ org: eng });
	assert.is(org.data.name, 'Northwind Engineering', '~> the organization has its name');
	assert.ok(org.data.description, '~> and a description');
	const members = await owner.rest.orgs.listMembers({ org: eng, per_page: 100 });
	assert.is(members.data.length, 11, '~> 2 owners and 9 members');
	const admins = await owner.rest.orgs.listMembers({ org: eng, role: 'admin' });
	assert.equal(admins.data.map((m) => m.login).sort(), ['mchen', 'rosa-admin'], '~> two owners');
	const outside = await owner.rest.orgs.listOutsideCollaborators({ org: eng });
	assert.equal(outside.data.map((u) => u.login).sort(), ['cwright', 'vkumar'], '~> two outside collaborators');
	const teams = await owner.rest.teams.list({ org: eng });
	assert.is(teams.data.length, 6, '~> six teams');
	const mobile = teams.data.find((t) => t.slug === 'mobile');
	assert.is(mobile?.parent?.slug, 'frontend', '~> teams nest (mobile under frontend)');
	const backend = await owner.rest.teams.listMembersInOrg({ org: eng, team_slug: 'backend' });
	assert.equal(backend.data.map((m) => m.login).sort(), ['jmartin', 'rcosta'], '~> team members');
	const profile = await as.jmartin.rest.users.getByUsername({ username: 'jmartin' });
	assert.is(profile.data.name, 'James Martin', '~> users have real names');
	assert.ok(profile.data.bio && profile.data.location, '~> and bios and locations');
});

test('repositories of every visibility, with history, branches, tags, releases and a README', async () => {
	const repos = await as.mchen.rest.repos.listForOrg({ org: eng, per_page: 100 });
	assert.equal(
		repos.data.map((r) => r.name).sort(),
		['design-system', 'infra', 'mobile-app', 'payments-api', 'storefront'],
		'~> five engineering repositories',
	);
	assert.equal(
		[...new Set(repos.data.map((r) => r.visibility))].sort(),
		['internal', 'private', 'public'],
		'~> public, private and internal',
	);
	const repo = await as.jmartin.rest.repos.get(shop);
	assert.is(repo.data.stargazers_count, 8, '~> stars');
	assert.ok(repo.data.subscribers_count >= 3, '~> watchers');
	assert.equal(repo.data.topics, ['react', 'vite', 'ecommerce'], '~> topics');
	const commits = await as.jmartin.rest.repos.listCommits({ ...shop, per_page: 100 });
	assert.ok(commits.data.length >= 7, '~> several commits on main');
	const authors = new Set(commits.data.map((c) => c.author?.login));
	assert.ok(authors.size >= 4, '~> by different authors, linked to their accounts');
	const dates = commits.data.map((c) => Date.parse(c.commit.author!.date!));
	assert.ok(Math.max(...dates) - Math.min(...dates) > 20 * 86_400_000, '~> over several weeks');
	const branches = await as.jmartin.rest.repos.listBranches(shop);
	assert.ok(
		branches.data.some((b) => b.name === 'main' && b.protected),
		'~> main is protected',
	);
	assert.ok(branches.data.length >= 3, '~> and other branches exist');
	const tags = await as.jmartin.rest.repos.listTags(shop);
	assert.ok(
		['v2.2.0', 'v2.3.0'].every((t) => tags.data.some((x) => x.name === t)),
		'~> tags, of releases and annotated',
	);
	const releases = await as.jmartin.rest.repos.listReleases(shop);
	assert.is(releases.data.length, 2, '~> two releases');
	assert.ok(
		releases.data.some((r) => r.prerelease),
		'~> one is a pre-release',
	);
	const readme = await as.jmartin.rest.repos.getReadme(shop);
	assert.match(Buffer.from((readme.data as { content: string }).content, 'base64').toString(), /^# Storefront/, '~> the README');
	const pkg = await as.jmartin.rest.repos.getContent({ ...shop, path: 'package.json' });
	assert.match(
		Buffer.from((pkg.data as { content: string }).content, 'base64').toString(),
		/"lodash": "4.17.15"/,
		'~> a package.json with a vulnerable version',
	);
	const hidden = await as.cwright.rest.repos.get({ owner: eng, repo: 'payments-api' }).catch((error) => error);
	assert.is(hidden.status, 404, '~> the outside collaborator does not see private repositories it was not invited to');
	const own = await as.cwright.rest.repos.get(shop);
	assert.is(own.data.permissions?.push, true, '~> but pushes to the one it collaborates on');
});

test('issues with Markdown, comments, labels, milestones; pull requests, one merged, one open with a review', async () => {
	const issues = await as.jmartin.rest.issues.listForRepo({ ...shop, state: 'all', per_page: 100 });
	assert.is(issues.data.length, 7, '~> five issues and two pull requests');
	const safari = await as.jmartin.rest.issues.get({ ...shop, issue_number: 1 });
	assert.match(safari.data.body!, /```/, '~> Markdown with a code block');
	assert.match(safari.data.body!, /@jmartin/, '~> and a mention');
	assert.equal(safari.data.labels.map((l) => (typeof l === 'string' ? l : l.name)).sort(), ['bug', 'checkout', 'p1'], '~> labels');
	assert.is(safari.data.milestone?.title, 'v2.4', '~> a milestone');
	assert.is(safari.data.assignees?.[0]?.login, 'jmartin', '~> an assignee');
	assert.ok((safari.data.reactions?.total_count ?? 0) >= 2, '~> reactions');
	const comments = await as.jmartin.rest.issues.listComments({ ...shop, issue_number: 1 });
	assert.is(comments.data.length, 3, '~> three comments');
	const tasks = await as.jmartin.rest.issues.get({ ...shop, issue_number: 2 });
	assert.match(tasks.data.body!, /- \[x\]/, '~> a task list');
	const labels = await as.jmartin.rest.issues.listLabelsForRepo({ ...shop, per_page: 100 });
	assert.ok(
		labels.data.some((l) => l.name === 'security'),
		'~> custom labels beside the defaults',
	);
	const milestones = await as.jmartin.rest.issues.listMilestones({ ...shop, state: 'all' });
	assert.is(milestones.data.length, 2, '~> two milestones');
	const pulls = await as.jmartin.rest.pulls.list({ ...shop, state: 'all' });
	assert.is(pulls.data.length, 2, '~> two pull requests');
	const merged = pulls.data.find((p) => p.merged_at);
	assert.ok(merged, '~> one is merged');
	const open = pulls.data.find((p) => p.state === 'open')!;
	const reviews = await as.jmartin.rest.pulls.listReviews({ ...shop, pull_number: open.number });
	assert.is(reviews.data[0]?.state, 'CHANGES_REQUESTED', '~> the open one has a review');
	const lineComments = await as.jmartin.rest.pulls.listReviewComments({ ...shop, pull_number: open.number });
	assert.is(lineComments.data.length, 2, '~> with comments on lines of the diff');
	assert.ok(
		lineComments.data.every((c) => c.line && c.path),
		'~> placed on a path and line',
	);
	const search = await as.jmartin.rest.search.issuesAndPullRequests({ q: 'safari repo:northwind-eng/storefront' });
	assert.ok(search.data.total_count >= 1, '~> search finds the seeded issues');
});

test('deployments with statuses, workflow runs in every status, dependabot alerts', async () => {
	const deployments = await as.mchen.rest.repos.listDeployments(shop);
	assert.equal([...new Set(deployments.data.map((d) => d.environment))].sort(), ['production', 'staging'], '~> staging and production');
	const statuses = await as.mchen.rest.repos.listDeploymentStatuses({
		...shop,
		deployment_id: deployments.data[deployments.data.length - 1].id,
	});
	assert.ok(statuses.data.length >= 2, '~> each deployment has a status history');
	const policies = await as.mchen.rest.repos.listDeploymentBranchPolicies({ ...shop, environment_name: 'production' });
	assert.is(policies.data.branch_policies[0]?.name, 'main', '~> production deploys from main only');
	const runs = await as.mchen.rest.actions.listWorkflowRunsForRepo({ ...shop, per_page: 100 });
	const states = new Set(runs.data.workflow_runs.map((r) => r.conclusion ?? r.status));
	for (const state of ['success', 'failure', 'cancelled', 'in_progress', 'queued']) assert.ok(states.has(state), `~> a run is ${state}`);
	// The jobs that ran have logs (gh run view --log): the failed run's zip holds the failing step.
	const failed = runs.data.workflow_runs.find((r) => r.conclusion === 'failure')!;
	const jobs = await as.mchen.rest.actions.listJobsForWorkflowRun({ ...shop, run_id: failed.id });
	const failing = jobs.data.jobs.find((j) => j.conclusion === 'failure')!;
	const log = await as.mchen.request('GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs', { ...shop, job_id: failing.id });
	assert.match(String(log.data), 'Process completed with exit code 1.');
	const alerts = await as.mchen.rest.dependabot.listAlertsForRepo({ ...shop, state: 'open,dismissed' } as Parameters<
		Octokit['rest']['dependabot']['listAlertsForRepo']
	>[0]);
	assert.ok(
		alerts.data.some((a) => a.dependency.package?.name === 'lodash' && a.state === 'open'),
		'~> an open lodash alert',
	);
	assert.ok(
		alerts.data.some((a) => a.state === 'dismissed'),
		'~> and a dismissed one',
	);
});

test('activity: feeds, notifications and the rate limit of the personas', async () => {
	const received = await as.jmartin.rest.activity.listReceivedEventsForUser({ username: 'jmartin' });
	assert.ok(received.data.length >= 10, '~> the developer has a busy feed');
	const types = new Set(received.data.map((e) => e.type));
	assert.ok(types.has('IssuesEvent') || types.has('PushEvent'), '~> of issues and pushes');
	const notifications = await as.jmartin.rest.activity.listNotificationsForAuthenticatedUser({ all: true });
	assert.ok(notifications.data.length >= 1, '~> and notifications (mentions, assignments)');
	const stars = await as.jmartin.rest.activity.listReposStarredByAuthenticatedUser();
	assert.ok(stars.data.length >= 1, '~> stars');
	const rate = await as.jmartin.rest.rateLimit.get();
	assert.is(rate.data.resources.core.limit, 5000, '~> the rate limit answers');
});

test.run();
