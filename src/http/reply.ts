/**
 * What a handler returns: a status and a body to send as JSON. Handlers never write to the
 * response; the pipeline adds ETag, Link, rate-limit and the other standard headers.
 */

export interface Reply {
	status: number;
	/** Serialized with JSON.stringify. */
	body?: unknown;
	/** Already-serialized JSON body (cached representations; a Buffer is sent as is); wins over `body`. */
	json?: string | Buffer;
	headers?: Record<string, string>;
	/** For paginated lists: total number of items, to build the Link header. */
	total?: number;
	/** A file to stream as the body (archives), instead of JSON. */
	file?: { path: string; contentType: string; name: string };
	/** A body that is not JSON (raw gist files, raw git blobs), sent as is with its content type. */
	raw?: { body: string | Buffer; contentType: string };
	/** Points the request costs in its rate-limit window (GraphQL: 1 per 100 nodes); default 1. */
	rateCost?: number;
}

export const ok = (body: unknown): Reply => ({ status: 200, body });
export const created = (body: unknown, location?: string): Reply => ({
	status: 201,
	body,
	headers: location ? { Location: location } : undefined,
});
export const accepted = (body: unknown = {}): Reply => ({ status: 202, body });
export const noContent = (): Reply => ({ status: 204 });
/** One page of a list with the total count, for the Link header. */
export const paged = (items: unknown[], total: number): Reply => ({ status: 200, body: items, total });
/** A redirect (302 by default) to an absolute URL. */
export const redirect = (location: string, status = 302): Reply => ({ status, headers: { Location: location } });
