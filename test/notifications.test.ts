/**
 * Notifications (GitHub's
 * activity/notifications): threads derived from the domain events of issues and comments — who is
 * notified for each reason, never the actor, never a user who cannot read the repository — the
 * reason precedence (one test per transition), the lists and their polling (Last-Modified,
 * If-Modified-Since, X-Poll-Interval), marking read at once (205) and in the background (202),
 * one thread, thread subscriptions, and the token kinds refused.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { MESSAGES } from '../src/http/errors';
import { openDatabase } from '../src/db/open';
import { isoSeconds } from '../src/time';
import { importRuns } from '../src/api/actions/import';
import { advanceJob } from '../src/api/actions/service';
import { mentionedLogins } from '../src/api/notifications/mentions';
import { REASONS, strongest } from '../src/model/notifications';
import { record } from '../src/events/log';
import { startServer, type TestServer } from './helpers/server';

const test = suite('notifications');
let s: TestServer;
const tokens: Record<string, string> = {};
const USERS = ['olivia', 'bob', 'carl', 'dave', 'erin', 'zoe', 'gina', 'mia', 'mallory', 'ursula', 'yves', 'fiona', 'hank'];

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const THREAD_KEYS = ['id', 'last_read_at', 'reason', 'repository', 'subject', 'subscription_url', 'unread', 'updated_at', 'url'];

test.before(async () => {
	s = await startServer();
	for (const login of USERS) {
		s.user(login);
		tokens[login] = s.fullToken(login);
	}
	const { stores } = s.app;
	const id = (login: string) => stores.accounts.user(login)!.id;
	// olivia/app: a user's public repository (its owner watches it); carl and erin may push.
	await s.request('POST', '/user/repos', { token: tokens.olivia, body: { name: 'app' } });
	const app = stores.repos.byOwnerAndName(id('olivia'), 'app')!;
	for (const login of ['carl', 'erin']) stores.repos.setCollaborator(app.id, id(login), 'push', isoSeconds(s.clock.now));
	// ursula/home and fiona/lab: more watched repositories.
	await s.request('POST', '/user/repos', { token: tokens.ursula, body: { name: 'home' } });
	await s.request('POST', '/user/repos', { token: tokens.fiona, body: { name: 'lab' } });
	// acme: an organization (members read its repositories); web is public, vault private.
	s.org('acme', 'olivia');
	s.member('acme', 'mia');
	await s.request('POST', '/orgs/acme/repos', { token: tokens.olivia, body: { name: 'web' } });
	await s.request('POST', '/orgs/acme/repos', { token: tokens.olivia, body: { name: 'vault', private: true } });
	const web = stores.repos.byOwnerAndName(stores.accounts.byLogin('acme')!.id, 'web')!;
	for (const login of ['ursula', 'yves']) stores.repos.setCollaborator(web.id, id(login), 'triage', isoSeconds(s.clock.now));
	const home = stores.repos.byOwnerAndName(id('ursula'), 'home')!;
	stores.repos.setCollaborator(home.id, id('yves'), 'triage', isoSeconds(s.clock.now));
});
test.after(() => s.close());

// ----- helpers: every step one second later, so updated_at tells them apart

const tick = () => s.clock.advance(1000);

async function open(repo: string, login: string, title: string, extra: Record<string, unknown> = {}): Promise<number> {
	tick();
	const res = await s.request('POST', `/repos/${repo}/issues`, { token: tokens[login], body: { title, ...extra } });
	assert.is(res.status, 201, `~> ${login} opens "${title}"`);
	return res.body.number;
}

async function comment(repo: string, number: number, login: string, body: string): Promise<number> {
	tick();
	const res = await s.request('POST', `/repos/${repo}/issues/${number}/comments`, { token: tokens[login], body: { body } });
	assert.is(res.status, 201, `~> ${login} comments on ${repo}#${number}`);
	return res.body.id;
}

async function update(repo: string, number: number, login: string, body: Record<string, unknown>): Promise<void> {
	tick();
	const res = await s.request('PATCH', `/repos/${repo}/issues/${number}`, { token: tokens[login], body });
	assert.is(res.status, 200, `~> ${login} updates ${repo}#${number}`);
}

async function assign(repo: string, number: number, login: string, assignees: string[]): Promise<void> {
	tick();
	const res = await s.request('POST', `/repos/${repo}/issues/${number}/assignees`, { token: tokens[login], body: { assignees } });
	assert.is(res.status, 201, `~> ${login} assigns ${assignees.join(', ')}`);
}

/** Every listed thread of the user (read ones too). */
async function threads(login: string, query = '?all=true'): Promise<any[]> {
	const res = await s.get(`/notifications${query}`, tokens[login]);
	assert.is(res.status, 200, `~> ${login} lists notifications`);
	return res.body;
}

async function threadAbout(login: string, title: string): Promise<any | undefined> {
	return (await threads(login)).find((thread) => thread.subject.title === title);
}

async function reasonOf(login: string, title: string): Promise<string | undefined> {
	return (await threadAbout(login, title))?.reason;
}

// ----- who is notified

test('opening an issue notifies the watchers (subscribed), the users it mentions (mention) and assigns (assign), never its author', async () => {
	await open('olivia/app', 'carl', 'Crash on start', {
		body: 'Seen by @dave and @BOB; not @ghost, not carl@example.com, not `x`@zoe, not @mallory-x',
		assignees: ['erin'],
	});
	assert.is(await reasonOf('olivia', 'Crash on start'), 'subscribed', '~> the owner watches her repository');
	assert.is(await reasonOf('dave', 'Crash on start'), 'mention', '~> @dave');
	assert.is(await reasonOf('bob', 'Crash on start'), 'mention', '~> @BOB: logins compare case-insensitively');
	assert.is(await reasonOf('erin', 'Crash on start'), 'assign', '~> the assignee');
	assert.is(await threadAbout('carl', 'Crash on start'), undefined, '~> never the actor');
	for (const login of ['zoe', 'mallory', 'gina'])
		assert.is(await threadAbout(login, 'Crash on start'), undefined, `~> ${login}: not mentioned`);

	const thread = await threadAbout('olivia', 'Crash on start');
	assert.equal(Object.keys(thread).sort(), THREAD_KEYS, '~> the spec NotificationThread fields');
	assert.type(thread.id, 'string', '~> id is a string');
	assert.is(thread.url, `${s.api}/notifications/threads/${thread.id}`);
	assert.is(thread.subscription_url, `${s.api}/notifications/threads/${thread.id}/subscription`);
	assert.equal(thread.subject, {
		title: 'Crash on start',
		url: `${s.api}/repos/olivia/app/issues/1`,
		latest_comment_url: `${s.api}/repos/olivia/app/issues/1`,
		type: 'Issue',
	});
	assert.is(thread.repository.full_name, 'olivia/app');
	assert.is(
		thread.repository.notifications_url,
		`${s.api}/repos/olivia/app/notifications{?since,all,participating}`,
		'~> link templates included',
	);
	assert.is(thread.repository.permissions, undefined, '~> the repository summary, no permissions');
	assert.is(thread.unread, true);
	assert.is(thread.updated_at, isoSeconds(s.clock.now));
	assert.is(thread.last_read_at, null);
});

