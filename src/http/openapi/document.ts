/**
 * Gitstead's OpenAPI 3.1 description, generated from the route table: every route's path (GitHub's
 * syntax) and method, GitHub's operationId and summary where the route has a twin in GitHub's
 * description (src/http/openapi/github.ts; otherwise ids and summaries from the route's docs
 * anchor), its documentation link, path and query parameters and request body (valibot schemas
 * converted to JSON Schema 2020-12, input side), GitHub's response schemas (a generic object or
 * array where there is no twin), and who may call it as extensions (x-github-permissions in the
 * X-Accepted-GitHub-Permissions format, x-accepted-token-kinds, x-accepted-oauth-scopes,
 * x-rate-limit-category, x-access, x-resource-guard). `gitstead openapi` prints it; the server
 * serves it at GET /openapi.json.
 */
import { toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { checkout, embeddedGithubOperations, version } from '../../build-info';
import type { Route } from '../route';
import { descriptionsFolder, extractGithubOperations, type GithubCatalogue, type GithubOperation } from './github';

type Json = Record<string, unknown>;

/** The path the API is served below (and at the root). */
export const API_BASE = '/api/v3';

/**
 * The GitHub operations of `routes`: embedded by the bundler, or read from @octokit/openapi in a
 * checkout (an empty catalogue when it is not installed: generic response schemas).
 */
export function githubCatalogue(routes: ReadonlyArray<{ method: string; path: string }>): GithubCatalogue {
	const embedded = embeddedGithubOperations();
	if (embedded !== undefined) return JSON.parse(embedded) as GithubCatalogue;
	return extractGithubOperations(routes, descriptionsFolder(checkout));
}

/**
 * A valibot schema as JSON Schema 2020-12, describing what a client sends (the input side of
 * transforms). Parts the converter cannot express (transforms, custom checks) are left out;
 * a schema it cannot convert at all becomes `{}` (anything).
 */
export function inputSchema(schema: v.GenericSchema): Json {
	try {
		const converted = toJsonSchema(schema as never, { errorMode: 'ignore', target: 'draft-2020-12', typeMode: 'input' }) as Json;
		delete converted.$schema;
		return converted;
	} catch {
		return {};
	}
}

/**
 * A route's path as an OpenAPI path template: a final wildcard (`/*`: one segment or more, `/*?`:
 * possibly none) becomes one parameter `{name}`. /repos/{owner}/{repo}/contents/*? →
 * /repos/{owner}/{repo}/contents/{path}.
 */
export function openApiPath(path: string, name = 'path'): string {
	return path.replace(/\/\*\??$/, `/{${name}}`);
}

/**
 * The OpenAPI path of every route path: a wildcard is named as the first GitHub twin among the
 * routes at that path names it (`{ref}`, `{tree_sha}`), else `{path}`, the same for every method.
 */
export function openApiPaths(routes: readonly Route[], catalogue: GithubCatalogue): Map<string, string> {
	const out = new Map<string, string>();
	for (const route of routes) {
		const twin = catalogue.operations[`${route.method} ${route.path}`];
		if (/\/\*\??$/.test(route.path) && twin && !out.has(route.path))
			out.set(route.path, openApiPath(route.path, pathParameterNames(twin.path).pop()));
	}
	for (const route of routes) if (!out.has(route.path)) out.set(route.path, openApiPath(route.path));
	return out;
}

/** Path parameter names in order: /repos/{owner}/{repo} → ['owner', 'repo']. */
export const pathParameterNames = (path: string): string[] => [...path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => name);

/** A schema for a path parameter without a GitHub twin, from its name (ids and numbers are integers; gist ids are hex strings). */
function guessedParameterSchema(name: string): Json {
	return /(^|_)(id|number)$/.test(name) && name !== 'gist_id' ? { type: 'integer' } : { type: 'string' };
}

/** "issues/labels#list-labels-for-a-repository" → "List labels for a repository". */
function summaryFromDocs(docs: string): string {
	const words = (docs.split('#')[1] ?? docs.split('/').pop() ?? docs).replace(/-/g, ' ');
	return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The status a route answers on success where there is no GitHub twin to say. */
function successStatus(route: Route): string {
	if (route.method === 'DELETE') return '204';
	if (route.method === 'POST') return '201';
	return '200';
}

const ERROR_SCHEMA = 'gitstead-error';

/** The parts of a request body: JSON (valibot body schema), text (textBody) or a file (upload). */
function requestBody(route: Route): Json | undefined {
	if (route.upload) {
		const file = { schema: { type: 'string', contentMediaType: 'application/octet-stream' } };
		return {
			required: true,
			description: 'The file, as is (any Content-Type; the Content-Type header is stored with it).',
			content: { 'application/octet-stream': file, '*/*': file },
		};
	}
	if (route.textBody) {
		const text = { schema: { type: 'string' } };
		return { required: true, content: { 'text/plain': text, 'text/x-markdown': text } };
	}
	if (!route.body || route.method === 'GET') return undefined;
	let schema = inputSchema(route.body as v.GenericSchema);
	const required = Array.isArray(schema.required) && schema.required.length > 0;
	if (route.arrayBody) {
		const field = (schema.properties as Record<string, Json> | undefined)?.[route.arrayBody];
		const items = (field?.items as Json | undefined) ?? {};
		schema = {
			anyOf: [
				schema,
				{ type: 'array', items, description: `Stands for {"${route.arrayBody}": […]}` },
				{ ...items, description: `Stands for {"${route.arrayBody}": […]} with one item` },
			],
		};
	}
	return { required, content: { 'application/json': { schema } } };
}

/** The query parameters: the query schema's properties, and page/per_page on paginated routes. */
function queryParameters(route: Route): Json[] {
	const out: Json[] = [];
	const schema = route.query ? inputSchema(route.query as v.GenericSchema) : {};
	const properties = (schema.properties ?? {}) as Record<string, Json>;
	const required = new Set((schema.required ?? []) as string[]);
	for (const [name, property] of Object.entries(properties)) {
		const { description, ...rest } = property;
		out.push({ name, in: 'query', required: required.has(name), ...(description ? { description } : {}), schema: rest });
	}
	if (route.pagination) {
		if (!properties.per_page) {
			out.push({
				name: 'per_page',
				in: 'query',
				required: false,
				description: `Results per page (max ${route.pagination.maxPerPage}).`,
				schema: { type: 'integer', default: route.pagination.perPage },
			});
		}
		if (!properties.page)
			out.push({
				name: 'page',
				in: 'query',
				required: false,
				description: 'Page number of the results to fetch.',
				schema: { type: 'integer', default: 1 },
			});
	}
	return out;
}

function pathParameters(route: Route, path: string, twin: GithubOperation | undefined): Json[] {
	const wildcard = /\/\*\??$/.exec(route.path)?.[0];
	return pathParameterNames(path).map((name, index, names) => {
		const given = twin?.pathParameters[index];
		const rest = wildcard && index === names.length - 1;
		const description = [
			given?.description,
			rest ? `The rest of the path, slashes included${wildcard === '/*?' ? ' (it may be left out with its slash)' : ''}.` : undefined,
		].filter(Boolean);
		return {
			name,
			in: 'path',
			required: true,
			...(description.length ? { description: description.join(' ') } : {}),
			schema: (given?.schema as Json | undefined) ?? guessedParameterSchema(name),
			...(rest ? { 'x-wildcard': wildcard } : {}),
		};
	});
}

function responses(route: Route, twin: GithubOperation | undefined): Json {
	const out: Json = {};
	if (twin && Object.keys(twin.responses).length) Object.assign(out, structuredClone(twin.responses));
	else {
		const status = successStatus(route);
		const item = { type: 'object' };
		out[status] =
			status === '204'
				? { description: 'No content' }
				: {
						description: 'Response',
						content: { 'application/json': { schema: route.pagination ? { type: 'array', items: item } : item } },
					};
	}
	out.default = {
		description: 'An error, in GitHub’s shape',
		content: { 'application/json': { schema: { $ref: `#/components/schemas/${ERROR_SCHEMA}` } } },
	};
	return out;
}

/** The operation object of one route (see the module comment for the extensions). */
function operation(
	route: Route,
	path: string,
	twin: GithubOperation | undefined,
	operationId: string,
	answers: GithubOperation | undefined,
): Json {
	const parameters = [...pathParameters(route, path, twin), ...queryParameters(route)];
	const body = requestBody(route);
	return {
		operationId,
		summary: twin?.summary || summaryFromDocs(route.docs),
		tags: [route.docs.split('/')[0]],
		externalDocs: { url: route.documentationUrl },
		...(parameters.length ? { parameters } : {}),
		...(body ? { requestBody: body } : {}),
		responses: responses(route, answers),
		security: route.access === 'public' ? [{}, { token: [] }] : [{ token: [] }],
		'x-github-permissions': route.acceptedPermissionsHeader,
		'x-github-permission-sets': route.policy,
		'x-accepted-token-kinds': [...route.tokenKinds],
		'x-accepted-oauth-scopes': route.acceptedScopes,
		'x-rate-limit-category': route.rateResource ?? 'none',
		'x-access': route.access,
		'x-resource-guard': route.guard ?? 'none',
		// The route table's own path where it has a wildcard (`/*`, `/*?`).
		...(path !== route.path ? { 'x-gitstead-path': route.path } : {}),
		...(twin ? { 'x-github-operation': { description: twin.description, operationId: twin.operationId, path: twin.path } } : {}),
	};
}

/**
 * The OpenAPI 3.1 document of `routes` (plain JSON; `catalogue` gives GitHub's operations).
 * operationIds are unique: a second route with the same id (one GitHub operation served at
 * several addresses) gets `-2`, `-3`, … in route order.
 */
export function openApiDocument(routes: readonly Route[], catalogue: GithubCatalogue = githubCatalogue(routes)): Json {
	const paths: Record<string, Json> = {};
	const ids = new Set<string>();
	// Routes GitHub documents at another address (a team at /organizations/{org_id}/team/{team_id})
	// answer what the operation of their documentation page answers.
	const byDocs = new Map<string, GithubOperation>();
	for (const route of routes) {
		const twin = catalogue.operations[`${route.method} ${route.path}`];
		if (twin && !byDocs.has(`${route.method} ${route.docs}`)) byDocs.set(`${route.method} ${route.docs}`, twin);
	}
	const templates = openApiPaths(routes, catalogue);
	for (const route of routes) {
		const twin = catalogue.operations[`${route.method} ${route.path}`];
		const base = twin?.operationId ?? route.docs.replace(/\/[^#]*#/, '/').replace(/#/, '/');
		let id = base;
		for (let n = 2; ids.has(id); n++) id = `${base}-${n}`;
		ids.add(id);
		const path = templates.get(route.path)!;
		const item = (paths[path] ??= {});
		const method = route.method.toLowerCase();
		if (item[method]) throw new Error(`two routes describe ${route.method} ${path}`);
		item[method] = operation(route, path, twin, id, twin ?? byDocs.get(`${route.method} ${route.docs}`));
	}
	const tags = [...new Set(routes.map((route) => route.docs.split('/')[0]))].sort().map((name) => ({ name }));
	return {
		openapi: '3.1.0',
		info: {
			title: 'Gitstead REST API',
			version,
			summary: 'A self-hosted server speaking GitHub’s REST API',
			description:
				'GitHub’s REST API as Gitstead serves it, generated from its route table. Each operation names the permissions it needs ' +
				'(x-github-permissions, in the format of the X-Accepted-GitHub-Permissions header; x-accepted-oauth-scopes), the token kinds it ' +
				'accepts, its rate-limit category, its access rule and the resource it guards. Response schemas are GitHub’s (x-github-operation ' +
				'names the operation of GitHub’s description they come from). Authenticate with `Authorization: Bearer TOKEN` (or `token TOKEN`).',
			license: { name: 'MIT', identifier: 'MIT' },
		},
		servers: [{ url: API_BASE }, { url: '/' }],
		tags,
		paths,
		components: {
			schemas: {
				...catalogue.schemas,
				[ERROR_SCHEMA]: {
					type: 'object',
					description: 'GitHub’s error body (basic-error, validation-error)',
					required: ['message'],
					properties: {
						message: { type: 'string' },
						documentation_url: { type: 'string' },
						status: { type: 'string' },
						errors: {
							type: 'array',
							items: {
								anyOf: [
									{ type: 'string' },
									{
										type: 'object',
										properties: {
											resource: { type: 'string' },
											field: { type: 'string' },
											code: { type: 'string' },
											message: { type: 'string' },
										},
									},
								],
							},
						},
					},
				},
			},
			securitySchemes: {
				token: {
					type: 'http',
					scheme: 'bearer',
					description:
						'A token (classic ghp_, fine-grained github_pat_, OAuth gho_, user-to-server ghu_, installation ghs_) or an app’s JWT; `token TOKEN` works as well as `Bearer TOKEN`.',
				},
			},
		},
	};
}

/** The JSON text of the document, as `gitstead openapi` prints it and GET /openapi.json serves it (compact, final newline). */
export const documentText = (document: Json): string => `${JSON.stringify(document)}\n`;
