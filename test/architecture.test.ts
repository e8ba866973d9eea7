/**
 * The source tree's shape (docs/ARCHITECTURE.md, Layers): no import cycles between files, type
 * imports included, and imports flow one way — cli → server → api areas → http → auth → model → db.
 * The composition root (src/compose.ts) is imported only by the command line. The web interface
 * (src/web) imports no REST route file and no database module, and holds no SQL. Inside the feature
 * folders: stores import no service, route or render file; renderers import no service; domain
 * services import nothing of src/http; events, webhooks and other feature folders import no route
 * file of a feature (only the route table, src/api/routes.ts, gathers them); db, model, auth and
 * http import no feature folder at all. No cycle between folders either (each api/<area> and each
 * top-level folder of src, type imports included): the folder graph's strongly connected components
 * are computed (Tarjan) and any of more than one folder fails, with the file imports that make each
 * of its edges, beyond an allow-list that says why and only shrinks. A route handler parses, calls
 * one service and renders: no handler body is longer than 40 lines.
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

test('imports flow one way: db below model below auth below http below api areas below server and cli', async () => {
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
		// Authentication and the access rules are below the HTTP layer, which applies them to a request.
		if (file.startsWith('auth/')) return 0.75;
		if (file.startsWith('http/')) return 1;
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

/** A feature folder's renderer (render.ts, <name>-render.ts): rows in, GitHub's shapes out. */
const isRender = (file: string) => /^api\/[^/]+\/(render|[\w-]+-render)\.ts$/.test(file);

test('renderers import no domain service: rendering reads rows, it never runs a use case', async () => {
	const bad = (await allImports()).filter(([file, imported]) => isRender(file) && isService(imported));
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

test("no feature folder imports another feature's route file (only the route table, api/routes.ts, gathers them)", async () => {
	const areaOf = (file: string) => /^api\/([^/]+)\//.exec(file)?.[1];
	const bad = (await allImports()).filter(
		([file, imported]) => file !== 'api/routes.ts' && isRoutes(imported) && areaOf(file) !== areaOf(imported),
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

/**
 * The folder a file belongs to for the no-folder-cycles rule: its feature folder (api/<area>), or
 * its top-level folder of src (auth, cli, db, events, http, jobs, model, web, webhooks); null for
 * the files at the root of src (the composition root and the App shape, which the layer rule governs).
 */
function folderOf(file: string): string | null {
	const feature = /^api\/([^/]+)\//.exec(file);
	if (feature) return `api/${feature[1]}`;
	const top = /^([^/]+)\//.exec(file);
	return top && top[1] !== 'api' ? top[1] : null;
}

/** The folder graph: folder → imported folder → the file imports (`a.ts -> b.ts`) that make the edge. */
type FolderGraph = Map<string, Map<string, string[]>>;

/** The folder graph of file imports: an edge for each import from one folder into another. */
function folderGraph(imports: Array<[string, string]>): FolderGraph {
	const graph: FolderGraph = new Map();
	for (const [file, imported] of imports) {
		const from = folderOf(file);
		const to = folderOf(imported);
		if (!from || !to || from === to) continue;
		let targets = graph.get(from);
		if (!targets) graph.set(from, (targets = new Map()));
		let files = targets.get(to);
		if (!files) targets.set(to, (files = []));
		files.push(`${file} -> ${imported}`);
	}
	return graph;
}

/**
 * The strongly connected components of more than one folder (Tarjan's algorithm): the folders that
 * reach each other through imports, each sorted by name, in name order.
 */
function folderCycles(graph: FolderGraph): string[][] {
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const onStack = new Set<string>();
	const components: string[][] = [];
	const visit = (folder: string): void => {
		index.set(folder, index.size);
		low.set(folder, index.get(folder) as number);
		stack.push(folder);
		onStack.add(folder);
		for (const next of graph.get(folder)?.keys() ?? []) {
			if (!index.has(next)) {
				visit(next);
				low.set(folder, Math.min(low.get(folder) as number, low.get(next) as number));
			} else if (onStack.has(next)) low.set(folder, Math.min(low.get(folder) as number, index.get(next) as number));
		}
		if (low.get(folder) !== index.get(folder)) return;
		const component: string[] = [];
		let member: string;
		do {
			member = stack.pop() as string;
			onStack.delete(member);
			component.push(member);
		} while (member !== folder);
		if (component.length > 1) components.push(component.sort());
	};
	const folders = new Set([...graph.keys(), ...[...graph.values()].flatMap((targets) => [...targets.keys()])]);
	for (const folder of [...folders].sort()) if (!index.has(folder)) visit(folder);
	return components.sort((a, b) => a[0].localeCompare(b[0]));
}

/** A cycle for the failure message: each edge inside it with a few of the file imports that make it. */
function describeCycle(graph: FolderGraph, component: string[]): string {
	const edges = component.flatMap((from) =>
		[...(graph.get(from) ?? [])]
			.filter(([to]) => component.includes(to))
			.map(([to, files]) => {
				const more = files.length > 3 ? `; … ${files.length - 3} more` : '';
				return `\n    ${from} -> ${to}: ${files.slice(0, 3).join('; ')}${more}`;
			}),
	);
	return `\n  {${component.join(', ')}}${edges.join('')}`;
}

/**
 * Folder cycles still there (their folders in name order, joined with ', '), each with its reason;
 * the rule fails on any other cycle (a listed one that grows is another), and on a listed one that
 * is gone, so the list only shrinks.
 */
const CYCLES_ALLOWED: Record<string, string> = {};

test('the folder-cycle check finds a cycle of any length, not only two-way pairs', () => {
	const graph = folderGraph([
		['api/a/x.ts', 'api/b/y.ts'],
		['api/b/y.ts', 'api/c/z.ts'],
		['api/c/z.ts', 'api/a/w.ts'],
		['api/c/z.ts', 'events/log.ts'],
		['http/route.ts', 'auth/principal.ts'],
	]);
	assert.equal(folderCycles(graph), [['api/a', 'api/b', 'api/c']]);
	assert.match(describeCycle(graph, ['api/a', 'api/b', 'api/c']), 'api/c -> api/a: api/c/z.ts -> api/a/w.ts');
});

test('no cycle between folders (each api/<area>, and auth, http, events, webhooks, jobs, model, db, web, cli) beyond the listed ones', async () => {
	const graph = folderGraph(await allImports());
	const cycles = folderCycles(graph);
	const unexpected = cycles.filter((component) => !(component.join(', ') in CYCLES_ALLOWED));
	const details = unexpected.map((component) => describeCycle(graph, component)).join('');
	assert.equal(
		unexpected.map((component) => component.join(', ')),
		[],
		`~> folders that import each other (type imports included): make the dependency go one way${details}\n`,
	);
	const found = new Set(cycles.map((component) => component.join(', ')));
	const gone = Object.keys(CYCLES_ALLOWED).filter((key) => !found.has(key));
	assert.equal(gone, [], `~> no longer a cycle, take them off CYCLES_ALLOWED: ${gone.join('; ')}`);
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
