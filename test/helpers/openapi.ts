/**
 * GitHub's OpenAPI descriptions (@octokit/openapi) as validators: each route of Gitstead's route
 * table is mapped to GitHub's operation by method and path template, and a response is checked
 * against the schema GitHub documents for that operation and status (application/json, or the
 * requested media type where the operation documents a schema of its own for it).
 *
 * The mapping, the errata and the `nullable` conversion are src/http/openapi/github.ts's, shared
 * with the generated description (src/http/openapi/document.ts). The descriptions are OpenAPI 3.0:
 * `nullable: true` becomes a JSON Schema type union (or an `anyOf` with null where the schema names
 * no type), `x-*` and other OpenAPI-only keywords are
 * tolerated (ajv strict off), GitHub's own contradictions are corrected first (ERRATA), and schemas
 * compile lazily, one per operation, status and media type, against the description's components registered
 * once. The documents' `depbot` paths map to GitHub's `dependabot` operations.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { at, convertNullable, DESCRIPTIONS, ERRATA, HTTP_METHODS, templateKey, type DescriptionName } from '../../src/http/openapi/github';

export { DESCRIPTIONS, templateKey, type DescriptionName };

/** One documented operation. */
export interface Operation {
	description: DescriptionName;
	method: string;
	/** The description's path template, e.g. /orgs/{org}/teams/{team_slug}. */
	path: string;
	operationId: string;
	/** `METHOD path` in the description: the operation's key. */
	key: string;
}

/** A schema violation, with its place in the response body as a JSON pointer (array indexes written `*`). */
export interface Violation {
	pointer: string;
	keyword: string;
	message: string;
}

/** Points local references (#/components/...) at the description registered under `id`. */
function qualifyRefs(node: unknown, id: string): unknown {
	if (Array.isArray(node)) return node.map((item) => qualifyRefs(item, id));
	if (!node || typeof node !== 'object') return node;
	const out: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(node)) {
		out[key] = key === '$ref' && typeof value === 'string' && value.startsWith('#') ? `${id}${value}` : qualifyRefs(value, id);
	}
	return out;
}

interface Loaded {
	name: DescriptionName;
	paths: Record<string, Record<string, any>>;
	components: Record<string, Record<string, any>>;
	/** templateKey → the description's path. */
	byTemplate: Map<string, { method: string; path: string }>;
}

/** GitHub's descriptions, an ajv instance holding their components, and per-operation validators compiled on first use. */
export class OpenApi {
	private readonly ajv: Ajv;
	private readonly loaded: Loaded[] = [];
	private readonly validators = new Map<string, ValidateFunction | null>();

	constructor(names: readonly DescriptionName[] = DESCRIPTIONS) {
		this.ajv = new Ajv({ strict: false, allErrors: true, logger: false, validateSchema: false });
		addFormats(this.ajv);
		const dir = join(__dirname, '../../node_modules/@octokit/openapi/generated');
		for (const name of names) {
			const document = JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8'));
			for (const erratum of ERRATA) {
				const node = at(document, erratum.pointer);
				if (node) erratum.fix(node);
			}
			const paths = convertNullable(document.paths) as Loaded['paths'];
			const components = convertNullable(document.components) as Loaded['components'];
			this.ajv.addSchema({ $id: name, components }, name);
			const byTemplate = new Map<string, { method: string; path: string }>();
			for (const [path, item] of Object.entries(paths)) {
				for (const method of HTTP_METHODS)
					if (item[method]) byTemplate.set(templateKey(method, path), { method: method.toUpperCase(), path });
			}
			this.loaded.push({ name, paths, components, byTemplate });
		}
	}

	/** The operation a route (method and Gitstead path template) is, in the first description that has it. */
	operation(method: string, path: string): Operation | undefined {
		const key = templateKey(method, path);
		for (const loaded of this.loaded) {
			const found = loaded.byTemplate.get(key);
			if (!found) continue;
			const operationId = loaded.paths[found.path][found.method.toLowerCase()].operationId as string;
			return { description: loaded.name, method: found.method, path: found.path, operationId, key: `${found.method} ${found.path}` };
		}
		return undefined;
	}