test('a comment notifies the author (author), the commenters (comment), the mentioned and assigned, and the watchers; never the commenter', async () => {
	const before = await threadAbout('bob', 'Crash on start');
	const id = await comment('olivia/app', 1, 'zoe', '+1, same here');
	const at = isoSeconds(s.clock.now);
	assert.is(await reasonOf('carl', 'Crash on start'), 'author', '~> the author');
	assert.is(await reasonOf('olivia', 'Crash on start'), 'subscribed', '~> the watcher');
	assert.is(await reasonOf('dave', 'Crash on start'), 'mention', '~> mentioned before: still mention');
	assert.is(await reasonOf('erin', 'Crash on start'), 'assign', '~> the assignee');
	assert.is(await threadAbout('zoe', 'Crash on start'), undefined, '~> never the commenter');
	const carls = await threadAbout('carl', 'Crash on start');
	assert.is(carls.updated_at, at, '~> updated by the comment');
	assert.is(carls.subject.latest_comment_url, `${s.api}/repos/olivia/app/issues/comments/${id}`, '~> latest_comment_url: the comment');
	assert.is((await threadAbout('bob', 'Crash on start')).id, before.id, '~> one thread per user and subject');

	await comment('olivia/app', 1, 'dave', 'Looking into it');
	assert.is(await reasonOf('zoe', 'Crash on start'), 'comment', '~> an earlier commenter');
	assert.is((await threadAbout('dave', 'Crash on start')).updated_at, at, '~> the new commenter is not notified of their own comment');
});

test('closing and reopening notify the participants (state_change) and the watchers; never the one who changed the state', async () => {
	await update('olivia/app', 1, 'carl', { state: 'closed' });
	assert.is(await reasonOf('zoe', 'Crash on start'), 'state_change', '~> a commenter: comment → state_change');
	assert.is(await reasonOf('olivia', 'Crash on start'), 'subscribed', '~> a watcher who never took part: subscribed');
	assert.is(await reasonOf('erin', 'Crash on start'), 'assign', '~> assign is stronger than state_change');
	const carls = await threadAbout('carl', 'Crash on start');
	assert.is(carls.updated_at === isoSeconds(s.clock.now), false, '~> the author closed it: not notified');
	assert.is(
		(await threadAbout('zoe', 'Crash on start')).subject.latest_comment_url,
		`${s.api}/repos/olivia/app/issues/1`,
		'~> no comment last: the issue',
	);
	await update('olivia/app', 1, 'olivia', { state: 'open' });
	assert.is(
		(await threadAbout('carl', 'Crash on start')).updated_at,
		isoSeconds(s.clock.now),
		'~> reopened by someone else: the author is notified',
	);
	assert.is(await reasonOf('carl', 'Crash on start'), 'author', '~> author is stronger than state_change');
});

test('edits notify only the users the new text mentions for the first time; the subject title follows the issue', async () => {
	const before = await threadAbout('olivia', 'Crash on start');
	await update('olivia/app', 1, 'carl', { title: 'Crash on startup' });
	const after = await threadAbout('olivia', 'Crash on startup');
	assert.ok(after, '~> the thread shows the new title');
	assert.is(after.updated_at, before.updated_at, '~> a title edit notifies nobody');
	await update('olivia/app', 1, 'carl', { body: 'Seen by @dave and @BOB; also @gina' });
	assert.is(await reasonOf('gina', 'Crash on startup'), 'mention', '~> the newly mentioned user');
	assert.is(
		(await threadAbout('dave', 'Crash on startup')).updated_at === isoSeconds(s.clock.now),
		false,
		'~> mentioned before: not again',
	);
	const id = await comment('olivia/app', 1, 'erin', 'Fixed?');
	tick();
	const edited = await s.request('PATCH', `/repos/olivia/app/issues/comments/${id}`, {
		token: tokens.erin,
		body: { body: 'Fixed? cc @hank' },
	});
	assert.is(edited.status, 200);
	assert.is(await reasonOf('hank', 'Crash on startup'), 'mention', '~> a comment edited to mention someone');
	assert.is(
		(await threadAbout('olivia', 'Crash on startup')).subject.latest_comment_url,
		`${s.api}/repos/olivia/app/issues/comments/${id}`,
	);
	const removed = await s.request('DELETE', `/repos/olivia/app/issues/comments/${id}`, { token: tokens.erin });
	assert.is(removed.status, 204);
	assert.is(
		(await threadAbout('olivia', 'Crash on startup')).subject.latest_comment_url,
		`${s.api}/repos/olivia/app/issues/1`,
		'~> the latest comment deleted: latest_comment_url points at the issue again',
	);
});

test('pull requests are threads of type PullRequest with their /pulls address', async () => {
	const { stores } = s.app;
	const repo = stores.repos.byOwnerAndName(stores.accounts.user('olivia')!.id, 'app')!;
	const pull = stores.issues.insert(
		{ repo_id: repo.id, title: 'Add retries', body: null, user_id: stores.accounts.user('carl')!.id, pull_request: true },
		isoSeconds(s.clock.now),
	);
	const id = await comment('olivia/app', pull.number, 'bob', 'LGTM @dave');
	const thread = await threadAbout('olivia', 'Add retries');
	assert.equal(thread.subject, {
		title: 'Add retries',
		url: `${s.api}/repos/olivia/app/pulls/${pull.number}`,
		latest_comment_url: `${s.api}/repos/olivia/app/issues/comments/${id}`,
		type: 'PullRequest',
	});
	assert.is(await reasonOf('dave', 'Add retries'), 'mention');
});

