/**
 * The source tree's shape (docs/ARCHITECTURE.md, Layers): no import cycles, type imports included,
 * and imports flow one way — cli → server → api areas → http/auth → model → db. The composition root
 * (src/compose.ts) is imported only by the command line. The web interface (src/web) imports no
 * REST route file and no database module, and holds no SQL. Inside the feature folders: stores
 * import no service, route or render file; domain services import nothing of src/http; events and
 * webhooks import no route file; db, model, auth and http import no feature folder at all; no two
 * feature folders (nor events, webhooks, jobs, auth, http) depend on each other both ways, beyond an
 * allow-list that says why and only shrinks. A route handler parses, calls one service and renders:
 * no handler body is longer than 40 lines.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import madge from 'madge';
import { readdirSync, readFileSync } from 'node:fs';
import ts from 'typescript';

const test = suite('architecture');
const SRC = `${__dirname}/../src`;

test('src has no import cycles (type imports included)', async () => {
	const graph = await madge(SRC, { fileExtensions: ['ts', 'tsx'] });
	const cycles = graph.circular();
	assert.equal(cycles, [], `~> cycles: ${cycles.map((c) => c.join(' > ')).join('; ')}`);
});

test('imports flow one way: db below model below http/auth below api areas below server and cli', async () => {
	// Value imports only: a lower layer may name a higher layer's types (the App shape), never run its code.
	const graph = await madge(SRC, { fileExtensions: ['ts', 'tsx'], detectiveOptions: { ts: { skipTypeImports: true } } });
	const layer = (file: string): number => {
		if (
			file.startsWith('db/') ||
			file === 'time.ts' ||
			file === 'memory.ts' ||
			file === 'log.ts' ||
			file === 'build-info.ts' ||
			file === 'config.ts'
		)
			return 0;
		if (file.startsWith('model/')) return 0.5;
		if (file.startsWith('http/') || file.startsWith('auth/')) return 1;
		if (
			file.startsWith('api/') ||
			file.startsWith('events/') ||
			file.startsWith('webhooks/') ||
			file.startsWith('jobs/') ||
			file.startsWith('web/') ||
			file === 'app.ts'
		)
			return 2;
		if (file === 'server.ts' || file === 'compose.ts') return 3;
		return 4; // cli/, main.ts
	};
	const upward: string[] = [];
	for (const [file, imports] of Object.entries(graph.obj())) {
		for (const imported of imports) if (layer(imported) > layer(file)) upward.push(`${file} → ${imported}`);
	}
	assert.equal(upward, [], `~> upward imports: ${upward.join(', ')}`);
	// The web interface is a front end: it calls services, stores and renderers, never REST route files.
	const routeImports = Object.entries(graph.obj()).flatMap(([file, imports]) =>
		file.startsWith('web/')
			? imports.filter((imported) => /^api\/.*routes\.ts$/.test(imported)).map((imported) => `${file} → ${imported}`)
			: [],
	);
	assert.equal(routeImports, [], `~> web pages importing route files: ${routeImports.join(', ')}`);
	// …and runs no SQL of its own: no import of the database layer, no statement in its source.
	const dbImports = Object.entries(graph.obj()).flatMap(([file, imports]) =>
		file.startsWith('web/') ? imports.filter((imported) => imported.startsWith('db/')).map((imported) => `${file} → ${imported}`) : [],
	);
	assert.equal(dbImports, [], `~> web pages importing the database layer: ${dbImports.join(', ')}`);
	const withSql = Object.keys(graph.obj()).filter(
		(file) =>
			file.startsWith('web/') &&
			/\.prepare\(|\.exec\(\s*[`'"]|\b(SELECT|INSERT INTO|UPDATE \w+ SET|DELETE FROM)\b/.test(readFileSync(`${SRC}/${file}`, 'utf8')),
	);
	assert.equal(withSql, [], `~> web pages with SQL of their own: ${withSql.join(', ')}`);
	const roots = Object.entries(graph.obj())
		.filter(([, imports]) => imports.includes('compose.ts'))
		.map(([file]) => file);
	assert.ok(
		roots.every((file) => file.startsWith('cli/') || file === 'main.ts'),
		`~> compose.ts imported by ${roots.join(', ')}`,
	);
});

let importsRead: Promise<Array<[string, string]>> | undefined;

/** Every import of src, type imports included (a type import still couples the layers); read once for the tests below. */
function allImports(): Promise<Array<[string, string]>> {
	importsRead ??= madge(SRC, { fileExtensions: ['ts', 'tsx'] }).then((graph) =>
		Object.entries(graph.obj()).flatMap(([file, imports]) => imports.map((imported): [string, string] => [file, imported])),
	);
	return importsRead;
}

