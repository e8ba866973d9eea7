/**
 * Search (GitHub's search API): repositories, issues and pull requests, users — free text through
 * the FTS5 indexes (issues indexed after commit: test/search-index.test.ts), qualifiers, sorting, visibility of private
 * repositories and their issues (total_count included), the 1000-result cap, Link pagination,
 * validation, and the per-minute `search` rate limit.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { defaultConfig } from '../src/config';
import { startServer, type TestServer } from './helpers/server';

const test = suite('search');
let s: TestServer;
let olivia: string; // owner of acme
let mike: string; // member of acme (base permission read)
let nora: string; // outsider; owns nora/notes

test.before(async () => {
	// Far more searches than a minute's budget run here: the limits are raised (the last test checks them).
	s = await startServer({
		configure(c) {
			c.rate_limit.limits.search = 1000;
			c.rate_limit.limits.search_unauthenticated = 500;
		},
	});
	for (const login of ['olivia', 'mike', 'nora']) s.user(login);
	s.org('acme', 'olivia');
	s.member('acme', 'mike');
	olivia = s.fullToken('olivia');
	mike = s.fullToken('mike');
	nora = s.fullToken('nora');
	const repo = async (path: string, token: string, body: Record<string, unknown>) => {
		const res = await s.request('POST', path, { token, body });
		assert.is(res.status, 201, `~> ${body.name} created`);
	};
	await repo('/orgs/acme/repos', olivia, { name: 'rocket-launcher', description: 'Launches rockets to the moon' });
	await repo('/orgs/acme/repos', olivia, { name: 'vault', description: 'Secret rocket plans', private: true });
	await repo('/user/repos', nora, { name: 'notes', description: 'Un café noir, s’il vous plaît' });
	const fork = await s.request('POST', '/repos/acme/rocket-launcher/forks', { token: nora, body: {} });
	assert.is(fork.status, 202, '~> forked');
	s.app.db
		.prepare(
			"UPDATE repositories SET language = 'TypeScript', topics = '[\"space\",\"cli\"]', stargazers_count = 5, created_at = '2025-06-01T00:00:00Z' WHERE name = 'rocket-launcher' AND fork_parent_id IS NULL",
		)
		.run();
	s.app.db.prepare("UPDATE repositories SET stargazers_count = 2 WHERE name = 'notes'").run();
	const issue = async (repoPath: string, token: string, body: Record<string, unknown>) => {
		const res = await s.request('POST', `/repos/${repoPath}/issues`, { token, body });
		assert.is(res.status, 201, `~> issue ${body.title} created`);
		return res.body;
	};
	await issue('acme/rocket-launcher', olivia, {
		title: 'Engine explodes on launch',
		body: 'The booster fails, @mike please look',
		labels: ['bug', 'help wanted'],
		assignees: ['mike'],
	});
	await issue('acme/rocket-launcher', nora, { title: 'Add a countdown', body: 'Ten, nine, eight' });
	const closed = await issue('acme/rocket-launcher', olivia, { title: 'Fuel gauge wrong', labels: ['bug'] });
	await s.request('PATCH', `/repos/acme/rocket-launcher/issues/${closed.number}`, { token: olivia, body: { state: 'closed' } });
	await issue('acme/vault', olivia, { title: 'Rocket launch codes', body: 'classified' });
});
test.after(() => s.close());

const search = (kind: string, q: string, token?: string, extra = '') => s.get(`/search/${kind}?q=${encodeURIComponent(q)}${extra}`, token);
const names = (res: { body: any }) => res.body.items.map((item: any) => item.full_name ?? item.title ?? item.login);

test('repositories – free text over name and description, diacritics ignored, the last word as a prefix; shape and score', async () => {
	const res = await search('repositories', 'rocket', olivia);
	assert.is(res.status, 200);
	assert.equal(
		names(res).sort(),
		['acme/rocket-launcher', 'acme/vault'],
		'~> name and description match; the fork is left out by default',
	);
	assert.is(res.body.total_count, 2);
	assert.is(res.body.incomplete_results, false);
	const item = res.body.items.find((i: any) => i.name === 'rocket-launcher');
	assert.is(item.score, 1, '~> score');
	assert.is(item.owner.login, 'acme', '~> the repository shape of the list routes');
	assert.equal(item.permissions.admin, true, '~> the caller’s permissions');
	assert.equal(names(await search('repositories', 'cafe', nora)), ['nora/notes'], '~> café matches cafe');
	assert.equal(names(await search('repositories', 'laun', nora)), ['acme/rocket-launcher'], '~> the last word is a prefix');
	assert.is((await search('repositories', 'moon plans', olivia)).body.total_count, 0, '~> every word must match');
	assert.equal(names(await search('repositories', 'rocket in:name', olivia)), ['acme/rocket-launcher'], '~> in:name');
	assert.is(res.headers.get('x-ratelimit-resource'), 'search', '~> counted against search');
});

test('repositories – private ones only for callers who can read them; total_count agrees', async () => {
	const anon = await search('repositories', 'rocket');
	assert.equal(names(anon), ['acme/rocket-launcher'], '~> anonymous: public only');
	assert.is(anon.body.total_count, 1);
	assert.not.ok('permissions' in anon.body.items[0], '~> no permissions for anonymous callers');
	assert.equal(names(await search('repositories', 'rocket', nora)), ['acme/rocket-launcher'], '~> an outsider: public only');
	assert.equal(
		names(await search('repositories', 'rocket', mike)).sort(),
		['acme/rocket-launcher', 'acme/vault'],
		'~> a member reads it',
	);
	const noRepoScope = s.token('mike', { scopes: ['public_repo'] });
	assert.equal(
		names(await search('repositories', 'rocket', noRepoScope)),
		['acme/rocket-launcher'],
		'~> a classic token without repo: public only',
	);
	const otherOwner = s.token('mike', { kind: 'fine-grained', permissions: { metadata: 'read' } });
	assert.equal(
		names(await search('repositories', 'rocket', otherOwner)),
		['acme/rocket-launcher'],
		'~> a fine-grained token of another owner: public only',
	);
	const acmeToken = s.token('mike', { kind: 'fine-grained', org: 'acme', permissions: { metadata: 'read' } });
	assert.is((await search('repositories', 'rocket', acmeToken)).body.total_count, 2, '~> a fine-grained token for acme reads it');
	const repo = await search('repositories', 'repo:acme/vault', nora);
	assert.is(repo.status, 422, '~> repo: naming a repository the caller cannot see');
	assert.match(repo.body.errors[0].message, /cannot be searched/);
});

test('repositories – qualifiers and sorting', async () => {
	assert.equal(
		names(await search('repositories', 'user:nora fork:true', nora)).sort(),
		['nora/notes', 'nora/rocket-launcher'],
		'~> user: and fork:true',
	);
	assert.equal(names(await search('repositories', 'fork:only', nora)), ['nora/rocket-launcher'], '~> fork:only');
	assert.equal(names(await search('repositories', 'org:acme is:private', olivia)), ['acme/vault'], '~> org: and is:private');
	assert.equal(
		names(await search('repositories', 'language:typescript topic:space', nora)),
		['acme/rocket-launcher'],
		'~> language: and topic:',
	);
	assert.equal(names(await search('repositories', 'stars:>=3', nora)), ['acme/rocket-launcher'], '~> stars: range');
	assert.equal(names(await search('repositories', 'stars:1..3', nora)), ['nora/notes'], '~> stars: a..b');
	assert.equal(names(await search('repositories', 'created:<2026-01-01', nora)), ['acme/rocket-launcher'], '~> created: before a date');
	assert.equal(
		names(await search('repositories', 'archived:false -user:acme', nora)),
		['nora/notes'],
		'~> archived: and a negated qualifier',
	);
	const sorted = await search('repositories', 'is:public', nora, '&sort=stars&order=asc');
	assert.equal(names(sorted), ['nora/notes', 'acme/rocket-launcher'], '~> sort=stars&order=asc');
	assert.is((await search('repositories', 'user:nobody-here', nora)).status, 422, '~> user: naming nobody: 422');
	assert.is((await search('repositories', 'stars:lots', nora)).status, 422, '~> a malformed range: 422');
});

test('repositories – renames and new descriptions are searchable at once (FTS triggers)', async () => {
	const patch = await s.request('PATCH', '/repos/nora/notes', {
		token: nora,
		body: { name: 'journal', description: 'Daily zeppelin logbook' },
	});
	assert.is(patch.status, 200);
	assert.equal(names(await search('repositories', 'zeppelin', nora)), ['nora/journal'], '~> the new description is indexed');
	assert.is((await search('repositories', 'cafe', nora)).body.total_count, 0, '~> the old one is gone');
	assert.equal(names(await search('repositories', 'journal', nora)), ['nora/journal'], '~> the new name is indexed');
});

test('issues – text, state, type, labels (quoted too), author, assignee, mentions, no:, dates', async () => {
	const text = await search('issues', 'booster', nora);
	assert.is(text.status, 200);
	assert.equal(names(text), ['Engine explodes on launch'], '~> body text');
	assert.is(text.body.search_type, 'lexical', '~> GitHub names the kind of issue search it ran');
	const item = text.body.items[0];
	assert.is(item.score, 1);
	assert.is(item.repository_url, `${s.api}/repos/acme/rocket-launcher`, '~> the issue shape of the list routes');
	assert.equal(item.labels.map((l: any) => l.name).sort(), ['bug', 'help wanted']);
	assert.equal(names(await search('issues', 'repo:acme/rocket-launcher is:closed', nora)), ['Fuel gauge wrong'], '~> is:closed');
	assert.is(
		(await search('issues', 'repo:acme/rocket-launcher state:open is:issue', nora)).body.total_count,
		2,
		'~> state:open, is:issue',
	);
	assert.is((await search('issues', 'is:pr', nora)).body.total_count, 0, '~> no pull requests');
	assert.equal(names(await search('issues', 'label:"help wanted"', nora)), ['Engine explodes on launch'], '~> a quoted label');
	assert.is((await search('issues', 'label:bug', nora)).body.total_count, 2, '~> label:');
	assert.is((await search('issues', 'label:bug label:"help wanted"', nora)).body.total_count, 1, '~> two labels: both');
	assert.is((await search('issues', 'label:bug,nothing', nora)).body.total_count, 2, '~> a list: either');
	assert.equal(names(await search('issues', 'author:nora', nora)), ['Add a countdown'], '~> author:');
	assert.equal(names(await search('issues', 'assignee:mike', nora)), ['Engine explodes on launch'], '~> assignee:');
	assert.equal(names(await search('issues', 'mentions:mike', nora)), ['Engine explodes on launch'], '~> mentions:');
	assert.equal(names(await search('issues', 'no:label repo:acme/rocket-launcher', nora)), ['Add a countdown'], '~> no:label');
	assert.is((await search('issues', 'no:assignee repo:acme/rocket-launcher', nora)).body.total_count, 2, '~> no:assignee');
	assert.is((await search('issues', 'no:milestone repo:acme/rocket-launcher', nora)).body.total_count, 3, '~> no:milestone');
	assert.is((await search('issues', 'created:>=2026-11-22 repo:acme/rocket-launcher', nora)).body.total_count, 3, '~> created:>=');
	assert.is((await search('issues', 'created:<2026-11-22', nora)).body.total_count, 0, '~> created:<');
	assert.is((await search('issues', 'closed:2026-11-01..2026-12-31', nora)).body.total_count, 1, '~> closed: a..b');
	assert.is(
		(await search('issues', 'updated:<=2026-11-22T12:00:00Z repo:acme/rocket-launcher', nora)).body.total_count,
		3,
		'~> updated: with a time',
	);
	assert.equal(names(await search('issues', 'countdown in:title', nora)), ['Add a countdown'], '~> in:title');
	assert.is((await search('issues', 'booster in:title', nora)).body.total_count, 0, '~> in:title leaves the body out');
	const sorted = await search('issues', 'repo:acme/rocket-launcher', nora, '&sort=created&order=asc');
	assert.equal(names(sorted), ['Engine explodes on launch', 'Add a countdown', 'Fuel gauge wrong'], '~> sort=created&order=asc');
});

test('issues – comments are searched too (in:comments), kept by triggers; in:title,body leaves them out; own text ranks first', async () => {
	const comment = await s.request('POST', '/repos/acme/rocket-launcher/issues/2/comments', {
		token: nora,
		body: { body: 'What about a gyroscope?' },
	});
	assert.is(comment.status, 201);
	assert.equal(names(await search('issues', 'gyroscope', nora)), ['Add a countdown'], '~> found by its comment');
	assert.equal(names(await search('issues', 'gyroscope in:comments', nora)), ['Add a countdown'], '~> in:comments');
	assert.is((await search('issues', 'gyroscope in:title,body', nora)).body.total_count, 0, '~> in:title,body leaves comments out');
	await s.request('POST', '/repos/acme/rocket-launcher/issues/1/comments', {
		token: nora,
		body: { body: 'Maybe the countdown is too short' },
	});
	assert.equal(
		names(await search('issues', 'countdown', nora)),
		['Add a countdown', 'Engine explodes on launch'],
		'~> the issue whose own text matches first',
	);
	await s.request('PATCH', `/repos/acme/rocket-launcher/issues/comments/${comment.body.id}`, {
		token: nora,
		body: { body: 'What about a compass?' },
	});
	assert.is((await search('issues', 'gyroscope', nora)).body.total_count, 0, '~> an edited comment is indexed again');
	assert.is((await search('issues', 'compass', nora)).body.total_count, 1);
	await s.request('DELETE', `/repos/acme/rocket-launcher/issues/comments/${comment.body.id}`, { token: nora });
	assert.is((await search('issues', 'compass', nora)).body.total_count, 0, '~> a deleted comment is gone');
});

test('issues – private repositories’ issues only for callers who can read them', async () => {
	assert.is((await search('issues', 'launch', nora)).body.total_count, 1, '~> an outsider: the public issue only');
	assert.is((await search('issues', 'launch')).body.total_count, 1, '~> anonymous: the same');
	const member = await search('issues', 'launch', mike);
	assert.is(member.body.total_count, 2, '~> a member: the private one too');
	assert.ok(names(member).includes('Rocket launch codes'));
	const noIssues = s.token('mike', { kind: 'fine-grained', org: 'acme', permissions: { metadata: 'read' } });
	assert.is(
		(await search('issues', 'launch', noIssues)).body.total_count,
		1,
		'~> a fine-grained token without Issues: public issues only',
	);
	const withIssues = s.token('mike', { kind: 'fine-grained', org: 'acme', permissions: { issues: 'read' } });
	assert.is((await search('issues', 'launch', withIssues)).body.total_count, 2, '~> with Issues (read): the private one too');
	assert.is((await search('issues', 'repo:acme/vault', nora)).status, 422, '~> repo: naming a hidden repository: 422');
});

test('users – text over login and name, type:, repos:, sort', async () => {
	s.app.db.prepare("UPDATE accounts SET name = 'Nora Noir' WHERE login = 'nora'").run();
	const res = await search('users', 'nor', mike);
	assert.is(res.status, 200);
	assert.equal(names(res), ['nora'], '~> login contains the text');
	assert.is(res.body.items[0].score, 1);
	assert.is(res.body.items[0].type, 'User', '~> the simple-user shape');
	assert.equal(names(await search('users', 'noir in:name')), ['nora'], '~> in:name');
	assert.is((await search('users', 'noir in:login')).body.total_count, 0, '~> in:login leaves the name out');
	assert.equal(names(await search('users', 'type:org')), ['acme'], '~> type:org');
	assert.equal(names(await search('users', 'type:user repos:>=2')), ['nora'], '~> repos: counts public repositories');
	const sorted = await search('users', 'type:user', undefined, '&sort=joined&order=asc');
	assert.equal(names(sorted), ['olivia', 'mike', 'nora'], '~> sort=joined');
	s.app.db.prepare("UPDATE accounts SET email = 'nora@example.com' WHERE login = 'nora'").run();
	assert.is((await search('users', 'example.com in:email')).body.total_count, 0, '~> a private email is not searched');
	assert.is((await search('users', 'type:robot')).status, 422, '~> an unknown type: 422');
});

test('text-match media type – text_matches with fragments and match indices', async () => {
	const TEXT_MATCH = { Accept: 'application/vnd.github.text-match+json' };
	const repos = await s.get('/search/repositories?q=launch', nora, TEXT_MATCH);
	assert.is(repos.status, 200);
	const [item] = repos.body.items;
	assert.equal(
		item.text_matches,
		[
			{
				object_url: item.url,
				object_type: 'Repository',
				property: 'name',
				fragment: 'rocket-launcher',
				matches: [{ text: 'launcher', indices: [7, 15] }],
			},
			{
				object_url: item.url,
				object_type: 'Repository',
				property: 'description',
				fragment: 'Launches rockets to the moon',
				matches: [{ text: 'Launches', indices: [0, 8] }],
			},
		],
		'~> each property with its matches; the last word as a prefix',
	);
	const issues = await s.get('/search/issues?q=booster', nora, TEXT_MATCH);
	assert.equal(
		issues.body.items[0].text_matches.map((m: any) => [m.object_type, m.property, m.matches[0].text]),
		[['Issue', 'body', 'booster']],
	);
	const users = await s.get('/search/users?q=mik', nora, TEXT_MATCH);
	assert.equal(users.body.items[0].text_matches[0].matches, [{ text: 'mike', indices: [0, 4] }]);
	assert.not.ok('text_matches' in (await search('repositories', 'launch', nora)).body.items[0], '~> only with the media type');
});

test('validation – q missing or blank: 422 missing; bad sort and order: 422; 256 characters at most', async () => {
	for (const path of ['/search/repositories', '/search/issues', '/search/users', '/search/users?q=%20%20']) {
		const res = await s.get(path, nora);
		assert.is(res.status, 422, `~> ${path}: 422`);
		assert.is(res.body.message, 'Validation Failed');
		assert.equal(res.body.errors, [{ resource: 'Search', field: 'q', code: 'missing' }], '~> GitHub’s missing item');
	}
	assert.is((await s.get('/search/repositories?q=x&sort=name', nora)).status, 422, '~> unknown sort');
	assert.is((await s.get('/search/issues?q=x&order=up', nora)).status, 422, '~> unknown order');
	assert.is((await search('users', 'x'.repeat(257), nora)).status, 422, '~> too long');
});

test('pagination – Link headers, and only the first 1000 results', async () => {
	const first = await search('issues', 'repo:acme/rocket-launcher', nora, '&per_page=2');
	assert.is(first.body.items.length, 2);
	assert.is(first.body.total_count, 3);
	assert.match(first.headers.get('link') ?? '', /page=2[^>]*>; rel="next"/, '~> a next link');
	assert.match(first.headers.get('link') ?? '', /q=repo%3Aacme%2Frocket-launcher/, '~> the query repeated');
	const second = await search('issues', 'repo:acme/rocket-launcher', nora, '&per_page=2&page=2');
	assert.is(second.body.items.length, 1);
	const beyond = await search('issues', 'launch', nora, '&per_page=100&page=11');
	assert.is(beyond.status, 422, '~> past result 1000: 422');
	assert.is(beyond.body.message, 'Only the first 1000 search results are available');
	assert.is((await search('issues', 'launch', nora, '&per_page=100&page=10')).status, 200, '~> results 901–1000 are reachable');
});

test('rate limit – search counts per minute (default 30, 10 anonymous) apart from core', async () => {
	assert.is(defaultConfig().rate_limit.limits.search, 30, '~> GitHub’s 30 a minute');
	assert.is(defaultConfig().rate_limit.limits.search_unauthenticated, 10, '~> and 10 anonymous');
	const res = await search('users', 'nora', olivia);
	assert.is(res.headers.get('x-ratelimit-resource'), 'search');
	assert.is(res.headers.get('x-ratelimit-limit'), '1000', '~> the configured limit');
	const reset = Number(res.headers.get('x-ratelimit-reset'));
	assert.ok(reset - Math.floor(s.clock.now / 1000) <= 60, '~> a one-minute window');
	const anon = await search('users', 'nora');
	assert.is(anon.headers.get('x-ratelimit-limit'), '500', '~> anonymous: search_unauthenticated');
	const core = await s.get('/user', olivia);
	assert.is(core.headers.get('x-ratelimit-resource'), 'core', '~> other routes count against core');
	// A spent search budget: 403 for searches until the minute is over; core is untouched.
	const small = await startServer({ configure: (c) => void (c.rate_limit.limits.search_unauthenticated = 2) });
	try {
		small.user('zed');
		assert.is((await small.get('/search/users?q=zed')).status, 200);
		assert.is((await small.get('/search/users?q=zed')).status, 200);
		const spent = await small.get('/search/users?q=zed');
		assert.is(spent.status, 403, '~> the third anonymous search in a minute: 403');
		assert.match(spent.body.message, /rate limit exceeded/);
		assert.is(spent.headers.get('x-ratelimit-remaining'), '0');
		assert.is((await small.get('/users/zed')).status, 200, '~> core requests go on');
		small.clock.advance(61_000);
		assert.is((await small.get('/search/users?q=zed')).status, 200, '~> a minute later: a new window');
	} finally {
		await small.close();
	}
});

test.run();
