/**
 * PyGithub (Debian's python3-github) against a real Gitstead server: test/fixtures/pygithub/flows.py
 * drives everyday flows with `github.Github(base_url=…/api/v3)` and a personal access token (get_user,
 * create_repo, labels, issues with comments, edit and close, get_issues with filters over several
 * pages of two, contents create/update, a branch and a pull request merged by squash, releases,
 * organization teams and members, milestones and assignees as filters, issue events, reactions,
 * commit statuses, compare, repository edit and topics, search_repositories, an organization
 * repository, git refs, delete_file, stars, gists, branch protection, search_issues, rate limit)
 * and prints what it saw as JSON; the
 * test checks that and cross-checks through REST.
 * Skipped, with a message, when no python3 on PATH imports `github`.
 */
import { execFile, execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type TestServer } from './helpers/server';

const test = suite('pygithub');

/** The first python3 that imports PyGithub (pyenv shims may hide Debian's), or null. */
function findPython(): string | null {
	for (const candidate of ['python3', '/usr/bin/python3']) {
		try {
			execFileSync(candidate, ['-c', 'import github'], { stdio: 'ignore' });
			return candidate;
		} catch {
			// not this one
		}
	}
	return null;
}

const python = findPython();
let s: TestServer;
let olivia: string;

if (!python) {
	console.log('test/pygithub.test.ts: skipped — no python3 imports PyGithub (apt-get install python3-github)');
} else {
	test.before(async () => {
		s = await startServer();
		s.user('olivia');
		s.user('eve');
		s.org('acme', 'olivia');
		s.member('acme', 'eve');
		olivia = s.fullToken('olivia');
	});
	test.after(async () => {
		await s?.close();
	});

	test('PyGithub everyday flows', async () => {
		// Asynchronous: the server runs in this process and must keep answering while the script runs.
		const { stdout } = await promisify(execFile)(
			python,
			[join(__dirname, 'fixtures', 'pygithub', 'flows.py'), `${s.origin}/api/v3`, olivia, 'acme'],
			{ encoding: 'utf8', timeout: 60_000 },
		);
		const out = JSON.parse(stdout);
		assert.is(out.login, 'olivia');
		assert.equal(out.repo, { full_name: 'olivia/pyrepo', default_branch: 'main', private: false });
		assert.is(out.get_repo, 'Made by PyGithub');
		assert.ok(out.labels.includes('triage') && out.labels.includes('bug'));
		assert.equal(out.comments, ['An edited comment']);
		assert.equal(out.closed, { title: 'Issue 1 renamed', state: 'closed', labels: ['triage'] });
		// Four open issues over two pages of two, newest first; filters by label; all five ascending.
		assert.equal(out.open_issues, [5, 4, 3, 2]);
		assert.is(out.open_count, 4);
		assert.equal(out.labelled, [1]);
		assert.is(out.all_pages, 5);
		assert.is(out.readme_path, 'README.md');
		assert.is(out.guide, '# Guide\n\nMore.\n');
		assert.ok(out.update_commit);
		assert.equal(out.pull, { number: 6, mergeable_state: 'feature' });
		assert.equal(out.pull_files, ['feature.txt']);
		assert.equal(out.merged, { merged: true, sha_is_main: true });
		assert.ok(out.pull_state);
		assert.equal(out.release, { tag: 'v1.0', title: 'First release' });
		assert.is(out.latest_release, 'v1.0');
		assert.equal(out.releases, ['v1.0']);
		assert.equal(out.team, { name: 'Core', slug: 'core' });
		assert.equal(out.team_members, ['eve', 'olivia']);
		assert.equal(out.org_members, ['eve', 'olivia']);
		assert.equal(out.teams, ['core']);
		assert.equal(out.milestone_filter, [7]);
		assert.equal(out.issue_events, ['assigned', 'labeled', 'milestoned']);
		assert.equal(out.reactions, ['+1']);
		assert.is(out.combined_status, 'success');
		assert.is(out.compare, 'identical');
		assert.equal(out.edited, { description: 'Edited by PyGithub', topics: ['python', 'demo'] });
		assert.equal(out.search_repos, ['olivia/pyrepo']);
		assert.is(out.org_repo, 'acme/orgrepo');
		assert.is(out.ref_type, 'commit');
		assert.ok(out.deleted);
		assert.equal(out.starred, ['olivia/pyrepo']);
		assert.is(out.gist, 'hi');
		assert.equal(out.protection, ['ci/build']);
		assert.equal(out.search, [1]);
		assert.is(out.rate.limit, 5000);
		assert.ok(out.rate.remaining_le_limit);

		// Cross-checks through REST.
		const issue = await s.get('/repos/olivia/pyrepo/issues/1', olivia);
		assert.is(issue.body.state, 'closed');
		assert.is(issue.body.comments, 1);
		const pull = await s.get('/repos/olivia/pyrepo/pulls/6', olivia);
		assert.is(pull.body.merged, true);
		const main = await s.get(`/repos/olivia/pyrepo/commits/${pull.body.merge_commit_sha}`, olivia);
		assert.is(main.body.commit.message.split('\n')[0], 'Feature (squashed)');
		const file = await s.get('/repos/olivia/pyrepo/contents/feature.txt', olivia);
		assert.is(Buffer.from(file.body.content, 'base64').toString(), 'feature\n');
		const membership = await s.get('/orgs/acme/teams/core/memberships/eve', olivia);
		assert.is(membership.body.state, 'active');
		const protection = await s.get('/repos/olivia/pyrepo/branches/main/protection/required_status_checks', olivia);
		assert.equal(protection.body.contexts, ['ci/build']);
		assert.is((await s.get('/repos/olivia/pyrepo/contents/docs/guide.md', olivia)).status, 404);
		const release = await s.get('/repos/olivia/pyrepo/releases/tags/v1.0', olivia);
		assert.is(release.body.body, 'The notes');
	});
}

test.run();
