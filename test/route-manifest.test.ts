/**
 * The route manifest (src/api/route-manifest.ts), from which the server builds its route table
 * without loading the route areas' modules: it must list exactly the declared routes, with their
 * areas and what the request listener reads before a handler (a text body, an upload), or this
 * fails naming the first differing line (run `npm run routes:manifest`). And the server loads an
 * area's module at the first request matching one of its routes, not at start.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ROUTE_MANIFEST } from '../src/api/route-manifest';
import { ROUTE_AREAS, routeDeclarations } from '../src/api/routes';
import { MANIFEST_FILE, manifestSource } from '../scripts/route-manifest';

const test = suite('route manifest');

test('starting the server loads no route area; a request loads the area of the route it matches, and only it', () => {
	// In a fresh process: the test runner's workers keep the modules earlier test files loaded.
	const out = execFileSync(process.execPath, ['-r', 'tsx/cjs', resolve(__dirname, 'helpers/area-loading.ts')], {
		cwd: resolve(__dirname, '..'),
		encoding: 'utf8',
	});
	const steps = JSON.parse(out);
	assert.equal(steps.imported, [], '~> no area loaded by importing the server');
	assert.equal(steps.started, [], '~> no area loaded at start');
	assert.is(steps.healthz, 200);
	assert.equal(steps.afterHealthz, [], '~> none by a health check');
	assert.equal(steps.teams, [200, []]);
	assert.equal(steps.afterTeams, ['teams'], '~> the teams area only');
	// A route whose body the listener reads as text (textBody), in an area not loaded yet.
	assert.equal(steps.markdown, [200, '<p dir="auto"><strong>bold</strong></p>'], '~> the body read as text, not JSON');
	assert.equal(steps.afterMarkdown, ['teams', 'markdown']);
	// A path no route matches loads nothing.
	assert.is(steps.unknown, 404);
	assert.equal(steps.afterUnknown, ['teams', 'markdown']);
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
