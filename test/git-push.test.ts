/**
 * git push over smart HTTP (src/api/git/receive-pack.ts, push.ts) with the machine's git: a
 * generated history (merges, renames, tags, binary files, a workflow) pushed and cloned back with
 * identical ids; what a push sets off (events, webhooks, pull request synchronize, closing
 * keywords, the default branch of an empty repository, pushed_at and size); and every refusal as
 * git shows it (protection, rulesets, atomic, races, workflow scope, permissions, archived).
 * Skipped when git is not installed.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { gitIn, hasGit, needsGit, writeTree } from './helpers/git';
import { Receiver } from './helpers/receiver';
import { startServer, type TestServer } from './helpers/server';

const test = suite('git-push');
let s: TestServer;
let work: string;
let git: ReturnType<typeof gitIn>['git'];
let octo: string; // octo's classic token with every scope
let noWorkflow: string; // octo's classic token with repo only
const receiver = new Receiver();

const url = (repo: string, token = octo, owner = 'octo') =>
	`${s.origin.replace('http://', `http://x-access-token:${token}@`)}/${owner}/${repo}.git`;

async function ok(args: string[], cwd = work): Promise<string> {
	const result = await git(args, cwd);
	assert.is(result.status, 0, `~> git ${args.join(' ')} succeeds: ${result.err}`);
	return result.out;
}

/** A new local repository with one commit of `files`. */
async function local(name: string, files: Record<string, string | Buffer> = { 'README.md': `# ${name}\n` }): Promise<string> {
	const dir = join(work, name);
	await ok(['init', '-q', dir]);
	writeTree(dir, files);
	await ok(['add', '-A'], dir);
	await ok(['commit', '-q', '-m', `Start ${name}`], dir);
	return dir;
}

async function commit(dir: string, files: Record<string, string | Buffer>, message: string): Promise<string> {
	writeTree(dir, files);
	await ok(['add', '-A'], dir);
	await ok(['commit', '-q', '-m', message], dir);
	return (await ok(['rev-parse', 'HEAD'], dir)).trim();
}

async function createRepo(name: string, body: Record<string, unknown> = {}): Promise<void> {
	const res = await s.request('POST', '/user/repos', { token: octo, body: { name, ...body } });
	assert.is(res.status, 201, `~> repository ${name} created`);
}

/** Every ref and every object id of a repository, as git lists them. */
async function inventory(dir: string): Promise<{ refs: string; objects: string }> {
	const refs = await ok(['for-each-ref', '--format=%(objectname) %(refname)', 'refs/heads', 'refs/tags'], dir);
	const objects = (await ok(['rev-list', '--objects', '--all'], dir))
		.split('\n')
		.map((line) => line.split(' ')[0])
		.filter(Boolean)
		.sort()
		.join('\n');
	return { refs, objects };
}

test.before(async () => {
	if (!hasGit) return;
	await receiver.start();
	s = await startServer({
		configure(config) {
			config.webhooks.allowed_hosts = ['127.0.0.1'];
		},
	});
	s.user('octo');
	s.user('mia');
	s.user('eve');
	octo = s.fullToken('octo');
	noWorkflow = s.token('octo', { scopes: ['repo'] });
	work = mkdtempSync(join(tmpdir(), 'gitstead-push-'));
	git = gitIn(work).git;
});

test.after(async () => {
	if (!hasGit) return;
	await s.close();
	await receiver.stop();
	rmSync(work, { recursive: true, force: true });
});