test('never a user who cannot read the repository; threads of a repository the user no longer reads leave every answer', async () => {
	await open('acme/vault', 'olivia', 'Rotate the keys', { body: '@mia @mallory please check' });
	assert.is(await reasonOf('mia', 'Rotate the keys'), 'mention', '~> a member reads the private repository');
	assert.is(await threadAbout('mallory', 'Rotate the keys'), undefined, '~> mentioned, but cannot read it: no thread');
	const narrow = s.token('mia', { scopes: ['notifications'] });
	const listed = await s.get('/notifications', narrow);
	assert.ok(
		listed.body.some((t: any) => t.subject.title === 'Rotate the keys'),
		'~> the notifications scope lists private threads the user reads',
	);
	const thread = await threadAbout('mia', 'Rotate the keys');

	const removal = await s.request('DELETE', '/orgs/acme/members/mia', { token: tokens.olivia });
	assert.is(removal.status, 204);
	assert.is(await threadAbout('mia', 'Rotate the keys'), undefined, '~> out of the list once she cannot read the repository');
	assert.is((await s.get(`/notifications/threads/${thread.id}`, tokens.mia)).status, 404, '~> the thread answers 404');
	assert.is((await s.request('PATCH', `/notifications/threads/${thread.id}`, { token: tokens.mia })).status, 404);
	assert.is((await s.get(`/notifications/threads/${thread.id}/subscription`, tokens.mia)).status, 404);
	await comment('acme/vault', 1, 'olivia', 'Ping @mia');
	s.member('acme', 'mia');
	const back = await threadAbout('mia', 'Rotate the keys');
	assert.ok(back, '~> back with read access');
	assert.is(back.updated_at, thread.updated_at, '~> the mention while she could not read notified nobody');
});

// ----- the reason: kept per thread, changed only by a later notification with a stronger reason

test('reason: subscribed → manual after subscribing to the thread', async () => {
	const n = await open('ursula/home', 'yves', 'R1');
	assert.is(await reasonOf('ursula', 'R1'), 'subscribed');
	const thread = await threadAbout('ursula', 'R1');
	const put = await s.request('PUT', `/notifications/threads/${thread.id}/subscription`, { token: tokens.ursula, body: {} });
	assert.is(put.status, 200);
	assert.is(await reasonOf('ursula', 'R1'), 'subscribed', '~> unchanged until the next notification');
	await comment('ursula/home', n, 'yves', 'more');
	assert.is(await reasonOf('ursula', 'R1'), 'manual', '~> manual');
	await comment('ursula/home', n, 'yves', 'and more');
	assert.is(await reasonOf('ursula', 'R1'), 'manual', '~> and stays manual');
});

test('reason: subscribed → comment after commenting', async () => {
	const n = await open('ursula/home', 'yves', 'R2');
	assert.is(await reasonOf('ursula', 'R2'), 'subscribed');
	await comment('ursula/home', n, 'ursula', 'mine');
	assert.is(await reasonOf('ursula', 'R2'), 'subscribed', '~> her own comment notifies her not');
	await comment('ursula/home', n, 'yves', 'reply');
	assert.is(await reasonOf('ursula', 'R2'), 'comment');
});

test('reason: subscribed → state_change after changing the state', async () => {
	const n = await open('ursula/home', 'yves', 'R3');
	assert.is(await reasonOf('ursula', 'R3'), 'subscribed');
	await update('ursula/home', n, 'ursula', { state: 'closed' });
	await comment('ursula/home', n, 'yves', 'why closed?');
	assert.is(await reasonOf('ursula', 'R3'), 'state_change');
});

test('reason: comment → state_change when someone else changes the state', async () => {
	const n = await open('acme/web', 'yves', 'R4');
	await comment('acme/web', n, 'ursula', 'mine');
	await comment('acme/web', n, 'yves', 'reply');
	assert.is(await reasonOf('ursula', 'R4'), 'comment');
	await update('acme/web', n, 'yves', { state: 'closed', state_reason: 'not_planned' });
	assert.is(await reasonOf('ursula', 'R4'), 'state_change');
	await comment('acme/web', n, 'yves', 'sorry');
	assert.is(await reasonOf('ursula', 'R4'), 'state_change', '~> stays');
});

test('reason: author → assign', async () => {
	const n = await open('acme/web', 'ursula', 'R5');
	await comment('acme/web', n, 'yves', 'hm');
	assert.is(await reasonOf('ursula', 'R5'), 'author');
	await assign('acme/web', n, 'yves', ['ursula']);
	assert.is(await reasonOf('ursula', 'R5'), 'assign');
});

test('reason: author → mention, and stays mention (the spec example)', async () => {
	const n = await open('acme/web', 'ursula', 'R6');
	await comment('acme/web', n, 'yves', 'first');
	assert.is(await reasonOf('ursula', 'R6'), 'author');
	await comment('acme/web', n, 'yves', '@ursula what do you think?');
	assert.is(await reasonOf('ursula', 'R6'), 'mention');
	await comment('acme/web', n, 'yves', 'no mention here');
	assert.is(await reasonOf('ursula', 'R6'), 'mention', '~> stays mention after a later comment');
	await assign('acme/web', n, 'yves', ['ursula']);
	assert.is(await reasonOf('ursula', 'R6'), 'mention', '~> and after an assignment (assign is weaker)');
	await update('acme/web', n, 'yves', { state: 'closed' });
	assert.is(await reasonOf('ursula', 'R6'), 'mention', '~> and after a state change');
});

test('reason: comment → mention', async () => {
	const n = await open('acme/web', 'yves', 'R7');
	await comment('acme/web', n, 'ursula', 'mine');
	await comment('acme/web', n, 'yves', 'reply');
	assert.is(await reasonOf('ursula', 'R7'), 'comment');
	await comment('acme/web', n, 'yves', 'hey @ursula');
	assert.is(await reasonOf('ursula', 'R7'), 'mention');
});

