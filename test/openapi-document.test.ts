/**
 * Gitstead's own OpenAPI 3.1 description (src/http/openapi/document.ts): generated from
 * the route table, one operation per route with its declaration's permissions as extensions, valibot
 * query and body schemas converted, GitHub's response schemas for routes with a twin; structurally
 * valid (every $ref resolves, every path parameter declared, operationIds unique, every schema a
 * valid JSON Schema 2020-12 document); served at GET /openapi.json and /api/v3/openapi.json
 * without authentication, with an ETag (304), byte for byte what `gitstead openapi` prints.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { buildRoutes, openApiText } from '../src/server';
import { openApiDocument, pathParameterNames } from '../src/http/openapi/document';
import type { Route } from '../src/http/route';
import { BUNDLE, bundleCommand } from './helpers/cli';
import { startServer, type TestServer } from './helpers/server';

const test = suite('openapi document');
const routes: Route[] = buildRoutes();
const document = openApiDocument(routes) as any;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
let s: TestServer;

test.before(async () => {
	s = await startServer();
});
test.after(async () => {
	await s.close();
});

/** Every operation of the document, with its path and method. */
function operations(): Array<{ path: string; method: string; op: any }> {
	const out = [];
	for (const [path, item] of Object.entries(document.paths as Record<string, any>)) {
		for (const method of METHODS) if (item[method]) out.push({ path, method, op: item[method] });
	}
	return out;
}

/** Operations by the route table's method and path (x-gitstead-path where the document's path template differs: a wildcard). */
const byRoute = new Map(operations().map(({ path, method, op }) => [`${method.toUpperCase()} ${op['x-gitstead-path'] ?? path}`, op]));
const operationOf = (method: string, path: string) => byRoute.get(`${method} ${path}`);

test('one operation per route; each carries its declaration’s permissions, token kinds, rate category, access and guard', () => {
	assert.is(document.openapi, '3.1.0', '~> an OpenAPI 3.1 document');
	assert.is(operations().length, routes.length, '~> as many operations as routes');
	for (const route of routes) {
		const op = operationOf(route.method, route.path);
		const name = `${route.method} ${route.path}`;
		assert.ok(op, `~> ${name} is in the document`);
		assert.is(
			op['x-github-permissions'],
			route.acceptedPermissionsHeader,
			`~> ${name}: x-github-permissions is the X-Accepted-GitHub-Permissions value`,
		);
		assert.equal(op['x-github-permission-sets'], route.policy, `~> ${name}: the permission sets`);
		assert.equal(op['x-accepted-token-kinds'], [...route.tokenKinds], `~> ${name}: the token kinds`);
		assert.equal(op['x-accepted-oauth-scopes'], route.acceptedScopes, `~> ${name}: the OAuth scopes`);
		assert.is(op['x-rate-limit-category'], route.rateResource ?? 'none', `~> ${name}: the rate-limit category`);
		assert.is(op['x-access'], route.access, `~> ${name}: the access rule`);
		assert.equal(op['x-resource-guard'], route.guard ?? 'none', `~> ${name}: the guard`);
		assert.is(op.externalDocs.url, route.documentationUrl, `~> ${name}: the documentation link`);
		assert.equal(
			op.security,
			route.access === 'public' ? [{}, { token: [] }] : [{ token: [] }],
			`~> ${name}: anonymous callers only on public routes`,
		);
	}
});

