/**
 * Run as a script in a fresh process (test/route-manifest.test.ts: `node -r tsx/cjs
 * test/helpers/area-loading.ts`), where no test file has loaded a route area yet: starts a server
 * and prints, as one JSON object, the route areas whose modules are loaded after each step (a
 * start, a health check, a request to a route of the teams area, one to POST /markdown/raw with a
 * text body, one to an unknown path) and the status and body of those requests.
 */
import { resolve } from 'node:path';
import { ROUTE_AREAS } from '../../src/api/routes';
import { startServer } from './server';

/** The source file of each area's routes module, as Node's require cache names it. */
const areaFiles = new Map(
	ROUTE_AREAS.map((area) => {
		const module = /require\(['"]\.\/([^'"]+)['"]\)/.exec(String(area.load))?.[1];
		if (!module) throw new Error(`area ${area.name}: its loader requires no module`);
		return [area.name, resolve(__dirname, '../../src/api', `${module}.ts`)];
	}),
);
const loadedAreas = () => [...areaFiles].filter(([, file]) => require.cache[file] !== undefined).map(([name]) => name);

async function main(): Promise<void> {
	const steps: Record<string, unknown> = { imported: loadedAreas() };
	const server = await startServer();
	try {
		steps.started = loadedAreas();
		steps.healthz = (await fetch(`${server.origin}/healthz`)).status;
		steps.afterHealthz = loadedAreas();
		server.user('mona');
		const token = server.fullToken('mona');
		server.org('octo', 'mona');
		const teams = await server.get('/orgs/octo/teams', token);
		steps.teams = [teams.status, teams.body];
		steps.afterTeams = loadedAreas();
		const raw = await server.request('POST', '/markdown/raw', { token, raw: '**bold**', headers: { 'Content-Type': 'text/plain' } });
		steps.markdown = [raw.status, raw.text.trim()];
		steps.afterMarkdown = loadedAreas();
		steps.unknown = (await server.get('/no/such/route', token)).status;
		steps.afterUnknown = loadedAreas();
	} finally {
		await server.close();
	}
	process.stdout.write(`${JSON.stringify(steps)}\n`);
}

main().catch((error: unknown) => {
	process.stderr.write(`${String((error as Error).stack ?? error)}\n`);
	process.exit(1);
});
