/**
 * A typical automation script, played by a stock @octokit/rest: a repository
 * created with auto_init, contents read and written, branches and compare, a collaborator invited
 * who accepts, issues with labels (also as a bare array), milestones and reactions, a release with
 * an asset uploaded and downloaded, search, and pagination over 150 items.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type TestServer } from './helpers/server';

type Octokit = import('@octokit/rest', { with: { 'resolution-mode': 'import' }}).Octokit;

const test = suite('octokit script');
let s: TestServer;
let ada: Octokit;
let bob: Octokit;
const owner = 'ada';
const repo = 'tool';
const b64 = (text: string) => Buffer.from(text).toString('base64');
const text = (base64: string) => Buffer.from(base64, 'base64').toString();

test.before(async () => {
	s = await startServer();
	s.user('ada');
	s.user('bob');
	const { Octokit } = await import('@octokit/rest');
	const quiet = { debug() {}, info() {}, warn() {}, error() {} };
	ada = new Octokit({ auth: s.fullToken('ada'), baseUrl: s.api, log: quiet });
	bob = new Octokit({ auth: s.fullToken('bob'), baseUrl: s.api, log: quiet });
});
test.after(() => s.close());

test('a repository created with auto_init has a README on its default branch', async () => {
	const created = await ada.rest.repos.createForAuthenticatedUser({ name: repo, description: 'A tool', private: true, auto_init: true });
	assert.is(created.status, 201, 'the repository is created');
	assert.is(created.data.default_branch, 'main', 'its default branch is main');
	const readme = await ada.rest.repos.getContent({ owner, repo, path: 'README.md' });
	assert.ok(!Array.isArray(readme.data) && readme.data.type === 'file', 'README.md is a file');
	if (Array.isArray(readme.data) || readme.data.type !== 'file') return;
	assert.is(readme.data.encoding, 'base64', 'its content is base64');
	assert.ok(text(readme.data.content).startsWith('# tool'), 'the README starts with the repository name as a heading');
	const viaReadme = await ada.rest.repos.getReadme({ owner, repo });
	assert.is(viaReadme.data.sha, readme.data.sha, 'GET readme finds the same blob');
});

test('contents written on a branch, then compared with the default branch', async () => {
	const written = await ada.rest.repos.createOrUpdateFileContents({
		owner,
		repo,
		path: 'src/index.js',
		message: 'Add index',
		content: b64('console.log(1);\n'),
	});
	assert.is(written.status, 201, 'a new file answers 201');
	const main = await ada.rest.repos.getBranch({ owner, repo, branch: 'main' });
	assert.is(main.data.commit.sha, written.data.commit.sha, 'the branch moved to the new commit');

	await ada.rest.git.createRef({ owner, repo, ref: 'refs/heads/feature', sha: written.data.commit.sha! });
	const file = await ada.rest.repos.getContent({ owner, repo, path: 'src/index.js', ref: 'feature' });
	assert.ok(!Array.isArray(file.data), 'a file, not a directory');
	const updated = await ada.rest.repos.createOrUpdateFileContents({
		owner,
		repo,
		path: 'src/index.js',
		branch: 'feature',
		message: 'Print two',
		content: b64('console.log(2);\n'),
		sha: (file.data as { sha: string }).sha,
	});
	assert.is(updated.status, 200, 'an update answers 200');

	const branches = await ada.rest.repos.listBranches({ owner, repo });
	assert.equal(branches.data.map((branch) => branch.name).sort(), ['feature', 'main'], 'both branches are listed');
	const compare = await ada.rest.repos.compareCommitsWithBasehead({ owner, repo, basehead: 'main...feature' });
	assert.is(compare.data.status, 'ahead', 'feature is ahead of main');
	assert.is(compare.data.ahead_by, 1, 'by one commit');
	assert.is(compare.data.behind_by, 0, 'and behind by none');
	assert.equal(
		compare.data.files?.map((f) => [f.filename, f.status]),
		[['src/index.js', 'modified']],
		'the changed file is listed',
	);
	const commits = await ada.rest.repos.listCommits({ owner, repo, sha: 'feature' });
	assert.equal(
		commits.data.map((commit) => commit.commit.message),
		['Print two', 'Add index', 'Initial commit'],
		'history, newest first',
	);
});

test('a collaborator is invited, accepts, and can then push', async () => {
	const invited = await ada.rest.repos.addCollaborator({ owner, repo, username: 'bob', permission: 'push' });
	assert.is(invited.status, 201, 'a new collaborator gets an invitation');
	const hidden = await bob.rest.repos.get({ owner, repo }).catch((error) => error);
	assert.is(hidden.status, 404, 'before accepting, the private repository is hidden');
	const invitations = await bob.rest.repos.listInvitationsForAuthenticatedUser();
	assert.is(invitations.data.length, 1, 'bob sees his invitation');
	const accepted = await bob.rest.repos.acceptInvitationForAuthenticatedUser({ invitation_id: invitations.data[0]!.id });
	assert.is(accepted.status, 204, 'accepting answers 204');
	const check = await ada.rest.repos.checkCollaborator({ owner, repo, username: 'bob' });
	assert.is(check.status, 204, 'bob is a collaborator');
	const permission = await ada.rest.repos.getCollaboratorPermissionLevel({ owner, repo, username: 'bob' });
	assert.is(permission.data.permission, 'write', 'push is reported as write');
	const pushed = await bob.rest.repos.createOrUpdateFileContents({
		owner,
		repo,
		path: 'BOB.md',
		message: 'Hello from bob',
		content: b64('hi\n'),
	});
	assert.is(pushed.status, 201, 'bob can push');
});

test('issues with labels (also a bare array), a milestone and reactions', async () => {
	const defaults = await ada.rest.issues.listLabelsForRepo({ owner, repo });
	assert.ok(
		defaults.data.some((label) => label.name === 'bug'),
		"a new repository has GitHub's default labels, bug among them",
	);
	await ada.rest.issues.createLabel({ owner, repo, name: 'docs', color: '0075ca' });
	const milestone = await ada.rest.issues.createMilestone({ owner, repo, title: 'v1' });
	assert.is(milestone.status, 201, 'the milestone is created');
	const issue = await ada.rest.issues.create({
		owner,
		repo,
		title: 'Crash on start',
		body: 'It crashes.',
		labels: ['bug'],
		milestone: milestone.data.number,
	});
	assert.is(issue.data.milestone?.number, milestone.data.number, 'the issue carries its milestone');
	const bare = await ada.request('POST /repos/{owner}/{repo}/issues/{issue_number}/labels', {
		owner,
		repo,
		issue_number: issue.data.number,
		data: ['docs'],
	} as never);
	assert.equal(
		(bare.data as Array<{ name: string }>).map((label) => label.name).sort(),
		['bug', 'docs'],
		'a bare JSON array adds labels as GitHub accepts it',
	);
	const reaction = await bob.rest.reactions.createForIssue({ owner, repo, issue_number: issue.data.number, content: 'heart' });
	assert.is(reaction.status, 201, 'a new reaction answers 201');
	const again = await bob.rest.reactions.createForIssue({ owner, repo, issue_number: issue.data.number, content: 'heart' });
	assert.is(again.status, 200, 'the same reaction again answers 200');
	const got = await ada.rest.issues.get({ owner, repo, issue_number: issue.data.number });
	assert.is(got.data.reactions?.heart, 1, 'the rollup counts the heart once');
	assert.is(got.data.reactions?.total_count, 1, 'and in total');
	const milestones = await ada.rest.issues.listMilestones({ owner, repo });
	assert.is(milestones.data[0]!.open_issues, 1, 'the milestone counts its open issue');
});

test('a release with an asset uploaded through upload_url and downloaded as octet-stream', async () => {
	const release = await ada.rest.repos.createRelease({ owner, repo, tag_name: 'v1.0.0', name: 'One', body: 'First release' });
	assert.is(release.status, 201, 'the release is created');
	const bytes = Buffer.from([0, 1, 2, 3, 254, 255, 10, 13]);
	const uploaded = await ada.rest.repos.uploadReleaseAsset({
		owner,
		repo,
		release_id: release.data.id,
		url: release.data.upload_url,
		name: 'tool.bin',
		data: bytes as unknown as string,
		headers: { 'content-type': 'application/octet-stream', 'content-length': bytes.length },
	});
	assert.is(uploaded.status, 201, 'the asset is uploaded');
	assert.is(uploaded.data.size, bytes.length, 'with its size');
	const downloaded = await ada.rest.repos.getReleaseAsset({
		owner,
		repo,
		asset_id: uploaded.data.id,
		headers: { accept: 'application/octet-stream' },
	});
	assert.equal(Buffer.from(downloaded.data as unknown as ArrayBuffer), bytes, 'the same bytes come back');
	const latest = await ada.rest.repos.getLatestRelease({ owner, repo });
	assert.is(latest.data.id, release.data.id, 'it is the latest release');
	const tag = await ada.rest.git.getRef({ owner, repo, ref: 'tags/v1.0.0' });
	assert.ok(tag.data.object.sha.length === 40, 'publishing created the tag');
});

test('search finds the issue and the repository, for their readers only', async () => {
	const issues = await ada.rest.search.issuesAndPullRequests({ q: `repo:${owner}/${repo} is:issue label:bug crash` });
	assert.is(issues.data.total_count, 1, 'the labelled issue is found');
	assert.is(issues.data.incomplete_results, false);
	const repos = await ada.rest.search.repos({ q: `tool user:${owner}` });
	assert.equal(
		repos.data.items.map((item) => item.full_name),
		[`${owner}/${repo}`],
		'the repository is found by its owner',
	);
	s.user('eve');
	const { Octokit } = await import('@octokit/rest');
	const eve = new Octokit({ auth: s.fullToken('eve'), baseUrl: s.api, log: { debug() {}, info() {}, warn() {}, error() {} } });
	const hidden = await eve.rest.search.issuesAndPullRequests({ q: 'crash' });
	assert.is(hidden.data.total_count, 0, 'a user who cannot read the private repository finds nothing');
});

test('pagination over 150 issues follows Link headers to the end', async () => {
	for (let i = 0; i < 150; i++) {
		await ada.rest.issues.create({ owner, repo, title: `Batch ${i}` });
	}
	const all = await ada.paginate(ada.rest.issues.listForRepo, { owner, repo, state: 'all', per_page: 40 });
	assert.is(all.length, 151, 'every issue, over four pages');
	assert.is(new Set(all.map((issue) => issue.number)).size, 151, 'none twice');
});

test.run();