test('reason: state_change → assign', async () => {
	const n = await open('acme/web', 'yves', 'R8');
	await update('acme/web', n, 'ursula', { state: 'closed' });
	await update('acme/web', n, 'yves', { state: 'open' });
	assert.is(await reasonOf('ursula', 'R8'), 'state_change');
	await assign('acme/web', n, 'yves', ['ursula']);
	assert.is(await reasonOf('ursula', 'R8'), 'assign');
});

test('reason: assign → mention', async () => {
	const n = await open('acme/web', 'olivia', 'R9', { assignees: ['ursula'] });
	assert.is(await reasonOf('ursula', 'R9'), 'assign');
	await comment('acme/web', n, 'yves', 'cc @ursula');
	assert.is(await reasonOf('ursula', 'R9'), 'mention');
});

test('reason: author stays author after commenting on the own issue and after someone else closes it', async () => {
	const n = await open('acme/web', 'ursula', 'R10');
	await comment('acme/web', n, 'ursula', 'more detail');
	await comment('acme/web', n, 'yves', 'thanks');
	assert.is(await reasonOf('ursula', 'R10'), 'author', '~> author is stronger than comment');
	await update('acme/web', n, 'yves', { state: 'closed' });
	assert.is(await reasonOf('ursula', 'R10'), 'author', '~> and than state_change');
});

test('the precedence: a total order, strongest wins, nothing falls back', () => {
	assert.is(strongest('author', 'mention'), 'mention');
	assert.is(strongest('mention', 'author'), 'mention');
	assert.is(strongest(null, undefined), null);
	for (let i = 1; i < REASONS.length; i++)
		assert.is(strongest(REASONS[i], REASONS[i - 1]), REASONS[i], `~> ${REASONS[i]} over ${REASONS[i - 1]}`);
	assert.equal(mentionedLogins(`@a, @b-c. (@D) x@e \`@f\` @g_h @i/team @${'j'.repeat(40)}`), ['a', 'b-c', 'd', 'g', 'i']);
});

// ----- lists, filters and polling

test('lists: newest first; all, participating, since, before; per_page capped at 50; the repository list', async () => {
	const t0 = s.clock.now;
	await open('fiona/lab', 'yves', 'L1');
	s.clock.advance(HOUR);
	await open('fiona/lab', 'yves', 'L2', { body: 'for @fiona' });
	s.clock.advance(HOUR);
	await open('fiona/lab', 'yves', 'L3');
	const all = await threads('fiona', '');
	assert.equal(
		all.map((t) => t.subject.title),
		['L3', 'L2', 'L1'],
		'~> sorted by updated_at, newest first',
	);
	const participating = await threads('fiona', '?participating=true');
	assert.equal(
		participating.map((t) => t.subject.title),
		['L2'],
		'~> only threads she is directly involved in',
	);
	const since = await threads('fiona', `?since=${isoSeconds(t0 + HOUR)}`);
	assert.equal(
		since.map((t) => t.subject.title),
		['L3', 'L2'],
		'~> updated at or after since',
	);
	const before = await threads('fiona', `?before=${encodeURIComponent(isoSeconds(t0 + 2 * HOUR))}`);
	assert.equal(
		before.map((t) => t.subject.title),
		['L2', 'L1'],
		'~> updated before before',
	);

	const read = await s.request('PATCH', `/notifications/threads/${all[1].id}`, { token: tokens.fiona });
	assert.is(read.status, 205);
	assert.equal(
		(await threads('fiona', '')).map((t) => t.subject.title),
		['L3', 'L1'],
		'~> read threads leave the default list',
	);
	const everything = await threads('fiona', '?all=true');
	assert.equal(
		everything.map((t) => [t.subject.title, t.unread]),
		[
			['L3', true],
			['L2', false],
			['L1', true],
		],
		'~> all=true keeps them',
	);

	const paged = await s.get('/notifications?per_page=1', tokens.fiona);
	assert.is(paged.body.length, 1);
	assert.match(paged.headers.get('link') ?? '', 'rel="next"', '~> Link to the next page');
	const capped = await s.get('/notifications?all=true&per_page=100', tokens.fiona);
	assert.is(capped.status, 200, '~> per_page above 50 is capped at 50, as GitHub does (gh status asks for 100)');
	assert.is((await s.get('/notifications?per_page=50', tokens.fiona)).status, 200);
	assert.is((await s.get('/notifications?since=yesterday', tokens.fiona)).status, 422, '~> since must be a timestamp');
	assert.is((await s.get('/notifications?all=maybe', tokens.fiona)).status, 422, '~> all must be a boolean');

	const repository = await s.get('/repos/fiona/lab/notifications?per_page=101', tokens.fiona);
	assert.is(repository.status, 200, '~> the repository list caps per_page at 100');
	assert.equal(
		repository.body.map((t: any) => t.subject.title),
		['L3', 'L1'],
	);
	assert.equal((await s.get('/repos/ursula/home/notifications', tokens.fiona)).body, [], '~> another repository: none of hers');
	assert.is((await s.get('/repos/acme/vault/notifications', tokens.fiona)).status, 404, '~> a repository she cannot read');
});

test('polling: Last-Modified is the newest update; If-Modified-Since passed exactly answers 304 without using the rate limit; X-Poll-Interval 60', async () => {
	const first = await s.get('/notifications', tokens.fiona);
	const lastModified = first.headers.get('last-modified')!;
	assert.is(lastModified, new Date(first.body[0].updated_at).toUTCString(), '~> the newest updated_at, as an HTTP date');
	assert.is(first.headers.get('x-poll-interval'), '60');
	const used = Number(first.headers.get('x-ratelimit-used'));
	const again = await s.get('/notifications', tokens.fiona, { 'If-Modified-Since': lastModified });
	assert.is(again.status, 304, '~> nothing new');
	assert.is(again.text, '', '~> no body');
	assert.is(again.headers.get('x-poll-interval'), '60', '~> X-Poll-Interval on the 304 too');
	assert.is(Number(again.headers.get('x-ratelimit-used')), used, '~> the 304 did not count');
	const older = await s.get('/notifications', tokens.fiona, {
		'If-Modified-Since': new Date(Date.parse(lastModified) - 1000).toUTCString(),
	});
	assert.is(older.status, 200, '~> an older date: the list');
	s.clock.advance(MINUTE);
	await open('fiona/lab', 'yves', 'L4');
	const changed = await s.get('/notifications', tokens.fiona, { 'If-Modified-Since': lastModified });
	assert.is(changed.status, 200, '~> a new notification: 200');
	assert.is(changed.headers.get('last-modified'), new Date(s.clock.now).toUTCString(), "~> the new notification's time");
	const repo = await s.get('/repos/fiona/lab/notifications', tokens.fiona);
	assert.is(repo.headers.get('x-poll-interval'), '60');
	assert.is(
		(await s.get('/repos/fiona/lab/notifications', tokens.fiona, { 'If-Modified-Since': repo.headers.get('last-modified')! })).status,
		304,
	);
});