/** A store of a feature folder (src/api/<area>/store.ts or <name>-store.ts): SQL only. */
const isStore = (file: string) => /^api\/[^/]+\/(store|[\w-]+-store)\.ts$/.test(file);
/** A domain service of a feature folder: the use cases (service.ts, workflows.ts, <name>-service.ts). */
const isService = (file: string) => /^api\/[^/]+\/(service|workflows|[\w-]+-service)\.ts$/.test(file);
/** A feature folder's route declarations. */
const isRoutes = (file: string) => /^api\/.*(\/routes|-routes)\.ts$/.test(file);
/** A feature folder's service, route or render file (what a store must not reach). */
const isAboveStore = (file: string) => file.startsWith('api/') && /(\/|-)(service|workflows|routes|render)\.ts$/.test(file);

test('stores import no service, route or render file of a feature folder', async () => {
	// The model layer (row types, shared shapes, Markdown) is below the stores and open to them.
	const bad = (await allImports()).filter(([file, imported]) => isStore(file) && isAboveStore(imported));
	assert.equal(bad, [], `~> ${bad.map(([f, i]) => `${f} → ${i}`).join(', ')}`);
});

test('domain services import nothing of src/http: they run outside a request', async () => {
	// feeds/service.ts answers a cached page (a Reply) for the routes; it is a read helper, not a use case.
	const allowed = new Set(['api/feeds/service.ts']);
	const bad = (await allImports()).filter(([file, imported]) => isService(file) && !allowed.has(file) && imported.startsWith('http/'));
	assert.equal(bad, [], `~> ${bad.map(([f, i]) => `${f} → ${i}`).join(', ')}`);
});

test('events and webhooks import no route file of a feature folder', async () => {
	const bad = (await allImports()).filter(
		([file, imported]) => (file.startsWith('events/') || file.startsWith('webhooks/')) && isRoutes(imported),
	);
	assert.equal(bad, [], `~> ${bad.map(([f, i]) => `${f} → ${i}`).join(', ')}`);
});

test('GraphQL resolvers import no REST route file: access comes from shared declarations, reads from stores and services', async () => {
	const bad = (await allImports()).filter(
		([file, imported]) => file.startsWith('api/graphql/') && file !== 'api/graphql/routes.ts' && isRoutes(imported),
	);
	assert.equal(bad, [], `~> ${bad.map(([f, i]) => `${f} → ${i}`).join(', ')}`);
});

test('no front end replays another: GraphQL and the git transport admit with policies and never run a route handler', () => {
	const frontEnds = ['api/graphql', 'api/git'].flatMap((dir) =>
		readdirSync(`${SRC}/${dir}`)
			.filter((name) => name.endsWith('.ts'))
			.map((name) => `${dir}/${name}`),
	);
	const bad = frontEnds.filter((file) => /\.handler\(|\brunRoute\b|http\/dispatch/.test(readFileSync(`${SRC}/${file}`, 'utf8')));
	assert.equal(bad, [], `~> ${bad.join(', ')}`);
});

test('lower layers (db, model, auth, http) import no feature folder, type imports included', async () => {
	const bad = (await allImports()).filter(([file, imported]) => /^(db|model|auth|http)\//.test(file) && imported.startsWith('api/'));
	assert.equal(bad, [], `~> ${bad.map(([f, i]) => `${f} → ${i}`).join(', ')}`);
});

/** The folder a file belongs to for the no-cycles rule: its feature folder (api/<area>), or events, webhooks, jobs, auth, http. */
function folderOf(file: string): string | null {
	const feature = /^api\/([^/]+)\//.exec(file);
	if (feature) return `api/${feature[1]}`;
	const lower = /^(events|webhooks|jobs|auth|http)\//.exec(file);
	return lower ? lower[1] : null;
}

/**
 * Two-way dependencies still there, each with its reason; the rule fails on any other pair, and on
 * a pair listed here that is gone (so the list only shrinks).
 */
const TWO_WAY_ALLOWED: Record<string, string> = {
	'api/issues <-> api/pulls':
		'a pull request is an issue: issue events hand pull requests to pulls/events.ts, and pulls reuse the issue scope and recorders',
};

test('no two-way dependency between feature folders (or events, webhooks, jobs, auth, http) beyond the listed ones', async () => {
	const edges = new Set<string>();
	for (const [file, imported] of await allImports()) {
		const from = folderOf(file);
		const to = folderOf(imported);
		if (from && to && from !== to) edges.add(`${from} -> ${to}`);
	}
	const pairs: string[] = [];
	for (const edge of edges) {
		const [a, b] = edge.split(' -> ');
		if (a < b && edges.has(`${b} -> ${a}`)) pairs.push(`${a} <-> ${b}`);
	}
	const unexpected = pairs.filter((pair) => !(pair in TWO_WAY_ALLOWED));
	assert.equal(unexpected, [], `~> new two-way dependencies: ${unexpected.join('; ')}`);
	const gone = Object.keys(TWO_WAY_ALLOWED).filter((pair) => !pairs.includes(pair));
	assert.equal(gone, [], `~> no longer two-way, take them off TWO_WAY_ALLOWED: ${gone.join('; ')}`);
});

/** The longest a route handler's body may be, in lines between its braces (or of its expression). */
const MAX_HANDLER_LINES = 40;

/**
 * Handlers still longer than MAX_HANDLER_LINES (file, method and path), each with its reason; the
 * rule fails on any other, and on one listed here that is short enough now (so the list only shrinks).
 */
const LONG_HANDLERS_ALLOWED: Record<string, string> = {};

/** The route files of src: routes.ts, routes-*.ts and <name>-routes.ts, in any folder. */
function routeFiles(dir = SRC, prefix = ''): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = `${prefix}${entry.name}`;
		if (entry.isDirectory()) return routeFiles(`${dir}/${entry.name}`, `${path}/`);
		return /^(routes[\w-]*|[\w-]+-routes)\.ts$/.test(entry.name) ? [path] : [];
	});
}

