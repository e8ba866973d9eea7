/**
 * GitHub's own response schemas (@octokit/openapi, GHES 3.19, dereferenced) as validators: a test
 * checks an answer against the schema GitHub documents for that operation and status.
 */
import Ajv from 'ajv';
import addFormats from 'ajv-formats';

type Schema = Record<string, unknown>;

let spec:
	| { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: Schema }> }> }>> }
	| undefined;
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);

/**
 * OpenAPI 3.0's `nullable: true` as JSON Schema: `type: [t, 'null']`, or `anyOf` with null when the
 * schema names no type. Also drops OpenAPI-only keywords Ajv does not know.
 */
function jsonSchema(node: unknown): unknown {
	if (Array.isArray(node)) return node.map(jsonSchema);
	if (!node || typeof node !== 'object') return node;
	const out: Schema = {};
	for (const [key, value] of Object.entries(node)) {
		if (key === 'nullable' || key === 'example' || key === 'examples' || key === 'discriminator' || key === 'xml') continue;
		out[key] =
			key === 'properties'
				? Object.fromEntries(Object.entries(value as Schema).map(([k, v]) => [k, jsonSchema(v)]))
				: jsonSchema(value);
	}
	if ((node as Schema).nullable !== true) return out;
	if (typeof out.type === 'string')
		return { ...out, type: [out.type, 'null'], ...(Array.isArray(out.enum) ? { enum: [...out.enum, null] } : {}) };
	return { anyOf: [out, { type: 'null' }] };
}

const compiled = new Map<string, ReturnType<typeof ajv.compile>>();

/**
 * Problems of `body` against GitHub's documented answer to `METHOD path` with `status` (its
 * application/json schema), as "<instance path> <message>" lines; [] when it conforms.
 * @throws Error when GitHub documents no such answer
 */
export function schemaProblems(method: string, path: string, status: number, body: unknown): string[] {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	spec ??= require('@octokit/openapi/generated/ghes-3.19.deref.json');
	const schema = spec!.paths[path]?.[method.toLowerCase()]?.responses[String(status)]?.content?.['application/json']?.schema;
	if (!schema) throw new Error(`GitHub documents no ${status} JSON answer to ${method} ${path}`);
	const key = `${method} ${path} ${status}`;
	let validate = compiled.get(key);
	if (!validate) {
		validate = ajv.compile(jsonSchema(schema) as Schema);
		compiled.set(key, validate);
	}
	if (validate(body)) return [];
	return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message} ${JSON.stringify(error.params)}`);
}