test('PUT /notifications: 205 marks every thread updated at or before last_read_at read; later ones stay unread', async () => {
	const listed = await threads('fiona', '');
	assert.ok(listed.length >= 2);
	const newest = listed[0];
	const cutoff = isoSeconds(Date.parse(newest.updated_at) - 1000);
	const res = await s.request('PUT', '/notifications', { token: tokens.fiona, body: { last_read_at: cutoff } });
	assert.is(res.status, 205);
	assert.is(res.text, '', '~> no body');
	assert.equal(
		(await threads('fiona', '')).map((t) => t.id),
		[newest.id],
		'~> only the later thread is unread',
	);
	const read = (await threads('fiona')).find((t) => t.id !== newest.id);
	assert.is(read.unread, false);
	assert.is(read.last_read_at, cutoff);
	assert.is((await s.request('PUT', '/notifications', { token: tokens.fiona, body: {} })).status, 205);
	assert.equal(await threads('fiona', ''), [], '~> without last_read_at: everything');
	assert.is((await s.request('PUT', '/notifications', { token: tokens.fiona, body: { read: 'yes' } })).status, 422);
	const repo = await s.request('PUT', '/repos/fiona/lab/notifications', { token: tokens.fiona, body: {} });
	assert.is(repo.status, 205, '~> the repository form');
});

// ----- one thread

test('one thread: GET with Last-Modified, PATCH marks read (205), DELETE marks done (204) until the next notification', async () => {
	const n = await open('fiona/lab', 'yves', 'T1');
	const { id } = await threadAbout('fiona', 'T1');
	const res = await s.get(`/notifications/threads/${id}`, tokens.fiona);
	assert.is(res.status, 200);
	assert.equal(Object.keys(res.body).sort(), THREAD_KEYS);
	assert.is(res.body.unread, true);
	assert.is(res.headers.get('last-modified'), new Date(res.body.updated_at).toUTCString());
	assert.is(
		(await s.get(`/notifications/threads/${id}`, tokens.fiona, { 'If-Modified-Since': res.headers.get('last-modified')! })).status,
		304,
	);
	tick();
	const patched = await s.request('PATCH', `/notifications/threads/${id}`, { token: tokens.fiona });
	assert.is(patched.status, 205);
	assert.is(patched.text, '');
	const read = (await s.get(`/notifications/threads/${id}`, tokens.fiona)).body;
	assert.is(read.unread, false);
	assert.is(read.last_read_at, isoSeconds(s.clock.now));

	const done = await s.request('DELETE', `/notifications/threads/${id}`, { token: tokens.fiona });
	assert.is(done.status, 204);
	assert.is(await threadAbout('fiona', 'T1'), undefined, '~> done: out of the lists, all=true included');
	await comment('fiona/lab', n, 'yves', 'news');
	const back = await threadAbout('fiona', 'T1');
	assert.is(back?.id, id, '~> the next notification brings the same thread back');
	assert.is(back.unread, true);

	for (const other of ['999999', 'abc'])
		assert.is((await s.get(`/notifications/threads/${other}`, tokens.fiona)).status, 404, `~> ${other}`);
	assert.is((await s.get(`/notifications/threads/${id}`, tokens.yves)).status, 404, "~> someone else's thread");
	assert.is((await s.request('DELETE', `/notifications/threads/${id}`, { token: tokens.yves })).status, 404);
});

// ----- thread subscriptions

test('subscriptions: GET shows how the user follows the thread; ignored → no more notifications until a mention; DELETE → only watching notifies', async () => {
	const n = await open('olivia/app', 'carl', 'S1', { assignees: ['erin'] });
	const openedAt = isoSeconds(s.clock.now);
	await comment('olivia/app', n, 'bob', 'first');
	const carls = await threadAbout('carl', 'S1');
	const res = await s.get(`/notifications/threads/${carls.id}/subscription`, tokens.carl);
	assert.is(res.status, 200);
	assert.equal(
		res.body,
		{
			subscribed: true,
			ignored: false,
			reason: 'author',
			created_at: openedAt,
			url: `${s.api}/notifications/threads/${carls.id}/subscription`,
			thread_url: `${s.api}/notifications/threads/${carls.id}`,
		},
		"~> GitHub's thread subscription: followed since he opened the issue",
	);

	const olivias = await threadAbout('olivia', 'S1');
	assert.is(
		(await s.get(`/notifications/threads/${olivias.id}/subscription`, tokens.olivia)).status,
		404,
		'~> only watching: no thread subscription',
	);

	const ignored = await s.request('PUT', `/notifications/threads/${carls.id}/subscription`, {
		token: tokens.carl,
		body: { ignored: true },
	});
	assert.is(ignored.status, 200);
	assert.is(ignored.body.subscribed, false);
	assert.is(ignored.body.ignored, true);
	await comment('olivia/app', n, 'bob', 'second');
	assert.is((await threadAbout('carl', 'S1')).updated_at, carls.updated_at, '~> ignored: not notified');
	await comment('olivia/app', n, 'bob', 'third, @carl?');
	const mentioned = await threadAbout('carl', 'S1');
	assert.is(mentioned.updated_at, isoSeconds(s.clock.now), '~> a mention ends ignoring');
	assert.is(mentioned.reason, 'mention');
	assert.is((await s.get(`/notifications/threads/${carls.id}/subscription`, tokens.carl)).body.ignored, false);

	const erins = await threadAbout('erin', 'S1');
	assert.is((await s.request('DELETE', `/notifications/threads/${erins.id}/subscription`, { token: tokens.erin })).status, 204);
	assert.is((await s.get(`/notifications/threads/${erins.id}/subscription`, tokens.erin)).status, 404);
	await comment('olivia/app', n, 'bob', 'fourth');
	assert.is((await threadAbout('erin', 'S1')).updated_at === isoSeconds(s.clock.now), false, '~> unsubscribed: not notified');
	const resubscribed = await s.request('PUT', `/notifications/threads/${erins.id}/subscription`, {
		token: tokens.erin,
		body: { ignored: false },
	});
	assert.equal([resubscribed.body.subscribed, resubscribed.body.reason], [true, 'assign'], '~> subscribed again, still the assignee');
	await comment('olivia/app', n, 'bob', 'fifth');
	assert.is((await threadAbout('erin', 'S1')).updated_at, isoSeconds(s.clock.now), '~> notified again');

	const olivia = await s.request('PUT', `/notifications/threads/${olivias.id}/subscription`, {
		token: tokens.olivia,
		body: { ignored: true },
	});
	assert.is(olivia.status, 200);
	await comment('olivia/app', n, 'bob', 'sixth');
	assert.is((await threadAbout('olivia', 'S1')).updated_at === isoSeconds(s.clock.now), false, '~> ignoring mutes watching too');
	assert.is((await s.request('DELETE', `/notifications/threads/${olivias.id}/subscription`, { token: tokens.olivia })).status, 204);
	await comment('olivia/app', n, 'bob', 'seventh');
	assert.is(
		(await threadAbout('olivia', 'S1')).updated_at,
		isoSeconds(s.clock.now),
		'~> without a subscription, watching still notifies',
	);
	assert.is(
		(await s.request('PUT', `/notifications/threads/${olivias.id}/subscription`, { token: tokens.olivia, body: { ignored: 1 } }))
			.status,
		422,
	);
});

