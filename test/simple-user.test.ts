/**
 * The simple user (src/model/render.ts) is made once per account and origin and shared: the same
 * frozen object while the account's login, type and site_admin stay; a new one when any changes or
 * under another origin; and every field as GitHub shows it.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { simpleUser } from '../src/model/render';
import type { AccountRow } from '../src/model/rows';
import { Urls } from '../src/model/urls';

const test = suite('simple-user');

const urls = new Urls('http://127.0.0.1:8080', 'http://127.0.0.1:8080/api/v3');
const octo: Pick<AccountRow, 'id' | 'login' | 'type' | 'site_admin'> = { id: 7, login: 'octo', type: 'User', site_admin: 0 };

test('GitHub simple-user fields, built from the origin', () => {
	assert.equal(simpleUser(urls, octo), {
		login: 'octo',
		id: 7,
		node_id: 'MDQ6VXNlcjc=',
		avatar_url: 'http://127.0.0.1:8080/avatars/u/7',
		gravatar_id: '',
		url: 'http://127.0.0.1:8080/api/v3/users/octo',
		html_url: 'http://127.0.0.1:8080/octo',
		followers_url: 'http://127.0.0.1:8080/api/v3/users/octo/followers',
		following_url: 'http://127.0.0.1:8080/api/v3/users/octo/following{/other_user}',
		gists_url: 'http://127.0.0.1:8080/api/v3/users/octo/gists{/gist_id}',
		starred_url: 'http://127.0.0.1:8080/api/v3/users/octo/starred{/owner}{/repo}',
		subscriptions_url: 'http://127.0.0.1:8080/api/v3/users/octo/subscriptions',
		organizations_url: 'http://127.0.0.1:8080/api/v3/users/octo/orgs',
		repos_url: 'http://127.0.0.1:8080/api/v3/users/octo/repos',
		events_url: 'http://127.0.0.1:8080/api/v3/users/octo/events{/privacy}',
		received_events_url: 'http://127.0.0.1:8080/api/v3/users/octo/received_events',
		type: 'User',
		site_admin: false,
	});
});

test('one shared, frozen object while the account stays the same', () => {
	const first = simpleUser(urls, octo);
	assert.is(simpleUser(urls, { ...octo }), first);
	assert.ok(Object.isFrozen(first));
	assert.throws(() => {
		(first as { login: string }).login = 'changed';
	}, TypeError);
	// Callers that add fields copy it.
	const withDate = { ...first, starred_at: '2026-01-01T00:00:00Z' };
	assert.is(withDate.login, 'octo');
	assert.not.ok('starred_at' in simpleUser(urls, octo));
});

test('a renamed account, a changed type or site_admin, or another origin gets its own', () => {
	const first = simpleUser(urls, octo);
	const renamed = simpleUser(urls, { ...octo, login: 'octo-renamed' });
	assert.is.not(renamed, first);
	assert.is(renamed.url, 'http://127.0.0.1:8080/api/v3/users/octo-renamed');
	assert.is(simpleUser(urls, { ...octo, login: 'octo-renamed', site_admin: 1 }).site_admin, true);
	const org = simpleUser(urls, { ...octo, type: 'Organization' });
	assert.is(org.type, 'Organization');
	assert.is(org.node_id, 'MDEyOk9yZ2FuaXphdGlvbjc=');
	const proxied = new Urls('https://git.example.com', 'https://git.example.com/api/v3');
	assert.is(simpleUser(proxied, octo).html_url, 'https://git.example.com/octo');
	assert.is(simpleUser(urls, octo).html_url, 'http://127.0.0.1:8080/octo');
});

test.run();