test('structure: operationIds unique, path parameters declared, $refs resolve, security schemes exist', () => {
	const ids = new Set<string>();
	for (const { path, method, op } of operations()) {
		const name = `${method.toUpperCase()} ${path}`;
		assert.type(op.operationId, 'string', `~> ${name} has an operationId`);
		assert.not.ok(ids.has(op.operationId), `~> ${name}: operationId ${op.operationId} is unique`);
		ids.add(op.operationId);
		assert.ok(op.summary, `~> ${name} has a summary`);
		assert.ok(Object.keys(op.responses ?? {}).length > 0, `~> ${name} has responses`);
		const declared = (op.parameters ?? []).filter((parameter: any) => parameter.in === 'path');
		assert.not.ok(path.includes('*'), `~> ${name}: no wildcard in the path template`);
		assert.equal(
			declared.map((parameter: any) => parameter.name).sort(),
			pathParameterNames(path).sort(),
			`~> ${name}: every path parameter declared once`,
		);
		for (const parameter of declared) assert.is(parameter.required, true, `~> ${name}: path parameter ${parameter.name} is required`);
		const query = (op.parameters ?? []).filter((parameter: any) => parameter.in === 'query').map((parameter: any) => parameter.name);
		assert.is(new Set(query).size, query.length, `~> ${name}: no query parameter twice`);
		for (const requirement of op.security)
			for (const scheme of Object.keys(requirement))
				assert.ok(document.components.securitySchemes[scheme], `~> ${name}: security scheme ${scheme} exists`);
	}
	// OpenAPI 3.1: paths begin with '/', templated paths that differ only in parameter names are one path,
	// every response has a description, every parameter a location and a schema.
	const shapes = new Map<string, string>();
	for (const path of Object.keys(document.paths)) {
		assert.ok(path.startsWith('/'), `~> ${path} begins with /`);
		const shape = path.replace(/\{[^}]+\}/g, '{}');
		assert.not.ok(shapes.has(shape), `~> ${path} and ${shapes.get(shape)} are the same template`);
		shapes.set(shape, path);
	}
	for (const { path, method, op } of operations()) {
		for (const [status, response] of Object.entries(op.responses as Record<string, any>)) {
			assert.match(status, /^([1-5]\d\d|default)$/, `~> ${method} ${path}: status ${status}`);
			assert.type(response.description, 'string', `~> ${method} ${path} ${status} has a description`);
		}
		for (const parameter of op.parameters ?? [])
			assert.ok(
				['path', 'query'].includes(parameter.in) && parameter.schema,
				`~> ${method} ${path} ${parameter.name}: location and schema`,
			);
	}
	const refs: string[] = [];
	const walk = (node: unknown) => {
		if (Array.isArray(node)) return node.forEach(walk);
		if (!node || typeof node !== 'object') return;
		for (const [key, value] of Object.entries(node)) {
			if (key === '$ref') refs.push(value as string);
			else walk(value);
		}
	};
	walk(document);
	assert.ok(refs.length > 100, `~> the document references components (${refs.length})`);
	for (const ref of refs) {
		assert.match(ref, /^#\/components\/schemas\/[^/]+$/, `~> ${ref} is a local component reference`);
		assert.ok(document.components.schemas[ref.split('/').pop()!], `~> ${ref} resolves`);
	}
	const used = new Set(refs.map((ref) => ref.split('/').pop()));
	const unused = Object.keys(document.components.schemas).filter((name) => !used.has(name));
	assert.equal(unused, [], '~> only referenced components are carried');
});

test('every schema is valid JSON Schema 2020-12 (ajv compiles it against the components)', () => {
	const started = Date.now();
	const ajv = new Ajv2020({ strict: false, logger: false, allErrors: false });
	addFormats(ajv);
	ajv.addSchema({ $id: 'openapi', components: document.components }, 'openapi');
	const qualify = (node: unknown): unknown => {
		if (Array.isArray(node)) return node.map(qualify);
		if (!node || typeof node !== 'object') return node;
		return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, key === '$ref' ? `openapi${value}` : qualify(value)]));
	};
	// All schemas at once (one compile: each component is compiled once); one at a time only to name a failure.
	const unique = new Map<string, { where: string; schema: unknown }>();
	for (const name of Object.keys(document.components.schemas))
		unique.set(name, { where: `components/schemas/${name}`, schema: { $ref: `openapi#/components/schemas/${name}` } });
	for (const { path, method, op } of operations()) {
		const schemas = [
			...(op.parameters ?? []).map((parameter: any) => parameter.schema),
			...Object.values(op.requestBody?.content ?? {}).map((media: any) => media.schema),
			...Object.values(op.responses).flatMap((response: any) =>
				Object.values(response.content ?? {}).map((media: any) => media.schema),
			),
		].filter(Boolean);
		for (const schema of schemas) {
			const qualified = qualify(schema);
			const key = JSON.stringify(qualified);
			if (!unique.has(key)) unique.set(key, { where: `${method.toUpperCase()} ${path}`, schema: qualified });
		}
	}
	try {
		ajv.compile({ anyOf: [...unique.values()].map((item) => item.schema) });
	} catch (error) {
		for (const { where, schema } of unique.values()) {
			try {
				ajv.compile(schema as object);
			} catch (inner) {
				assert.unreachable(`~> ${where}: a schema does not compile: ${(inner as Error).message}`);
			}
		}
		assert.unreachable(`~> the schemas do not compile: ${(error as Error).message}`);
	}
	const compiled = unique.size;
	assert.ok(compiled > routes.length, `~> compiled ${compiled} distinct schemas`);
	console.log(`compiled ${compiled} schemas in ${Date.now() - started} ms`);
});

