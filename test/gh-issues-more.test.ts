/**
 * gh commands over issues and notifications that need GraphQL mutations and REST answers beyond
 * the basics (gh 2.23 against Gitstead behind a TLS front, as test/gh.test.ts): gh issue lock and
 * unlock (lockLockable / unlockLockable), gh pr ready and --undo (markPullRequestReadyForReview /
 * convertPullRequestToDraft), gh repo view --json with the community fields, gh status (GET /notifications?per_page=100, capped at 50).
 * Skipped, with a message, when `which gh` finds no gh.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type TestServer } from './helpers/server';
import { findGh, runGh, tlsFront, type TlsFront } from './helpers/tls';

const test = suite('gh-issues-more');
const gh = findGh();
let s: TestServer;
let front: TlsFront;
let olivia: string;
let pullNumber: number;

if (!gh) {
	console.log('test/gh-issues-more.test.ts: skipped — the gh CLI is not installed (`which gh` found nothing)');
} else {
	test.before(async () => {
		s = await startServer();
		s.user('olivia');
		s.user('eve');
		olivia = s.fullToken('olivia');
		await s.request('POST', '/user/repos', { token: olivia, body: { name: 'web', auto_init: true } });
		await s.request('POST', '/repos/olivia/web/issues', { token: olivia, body: { title: 'Flame war', body: 'Heated' } });
		await s.request('POST', '/repos/olivia/web/issues', {
			token: s.fullToken('eve'),
			body: { title: 'Ping @olivia', body: 'cc @olivia' },
		});
		for (const [path, text] of Object.entries({
			'CODE_OF_CONDUCT.md': '# Contributor Covenant Code of Conduct\n',
			'.github/SECURITY.md': '# Security\n',
			'.github/ISSUE_TEMPLATE/bug.md': '---\nname: Bug report\nabout: Something is broken\n---\nWhat happened?\n',
			'.github/ISSUE_TEMPLATE/config.yml': 'blank_issues_enabled: false\n',
		}))
			await s.request('PUT', `/repos/olivia/web/contents/${path}`, {
				token: olivia,
				body: { message: path, content: Buffer.from(text).toString('base64') },
			});
		const main = (await s.get('/repos/olivia/web/git/ref/heads/main', olivia)).body.object.sha;
		await s.request('POST', '/repos/olivia/web/git/refs', { token: olivia, body: { ref: 'refs/heads/wip', sha: main } });
		await s.request('PUT', '/repos/olivia/web/contents/wip.txt', {
			token: olivia,
			body: { message: 'wip', content: Buffer.from('wip').toString('base64'), branch: 'wip' },
		});
		const pr = await s.request('POST', '/repos/olivia/web/pulls', {
			token: olivia,
			body: { title: 'Work in progress', head: 'wip', base: 'main', draft: true },
		});
		assert.is(pr.status, 201, JSON.stringify(pr.body));
		pullNumber = pr.body.number;
		front = await tlsFront(Number(new URL(s.origin).port));
	});
	test.after(async () => {
		await front?.close();
		await s?.close();
	});

	test('gh issue lock --reason too_heated, then unlock: the REST issue follows', async () => {
		const locked = await runGh(front, olivia, ['issue', 'lock', '1', '--reason', 'too_heated', '-R', 'olivia/web']);
		assert.is(locked.code, 0, locked.stderr);
		const issue = (await s.get('/repos/olivia/web/issues/1', olivia)).body;
		assert.is(issue.locked, true);
		assert.is(issue.active_lock_reason, 'too heated');
		const unlocked = await runGh(front, olivia, ['issue', 'unlock', '1', '-R', 'olivia/web']);
		assert.is(unlocked.code, 0, unlocked.stderr);
		assert.is((await s.get('/repos/olivia/web/issues/1', olivia)).body.locked, false);
	});

	test('gh repo view --json: the community fields from the default branch', async () => {
		const fields =
			'codeOfConduct,contactLinks,issueTemplates,pullRequestTemplates,securityPolicyUrl,isSecurityPolicyEnabled,isBlankIssuesEnabled';
		const r = await runGh(front, olivia, ['repo', 'view', 'olivia/web', '--json', fields]);
		assert.is(r.code, 0, r.stderr);
		const json = JSON.parse(r.stdout);
		assert.is(json.codeOfConduct.key, 'contributor_covenant');
		assert.is(json.issueTemplates[0].name, 'Bug report');
		assert.is(json.isSecurityPolicyEnabled, true);
		assert.is(json.isBlankIssuesEnabled, false);
		assert.equal(json.pullRequestTemplates, []);
	});

	test('gh pr ready, then --undo: the draft flag, the events in the timeline', async () => {
		const ready = await runGh(front, olivia, ['pr', 'ready', String(pullNumber), '-R', 'olivia/web']);
		assert.is(ready.code, 0, ready.stderr);
		assert.is((await s.get(`/repos/olivia/web/pulls/${pullNumber}`, olivia)).body.draft, false);
		const undo = await runGh(front, olivia, ['pr', 'ready', String(pullNumber), '--undo', '-R', 'olivia/web']);
		assert.is(undo.code, 0, undo.stderr);
		assert.is((await s.get(`/repos/olivia/web/pulls/${pullNumber}`, olivia)).body.draft, true);
		const timeline = await s.get(`/repos/olivia/web/issues/${pullNumber}/timeline`, olivia);
		assert.equal(
			timeline.body.map((e: any) => e.event).filter((e: string) => e === 'ready_for_review' || e === 'convert_to_draft'),
			['ready_for_review', 'convert_to_draft'],
		);
		const events = await s.get(`/repos/olivia/web/issues/${pullNumber}/events`, olivia);
		assert.ok(
			events.body.some((e: any) => e.event === 'convert_to_draft'),
			'~> the issue events list it',
		);
	});

	test('gh status: answers (notifications asked with per_page=100 are capped at 50)', async () => {
		const r = await runGh(front, olivia, ['status']);
		assert.is(r.code, 0, r.stderr);
		assert.match(r.stdout, 'Ping @olivia', '~> the mention is listed');
	});
}

test.run();
