/**
 * The route table's twins in GitHub's OpenAPI descriptions (@octokit/openapi, a devDependency):
 * each route maps to GitHub's operation by method and path template, in GitHub Enterprise Server
 * 3.19's description first, then GitHub Enterprise Cloud's and api.github.com's for operations GHES
 * does not document. test/helpers/openapi.ts validates answers against those operations;
 * src/http/openapi/document.ts takes their response schemas for Gitstead's own description.
 *
 * `extractGithubOperations` reads the descriptions from a folder (node_modules/@octokit/openapi/
 * generated) and keeps only what the given routes need: each operation's id, summary and responses,
 * and the component schemas those responses reference, transitively. It runs at build time
 * (scripts/bundle.mjs embeds its JSON, see src/build-info.ts) and, from a checkout, at run time.
 * The descriptions are OpenAPI 3.0: `nullable` becomes JSON Schema type unions (OpenAPI 3.1).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The descriptions tried in order: GitHub Enterprise Server 3.19 first, then the hosted ones for operations it lacks. */
export const DESCRIPTIONS = ['ghes-3.19', 'ghec', 'api.github.com'] as const;
/** One of the descriptions @octokit/openapi ships (generated/<name>.json). */
export type DescriptionName = (typeof DESCRIPTIONS)[number];

export const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/**
 * Errata: places where a description contradicts itself or GitHub's own REST reference, corrected
 * before use (each description, JSON pointer from the document's root). Only GitHub's
 * contradictions belong here; where Gitstead differs from a consistent description,
 * docs/COMPATIBILITY.md lists the deviation instead.
 */
export const ERRATA: Array<{ pointer: string; fix(node: Record<string, unknown>): void; why: string }> = [
	{
		pointer: '/paths/~1app~1installations/get/responses/200/content/application~1json/schema/items/properties/account',
		fix(node) {
			node.anyOf = node.allOf;
			delete node.allOf;
		},
		why: 'GET /app/installations inlines the installation’s account as allOf [Simple User, Enterprise] (a user and an enterprise at once, which nothing is); components/schemas/installation and every other operation say anyOf',
	},
	{
		pointer: '/components/schemas/event',
		fix(node) {
			const properties = node.properties as Record<string, Record<string, unknown>>;
			const branches = (properties.payload.oneOf ?? []) as Array<{ $ref: string }>;
			const pascal = (ref: string) =>
				ref
					.split('/')
					.pop()!
					.replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase());
			properties.payload = { type: 'object' };
			node.allOf = branches.map((branch) => ({
				if: { properties: { type: { const: pascal(branch.$ref) } }, required: ['type'] },
				then: { properties: { payload: branch } },
			}));
		},
		why: 'an event’s payload is oneOf 15 shapes that overlap (public-event accepts any object), so it would check nothing: each payload is checked against the shape its `type` names (PushEvent → push-event)',
	},
	{
		pointer: '/components/schemas/issue-search-result-item/properties/body',
		fix(node) {
			node.type = ['string', 'null'];
		},
		why: 'a search result item is the issue as the issues routes render it (plus score and text_matches); components/schemas/issue types the same `body` string or null (an issue opened without a body has none, github/rest-api-description#767), the search item a string',
	},
	{
		pointer: '/paths/~1repos~1{owner}~1{repo}~1collaborators~1{username}/put/responses',
		fix(node) {
			node['201'] ??= {
				description: 'Response when a new invitation is created',
				content: { 'application/json': { schema: { $ref: '#/components/schemas/repository-invitation' } } },
			};
		},
		why: 'GHES 3.19 documents PUT …/collaborators/{username} with 204 only for “an existing collaborator”, “an organization member” or “an existing team member”, and documents the repository invitations this call creates for anyone else (GET …/invitations, GET /user/repository_invitations, accept, decline), yet drops the 201 “Response when a new invitation is created” (repository-invitation) that api.github.com and GHEC document',
	},
	{
		pointer: '/components/schemas/create-event/properties/ref',
		fix(node) {
			node.type = ['string', 'null'];
		},
		why: 'GitHub’s event types reference (docs.github.com/rest/using-the-rest-api/github-event-types, CreateEvent): `ref` is “The git ref (or null if only a repository was created)”; the description types it a string',
	},
];