test('query and body schemas are converted from the valibot declarations', () => {
	const create = operationOf('POST', '/repos/{owner}/{repo}/labels');
	assert.is(create.operationId, 'issues/create-label', '~> GitHub’s operationId');
	const body = create.requestBody.content['application/json'].schema;
	assert.equal(body.required, ['name'], '~> name is required');
	assert.is(body.properties.name.type, 'string', '~> name is a string');
	assert.is(body.properties.description.anyOf.length, 2, '~> description may be null');
	assert.equal(
		create.parameters.map((parameter: any) => parameter.name),
		['owner', 'repo'],
		'~> the path parameters',
	);
	assert.is(
		create.responses['201'].content['application/json'].schema.$ref,
		'#/components/schemas/label',
		'~> GitHub’s 201 label schema',
	);

	const list = operationOf('GET', '/repos/{owner}/{repo}/issues');
	const query = Object.fromEntries(
		list.parameters.filter((parameter: any) => parameter.in === 'query').map((parameter: any) => [parameter.name, parameter]),
	);
	assert.ok(query.state, '~> the issues list takes state');
	assert.ok(query.per_page && query.page, '~> and the pagination parameters');
	assert.is(query.per_page.schema.default, 30);
	assert.is(list.responses['200'].content['application/json'].schema.type, 'array', '~> a list answers an array');

	const labels = operationOf('POST', '/repos/{owner}/{repo}/issues/{issue_number}/labels');
	const alternatives = labels.requestBody.content['application/json'].schema.anyOf;
	assert.is(alternatives.length, 3, '~> arrayBody: the object, a bare array or one item');
	assert.is(alternatives[1].type, 'array');
	assert.is(labels.parameters[2].schema.type, 'integer', '~> issue_number is an integer (GitHub’s parameter)');

	const raw = operationOf('POST', '/markdown/raw');
	assert.equal(Object.keys(raw.requestBody.content), ['text/plain', 'text/x-markdown'], '~> textBody: text media types');
	const upload = routes.find((route) => route.upload)!;
	assert.ok(operationOf(upload.method, upload.path).requestBody.content['application/octet-stream'], '~> upload: the file’s bytes');

	const contents = operationOf('GET', '/repos/{owner}/{repo}/contents/*?');
	assert.ok(document.paths['/repos/{owner}/{repo}/contents/{path}'].get === contents, '~> a wildcard becomes GitHub’s parameter');
	assert.is(contents.parameters[2].name, 'path');

	const teamByIds = operationOf('GET', '/organizations/{org_id}/team/{team_id}');
	assert.is(
		teamByIds.responses['200'].content['application/json'].schema.$ref,
		'#/components/schemas/team-full',
		'~> a team at another address answers GitHub’s team-full',
	);

	// Without GitHub's descriptions (or for a route GitHub does not document): generic answers.
	const bare = openApiDocument(routes, { operations: {}, schemas: {} }) as any;
	assert.equal(
		bare.paths['/repos/{owner}/{repo}/labels'].get.responses['200'].content['application/json'].schema,
		{ type: 'array', items: { type: 'object' } },
		'~> a list: an array of objects',
	);
	assert.equal(
		bare.paths['/repos/{owner}/{repo}/labels'].post.responses['201'].content['application/json'].schema,
		{ type: 'object' },
		'~> a creation: 201 and an object',
	);
	assert.equal(
		bare.paths['/repos/{owner}/{repo}/labels/{name}'].delete.responses['204'],
		{ description: 'No content' },
		'~> a deletion: 204',
	);
	assert.equal(Object.keys(bare.components.schemas), ['gitstead-error'], '~> and no GitHub component');
});

test('GET /openapi.json: public, at the root and below /api/v3, the bytes `gitstead openapi` prints, ETag and 304', async () => {
	const text = openApiText(routes);
	for (const url of [`${s.origin}/openapi.json`, `${s.api}/openapi.json`]) {
		const res = await fetch(url);
		assert.is(res.status, 200, `~> ${url} answers anonymous callers`);
		assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
		const etag = res.headers.get('etag');
		assert.ok(etag, '~> with an ETag');
		assert.ok((await res.text()) === text, '~> the served body is the generated document');
		const again = await fetch(url, { headers: { 'If-None-Match': etag! } });
		assert.is(again.status, 304, '~> a matching If-None-Match is 304');
		assert.is(await again.text(), '');
		const weak = await fetch(url, { headers: { 'If-None-Match': `"other", W/${etag}` } });
		assert.is(weak.status, 304, '~> also weak and in a list');
		const head = await fetch(url, { method: 'HEAD' });
		assert.is(head.status, 200, '~> HEAD answers too');
		assert.is(head.headers.get('content-length'), String(Buffer.byteLength(text)));
		assert.is(await head.text(), '');
	}
	const [node, args] = bundleCommand();
	const printed = spawnSync(node, [...args, 'openapi'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
	assert.is(printed.status, 0, printed.stderr);
	assert.ok(printed.stdout === text, '~> `gitstead openapi` (the bundle, with its embedded GitHub schemas) prints the same bytes');
	// The bundle carries GitHub's operations itself (the single executable has no node_modules to read).
	assert.ok(readFileSync(BUNDLE, 'utf8').includes('"description":"ghes-3.19"'), '~> the bundle embeds the extracted operations');
});

test.run();
