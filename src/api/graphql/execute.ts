/**
 * Executes one GraphQL request against the served schema (src/api/graphql/schema.ts): parse,
 * validate, GitHub's limits and cost (src/api/graphql/limits.ts) BEFORE anything runs, the rate
 * limit of the `graphql` category, then execution with the resolvers of resolve.ts and
 * mutations.ts. Answers GitHub's shapes: `{data}`, `{data, errors}` or `{errors}`, each error
 * with `type` (NOT_FOUND, FORBIDDEN, …), `path`, `locations` and `message`.
 */
import {
	buildSchema,
	execute,
	type GraphQLError,
	isAbstractType,
	isInterfaceType,
	isObjectType,
	Kind,
	parse,
	validate,
	type DocumentNode,
	type FragmentDefinitionNode,
	type GraphQLSchema,
	type OperationDefinitionNode,
} from 'graphql';
import type { Context } from '../../http/route';
import { checkLimits } from './limits';
import { MUTATIONS } from './mutations';
import { PROTECTION_MUTATIONS } from './protection';
import { LOCKABLE_MUTATIONS } from './lockable';
import { DRAFT_MUTATIONS } from './drafts';
import { ISSUE_ADMIN_FIELDS, ISSUE_ADMIN_MUTATIONS } from './issue-admin';
import { REPOSITORY_FIELDS } from './repository-fields';
import { isFault, typeOf } from './errors';
import { RESOLVERS, type GraphContext } from './resolve';
import { AUTO_MERGE_MUTATIONS, RENOVATE_RESOLVERS } from './renovate';
import { REF_RESOLVERS } from './refs';
import { SCHEMA_SDL } from './schema';

let built: GraphQLSchema | null = null;

/** The served schema with its resolvers attached (built once). */
export function servedSchema(): GraphQLSchema {
	if (built) return built;
	const schema = buildSchema(SCHEMA_SDL);
	for (const type of Object.values(schema.getTypeMap())) {
		if (type.name.startsWith('__')) continue;
		if (isAbstractType(type)) type.resolveType = (source: { __typename?: string }) => source.__typename;
		if (!isObjectType(type) && !isInterfaceType(type)) continue;
		const resolvers =
			type.name === 'Mutation'
				? {
						...MUTATIONS,
						...PROTECTION_MUTATIONS,
						...LOCKABLE_MUTATIONS,
						...DRAFT_MUTATIONS,
						...ISSUE_ADMIN_MUTATIONS,
						...AUTO_MERGE_MUTATIONS,
					}
				: {
						...RESOLVERS[type.name],
						...REPOSITORY_FIELDS[type.name],
						...ISSUE_ADMIN_FIELDS[type.name],
						...RENOVATE_RESOLVERS[type.name],
						...REF_RESOLVERS[type.name],
					};
		for (const field of Object.values(type.getFields())) {
			const resolver = resolvers?.[field.name];
			field.resolve = resolver
				? (source, args, g) => resolver(source as Record<string, unknown>, args, g as GraphContext)
				: (source) => {
						const value = (source as Record<string, unknown>)[field.name];
						return typeof value === 'function' ? value() : value;
					};
		}
	}
	return (built = schema);
}

/** One request's body: { query, variables, operationName }. */
export interface GraphRequest {
	query: string;
	variables: Record<string, unknown>;
	operationName: string | null;
}

/** The GitHub error object of a GraphQL error. */
function shape(error: GraphQLError, requestId: string): Record<string, unknown> {
	const original = error.originalError;
	const out: Record<string, unknown> = {};
	const type = typeOf(original);
	if (type !== undefined) out.type = type;
	if (error.path) out.path = error.path;
	else if (error.extensions?.path) out.path = error.extensions.path;
	if (error.extensions?.code) out.extensions = { ...error.extensions, path: undefined };
	if (error.locations) out.locations = error.locations;
	out.message =
		original && isFault(original)
			? `Something went wrong while executing your query. Please include \`${requestId}\` when reporting this issue.`
			: error.message;
	return out;
}

/** The body as a request, or the message GitHub answers for it. */
export function readRequest(body: unknown): GraphRequest | string {
	if (body === null || typeof body !== 'object' || Array.isArray(body))
		return 'A query attribute must be specified and must be a string.';
	const { query, variables, operationName } = body as Record<string, unknown>;
	if (typeof query !== 'string') return 'A query attribute must be specified and must be a string.';
	let vars: unknown = variables ?? {};
	if (typeof vars === 'string') {
		try {
			vars = vars.trim() === '' ? {} : JSON.parse(vars);
		} catch {
			return 'Variables are invalid JSON.';
		}
	}
	if (vars === null || typeof vars !== 'object' || Array.isArray(vars)) return 'Variables are invalid JSON.';
	return {
		query,
		variables: vars as Record<string, unknown>,
		operationName: typeof operationName === 'string' && operationName !== '' ? operationName : null,
	};
}

const documents = new WeakMap<object, DocumentNode | null>();

/** The operation a request runs (by operationName, or the only one), or null. */
function operationOf(document: DocumentNode, name: string | null): OperationDefinitionNode | null {
	const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
	if (name === null) return operations.length === 1 ? operations[0] : null;
	return operations.find((o) => o.name?.value === name) ?? null;
}

function parsed(body: object, request: GraphRequest): DocumentNode | null {
	if (documents.has(body)) return documents.get(body)!;
	let document: DocumentNode | null;
	try {
		document = parse(request.query, { maxTokens: 50_000 });
	} catch {
		document = null;
	}
	documents.set(body, document);
	return document;
}