/** The node a JSON pointer names in `document`, or undefined. */
export function at(document: unknown, pointer: string): Record<string, unknown> | undefined {
	let node = document as Record<string, unknown> | undefined;
	for (const part of pointer.split('/').slice(1))
		node = node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')] as Record<string, unknown> | undefined;
	return node;
}

/**
 * Path aliases: `depbot` paths (an abbreviation some clients and the permission matrix use) are
 * GitHub's `dependabot` ones.
 */
const ALIASES: Array<[RegExp, string]> = [[/\/depbot(\/|$)/g, '/dependabot$1']];

/** A path template with parameter names dropped and wildcards (`/*`, `/*?`) written as one parameter: `GET /repos/{}/{}/labels`. */
export function templateKey(method: string, path: string): string {
	let normal = path.replace(/\/\*\??$/, '/{}').replace(/\{[^}]+\}/g, '{}');
	for (const [pattern, replacement] of ALIASES) normal = normal.replace(pattern, replacement);
	return `${method.toUpperCase()} ${normal}`;
}

/**
 * Turns OpenAPI 3.0's `nullable` into JSON Schema, in place, everywhere below `node`; and reads
 * `oneOf` as `anyOf`: GitHub's descriptions use oneOf for alternatives that overlap (an event's
 * payload is one of 15 shapes, and public-event's accepts any object, so every payload would match
 * two), where they mean "one of these shapes". @returns the converted node (a nullable schema
 * without a type becomes a new `anyOf` node)
 */
export function convertNullable(node: unknown): unknown {
	if (Array.isArray(node)) {
		for (let i = 0; i < node.length; i++) node[i] = convertNullable(node[i]);
		return node;
	}
	if (!node || typeof node !== 'object') return node;
	const object = node as Record<string, unknown>;
	for (const key of Object.keys(object)) {
		// Examples are data, not schemas.
		if (key === 'example' || key === 'examples') continue;
		object[key] = convertNullable(object[key]);
	}
	if (Array.isArray(object.oneOf)) {
		object.anyOf = object.oneOf;
		delete object.oneOf;
	}
	if (object.nullable !== true) {
		if (object.nullable === false) delete object.nullable;
		return object;
	}
	delete object.nullable;
	if (typeof object.type === 'string') {
		object.type = [object.type, 'null'];
		if (Array.isArray(object.enum) && !object.enum.includes(null)) object.enum = [...object.enum, null];
		return object;
	}
	if (Array.isArray(object.type)) {
		if (!object.type.includes('null')) object.type = [...object.type, 'null'];
		return object;
	}
	return { anyOf: [{ type: 'null' }, object] };
}

/** Reads one description (generated/<name>.json below `dir`) with the errata applied. */
export function loadDescription(
	dir: string,
	name: DescriptionName,
): { paths: Record<string, Record<string, any>>; components: Record<string, Record<string, any>> } {
	const document = JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8'));
	for (const erratum of ERRATA) {
		const node = at(document, erratum.pointer);
		if (node) erratum.fix(node);
	}
	return document;
}

/** A response as Gitstead's description carries it: schemas as JSON Schema 2020-12, references to `#/components/schemas/…`. */
export interface GithubResponse {
	description: string;
	content?: Record<string, { schema?: unknown }>;
}

/** The GitHub operation a route is, as far as Gitstead's description needs it. */
export interface GithubOperation {
	description: DescriptionName;
	operationId: string;
	summary: string;
	/** GitHub's path template. */
	path: string;
	/** Status ('200', '404', …) → response. */
	responses: Record<string, GithubResponse>;
	/** The path parameters in the order of GitHub's path: their description and schema. */
	pathParameters: Array<{ description?: string; schema?: unknown }>;
}

/** What `extractGithubOperations` keeps: the operations by Gitstead's `METHOD path`, and the schemas they reference. */
export interface GithubCatalogue {
	operations: Record<string, GithubOperation>;
	schemas: Record<string, unknown>;
}

/** Folder of @octokit/openapi's descriptions in a checkout whose root is `root`. */
export const descriptionsFolder = (root: string) => join(root, 'node_modules/@octokit/openapi/generated');