if (needsGit(test, 'git-push')) {
	test('a history with merges, renames, tags and binary files is pushed and cloned back identical, with protocol v0 and v2', async () => {
		await createRepo('history');
		const dir = await local('history-src', { 'README.md': '# History\n', 'src/a.js': 'export const a = 1;\n' });
		await commit(
			dir,
			{ 'src/b.js': 'export const b = 2;\n', 'logo.bin': Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7) % 256)) },
			'Add b and a logo',
		);
		await ok(['checkout', '-q', '-b', 'feature'], dir);
		await ok(['mv', 'src/a.js', 'src/alpha.js'], dir);
		await commit(dir, { 'src/alpha.js': 'export const a = 1;\nexport const alpha = true;\n' }, 'Rename a to alpha');
		await ok(['checkout', '-q', 'main'], dir);
		await commit(dir, { 'docs/guide.md': 'Guide\n'.repeat(50) }, 'Guide');
		await ok(['merge', '-q', '--no-ff', '-m', 'Merge feature', 'feature'], dir);
		await commit(dir, { '.github/workflows/ci.yml': 'on: push\njobs: {}\n' }, 'CI');
		await ok(['tag', 'v1.0.0-light'], dir);
		await ok(['tag', '-a', '-m', 'Release 1.0', 'v1.0.0'], dir);
		const pushed = await git(['push', url('history'), 'main', 'feature', '--tags'], dir);
		assert.is(pushed.status, 0, `~> git push succeeds: ${pushed.err}`);
		assert.match(pushed.err, '[new branch]      main -> main');
		assert.match(pushed.err, '[new tag]         v1.0.0 -> v1.0.0');
		const source = await inventory(dir);
		for (const [version, target] of [
			['0', 'clone-v0'],
			['2', 'clone-v2'],
		]) {
			await ok(['-c', `protocol.version=${version}`, 'clone', '-q', '--no-local', url('history'), join(work, target)]);
			const copy = join(work, target);
			await ok(['fetch', '-q', '--update-head-ok', '--tags', 'origin', '+refs/heads/*:refs/heads/*'], copy);
			const cloned = await inventory(copy);
			assert.is(cloned.objects, source.objects, `~> protocol v${version}: the same object ids`);
			assert.is(cloned.refs, source.refs, `~> protocol v${version}: the same refs`);
			assert.is(await ok(['fsck', '--strict', '--no-dangling'], copy), '', `~> protocol v${version}: git fsck --strict is clean`);
		}
		const mirror = join(work, 'mirror.git');
		await ok(['clone', '-q', '--mirror', url('history'), mirror]);
		assert.match(await ok(['for-each-ref', '--format=%(refname)'], mirror), 'refs/tags/v1.0.0');
		const repo = (await s.get('/repos/octo/history', octo)).body;
		assert.is(repo.default_branch, 'main');
		assert.ok(repo.pushed_at, '~> pushed_at is set');
		assert.ok(repo.size > 0, '~> size counts the stored data');
		const branch = (await s.get('/repos/octo/history/branches/feature', octo)).body;
		assert.is(branch.commit.sha, (await ok(['rev-parse', 'feature'], dir)).trim(), '~> the REST API reads the pushed branch');
		const file = await s.get('/repos/octo/history/contents/src/alpha.js?ref=feature', octo);
		assert.is(Buffer.from(file.body.content, 'base64').toString(), 'export const a = 1;\nexport const alpha = true;\n');
	});

	test('a push to an empty repository names its default branch; events, webhooks and the feed follow', async () => {
		await createRepo('fresh');
		const hook = await s.request('POST', '/repos/octo/fresh/hooks', {
			token: octo,
			body: { config: { url: `${receiver.origin}/fresh`, content_type: 'json' }, events: ['push', 'create', 'delete'] },
		});
		assert.is(hook.status, 201);
		const dir = await local('fresh-src');
		const pushed = await git(['push', url('fresh'), 'main:trunk'], dir);
		assert.is(pushed.status, 0, pushed.err);
		assert.is(
			(await s.get('/repos/octo/fresh', octo)).body.default_branch,
			'trunk',
			'~> the first branch pushed becomes the default branch',
		);
		const head = (await ok(['rev-parse', 'HEAD'], dir)).trim();
		await commit(dir, { 'more.txt': 'more\n' }, 'More');
		await commit(dir, { 'even.txt': 'even more\n' }, 'Even more');
		const after = (await ok(['rev-parse', 'HEAD'], dir)).trim();
		assert.is((await git(['push', url('fresh'), 'main:trunk'], dir)).status, 0);
		await s.app.webhooks.deliverDue();
		await receiver.waitFor((r) => r.filter((x) => x.path === '/fresh' && x.event === 'push').length >= 2);
		const pushes = receiver.received.filter((x) => x.path === '/fresh' && x.event === 'push');
		assert.is(pushes[0].payload.created, true, '~> the first push created the branch');
		assert.is(pushes[0].payload.ref, 'refs/heads/trunk');
		const second = pushes[1].payload;
		assert.is(second.before, head);
		assert.is(second.after, after);
		assert.is(second.forced, false);
		assert.equal(
			second.commits.map((c: any) => c.message),
			['More\n', 'Even more\n'],
			'~> the commits the push brought, oldest first',
		);
		assert.is(second.head_commit.id, after);
		assert.match(second.compare, `/octo/fresh/compare/${head.slice(0, 12)}...${after.slice(0, 12)}`);
		assert.ok(
			receiver.received.some((x) => x.path === '/fresh' && x.event === 'create'),
			'~> the create webhook',
		);
		const events = (await s.get('/repos/octo/fresh/events', octo)).body as any[];
		assert.ok(
			events.some((e) => e.type === 'PushEvent' && e.payload.head === after),
			'~> PushEvent in the feed',
		);
		assert.ok(
			events.some((e) => e.type === 'CreateEvent' && e.payload.ref === 'trunk'),
			'~> CreateEvent in the feed',
		);
		// A forced push and a deleted branch.
		await ok(['reset', '-q', '--hard', head], dir);
		await commit(dir, { 'other.txt': 'rewritten\n' }, 'Rewritten');
		assert.is(
			(await git(['push', '--force', url('fresh'), 'main:trunk'], dir)).status,
			0,
			'~> an unprotected branch takes a forced push',
		);
		assert.is((await git(['push', url('fresh'), 'main:topic'], dir)).status, 0);
		const deleted = await git(['push', url('fresh'), ':topic'], dir);
		assert.is(deleted.status, 0, deleted.err);
		assert.is((await s.get('/repos/octo/fresh/branches/topic', octo)).status, 404, '~> the branch is gone');
		await s.app.webhooks.deliverDue();
		await receiver.waitFor((r) => r.some((x) => x.path === '/fresh' && x.event === 'delete'));
		const forced = receiver.received.filter((x) => x.path === '/fresh' && x.event === 'push').find((x) => x.payload.forced);
		assert.ok(forced, '~> the forced push says forced');
		const current = await git(['push', url('fresh'), ':trunk'], dir);
		assert.is.not(current.status, 0, '~> the default branch cannot be deleted');
		assert.match(current.err, 'refusing to delete the current branch: refs/heads/trunk');
	});

	test('a pull request follows its head branch (synchronize); closing keywords on the default branch close issues', async () => {
		await createRepo('flow', { auto_init: true });
		const dir = join(work, 'flow');
		await ok(['clone', '-q', url('flow'), dir]);
		await ok(['checkout', '-q', '-b', 'topic'], dir);
		await commit(dir, { 'topic.txt': 'one\n' }, 'Topic one');
		assert.is((await git(['push', '-q', 'origin', 'topic'], dir)).status, 0);
		const pull = await s.request('POST', '/repos/octo/flow/pulls', {
			token: octo,
			body: { title: 'Topic', head: 'topic', base: 'main' },
		});
		assert.is(pull.status, 201);
		const sha = await commit(dir, { 'topic.txt': 'two\n' }, 'Topic two');
		assert.is((await git(['push', '-q', 'origin', 'topic'], dir)).status, 0);
		const after = (await s.get(`/repos/octo/flow/pulls/${pull.body.number}`, octo)).body;
		assert.is(after.head.sha, sha, '~> the pull request took the new head');
		const events = (await s.get('/repos/octo/flow/events', octo)).body as any[];
		assert.ok(
			events.some((e) => e.type === 'PullRequestEvent' && e.payload.action === 'synchronize') ||
				s.app.db.prepare("SELECT count(*) FROM events WHERE event = 'pull_request' AND action = 'synchronize'").pluck().get(),
			'~> synchronize was recorded',
		);
		const issue = await s.request('POST', '/repos/octo/flow/issues', { token: octo, body: { title: 'Broken thing' } });
		await ok(['checkout', '-q', 'main'], dir);
		await commit(dir, { 'fix.txt': 'fixed\n' }, `Repair the thing\n\nFixes #${issue.body.number}`);
		assert.is((await git(['push', '-q', 'origin', 'main'], dir)).status, 0);
		const closed = (await s.get(`/repos/octo/flow/issues/${issue.body.number}`, octo)).body;
		assert.is(closed.state, 'closed', '~> "Fixes #N" pushed to the default branch closes the issue');
		assert.is(closed.state_reason, 'completed');
	});

	test('branch protection refuses as GitHub does: GH006 and the reason on remote: lines, git exits 1', async () => {
		await createRepo('guarded', { auto_init: true });
		const dir = join(work, 'guarded');
		await ok(['clone', '-q', url('guarded'), dir]);
		const protect = await s.request('PUT', '/repos/octo/guarded/branches/main/protection', {
			token: octo,
			body: {
				required_status_checks: null,
				enforce_admins: true,
				required_pull_request_reviews: null,
				restrictions: null,
				allow_force_pushes: false,
			},
		});
		assert.is(protect.status, 200);
		const base = (await ok(['rev-parse', 'HEAD'], dir)).trim();
		await commit(dir, { 'a.txt': 'a\n' }, 'A');
		assert.is((await git(['push', '-q', 'origin', 'main'], dir)).status, 0, '~> a fast-forward goes through');
		await ok(['reset', '-q', '--hard', base], dir);
		await commit(dir, { 'b.txt': 'b\n' }, 'B');
		const forced = await git(['push', '--force', 'origin', 'main'], dir);
		assert.is(forced.status, 1, '~> git exits 1');
		assert.match(forced.err, 'remote: error: GH006: Protected branch update failed for refs/heads/main.');
		assert.match(forced.err, 'remote: error: Cannot force-push to this branch');
		assert.match(forced.err, '! [remote rejected] main -> main (protected branch hook declined)');
		await s.request('PUT', '/repos/octo/guarded/branches/main/protection', {
			token: octo,
			body: {
				required_status_checks: null,
				enforce_admins: true,
				required_pull_request_reviews: { required_approving_review_count: 1 },
				restrictions: null,
			},
		});
		await ok(['fetch', '-q', 'origin'], dir);
		await ok(['reset', '-q', '--hard', 'origin/main'], dir);
		await commit(dir, { 'c.txt': 'c\n' }, 'C');
		const reviewed = await git(['push', 'origin', 'main'], dir);
		assert.is(reviewed.status, 1);
		assert.match(reviewed.err, 'Changes must be made through a pull request.');
		// --atomic: one refused reference refuses the other.
		await ok(['branch', '-f', 'side'], dir);
		const atomic = await git(['push', '--atomic', 'origin', 'main', 'side'], dir);
		assert.is(atomic.status, 1);
		assert.match(atomic.err, '(atomic push failure)');
		assert.is((await s.get('/repos/octo/guarded/branches/side', octo)).status, 404, '~> nothing of an atomic push was written');
		assert.is((await git(['push', '-q', 'origin', 'side'], dir)).status, 0, '~> without --atomic the other branch goes through');
	});

	test('organization rulesets refuse with GH013; rule suites are recorded', async () => {
		s.org('acme', 'octo');
		const made = await s.request('POST', '/orgs/acme/repos', { token: octo, body: { name: 'ruled', auto_init: true } });
		assert.is(made.status, 201);
		const ruleset = await s.request('POST', '/orgs/acme/rulesets', {
			token: octo,
			body: {
				name: 'no deletions',
				target: 'branch',
				enforcement: 'active',
				conditions: { ref_name: { include: ['~ALL'], exclude: [] }, repository_name: { include: ['~ALL'], exclude: [] } },
				rules: [{ type: 'deletion' }, { type: 'non_fast_forward' }],
			},
		});
		assert.is(ruleset.status, 201, ruleset.text);
		const dir = join(work, 'ruled');
		await ok(['clone', '-q', url('ruled', octo, 'acme'), dir]);
		await ok(['push', '-q', 'origin', 'HEAD:refs/heads/keep'], dir);
		const refused = await git(['push', 'origin', ':keep'], dir);
		assert.is(refused.status, 1);
		assert.match(refused.err, 'remote: error: GH013: Repository rule violations found for refs/heads/keep.');
		assert.match(refused.err, '(push declined due to repository rule violations)');
		const suites = (await s.get('/orgs/acme/rulesets/rule-suites', octo)).body as any[];
		assert.ok(
			suites.some((suite) => suite.ref === 'refs/heads/keep' && suite.result === 'fail'),
			'~> the refused push left a rule suite',
		);
	});

	test('two pushes from the same base: one wins, the other is refused; nothing is lost', async () => {
		await createRepo('race', { auto_init: true });
		const one = join(work, 'race-one');
		const two = join(work, 'race-two');
		await ok(['clone', '-q', url('race'), one]);
		await ok(['clone', '-q', url('race'), two]);
		const a = await commit(one, { 'one.txt': '1\n' }, 'One');
		const b = await commit(two, { 'two.txt': '2\n' }, 'Two');
		const [first, second] = await Promise.all([git(['push', 'origin', 'main'], one), git(['push', 'origin', 'main'], two)]);
		assert.is(
			[first.status, second.status].filter((status) => status === 0).length,
			1,
			`~> exactly one wins: ${first.err} ${second.err}`,
		);
		const loser = first.status === 0 ? second : first;
		assert.match(loser.err, /rejected|non-fast-forward|fetch first/);
		const head = (await s.get('/repos/octo/race/branches/main', octo)).body.commit.sha;
		assert.ok(head === a || head === b, '~> the branch is at the winner');
	});

	test('workflow files need the workflow scope (classic) or the workflows permission (fine-grained)', async () => {
		await createRepo('workflows', { auto_init: true });
		const dir = join(work, 'workflows');
		await ok(['clone', '-q', url('workflows'), dir]);
		await commit(dir, { '.github/workflows/build.yml': 'on: push\n' }, 'Build workflow');
		const refused = await git(['push', url('workflows', noWorkflow), 'main'], dir);
		assert.is(refused.status, 1);
		assert.match(
			refused.err,
			'refusing to allow a Personal Access Token to create or update workflow `.github/workflows/build.yml` without `workflow` scope',
		);
		const fine = s.token('octo', { kind: 'fine-grained', permissions: { contents: 'write', metadata: 'read' } });
		const alsoRefused = await git(['push', url('workflows', fine), 'main'], dir);
		assert.is(alsoRefused.status, 1);
		assert.match(alsoRefused.err, 'without `workflows` permission');
		await commit(dir, { 'notes.txt': 'plain\n' }, 'Plain change');
		const fineWithWorkflows = s.token('octo', {
			kind: 'fine-grained',
			permissions: { contents: 'write', metadata: 'read', workflows: 'write' },
		});
		assert.is(
			(await git(['push', url('workflows', fineWithWorkflows), 'main'], dir)).status,
			0,
			'~> with workflows: write it goes through',
		);
		await commit(dir, { 'other.txt': 'x\n' }, 'Other');
		assert.is(
			(await git(['push', url('workflows', noWorkflow), 'main'], dir)).status,
			0,
			'~> commits that leave workflows alone need no workflow scope',
		);
	});

	test('who may push: credentials asked, read access refused with 403, archived repositories read-only', async () => {
		await createRepo('closed', { auto_init: true, private: true });
		const dir = join(work, 'closed');
		await ok(['clone', '-q', url('closed'), dir]);
		await commit(dir, { 'x.txt': 'x\n' }, 'X');
		const anonymous = await git(['push', `${s.origin}/octo/closed.git`, 'main'], dir);
		assert.is.not(anonymous.status, 0, '~> no credentials: git cannot push');
		assert.match(anonymous.err, /could not read Username|Authentication failed|terminal prompts disabled/);
		const repo = s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.byLogin('octo')!.id, 'closed')!;
		s.app.stores.repos.setCollaborator(repo.id, s.app.stores.accounts.user('mia')!.id, 'pull', '2026-11-22T12:00:00Z');
		const reader = await git(['push', url('closed', s.fullToken('mia')), 'main'], dir);
		assert.is.not(reader.status, 0);
		assert.match(reader.err, 'remote: Permission to octo/closed.git denied to mia.');
		const stranger = await git(['push', url('closed', s.fullToken('eve')), 'main'], dir);
		assert.match(stranger.err, /not found/i, '~> a repository the caller cannot see is not found');
		const fineReadOnly = s.token('octo', { kind: 'fine-grained', permissions: { contents: 'read', metadata: 'read' } });
		const readOnly = await git(['push', url('closed', fineReadOnly), 'main'], dir);
		assert.match(readOnly.err, 'Write access to repository not granted.');
		const archived = await s.request('PATCH', '/repos/octo/closed', { token: octo, body: { archived: true } });
		assert.is(archived.status, 200);
		const onArchived = await git(['push', url('closed'), 'main'], dir);
		assert.match(onArchived.err, 'This repository was archived so it is read-only.');
		assert.is((await git(['fetch', '-q', url('closed')], dir)).status, 0, '~> reading goes on');
	});

	test('the token as the Basic user name with an empty password works (as Renovate sends it)', async () => {
		await createRepo('userpass', { auto_init: true });
		const dir = join(work, 'userpass');
		const byName = `${s.origin.replace('http://', `http://${octo}:@`)}/octo/userpass.git`;
		await ok(['clone', '-q', byName, dir]);
		await commit(dir, { 'n.txt': 'n\n' }, 'N');
		assert.is((await git(['push', '-q', 'origin', 'main'], dir)).status, 0);
	});

	test('refs outside heads and tags: refs/pull/* is hidden, other namespaces are kept', async () => {
		await createRepo('spaces', { auto_init: true });
		const dir = join(work, 'spaces');
		await ok(['clone', '-q', url('spaces'), dir]);
		const hidden = await git(['push', 'origin', 'HEAD:refs/pull/1/head'], dir);
		assert.is(hidden.status, 1);
		assert.match(hidden.err, 'deny updating a hidden ref');
		writeFileSync(join(dir, 'note.txt'), 'n');
		assert.is((await git(['push', '-q', 'origin', 'HEAD:refs/notes/commits'], dir)).status, 0);
		const ref = await s.get('/repos/octo/spaces/git/matching-refs/notes', octo);
		assert.is(ref.body.length, 1, '~> the notes ref is kept');
	});
}

test.run();
