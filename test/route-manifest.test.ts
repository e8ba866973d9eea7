/**
 * The route manifest (src/api/route-manifest.ts), from which the server builds its route table
 * without loading the route areas' modules: it must list exactly the declared routes, with their
 * areas and what the request listener reads before a handler (a text body, an upload), or this
 * fails naming the first differing line (run `npm run routes:manifest`). And the server loads an
 * area's module at the first request matching one of its routes, not at start.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ROUTE_MANIFEST } from '../src/api/route-manifest';
import { ROUTE_AREAS, routeDeclarations } from '../src/api/routes';
import { MANIFEST_FILE, manifestSource } from '../scripts/route-manifest';
import { startServer, type TestServer } from './helpers/server';

const test = suite('route manifest');

/** The source file of each area's routes module, as Node's require cache names it. */
const areaFiles = new Map(
	ROUTE_AREAS.map((area) => {
		const module = /require\(['"]\.\/([^'"]+)['"]\)/.exec(String(area.load))?.[1];
		if (!module) throw new Error(`area ${area.name}: its loader requires no module`);
		return [area.name, resolve(__dirname, '../src/api', `${module}.ts`)];
	}),
);
const loadedAreas = () => [...areaFiles].filter(([, file]) => require.cache[file] !== undefined).map(([name]) => name);

let server: TestServer;

// First, before anything here loads an area.
test('starting the server loads no route area; a request loads the area of the route it matches, and only it', async () => {
	assert.equal(loadedAreas(), [], '~> no area loaded by importing the server');
	server = await startServer();
	assert.equal(loadedAreas(), [], '~> no area loaded at start');
	assert.is((await fetch(`${server.origin}/healthz`)).status, 200);
	assert.equal(loadedAreas(), [], '~> none by a health check');
	server.user('mona');
	const token = server.fullToken('mona');
	server.org('octo', 'mona');
	const teams = await server.get('/orgs/octo/teams', token);
	assert.is(teams.status, 200);
	assert.equal(teams.body, []);
	assert.equal(loadedAreas(), ['teams'], '~> the teams area only');
	// A route whose body the listener reads as text (textBody), in an area not loaded yet.
	const raw = await server.request('POST', '/markdown/raw', { token, raw: '**bold**', headers: { 'Content-Type': 'text/plain' } });
	assert.is(raw.status, 200);
	assert.is(raw.text.trim(), '<p dir="auto"><strong>bold</strong></p>', '~> the body read as text, not JSON');
	assert.equal(loadedAreas().sort(), ['markdown', 'teams']);
	// A path no route matches loads nothing.
	assert.is((await server.get('/no/such/route', token)).status, 404);
	assert.equal(loadedAreas().sort(), ['markdown', 'teams']);
	await server.close();
});

test('src/api/route-manifest.ts lists the declared routes as generated (npm run routes:manifest)', () => {
	const have = readFileSync(MANIFEST_FILE, 'utf8');
	const want = manifestSource();
	if (have === want) return;
	const haveLines = have.split('\n');
	const wantLines = want.split('\n');
	const line = haveLines.findIndex((text, i) => text !== wantLines[i]);
	assert.unreachable(
		`~> src/api/route-manifest.ts differs from the declared routes at line ${line + 1}:\n  manifest: ${haveLines[line]}\n  expected: ${wantLines[line]}\nrun npm run routes:manifest`,
	);
});

test('one manifest entry per declared route, in route-table order, with its area and what the listener reads', () => {
	const declared = routeDeclarations();
	assert.is(ROUTE_MANIFEST.length, declared.length);
	const names = new Set(ROUTE_AREAS.map((area) => area.name));
	assert.is(names.size, ROUTE_AREAS.length, '~> area names are unique');
	ROUTE_MANIFEST.forEach(([method, path, area, reads], i) => {
		const declaration = declared[i];
		assert.is(`${method} ${path}`, `${declaration.method} ${declaration.path}`);
		assert.ok(names.has(area), `~> ${method} ${path}: area ${area}`);
		const own = ROUTE_AREAS.find((candidate) => candidate.name === area)!.load();
		assert.ok(own.includes(declaration), `~> ${method} ${path} is declared by area ${area}`);
		assert.is(reads === 'textBody', declaration.textBody === true, `~> ${method} ${path}: textBody`);
		assert.is(reads === 'upload', declaration.upload !== undefined, `~> ${method} ${path}: upload`);
	});
	assert.ok(ROUTE_MANIFEST.some(([, , , reads]) => reads === 'textBody'));
	assert.ok(ROUTE_MANIFEST.some(([, , , reads]) => reads === 'upload'));
});

test.run();
