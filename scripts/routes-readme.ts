/**
 * `npm run routes:readme`: rewrites the route table in README.md (between its routes markers) from
 * the route table (src/cli/routes.ts routesReadmeSection). test/routes-table.test.ts fails while
 * README differs.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { routeRows, routesReadmeSection, withRoutesTable } from '../src/cli/routes';
import { buildRoutes } from '../src/server';

const file = resolve(__dirname, '../README.md');
const before = readFileSync(file, 'utf8');
const after = withRoutesTable(before, routesReadmeSection(routeRows(buildRoutes())));
if (after === before) process.stdout.write('README.md: the route table is up to date\n');
else {
	writeFileSync(file, after);
	process.stdout.write(`README.md: route table rewritten (${buildRoutes().length} routes)\n`);
}