// ----- who may call

test('only classic personal access tokens with notifications or repo', async () => {
	const paths = ['/notifications', '/repos/olivia/app/notifications'];
	const { id } = await threadAbout('carl', 'S1');
	paths.push(`/notifications/threads/${id}`, `/notifications/threads/${id}/subscription`);
	for (const path of paths) {
		assert.is((await s.get(path)).status, 401, `~> ${path} anonymous`);
		const fine = await s.get(path, s.token('carl', { kind: 'fine-grained', permissions: { metadata: 'read' } }));
		assert.equal([fine.status, fine.body.message], [403, MESSAGES.byPersonalAccessToken], `~> ${path} fine-grained`);
		const oauth = await s.get(path, s.token('carl', { kind: 'oauth', scopes: ['notifications', 'repo'] }));
		assert.equal([oauth.status, oauth.body.message], [403, MESSAGES.byPersonalAccessToken], `~> ${path} OAuth app token`);
		const app = await s.get(path, s.token('carl', { kind: 'user-to-server', org: 'carl', permissions: { metadata: 'read' } }));
		assert.equal([app.status, app.body.message], [403, MESSAGES.byIntegration], `~> ${path} user-to-server`);
		const bare = await s.get(path, s.token('carl', { scopes: ['gist'] }));
		assert.is(bare.status, 403, `~> ${path} classic without the scope`);
		assert.match(bare.body.message, 'It needs one of these scopes: notifications, repo');
		assert.is((await s.get(path, s.token('carl', { scopes: ['notifications'] }))).status, 200, `~> ${path} notifications`);
		assert.is((await s.get(path, s.token('carl', { scopes: ['repo'] }))).status, 200, `~> ${path} repo`);
	}
	const put = await s.request('PUT', '/notifications', { token: s.token('carl', { kind: 'fine-grained', permissions: {} }), body: {} });
	assert.is(put.status, 403, '~> writes too');
});

// ----- marking many threads, in the background; polling past the rate limit

test('more threads than notifications.mark_read_batch: 202 with GitHub message, the background task marks them; a spent rate limit still answers 304', async () => {
	const t = await startServer({
		configure: (config) => {
			config.notifications.mark_read_batch = 2;
			config.rate_limit.limits.core = 40;
		},
	});
	try {
		t.user('olga');
		t.user('pete');
		const olga = t.fullToken('olga');
		const pete = t.fullToken('pete');
		await t.request('POST', '/user/repos', { token: olga, body: { name: 'r' } });
		for (const title of ['a', 'b', 'c']) await t.request('POST', '/repos/olga/r/issues', { token: pete, body: { title } });
		const res = await t.request('PUT', '/notifications', { token: olga, body: {} });
		assert.is(res.status, 202);
		assert.equal(res.body, {
			message:
				"Unread notifications couldn't be marked in a single request. Notifications are being marked as read in the background.",
		});
		assert.is((await t.get('/notifications', olga)).body.length, 3, '~> not yet');
		await t.app.tasks.runDue();
		assert.equal((await t.get('/notifications', olga)).body, [], '~> marked by the task');
		assert.ok((await t.get('/notifications?all=true', olga)).body.every((thread: any) => !thread.unread));

		t.clock.advance(1000);
		for (const title of ['d', 'e', 'f']) await t.request('POST', '/repos/olga/r/issues', { token: pete, body: { title } });
		const repo = await t.request('PUT', '/repos/olga/r/notifications', { token: olga, body: {} });
		assert.is(repo.status, 202, '~> the repository form too');
		assert.equal(repo.body, { message: res.body.message, url: `${t.api}/repos/olga/r/notifications` });
		await t.app.tasks.runDue();
		assert.equal((await t.get('/repos/olga/r/notifications', olga)).body, []);
		assert.is((await t.request('PUT', '/notifications', { token: olga, body: {} })).status, 205, '~> nothing left: 205');

		let last = await t.get('/notifications?all=true', olga);
		const lastModified = last.headers.get('last-modified')!;
		while (last.status !== 403) last = await t.get('/notifications?all=true', olga);
		assert.match(last.body.message, 'API rate limit exceeded');
		const polled = await t.get('/notifications?all=true', olga, { 'If-Modified-Since': lastModified });
		assert.is(polled.status, 304, '~> nothing new: 304 although the limit is spent');
		assert.is(polled.headers.get('x-ratelimit-remaining'), '0');
		t.clock.advance(1000);
		await t.request('POST', '/repos/olga/r/issues', { token: pete, body: { title: 'g' } });
		assert.is(
			(await t.get('/notifications?all=true', olga, { 'If-Modified-Since': lastModified })).status,
			403,
			'~> something new: the rate limit applies',
		);
	} finally {
		await t.close();
	}
});

// ----- issues opened before notifications existed

