/**
 * Who performs a use case, and when: what a domain service needs of a request. A REST or GraphQL
 * context, a web page's context and a test's plain object all satisfy it, so services run without
 * an HTTP server.
 */
import type { App } from '../app';
import type { Principal } from './principal';

export interface Caller {
	app: App;
	/** The acting principal; `actorId` is the account the change is recorded for (null: none). */
	principal: Principal;
	/** Epoch milliseconds of the change. */
	now: number;
	/** The media type of rendered body fields (null: the raw body, as event payloads carry it). */
	media: string | null;
	/** True when the caller is answered as an anonymous one (a token lacking the route's permission). */
	publicView?: boolean;
}

/**
 * A caller for a change made outside a request (reference writes, pushes, background tasks): the
 * app's clock, raw bodies (as event payloads carry them), `actorId` as the actor (null: none).
 */
export function eventContext(app: App, actorId: number | null): Caller {
	return { app, media: null, now: app.clock(), principal: { actorId } as Caller['principal'] };
}