	/**
	 * Validates a value against a component schema by name (e.g. `webhook-pull-request-opened`, the
	 * payload of a webhook), from the first description that has it.
	 * @returns the violations (none when valid), or null when no description has the schema
	 */
	validateComponent(schemaName: string, body: unknown): Violation[] | null {
		const loaded = this.loaded.find((item) => item.components.schemas?.[schemaName]);
		if (!loaded) return null;
		const cacheKey = `${loaded.name} #/components/schemas/${schemaName}`;
		let validator = this.validators.get(cacheKey);
		if (!validator) {
			validator = this.ajv.compile({ $ref: `${loaded.name}#/components/schemas/${schemaName}` });
			this.validators.set(cacheKey, validator);
		}
		if (validator(body)) return [];
		return simplify(validator.errors ?? []);
	}

	/** The statuses the operation documents. */
	statuses(operation: Operation): string[] {
		return Object.keys(this.raw(operation).responses ?? {});
	}

	/**
	 * Validates a response of the operation: against the schema of the media type the request asked
	 * for (`accept`, e.g. application/vnd.github.object+json) where the operation documents one of its
	 * own for it (GET contents: application/vnd.github.object), else application/json's.
	 * @returns the violations (none when valid); an undocumented status is one violation at ''.
	 */
	validate(operation: Operation, status: number, body: unknown, accept?: string): Violation[] {
		const documented = this.mediaTypes(operation, status) ?? [];
		const wanted = accept
			?.split(';')[0]
			.trim()
			.replace(/\+json$/, '');
		const media = wanted && documented.includes(wanted) ? wanted : 'application/json';
		const cacheKey = `${operation.description} ${operation.key} ${status} ${media}`;
		let validator = this.validators.get(cacheKey);
		if (validator === undefined) {
			validator = this.compile(operation, status, media);
			this.validators.set(cacheKey, validator);
		}
		if (validator === null) {
			return this.statuses(operation).includes(String(status))
				? body === undefined
					? []
					: [{ pointer: '', keyword: 'body', message: `status ${status} documents no JSON body` }]
				: [
						{
							pointer: '',
							keyword: 'status',
							message: `status ${status} is not documented (${this.statuses(operation).join(', ')})`,
						},
					];
		}
		if (validator(body)) return [];
		return simplify(validator.errors ?? []);
	}

	/**
	 * The media types the operation documents for a status ([] when it documents no body, e.g. a
	 * 302 or 204; undefined when the status is not documented).
	 */
	mediaTypes(operation: Operation, status: number): string[] | undefined {
		const loaded = this.loaded.find((item) => item.name === operation.description)!;
		let response = this.raw(operation).responses?.[String(status)];
		if (response?.$ref) response = loaded.components.responses[response.$ref.split('/').pop()];
		return response ? Object.keys(response.content ?? {}) : undefined;
	}

	private raw(operation: Operation): any {
		const loaded = this.loaded.find((item) => item.name === operation.description)!;
		return loaded.paths[operation.path][operation.method.toLowerCase()];
	}

	private compile(operation: Operation, status: number, media: string): ValidateFunction | null {
		const loaded = this.loaded.find((item) => item.name === operation.description)!;
		let response = this.raw(operation).responses?.[String(status)];
		if (response?.$ref) response = loaded.components.responses[response.$ref.split('/').pop()];
		const schema = response?.content?.[media]?.schema;
		if (!schema) return null;
		return this.ajv.compile(qualifyRefs(schema, operation.description) as object);
	}
}

/**
 * ajv's errors, one per place and keyword. A nullable schema is `anyOf: [null, X]`: for a value that
 * is not null, X's errors are what matter, so the null branch's complaint and the anyOf's own are
 * dropped whenever errors below it say more.
 */
function simplify(errors: ErrorObject[]): Violation[] {
	const kept = errors.filter((error) => !(error.keyword === 'type' && (error.params as { type?: unknown }).type === 'null'));
	const seen = new Map<string, Violation>();
	for (const error of kept) {
		if (error.keyword === 'anyOf' || error.keyword === 'oneOf' || error.keyword === 'if') {
			const more = kept.some(
				(other) => other !== error && other.keyword !== error.keyword && other.instancePath.startsWith(error.instancePath),
			);
			if (more) continue;
		}
		const pointer = error.instancePath.replace(/\/\d+(?=\/|$)/g, '/*');
		const detail = error.keyword === 'required' ? `/${(error.params as { missingProperty: string }).missingProperty}` : '';
		const key = `${pointer}${detail} ${error.keyword}`;
		if (!seen.has(key)) seen.set(key, { pointer: `${pointer}${detail}`, keyword: error.keyword, message: error.message ?? '' });
	}
	return [...seen.values()];
}
