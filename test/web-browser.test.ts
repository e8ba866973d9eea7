/**
 * The web interface in a real browser: Debian's Chromium (`apt-get install -y chromium`) driven by
 * playwright-core. Flows: sign in; browse a repository, a file with highlighting, a commit; open an
 * issue, comment, label, close; open a pull request from the compare page, request a review,
 * review it with an inline comment as another user, merge, delete the branch; a
 * repository's settings (general, a webhook, a branch protection rule, collaborators) and the
 * profile; create a token in settings and use it against REST; sign out; a form posted from another origin is
 * refused. axe-core finds no serious or critical violation on the pages; screenshots of the main
 * pages go to docs/screenshots/ with SCREENSHOTS=1. Skipped, saying so, when /usr/bin/chromium is absent.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { type Browser, chromium, type Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { setUserPassword } from '../src/auth/sessions';
import { startServer, type TestServer } from './helpers/server';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];
/** Screenshots are written only when asked (SCREENSHOTS=1 npm run test:slow), so a test run leaves the tree clean. */
const SHOTS = join(__dirname, '..', 'docs', 'screenshots');
const WRITE_SHOTS = process.env.SCREENSHOTS === '1';
const PASSWORD = 'correct horse battery';

const test = suite('web in a browser');
let s: TestServer;
let browser: Browser;
let page: Page;
let evil: Server;

