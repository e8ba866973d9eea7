/**
 * Route-table-driven fuzzing with fast-check: every route gets malformed path parameters, query
 * values and bodies (wrong types, huge strings, deep nesting, arrays where objects go, invalid
 * UTF-8). Whatever comes in: no 5xx, an error body in GitHub's shape, no write committed by a
 * request that was refused, and the server keeps answering. Bounded by runs and by time.
 */
import { join } from 'node:path';
import fc from 'fast-check';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openDatabase, type DB } from '../src/db/open';
import type { Route } from '../src/http/route';
import { buildRoutes } from '../src/server';
import { startServer, type TestServer } from './helpers/server';
import { indexIssuesPending } from '../src/api/search/issue-index';

const test = suite('fuzz');
let s: TestServer;
let tokens: Array<string | undefined>;
/** A second connection: its data_version changes exactly when the server commits. */
let watcher: DB;
const routes = buildRoutes();

/** Runs per route, and a time limit for the whole walk (ms): `npm test` stays fast. */
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 30);
const TIME_LIMIT_MS = Number(process.env.FUZZ_MS ?? 40_000);

const VALID: Record<string, string> = { org: 'acme', owner: 'acme', repo: 'app', team_slug: 'crew', username: 'mike', enterprise: 'bigco' };
/** Routes that destroy their organization: fuzzed on a scratch organization, so acme stays. */
const SCRATCH_ORG: Record<string, string> = { 'DELETE /orgs/{org}': 'scratch' };

test.before(async () => {
	// The rate limit would turn most anonymous requests into 403s before they reach the code under test.
	s = await startServer({ configure: (config) => void (config.rate_limit.enabled = false) });
	s.user('olivia', { siteAdmin: true });
	s.user('mike');
	s.enterprise('bigco', 'olivia');
	s.org('acme', 'olivia', { enterprise: 'bigco' });
	s.member('acme', 'mike');
	s.org('scratch', 'olivia');
	const owner = s.fullToken('olivia');
	await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name: 'app' } });
	await s.request('POST', '/orgs/acme/teams', { token: owner, body: { name: 'Crew', privacy: 'closed' } });
	await s.request('POST', '/repos/acme/app/issues', { token: owner, body: { title: 'First' } });
	tokens = [owner, s.fullToken('mike'), undefined];
	watcher = openDatabase(join(s.dataDir, 'gitstead.db'), { readonly: true });
});
test.after(async () => {
	watcher.close();
	await s.close();
});

// ----- arbitraries

/** Lone surrogates replaced, so the text can be percent-encoded (the server gets U+FFFD). */
const wellFormed = (text: string) => text.replace(/[\ud800-\udfff]/g, '\ufffd');

const huge = fc.integer({ min: 10_000, max: 200_000 }).map((n) => 'x'.repeat(n));
const oddText = fc.oneof(
	fc.string({ maxLength: 40 }),
	fc.string({ unit: 'grapheme', maxLength: 20 }),
	fc.constantFrom(
		'__proto__',
		'constructor',
		'prototype',
		'%00',
		'..',
		'%2F..%2F',
		"'; DROP TABLE accounts;--",
		'\u0000',
		'\ud800',
		'-1',
		'1e308',
		'NaN',
		'9'.repeat(30),
	),
	huge.map((text) => text.slice(0, 3000)),
);
/** JSON nested `depth` levels deep, as objects or arrays. */
const deep = fc
	.tuple(fc.integer({ min: 50, max: 20_000 }), fc.boolean())
	.map(([depth, arrays]) => (arrays ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`));
const jsonValue = fc.oneof(
	fc.constant(null),
	fc.boolean(),
	fc.double(),
	fc.integer(),
	fc.string({ maxLength: 30 }),
	huge,
	fc.array(fc.string({ maxLength: 5 }), { maxLength: 5 }),
	fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.constant(null)), { maxKeys: 4 }),
);

/** A body for a route: its own field names with wrong values, arrays, junk, deep nesting, invalid UTF-8. */
function bodyFor(route: Route): fc.Arbitrary<{ raw: string | Uint8Array }> {
	const fields = Object.keys((route.body as { entries?: object } | undefined)?.entries ?? {});
	const known = fields.length
		? fc.dictionary(fc.constantFrom(...fields), jsonValue, { maxKeys: fields.length })
		: fc.dictionary(fc.string({ maxLength: 8 }), jsonValue, { maxKeys: 3 });
	return fc.oneof(
		known.map((body) => ({ raw: JSON.stringify(body) })),
		fc.anything({ maxDepth: 4 }).map((value) => ({ raw: JSON.stringify(value) ?? 'null' })),
		fc.array(known, { maxLength: 3 }).map((value) => ({ raw: JSON.stringify(value) })),
		deep.map((raw) => ({ raw })),
		deep.map((raw) => ({ raw: `{"${fields[0] ?? 'name'}":${raw}}` })),
		fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => ({ raw: Uint8Array.from([0x7b, 0x22, 0xff, 0xfe, ...bytes]) })),
		fc.string({ maxLength: 50 }).map((raw) => ({ raw })),
	);
}

/** A query string with the route's own parameter names (and others), odd values. */
function queryFor(route: Route): fc.Arbitrary<string> {
	const names = [...route.queryKeys, 'q', 'sort[]', '__proto__'];
	return fc
		.array(fc.tuple(fc.constantFrom(...names), oddText), { maxLength: 4 })
		.map((pairs) =>
			pairs.length ? `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(wellFormed(v))}`).join('&')}` : '',
		);
}

