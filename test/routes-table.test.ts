/**
 * docs/ROUTES.md's route table is generated from the route table (src/cli/routes.ts): this fails,
 * naming the first differing line, while docs/ROUTES.md differs from what `npm run routes:doc`
 * writes. After adding or changing routes, run `npm run routes:doc`.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { routeRows, routesMarkdown, routesDocSection, withRoutesTable } from '../src/cli/routes';
import { resolveRoute, resolveRouteNow } from '../src/http/route';
import { buildRoutes } from '../src/server';

const test = suite('routes table');
const routes = buildRoutes();

test('every route resolves: its policy derived at its first read, once, and kept on the route', () => {
	for (const route of buildRoutes()) {
		assert.not.ok(Object.hasOwn(route, 'policy'), `~> ${route.method} ${route.path}: derived before its first read`);
		assert.is(resolveRouteNow(route), route);
		assert.ok(Object.hasOwn(route, 'policy'), `~> ${route.method} ${route.path}: derived`);
		assert.ok(Array.isArray(route.policy) && route.tokenKinds.size > 0, `~> ${route.method} ${route.path}: policy and token kinds`);
		const { acceptedScopes } = route;
		assert.is(route.acceptedScopes, acceptedScopes, '~> derived once');
	}
	// A declaration naming a matrix row that does not exist throws at its first read (and in the check above).
	const typo = resolveRoute(
		{
			method: 'GET',
			path: '/no/such/row',
			docs: 'x#y',
			permissions: 'matrix',
			access: 'public',
			resource: 'none',
			handler: () => ({ status: 204 }) as never,
		},
		'https://docs.github.com/rest',
	);
	assert.is(typo.path, '/no/such/row');
	assert.throws(() => typo.policy, /permission matrix has no row "GET \/no\/such\/row"/);
});

test('docs/ROUTES.md carries the route table as generated (npm run routes:doc)', () => {
	const doc = readFileSync(resolve(__dirname, '../docs/ROUTES.md'), 'utf8');
	const expected = withRoutesTable(doc, routesDocSection(routeRows(routes)));
	if (expected === doc) return;
	const have = doc.split('\n');
	const want = expected.split('\n');
	const line = have.findIndex((text, i) => text !== want[i]);
	assert.unreachable(
		`~> docs/ROUTES.md's route table differs from the route table at line ${line + 1}:\n  docs/ROUTES.md: ${have[line]}\n  expected:       ${want[line]}\nrun npm run routes:doc`,
	);
});

test('the Markdown table has one row per route, in route-table order, with its permissions', () => {
	const rows = routeRows(routes);
	const lines = routesMarkdown(rows).trimEnd().split('\n');
	assert.is(lines.length, routes.length + 2, '~> a header, a rule and one row per route');
	routes.forEach((route, i) => {
		const cells = lines[i + 2].split(/(?<!\\)\|/).map((cell) => cell.trim());
		assert.is(cells[2], route.method, `~> row ${i + 1}: the method`);
		assert.ok(cells[3].includes(`\`${route.path}\``), `~> row ${i + 1}: the path ${route.path}`);
		assert.is(
			cells[4].replace(/\\\|/g, '|'),
			route.acceptedPermissionsHeader || '–',
			`~> ${route.method} ${route.path}: the permissions`,
		);
		assert.is(cells[7], route.access, `~> ${route.method} ${route.path}: the access`);
	});
});

test.run();