if (!existsSync(CHROMIUM)) {
	console.log(`web-browser: skipped, ${CHROMIUM} is missing (apt-get install -y chromium)`);
} else {
	test.before(async () => {
		s = await startServer();
		s.user('alice', { siteAdmin: true });
		s.user('bob');
		s.org('acme', 'alice');
		await setUserPassword(s.app, s.app.stores.accounts.user('alice')!.id, PASSWORD);
		await setUserPassword(s.app, s.app.stores.accounts.user('bob')!.id, PASSWORD);
		const token = s.fullToken('alice');
		await s.request('POST', '/orgs/acme/repos', { token, body: { name: 'widget', auto_init: true, description: 'The widget' } });
		await s.request('PUT', '/repos/acme/widget/contents/src/app.ts', {
			token,
			body: {
				message: 'Add the app',
				content: Buffer.from('export function answer(): number {\n\treturn 42;\n}\n').toString('base64'),
			},
		});
		await s.request('POST', '/repos/acme/widget/issues', {
			token,
			body: { title: 'Widget wobbles', body: 'It **wobbles** on Tuesdays.', labels: ['bug', 'good first issue', 'documentation'] },
		});
		await s.request('POST', '/repos/acme/widget/issues/1/comments', { token, body: { body: 'Seen it too.' } });
		// bob (a member) writes to acme/widget; a feature branch to open a pull request from.
		s.member('acme', 'bob');
		await s.request('PUT', '/repos/acme/widget/collaborators/bob', { token, body: { permission: 'push' } });
		const main = (await s.request('GET', '/repos/acme/widget/git/ref/heads/main', { token })).body as { object: { sha: string } };
		await s.request('POST', '/repos/acme/widget/git/refs', { token, body: { ref: 'refs/heads/feature', sha: main.object.sha } });
		await s.request('PUT', '/repos/acme/widget/contents/feature.txt', {
			token,
			body: { message: 'Add the feature', content: Buffer.from('one\ntwo\n').toString('base64'), branch: 'feature' },
		});
		await s.request('PATCH', '/repos/acme/widget/issues/1', { token, body: { title: 'Widget wobbles on Tuesdays' } });
		await s.request('POST', '/gists', {
			token,
			body: {
				description: 'Widget notes',
				public: true,
				files: {
					'notes.md': { content: '# Notes\n\nThe **widget** wobbles.' },
					'fix.ts': { content: 'export const fixed = true;\n' },
				},
			},
		});
		browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
		const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
		page = await context.newPage();
		if (WRITE_SHOTS) mkdirSync(SHOTS, { recursive: true });
		// Another origin with a form aimed at this site.
		evil = createServer((_req, res) => {
			res.writeHead(200, { 'Content-Type': 'text/html' });
			res.end(
				`<form id="f" method="post" action="${s.origin}/settings/tokens"><input name="note" value="stolen"><input name="kind" value="classic"></form>`,
			);
		});
		await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
	});
	test.after(async () => {
		await browser?.close();
		evil?.close();
		await s?.close();
	});

	const axe = async (name: string) => {
		const results = await new AxeBuilder({ page }).analyze();
		const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
		assert.equal(
			bad.map((v) => `${v.id} ${JSON.stringify(v.nodes[0]?.target)}`),
			[],
			`axe on ${name}`,
		);
	};
	const shot = async (name: string) => {
		const image = await page.screenshot({ fullPage: false });
		assert.ok(image.length > 1000, `~> ${name}: a screenshot was taken`);
		if (WRITE_SHOTS) writeFileSync(join(SHOTS, `${name}.png`), image);
	};

	test('sign in', async () => {
		await page.goto(`${s.origin}/login`);
		await axe('login');
		await shot('login');
		await page.getByLabel('Username or email address').fill('alice');
		await page.getByLabel('Password').fill(PASSWORD);
		await page.getByRole('button', { name: 'Sign in' }).click();
		await page.waitForURL(`${s.origin}/`);
		assert.ok(await page.getByRole('heading', { name: 'Your repositories' }).isVisible());
		await axe('dashboard');
		await shot('dashboard');
	});

	test('browse a repository, a file with highlighting, a commit, issues', async () => {
		await page.goto(`${s.origin}/acme/widget`);
		assert.ok(await page.getByText('The widget').first().isVisible());
		await axe('repository');
		await shot('repository');
		await page.getByRole('link', { name: 'src' }).click();
		await page.getByRole('link', { name: 'app.ts' }).click();
		assert.ok((await page.locator('.hljs-keyword').count()) > 0, 'highlighted');
		await page.goto(`${page.url()}#L2`);
		await axe('file');
		await shot('file');
		await page.goto(`${s.origin}/acme/widget/commits/main`);
		await page.locator('a.text-bold', { hasText: 'Add the app' }).click();
		assert.ok((await page.locator('.gs-diff').count()) > 0);
		await axe('commit');
		await shot('commit');
		await page.goto(`${s.origin}/acme/widget/issues`);
		await axe('issues');
		await shot('issues');
		await page.getByRole('link', { name: 'Widget wobbles on Tuesdays' }).click();
		assert.ok(await page.getByText('wobbles', { exact: true }).isVisible());
		assert.ok(await page.getByText('changed the title').isVisible(), 'the timeline shows the rename');
		await axe('issue');
		await shot('issue');
	});

	test('open an issue, comment, label, close', async () => {
		await page.goto(`${s.origin}/acme/widget/issues`);
		await page.getByRole('link', { name: 'New issue' }).click();
		await page.waitForURL(`${s.origin}/acme/widget/issues/new`);
		await axe('new issue');
		await page.getByLabel('Title').fill('Widget squeaks');
		await page.getByLabel('Description').fill('Only when **cold**.');
		await page.getByRole('button', { name: 'Submit new issue' }).click();
		await page.waitForURL(/\/acme\/widget\/issues\/2$/);
		assert.ok(await page.getByText('cold', { exact: true }).isVisible());
		await page.getByLabel('Add a comment').fill('Oiling it helps.');
		assert.ok(await page.getByRole('button', { name: 'Close with comment' }).isVisible(), 'the script renames the close button');
		await page.getByRole('button', { name: 'Comment', exact: true }).click();
		await page.waitForURL(/issuecomment-\d+$/);
		assert.ok(await page.getByText('Oiling it helps.').isVisible());
		await page.getByText('Edit labels').click();
		await page.locator('form[action$="/labels"] input[value="bug"]').check();
		await page.getByRole('button', { name: 'Apply labels' }).click();
		assert.ok(
			await page
				.locator('.gs-timeline-event')
				.filter({ hasText: /added\s+bug\s+label/ })
				.first()
				.isVisible(),
			'the timeline shows the label',
		);
		await axe('issue with forms');
		await page.getByRole('button', { name: 'Close issue' }).click();
		assert.ok(await page.locator('.State--closed').first().isVisible());
		assert.ok(await page.getByRole('button', { name: 'Reopen issue' }).isVisible());
		const issue = s.app.stores.issues.byNumber(
			s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.byLogin('acme')!.id, 'widget')!.id,
			2,
		)!;
		assert.is(issue.state, 'closed');
		assert.is(issue.comments, 1);
		await shot('issue-closed');
	});

	test('open a pull request from the compare page, request a review, review inline as another user, merge, delete the branch', async () => {
		await page.goto(`${s.origin}/acme/widget/compare/main...feature`);
		await axe('compare');
		await page.getByLabel('Title').fill('Add the feature file');
		await page.getByLabel('Description').fill('Two lines.');
		await page.getByRole('button', { name: 'Create pull request' }).click();
		await page.waitForURL(/\/acme\/widget\/pull\/\d+$/);
		const pullUrl = page.url();
		await page.getByText('Edit reviewers').click();
		await page.locator('form[action$="/reviewers"] input[value="bob"]').check();
		await page.getByRole('button', { name: 'Apply reviewers' }).click();
		assert.ok(await page.getByText('bob (requested)').isVisible());
		await axe('pull request');
		await shot('pull-request');

		// bob reviews in his own session: an inline comment on a line, then Approve.
		const bobContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
		const bobPage = await bobContext.newPage();
		await bobPage.goto(`${s.origin}/login`);
		await bobPage.getByLabel('Username or email address').fill('bob');
		await bobPage.getByLabel('Password').fill(PASSWORD);
		await bobPage.getByRole('button', { name: 'Sign in' }).click();
		await bobPage.waitForURL(`${s.origin}/`);
		await bobPage.goto(`${pullUrl}/files`);
		await bobPage.getByRole('link', { name: 'Comment on new line 2 of feature.txt' }).click();
		await bobPage.getByRole('textbox', { name: 'Comment on new line 2 of feature.txt' }).fill('Is two enough?');
		const bobAxe = await new AxeBuilder({ page: bobPage }).analyze();
		assert.equal(
			bobAxe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
			[],
			'axe on files changed',
		);
		await bobPage.getByRole('button', { name: 'Start a review' }).click();
		assert.ok(await bobPage.getByText('Pending review: 1 comment').isVisible());
		await bobPage.getByLabel('Review summary').fill('Looks good.');
		await bobPage.getByLabel('Approve').check();
		await bobPage.getByRole('button', { name: 'Submit review' }).click();
		await bobPage.goto(pullUrl);
		assert.ok(await bobPage.getByText('bob (approved)').isVisible());
		assert.ok(await bobPage.getByText('Is two enough?').first().isVisible());
		await bobContext.close();

		await page.goto(pullUrl);
		assert.ok(await page.getByText('Is two enough?').first().isVisible());
		await page.getByLabel('Merge method').selectOption('squash');
		await page.getByRole('button', { name: 'Merge pull request' }).click();
		assert.ok(await page.getByText('Pull request successfully merged and closed').isVisible());
		assert.ok(await page.locator('.State--merged').first().isVisible());
		await axe('merged pull request');
		await shot('pull-request-merged');
		await page.getByRole('button', { name: 'Delete branch' }).click();
		assert.ok(await page.getByText('deleted the').first().isVisible(), 'the timeline shows the branch deleted');
		assert.is(await page.getByRole('button', { name: 'Delete branch' }).count(), 0);
		const repoId = s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.byLogin('acme')!.id, 'widget')!.id;
		assert.is(s.app.stores.git.ref(repoId, 'refs/heads/feature'), undefined);
	});

	test('search, a gist, notifications and the site admin area', async () => {
		await page.goto(`${s.origin}/`);
		await page.getByLabel('Search').fill('wobbles');
		await page.getByLabel('Search').press('Enter');
		await page
			.getByRole('navigation', { name: 'Search results by kind' })
			.getByRole('link', { name: /Issues/ })
			.click();
		assert.ok(await page.getByRole('link', { name: 'Widget wobbles on Tuesdays' }).isVisible());
		await axe('search');
		await shot('search');
		await page.goto(`${s.origin}/gist/alice`);
		await page.getByRole('link', { name: 'fix.ts' }).first().click();
		assert.ok((await page.locator('.hljs-keyword').count()) > 0, 'highlighted');
		assert.ok(await page.getByRole('heading', { name: 'Notes' }).isVisible(), 'Markdown rendered');
		await axe('gist');
		await shot('gist');
		await page.goto(`${s.origin}/notifications`);
		await axe('notifications');
		await page.goto(`${s.origin}/stafftools/users/alice`);
		assert.ok(await page.getByText('Site administrator').isVisible());
		await axe('stafftools');
		await shot('stafftools');
	});

	test('create a token in settings and use it against REST', async () => {
		await page.goto(`${s.origin}/settings/tokens`);
		await page.getByLabel('Note').fill('browser test');
		await page.getByLabel('repo', { exact: true }).check();
		await page.getByRole('button', { name: 'Generate token' }).click();
		const token = ((await page.locator('#new-token').textContent()) ?? '').trim();
		assert.match(token, /^ghp_/);
		await axe('tokens');
		await shot('tokens');
		const res = await fetch(`${s.api}/user`, { headers: { Authorization: `Bearer ${token}` } });
		assert.is(res.status, 200);
		assert.is(((await res.json()) as { login: string }).login, 'alice');
	});

	test('repository settings: general, a webhook, a branch protection rule, collaborators; the profile', async () => {
		await page.goto(`${s.origin}/acme/widget`);
		await page.getByRole('navigation', { name: 'Repository' }).getByRole('link', { name: 'Settings' }).click();
		await page.waitForURL(`${s.origin}/acme/widget/settings`);
		await page.getByLabel('Description').fill('The widget, configured');
		await page.getByRole('button', { name: 'Save', exact: true }).click();
		assert.ok(await page.getByText('Settings saved.').isVisible());
		assert.is(
			s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.byLogin('acme')!.id, 'widget')!.description,
			'The widget, configured',
		);
		await axe('repository settings');
		await shot('repository-settings');
		await page.getByRole('link', { name: 'Webhooks' }).click();
		await page.getByRole('link', { name: 'Add webhook' }).click();
		await page.getByLabel('Payload URL').fill('https://hooks.example.com/widget');
		await page.getByLabel('Send me everything.').check();
		await axe('new webhook');
		await page.getByRole('button', { name: 'Add webhook' }).click();
		assert.ok(await page.getByText('Webhook saved.').isVisible());
		assert.ok(await page.getByRole('heading', { name: 'Recent Deliveries' }).isVisible());
		await axe('webhook');
		await page.getByRole('navigation', { name: 'Repository settings' }).getByRole('link', { name: 'Branches' }).click();
		await page.getByRole('link', { name: 'Add rule' }).click();
		await page.getByLabel('Branch name').fill('main');
		await page.getByLabel('Require a pull request before merging').check();
		await page.getByLabel('Required approvals').selectOption('2');
		await axe('branch protection rule');
		await page.getByRole('button', { name: 'Create' }).click();
		assert.ok(await page.getByText('2 approving reviews').isVisible());
		await axe('branch protection rules');
		await page.getByRole('link', { name: 'Collaborators and teams' }).click();
		await axe('collaborators and teams');
		await page.goto(`${s.origin}/settings/profile`);
		await page.getByLabel('Bio').fill('Makes widgets');
		await page.getByRole('button', { name: 'Update profile' }).click();
		assert.ok(await page.getByText('Profile updated successfully.').isVisible());
		await axe('profile');
	});

	test('a form posted from another origin is refused', async () => {
		const before = s.app.tokens.list().length;
		const address = evil.address() as { port: number };
		await page.goto(`http://127.0.0.1:${address.port}/`);
		const [response] = await Promise.all([
			page.waitForNavigation(),
			page.evaluate(() => (document.getElementById('f') as HTMLFormElement).submit()),
		]);
		assert.is(response?.status(), 403);
		assert.is(s.app.tokens.list().length, before);
	});

	test('sign out from the user menu', async () => {
		await page.goto(`${s.origin}/`);
		await page.getByLabel('View profile and more').click();
		await page.getByRole('button', { name: 'Sign out' }).click();
		await page.waitForURL(`${s.origin}/`);
		assert.ok(await page.getByRole('link', { name: 'Sign in' }).first().isVisible());
		await axe('explore');
		await shot('explore');
	});
}

test.run();