/** The route's path with valid fixtures or odd values in its parameters. */
function pathFor(route: Route): fc.Arbitrary<string> {
	const names = [...route.path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]);
	// Broken percent-escapes go in as they are; everything else is encoded (lone surrogates made well-formed).
	const broken = fc.constantFrom('%ZZ', '%C0%80', '%E0%A4%A', '%', '%00%FF').map((raw) => ({ raw }));
	return fc.array(fc.oneof(fc.constant(null), oddText, broken), { minLength: names.length, maxLength: names.length }).map((values) => {
		let i = 0;
		return route.path
			.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
				const value = values[i++];
				if (value !== null && typeof value === 'object') return value.raw;
				const valid = name === 'org' ? (SCRATCH_ORG[`${route.method} ${route.path}`] ?? VALID.org) : VALID[name];
				return encodeURIComponent(wellFormed(value ?? valid ?? '1'));
			})
			.replace(/\*\??$/, 'heads/main');
	});
}

test('the watcher sees a commit of the server (so the no-write check below can fail)', async () => {
	const before = watcher.pragma('data_version', { simple: true });
	assert.is((await s.request('POST', '/repos/acme/app/issues', { token: tokens[0], body: { title: 'Second' } })).status, 201);
	assert.is.not(watcher.pragma('data_version', { simple: true }), before);
});

test('every route × fuzzed parameters, queries and bodies: no 5xx, GitHub error bodies, no write from a refused request', async () => {
	const started = Date.now();
	let requests = 0;
	for (const route of routes) {
		// Stop with time to spare: a route given only a sliver of the budget would be interrupted
		// before its first run, which fast-check reports as a failure (seen on a loaded machine).
		if (TIME_LIMIT_MS - (Date.now() - started) < 2_000) break;
		const write = route.method !== 'GET';
		await fc.assert(
			fc.asyncProperty(
				pathFor(route),
				queryFor(route),
				write ? bodyFor(route) : fc.constant({ raw: '' }),
				fc.constantFrom(...tokens),
				async (path, query, body, token) => {
					// An issue written by an earlier request is indexed for search a moment later (its
					// own commit): index it now, so only this request can move the data version.
					indexIssuesPending(s.app);
					const before = watcher.pragma('data_version', { simple: true });
					const headers: Record<string, string> = { 'Content-Type': 'application/json' };
					if (token) headers.Authorization = `Bearer ${token}`;
					const res = await fetch(`${s.api}${path}${query}`, {
						method: route.method,
						headers,
						body: write ? (body.raw as string | Uint8Array<ArrayBuffer>) : undefined,
						redirect: 'manual',
					});
					const text = await res.text();
					requests++;
					const id = `${route.method} ${path.slice(0, 80)}${query.slice(0, 40)}`;
					assert.ok(res.status < 500, `~> ${id} answered ${res.status}: ${text.slice(0, 300)}`);
					if (res.status >= 400) {
						const parsed = text ? JSON.parse(text) : {};
						assert.type(parsed.message, 'string', `~> ${id} error body has a message`);
						assert.ok(!/\n\s+at /.test(text), `~> ${id} no stack trace in the answer`);
					}
					if (res.status >= 400) {
						const after = watcher.pragma('data_version', { simple: true });
						assert.is(after, before, `~> ${id} was refused (${res.status}) but committed a write`);
					}
				},
			),
			{
				numRuns: RUNS_PER_ROUTE,
				interruptAfterTimeLimit: Math.max(1, TIME_LIMIT_MS - (Date.now() - started)),
				seed: Number(process.env.FUZZ_SEED ?? 42),
			},
		);
	}
	assert.ok(requests >= Math.min(routes.length * RUNS_PER_ROUTE, 1000), `~> ${requests} requests`);
	assert.is((await s.get('/meta')).status, 200, '~> still serving');
	assert.is((await s.get('/repos/acme/app/issues', tokens[0])).status, 200);
});

test.run();
