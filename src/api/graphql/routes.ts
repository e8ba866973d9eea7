/**
 * POST /api/graphql and POST /graphql: GitHub's GraphQL endpoint (docs: graphql/guides/
 * forming-calls-with-graphql) over the part of GitHub's schema Gitstead serves. A route of the
 * route table like any other: authentication, the pipeline, the `graphql` rate category (the
 * query's cost in points, 1 per 100 nodes), no ETag. A request whose operation is a mutation runs
 * as a write (the write transaction, answered after the commit); a query runs as a read.
 */
import { route, type RouteDeclaration } from '../../http/route';
import type { PolkaRequest } from '../../http/pipeline';

type Executor = typeof import('./execute');
let loaded: Executor | undefined;
/**
 * The executor (graphql-js, the served schema and every resolver), required at the first GraphQL
 * request rather than at start: a server that never answers GraphQL never parses it, and the first
 * answer after start comes sooner.
 */
const executor = (): Executor => (loaded ??= require('./execute') as Executor);

const declaration = (path: string): RouteDeclaration =>
	route({
		method: 'POST',
		path,
		docs: 'graphql#forming-calls-with-graphql',
		permissions: [],
		access: 'authenticated',
		resource: 'none',
		rateLimit: 'graphql',
		writes: (body) => executor().isMutation(body),
		nestedSavepoints: true,
		handler(ctx) {
			const answer = executor().runGraphQL(ctx, (ctx.req as PolkaRequest).body);
			return { status: 200, body: answer.body, rateCost: answer.cost };
		},
	});

/** The GraphQL endpoint at GitHub Enterprise Server's path and at GitHub.com's. */
export const graphqlRoutes: RouteDeclaration[] = [declaration('/api/graphql'), declaration('/graphql')];