test('upgrading a database: the authors, commenters and assignees of existing issues follow them (schema 6)', async () => {
	const dataDir = mkdtempSync(join(tmpdir(), 'gitstead-notifications-'));
	try {
		const db = openDatabase(join(dataDir, 'gitstead.db'));
		db.exec(readFileSync(join(__dirname, 'fixtures', 'schema-v1.sql'), 'utf8'));
		db.pragma('user_version = 1');
		const now = '2026-01-01T00:00:00Z';
		const account = db.prepare("INSERT INTO accounts (id, login, type, created_at, updated_at) VALUES (?, ?, 'User', ?, ?)");
		for (const [id, login] of [
			[1, 'owen'],
			[2, 'ada'],
			[3, 'cy'],
			[4, 'asa'],
			[5, 'new'],
		] as const)
			account.run(id, login, now, now);
		db.prepare(
			"INSERT INTO repositories (id, owner_id, name, visibility, created_at, updated_at) VALUES (1, 1, 'r', 'public', ?, ?)",
		).run(now, now);
		db.prepare(
			"INSERT INTO issues (id, repo_id, number, title, user_id, created_at, updated_at) VALUES (1, 1, 1, 'Old bug', 2, ?, ?)",
		).run(now, now);
		db.prepare(
			"INSERT INTO issue_comments (repo_id, issue_id, user_id, body, created_at, updated_at) VALUES (1, 1, 3, 'me too', ?, ?)",
		).run(now, now);
		db.prepare('INSERT INTO issue_assignees (issue_id, user_id, position) VALUES (1, 4, 1)').run();
		db.close();
		const u = await startServer({ dataDir });
		try {
			assert.equal(await u.get('/notifications', u.fullToken('ada')).then((r) => r.body), [], '~> nothing unread after the upgrade');
			await u.request('POST', '/repos/owen/r/issues/1/comments', { token: u.fullToken('new'), body: { body: 'still happening' } });
			const reason = async (login: string) => (await u.get('/notifications', u.fullToken(login))).body.map((t: any) => t.reason);
			assert.equal(await reason('ada'), ['author']);
			assert.equal(await reason('cy'), ['comment']);
			assert.equal(await reason('asa'), ['assign']);
			assert.equal(await reason('owen'), ['subscribed'], '~> and the watcher');
		} finally {
			await u.close(true);
		}
	} finally {
		rmSync(dataDir, { recursive: true, force: true });
	}
});

// ----- watching, team mentions, finished workflow runs

test('watching: a watcher of an organization repository is notified (subscribed); ignoring the repository mutes everything in it, mentions included', async () => {
	tick();
	assert.is(
		(await s.request('PUT', '/repos/acme/web/subscription', { token: tokens.zoe, body: { subscribed: true } })).status,
		200,
		'~> zoe watches acme/web',
	);
	await open('acme/web', 'olivia', 'Watched news');
	assert.is(await reasonOf('zoe', 'Watched news'), 'subscribed', '~> a watcher: subscribed');
	assert.is(await reasonOf('olivia', 'Watched news'), undefined, '~> the creator watches too, but is the actor');
	tick();
	assert.is(
		(await s.request('PUT', '/repos/acme/web/subscription', { token: tokens.zoe, body: { ignored: true } })).status,
		200,
		'~> zoe ignores acme/web',
	);
	await open('acme/web', 'olivia', 'Ignored news', { body: 'cc @zoe' });
	assert.is(await reasonOf('zoe', 'Ignored news'), undefined, '~> ignoring the repository: not even a mention notifies');
	await s.request('DELETE', '/repos/acme/web/subscription', { token: tokens.zoe });
});

test('team mentions: @org/team notifies its members (team_mention; child teams too); a secret team only when the actor belongs to it; never a team with notifications disabled or of another organization', async () => {
	s.member('acme', 'gina');
	s.member('acme', 'hank');
	s.member('acme', 'fiona');
	const team = async (body: Record<string, unknown>, members: string[]) => {
		const res = await s.request('POST', '/orgs/acme/teams', { token: tokens.olivia, body });
		assert.is(res.status, 201, `~> team ${body.name}`);
		for (const login of members)
			await s.request('PUT', `/orgs/acme/teams/${res.body.slug}/memberships/${login}`, { token: tokens.olivia });
		return res.body;
	};
	const crew = await team({ name: 'Crew', privacy: 'closed' }, ['mia']);
	await team({ name: 'Crew Juniors', privacy: 'closed', parent_team_id: crew.id }, ['fiona']);
	await team({ name: 'Spooks', privacy: 'secret' }, ['gina']);
	await team({ name: 'Quiet', privacy: 'closed', notification_setting: 'notifications_disabled' }, ['hank']);

	await open('acme/web', 'olivia', 'Crew wanted', { body: 'Paging @acme/crew, @acme/quiet and @other/crew; also @acme/spooks.' });
	assert.is(await reasonOf('mia', 'Crew wanted'), 'team_mention', '~> a member of the mentioned team');
	assert.is(await reasonOf('fiona', 'Crew wanted'), 'team_mention', '~> a member of a child team');
	assert.is(await reasonOf('gina', 'Crew wanted'), 'team_mention', '~> the secret team: olivia created it, so belongs to it');
	assert.is(await reasonOf('hank', 'Crew wanted'), undefined, '~> notifications disabled: nobody');
	assert.is(await reasonOf('olivia', 'Crew wanted'), undefined, '~> never the actor, although a maintainer of every team');

	const issue = await open('acme/web', 'yves', 'Spooky', { body: 'Hey @acme/spooks' });
	assert.is(await reasonOf('gina', 'Spooky'), undefined, '~> yves does not belong to the secret team: no one is notified');
	await comment('acme/web', issue, 'mia', 'Looping in @acme/crew again');
	assert.is(await reasonOf('fiona', 'Spooky'), 'team_mention', '~> a comment mentions the team too');
	await comment('acme/web', issue, 'olivia', '@mia and @acme/crew');
	assert.is(await reasonOf('mia', 'Spooky'), 'mention', '~> a direct mention is stronger than a team mention');
});