/**
 * The handler of every route declaration (a `handler` of an object literal, inline or a function
 * of the same file that it names) with the lines of its body: `file METHOD path` (file:line when the
 * method or path is computed) → lines.
 */
function handlerLengths(): Map<string, number> {
	const lengths = new Map<string, number>();
	for (const file of routeFiles()) {
		const source = ts.createSourceFile(file, readFileSync(`${SRC}/${file}`, 'utf8'), ts.ScriptTarget.Latest, true);
		const line = (position: number) => source.getLineAndCharacterOfPosition(position).line;
		const functions = new Map<string, ts.Node>();
		const collect = (node: ts.Node): void => {
			if (ts.isFunctionDeclaration(node) && node.name && node.body) functions.set(node.name.text, node.body);
			if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
				const init = node.initializer;
				if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) functions.set(node.name.text, init.body);
			}
			ts.forEachChild(node, collect);
		};
		collect(source);
		const visit = (node: ts.Node): void => {
			if ((ts.isMethodDeclaration(node) || ts.isPropertyAssignment(node)) && node.name.getText(source) === 'handler') {
				let fn: ts.Node = ts.isMethodDeclaration(node) ? node : node.initializer;
				while (ts.isAsExpression(fn) || ts.isParenthesizedExpression(fn)) fn = fn.expression;
				let body: ts.Node | undefined = fn;
				if (ts.isMethodDeclaration(fn) || ts.isFunctionExpression(fn) || ts.isArrowFunction(fn)) body = fn.body;
				else if (ts.isIdentifier(fn)) body = functions.get(fn.text);
				if (body) {
					const first = line(body.getStart(source));
					const last = line(body.getEnd());
					const declaration = node.parent as ts.ObjectLiteralExpression;
					const literal = (name: string) => {
						const property = declaration.properties.find((p) => p.name?.getText(source) === name);
						return property && ts.isPropertyAssignment(property) && ts.isStringLiteral(property.initializer)
							? property.initializer.text
							: null;
					};
					const method = literal('method');
					const path = literal('path');
					const key = method && path ? `${file} ${method} ${path}` : `${file}:${line(node.getStart(source)) + 1}`;
					lengths.set(key, ts.isBlock(body) ? last - first - 1 : last - first + 1);
				}
			}
			ts.forEachChild(node, visit);
		};
		visit(source);
	}
	return lengths;
}

test(`no route handler body is longer than ${MAX_HANDLER_LINES} lines: parse, call one service, render`, () => {
	const lengths = handlerLengths();
	assert.ok(lengths.size > 400, `~> found only ${lengths.size} route handlers: is the scan still reading the route files?`);
	const long = [...lengths].filter(([key, lines]) => lines > MAX_HANDLER_LINES && !(key in LONG_HANDLERS_ALLOWED));
	assert.equal(
		long.map(([key, lines]) => `${key} (${lines} lines)`),
		[],
		'~> route handlers longer than 40 lines: move the rule into the service',
	);
	const short = Object.keys(LONG_HANDLERS_ALLOWED).filter((key) => (lengths.get(key) ?? 0) <= MAX_HANDLER_LINES);
	assert.equal(short, [], `~> short enough now (or gone), take them off LONG_HANDLERS_ALLOWED: ${short.join('; ')}`);
});

test.run();
