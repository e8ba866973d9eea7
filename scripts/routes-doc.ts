/**
 * `npm run routes:doc`: rewrites the route table in docs/ROUTES.md (between its routes markers) from
 * the route table (src/cli/routes.ts routesDocSection). test/routes-table.test.ts fails while
 * docs/ROUTES.md differs.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { routeRows, routesDocSection, withRoutesTable } from '../src/cli/routes';
import { buildRoutes } from '../src/server';

const file = resolve(__dirname, '../docs/ROUTES.md');
const before = readFileSync(file, 'utf8');
const after = withRoutesTable(before, routesDocSection(routeRows(buildRoutes())));
if (after === before) process.stdout.write('docs/ROUTES.md: the route table is up to date\n');
else {
	writeFileSync(file, after);
	process.stdout.write(`docs/ROUTES.md: route table rewritten (${buildRoutes().length} routes)\n`);
}