/** Whether a request body runs a mutation (it must run as a write: src/http/route.ts `writes`). */
export function isMutation(body: unknown): boolean {
	const request = readRequest(body);
	if (typeof request === 'string') return false;
	const document = parsed(body as object, request);
	return document !== null && operationOf(document, request.operationName)?.operation === 'mutation';
}

/** Documents that parsed and validated, by query text: clients send the same few queries again and again. */
const checkedDocuments = new Map<string, DocumentNode>();
const CHECKED_DOCUMENTS = 256;
/** Longer queries are checked every time (the kept documents stay a few megabytes at most). */
const CHECKED_QUERY_CHARS = 16_384;

/**
 * The query parsed and validated against the served schema (a valid document of at most 16 KiB of
 * text is kept, the oldest of more than 256 dropped), or the errors GitHub answers for it.
 */
function checkedDocument(schema: GraphQLSchema, query: string): { document: DocumentNode } | { errors: Record<string, unknown>[] } {
	const known = checkedDocuments.get(query);
	if (known) return { document: known };
	let document: DocumentNode;
	try {
		document = parse(query, { maxTokens: 50_000 });
	} catch (error) {
		const e = error as GraphQLError;
		return { errors: [{ message: e.message, locations: e.locations ?? [] }] };
	}
	// GitHub (graphql-ruby) lets the same field of different object types in one union or interface
	// selection return different enum types (gh asks `...on Issue{state} ...on PullRequest{state}`);
	// graphql-js holds them to one shape. Only that finding is dropped: the shapes execute apart.
	const invalid = validate(schema, document, undefined, { maxErrors: 50 }).filter(
		(e) => !/they return conflicting types "[A-Za-z]+!?" and "[A-Za-z]+!?"/.test(e.message),
	);
	if (invalid.length) return { errors: invalid.map(validationError) };
	if (query.length <= CHECKED_QUERY_CHARS) {
		if (checkedDocuments.size >= CHECKED_DOCUMENTS) checkedDocuments.delete(checkedDocuments.keys().next().value as string);
		checkedDocuments.set(query, document);
	}
	return { document };
}

/** The answer to one request: its JSON body and the points it costs. */
export interface GraphAnswer {
	body: Record<string, unknown>;
	cost: number;
}

/** Parses, checks, rates and runs a request for the context's principal. */
export function runGraphQL(ctx: Context, body: unknown): GraphAnswer {
	const request = readRequest(body);
	if (typeof request === 'string') return { body: { errors: [{ message: request }] }, cost: 1 };
	const schema = servedSchema();
	const checked = checkedDocument(schema, request.query);
	if ('errors' in checked) return { body: { errors: checked.errors }, cost: 1 };
	const { document } = checked;
	const operation = operationOf(document, request.operationName);
	if (!operation) {
		const message = request.operationName ? `No operation named "${request.operationName}"` : 'An operation name is required';
		return { body: { errors: [{ message }] }, cost: 1 };
	}
	if (operation.operation === 'subscription') return { body: { errors: [{ message: 'Subscriptions are not supported.' }] }, cost: 1 };
	const fragments: Record<string, FragmentDefinitionNode> = {};
	for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
	const limits = checkLimits(schema, operation, fragments, request.variables);
	if (limits.errors.length) return { body: { errors: limits.errors }, cost: 1 };
	const { app, principal, now } = ctx;
	if (app.rateLimiter.enabled) {
		const window = app.rateLimiter.window(principal.rateKey, 'graphql', Math.floor(now / 1000));
		if (window.used + limits.cost > window.limit) {
			const who = principal.user ? `user ID ${principal.user.id}` : `installation ID ${principal.tokenId}`;
			return { body: { errors: [{ type: 'RATE_LIMITED', message: `API rate limit already exceeded for ${who}.` }] }, cost: 0 };
		}
	}
	const g: GraphContext = { ctx, cost: limits.cost, nodeCount: limits.nodeCount };
	const result = execute({
		schema,
		document,
		contextValue: g,
		variableValues: request.variables,
		operationName: request.operationName ?? undefined,
	});
	if ('then' in result) throw new Error('GraphQL resolvers must be synchronous');
	for (const error of result.errors ?? []) {
		const original = error.originalError;
		if (original && isFault(original)) {
			app.log.error('graphql resolver failed', { request_id: ctx.requestId, path: error.path, error: original });
		}
	}
	const out: Record<string, unknown> = {};
	if (result.data !== undefined) out.data = result.data;
	if (result.errors?.length) out.errors = result.errors.map((e) => shape(e, ctx.requestId));
	return { body: out, cost: limits.cost };
}

/** A validation error in GitHub's words where graphql-ruby's differ from graphql-js's. */
function validationError(error: GraphQLError): Record<string, unknown> {
	const locations = error.locations ?? [];
	const undefinedField = /^Cannot query field "([^"]+)" on type "([^"]+)"\./.exec(error.message);
	if (undefinedField) {
		return {
			path: [],
			extensions: { code: 'undefinedField', typeName: undefinedField[2], fieldName: undefinedField[1] },
			locations,
			message: `Field '${undefinedField[1]}' doesn't exist on type '${undefinedField[2]}'`,
		};
	}
	const missingArg = /^Field "([^"]+)" argument "([^"]+)" of type "([^"]+)" is required, but it was not provided\./.exec(error.message);
	if (missingArg) {
		return {
			path: [],
			extensions: { code: 'missingRequiredArguments', className: 'Field', name: missingArg[1], arguments: missingArg[2] },
			locations,
			message: `Field '${missingArg[1]}' is missing required arguments: ${missingArg[2]}`,
		};
	}
	return { locations, message: error.message };
}
