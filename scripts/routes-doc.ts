/**
 * `npm run routes:doc`: rewrites the route table in docs/ROUTES.md (between its routes markers) from
 * the route table (src/cli/routes.ts routesDocSection), and the route manifest the server builds its
 * table from (src/api/route-manifest.ts, scripts/route-manifest.ts). test/routes-table.test.ts fails
 * while docs/ROUTES.md differs, test/route-manifest.test.ts while the manifest does.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { routeRows, routesDocSection, withRoutesTable } from '../src/cli/routes';
import { buildRoutes } from '../src/server';
import { MANIFEST_FILE, manifestSource } from './route-manifest';

const file = resolve(__dirname, '../docs/ROUTES.md');
const before = readFileSync(file, 'utf8');
const after = withRoutesTable(before, routesDocSection(routeRows(buildRoutes())));
if (after === before) process.stdout.write('docs/ROUTES.md: the route table is up to date\n');
else {
	writeFileSync(file, after);
	process.stdout.write(`docs/ROUTES.md: route table rewritten (${buildRoutes().length} routes)\n`);
}
const manifest = manifestSource();
if (manifest === readFileSync(MANIFEST_FILE, 'utf8')) process.stdout.write('src/api/route-manifest.ts: up to date\n');
else {
	writeFileSync(MANIFEST_FILE, manifest);
	process.stdout.write('src/api/route-manifest.ts: rewritten\n');
}
