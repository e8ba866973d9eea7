/**
 * Community health files (GET /repos/{owner}/{repo}/community/profile and the GraphQL Repository
 * fields gh repo view --json reads): read from the default branch's root, .github/ and docs/.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type TestServer } from './helpers/server';

const test = suite('community');
let s: TestServer;
let olivia: string;

const COMMUNITY_FILES: Record<string, string> = {
	'CODE_OF_CONDUCT.md': '# Contributor Covenant Code of Conduct\n\nBe kind.\n',
	'docs/CONTRIBUTING.md': '# Contributing\n\nSend pull requests.\n',
	'.github/SECURITY.md': '# Security\n\nMail security@example.test.\n',
	'.github/ISSUE_TEMPLATE/bug.md': '---\nname: Bug report\nabout: Something is broken\ntitle: "[bug] "\n---\nWhat happened?\n',
	'.github/ISSUE_TEMPLATE/feature.yml':
		'name: Feature request\ndescription: An idea\ntitle: "[idea] "\nbody:\n  - type: textarea\n    attributes:\n      label: Idea\n',
	'.github/ISSUE_TEMPLATE/config.yml':
		'blank_issues_enabled: false\ncontact_links:\n  - name: Forum\n    url: https://forum.example.test\n    about: Ask here\n',
	'.github/pull_request_template.md': 'Describe the change.\n',
};

/** Writes the community files to the default branch of owner/repo. */
async function writeCommunityFiles(server: TestServer, token: string, fullName: string): Promise<void> {
	for (const [path, text] of Object.entries(COMMUNITY_FILES)) {
		const res = await server.request('PUT', `/repos/${fullName}/contents/${path}`, {
			token,
			body: { message: `Add ${path}`, content: Buffer.from(text).toString('base64') },
		});
		assert.is(res.status, 201, `${path}: ${JSON.stringify(res.body)}`);
	}
}

test.before(async () => {
	s = await startServer();
	s.user('olivia');
	olivia = s.fullToken('olivia');
	await s.request('POST', '/user/repos', {
		token: olivia,
		body: { name: 'web', auto_init: true, description: 'The website', license_template: 'mit' },
	});
	await s.request('POST', '/user/repos', { token: olivia, body: { name: 'bare' } });
});
test.after(() => s.close());

test('community/profile: nothing but the README and the description at first, then every file found', async () => {
	const before = await s.get('/repos/olivia/web/community/profile', olivia);
	assert.is(before.status, 200);
	assert.is(before.body.files.readme.html_url, `${s.origin}/olivia/web/blob/main/README.md`);
	assert.is(before.body.files.code_of_conduct, null);
	assert.is(before.body.files.license.key, 'mit');
	assert.is(before.body.health_percentage, 43, '~> description, README, license: 3 of 7');
	await writeCommunityFiles(s, olivia, 'olivia/web');
	const after = await s.get('/repos/olivia/web/community/profile', olivia);
	assert.is(after.body.health_percentage, 100);
	assert.equal(after.body.files.code_of_conduct.key, 'contributor_covenant');
	assert.is(after.body.files.code_of_conduct_file.url, `${s.api}/repos/olivia/web/contents/CODE_OF_CONDUCT.md`);
	assert.is(after.body.files.contributing.html_url, `${s.origin}/olivia/web/blob/main/docs/CONTRIBUTING.md`);
	assert.match(after.body.files.issue_template.url, '.github/ISSUE_TEMPLATE/bug.md');
	assert.match(after.body.files.pull_request_template.url, '.github/pull_request_template.md');
	const bare = await s.get('/repos/olivia/bare/community/profile', olivia);
	assert.is(bare.status, 200, '~> an empty repository has none');
	assert.is(bare.body.files.readme, null);
	assert.is(bare.body.health_percentage, 0);
});

test('GraphQL: codeOfConduct, contactLinks, issueTemplates, pullRequestTemplates, security policy, blank issues', async () => {
	const res = await s.request('POST', '/api/graphql', {
		token: olivia,
		body: {
			query: `{ repository(owner: "olivia", name: "web") {
				codeOfConduct { key name url } contactLinks { name url about }
				issueTemplates { name title about filename } pullRequestTemplates { filename body }
				securityPolicyUrl isSecurityPolicyEnabled isBlankIssuesEnabled } }`,
		},
	});
	assert.is(res.body.errors, undefined, JSON.stringify(res.body.errors));
	const repo = res.body.data.repository;
	assert.equal(repo.codeOfConduct, {
		key: 'contributor_covenant',
		name: 'Contributor Covenant',
		url: `${s.origin}/olivia/web/blob/main/CODE_OF_CONDUCT.md`,
	});
	assert.equal(repo.contactLinks, [{ name: 'Forum', url: 'https://forum.example.test', about: 'Ask here' }]);
	assert.equal(repo.issueTemplates, [
		{ name: 'Bug report', title: '[bug] ', about: 'Something is broken', filename: 'bug.md' },
		{ name: 'Feature request', title: '[idea] ', about: 'An idea', filename: 'feature.yml' },
	]);
	assert.equal(repo.pullRequestTemplates, [{ filename: 'pull_request_template.md', body: 'Describe the change.\n' }]);
	assert.is(repo.isSecurityPolicyEnabled, true);
	assert.is(repo.securityPolicyUrl, `${s.origin}/olivia/web/security/policy`);
	assert.is(repo.isBlankIssuesEnabled, false);
});

test.run();