/**
 * The GitHub operations of `routes` (method and Gitstead path template) from the descriptions in
 * `dir`, with every component schema their responses reference (named as in GitHub's description;
 * a name whose schema differs between descriptions gets `--<description>` for the later one).
 * Examples are dropped. @returns an empty catalogue when `dir` holds no descriptions (a checkout
 * installed without devDependencies)
 */
export function extractGithubOperations(routes: ReadonlyArray<{ method: string; path: string }>, dir: string): GithubCatalogue {
	const catalogue: GithubCatalogue = { operations: {}, schemas: {} };
	if (!DESCRIPTIONS.every((name) => existsSync(join(dir, `${name}.json`)))) return catalogue;
	const loaded = DESCRIPTIONS.map((name) => {
		const document = loadDescription(dir, name);
		const byTemplate = new Map<string, { method: string; path: string }>();
		for (const [path, item] of Object.entries(document.paths)) {
			for (const method of HTTP_METHODS) if (item[method]) byTemplate.set(templateKey(method, path), { method, path });
		}
		return { name, document, byTemplate, names: new Map<string, string>() };
	});
	/** Raw schemas' texts by final name, to share identical schemas across descriptions. */
	const texts = new Map<string, string>();

	const schemaName = (source: (typeof loaded)[number], name: string): string => {
		const known = source.names.get(name);
		if (known) return known;
		const raw = source.document.components.schemas?.[name];
		const text = JSON.stringify(raw);
		let final = name;
		if (texts.has(final) && texts.get(final) !== text) final = `${name}--${source.name}`;
		source.names.set(name, final);
		if (!texts.has(final)) {
			texts.set(final, text);
			catalogue.schemas[final] = {};
			catalogue.schemas[final] = rewrite(source, convertNullable(structuredClone(raw ?? {})));
		}
		return final;
	};
	const rewrite = (source: (typeof loaded)[number], node: unknown): unknown => {
		if (Array.isArray(node)) return node.map((item) => rewrite(source, item));
		if (!node || typeof node !== 'object') return node;
		const out: Record<string, unknown> = {};
		for (const [key, value] of Object.entries(node)) {
			if (key === 'example' || key === 'examples') continue;
			if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')) {
				out.$ref = `#/components/schemas/${schemaName(source, value.slice('#/components/schemas/'.length))}`;
			} else out[key] = rewrite(source, value);
		}
		return out;
	};

	for (const route of routes) {
		const key = templateKey(route.method, route.path);
		const source = loaded.find((item) => item.byTemplate.has(key));
		if (!source) continue;
		const found = source.byTemplate.get(key)!;
		const operation = source.document.paths[found.path][found.method];
		const responses: Record<string, GithubResponse> = {};
		for (const [status, given] of Object.entries((operation.responses ?? {}) as Record<string, any>)) {
			const response = given?.$ref ? source.document.components.responses?.[String(given.$ref).split('/').pop()!] : given;
			if (!response) continue;
			const content: Record<string, { schema?: unknown }> = {};
			for (const [media, item] of Object.entries((response.content ?? {}) as Record<string, { schema?: unknown }>)) {
				content[media] =
					item.schema === undefined ? {} : { schema: rewrite(source, convertNullable(structuredClone(item.schema))) };
			}
			responses[status] = { description: String(response.description ?? ''), ...(Object.keys(content).length ? { content } : {}) };
		}
		const parameters = [...((source.document.paths[found.path].parameters ?? []) as any[]), ...((operation.parameters ?? []) as any[])]
			.map((parameter) =>
				parameter?.$ref ? source.document.components.parameters?.[String(parameter.$ref).split('/').pop()!] : parameter,
			)
			.filter((parameter) => parameter?.in === 'path');
		const pathParameters = [...found.path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => {
			const parameter = parameters.find((item) => item.name === name);
			return parameter
				? {
						...(parameter.description ? { description: String(parameter.description) } : {}),
						...(parameter.schema ? { schema: rewrite(source, convertNullable(structuredClone(parameter.schema))) } : {}),
					}
				: {};
		});
		catalogue.operations[`${route.method.toUpperCase()} ${route.path}`] = {
			description: source.name,
			operationId: String(operation.operationId),
			summary: String(operation.summary ?? ''),
			path: found.path,
			responses,
			pathParameters,
		};
	}
	return catalogue;
}