test('ci_activity: a finished workflow run notifies the user who triggered it, with its check suite as the subject', async () => {
	const web = s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.byLogin('acme')!.id, 'web')!;
	const imported = importRuns(s.app, web, {
		workflows: [{ name: 'CI', path: 'ci.yml', jobs: [{ name: 'build' }] }],
		runs: [{ path: 'ci.yml', branch: 'main', actor: 'mia', status: 'queued', created_at: isoSeconds(s.clock.now) }],
	});
	const runId = imported.run_ids[0];
	assert.is(await reasonOf('mia', 'CI workflow run failed for main branch'), undefined, '~> nothing while the run is queued');
	const [job] = s.app.stores.actions.jobs(runId, null).rows;
	tick();
	advanceJob(s.app, web, job.id, { status: 'in_progress' }, isoSeconds(s.clock.now));
	tick();
	advanceJob(s.app, web, job.id, { status: 'completed', conclusion: 'failure' }, isoSeconds(s.clock.now));
	const thread = await threadAbout('mia', 'CI workflow run failed for main branch');
	assert.ok(thread, '~> mia triggered it: notified although the runner reported as her');
	assert.is(thread.reason, 'ci_activity');
	assert.equal(thread.subject, {
		title: 'CI workflow run failed for main branch',
		url: null,
		latest_comment_url: null,
		type: 'CheckSuite',
	});
	assert.is(thread.unread, true);
	assert.is(await reasonOf('olivia', 'CI workflow run failed for main branch'), undefined, '~> only the user who triggered it');
});

// ----- derived after commit, from the event log

test('threads are derived from the event log after commit: an event recorded by a process stopped before its pass is derived on the next read', async () => {
	const number = await open('olivia/app', 'olivia', 'Left by a stopped process');
	const { stores } = s.app;
	const repo = stores.repos.byOwnerAndName(stores.accounts.user('olivia')!.id, 'app')!;
	const issue = s.app.db.prepare('SELECT id FROM issues WHERE repo_id = ? AND number = ?').get(repo.id, number) as { id: number };
	const watermark = stores.events.notificationWatermark();
	assert.is(watermark, stores.events.latestId(), '~> the write was answered once its threads were derived');
	// A second connection, as another process that committed its change and stopped before deriving.
	const other = openDatabase(join(s.dataDir, 'gitstead.db'));
	try {
		const activity = {
			subject: { type: 'Issue', id: issue.id, title: 'Left by a stopped process', path: `/issues/${number}` },
			broadcast: false,
			involved: [{ userId: stores.accounts.user('hank')!.id, reason: 'mention' }],
		};
		other
			.prepare(
				`INSERT INTO events (event, action, actor_id, repo_id, repo_name, org_id, public, feed_type, payload, created_at, notification)
				VALUES ('issues', 'edited', ?, ?, 'olivia/app', NULL, 1, NULL, NULL, ?, ?)`,
			)
			.run(stores.accounts.user('olivia')!.id, repo.id, isoSeconds(s.clock.read()), JSON.stringify(activity));
	} finally {
		other.close();
	}
	assert.is(stores.events.notificationWatermark(), watermark, '~> nothing derived it yet');
	assert.is(await reasonOf('hank', 'Left by a stopped process'), 'mention', '~> the read caught up from the watermark');
	assert.is(stores.events.notificationWatermark(), stores.events.latestId());
	const before = (await threadAbout('hank', 'Left by a stopped process')).updated_at;
	assert.is((await threadAbout('hank', 'Left by a stopped process')).updated_at, before, '~> derived once');
});

test("the pass derives the turn's own events from memory only while they are the log's: another process's event and a rolled-back write are read from the log", async () => {
	const { stores } = s.app;
	const olivia = stores.accounts.user('olivia')!.id;
	const repo = stores.repos.byOwnerAndName(olivia, 'app')!;
	const number = await open('olivia/app', 'olivia', 'Memory and log');
	const issue = s.app.db.prepare('SELECT id FROM issues WHERE repo_id = ? AND number = ?').get(repo.id, number) as { id: number };
	const mention = (login: string) => ({
		subject: { type: 'Issue' as const, id: issue.id, title: 'Memory and log', path: `/issues/${number}` },
		broadcast: false,
		involved: [{ userId: stores.accounts.user(login)!.id, reason: 'mention' as const }],
	});
	const threadOf = (login: string) =>
		s.app.db
			.prepare(
				`SELECT t.reason FROM notification_threads t JOIN notification_subjects j ON j.id = t.subject_id
				WHERE t.user_id = ? AND j.type = 'Issue' AND j.subject_id = ?`,
			)
			.get(stores.accounts.user(login)!.id, issue.id) as { reason: string | null } | undefined;
	const edited = (login: string) =>
		record(s.app, { event: 'issues', action: 'edited', actorId: olivia, repo, notification: mention(login) });
	tick();
	// A write that records its event and then fails: its event row is gone, and its id is free again.
	assert.throws(() =>
		s.app.transaction(() => {
			edited('gina');
			throw new Error('the write fails after recording its event');
		}),
	);
	// Another process takes that id with an event of its own, before this process's next write.
	const other = openDatabase(join(s.dataDir, 'gitstead.db'));
	try {
		other
			.prepare(
				`INSERT INTO events (event, action, actor_id, repo_id, repo_name, org_id, public, feed_type, payload, created_at, notification)
				VALUES ('issues', 'edited', ?, ?, 'olivia/app', NULL, 1, NULL, NULL, ?, ?)`,
			)
			.run(olivia, repo.id, isoSeconds(s.clock.read()), JSON.stringify(mention('hank')));
	} finally {
		other.close();
	}
	s.app.transaction(() => edited('mia'));
	await new Promise((done) => setImmediate(done));
	assert.is(stores.events.notificationWatermark(), stores.events.latestId(), '~> the pass ran after the commit');
	assert.is(threadOf('hank')?.reason, 'mention', "~> the other process's event was read from the log");
	assert.is(threadOf('mia')?.reason, 'mention', "~> this process's event");
	assert.is(threadOf('gina'), undefined, '~> nothing of the rolled-back write');
	// The common case, over HTTP: a write's event handed to the pass in memory, derived before the answer.
	tick();
	const res = await s.request('PATCH', `/repos/olivia/app/issues/${number}`, { token: tokens.olivia, body: { body: 'cc @dave' } });
	assert.is(res.status, 200);
	assert.is(stores.events.notificationWatermark(), stores.events.latestId());
	assert.is(threadOf('dave')?.reason, 'mention');
});

test.run();
