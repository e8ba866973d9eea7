/**
 * The internal dispatch: runs a route of the route table for the principal of the request at hand,
 * as a request to it would run (route policy, guard, validation, handler; src/http/pipeline.ts
 * runRoute), and returns its Reply. GraphQL fields and mutations are served through their REST
 * twins this way (src/api/graphql), so every rule has one implementation: createIssue is
 * POST /repos/{owner}/{repo}/issues with its permission checks and domain events.
 *
 * Not counted against a rate limit (the dispatching request was), no ETag, no response. A write
 * route runs in the write transaction of the dispatching request, which must be a write.
 */
import type { App } from '../app';
import { notFound } from '../model/errors';
import { runRoute } from './pipeline';
import type { Reply } from './reply';
import type { Context, Method, Route } from './route';
import { RouteTable } from './router';

const tables = new WeakMap<App, RouteTable<Route>>();

/** Makes `routes` (the server's resolved route table) reachable by dispatch for `app`; src/server.ts calls it once. */
export function registerRoutes(app: App, routes: readonly Route[]): void {
	const table = new RouteTable<Route>();
	for (const route of routes) table.add(route.method, route.path, route);
	tables.set(app, table);
}

/** A request to dispatch: a concrete path below /api/v3 (segments already encoded), its query and body. */
export interface Dispatched {
	method: Method;
	/** e.g. `/repos/octo/hello/issues`: each segment encoded with encodeURIComponent. */
	path: string;
	query?: Record<string, string | string[]>;
	body?: unknown;
}

/**
 * Runs the route that answers `request.method request.path` for the principal of `parent`.
 * @throws DomainError 404 when no route answers, or the route's own refusal (HttpError 401, DomainError 403, 404, 422 …)
 */
export function dispatch(parent: Context, request: Dispatched): Reply {
	const table = tables.get(parent.app);
	const match = table?.find(request.method, request.path);
	if (!match) throw notFound();
	return runRoute(parent, match.value, match.params, request.query ?? {}, request.body);
}
