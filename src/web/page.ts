/** What a page module declares and returns (src/web/index.ts serves them). */
import type { VNode } from 'preact';
import type { WebContext } from './context';

/** A page with a status other than 200, or extra headers. */
export interface PageAnswer {
	vnode: VNode;
	status?: number;
	headers?: Record<string, string>;
}

/** Bytes as they are (raw files, redirects). */
export interface RawAnswer {
	status: number;
	headers: Record<string, string>;
	body: string | Buffer;
}

/** A file streamed as a download (release assets). */
export interface FileAnswer {
	/** Absolute path of the file. */
	file: string;
	/** The name the browser saves it as (Content-Disposition). */
	name: string;
	headers?: Record<string, string>;
}

/** A page (200), a page with a status, raw bytes, or a file to download. */
export type Answer = VNode | PageAnswer | RawAnswer | FileAnswer;

export interface PageRoute {
	method: 'GET' | 'POST';
	/** GitHub's path, in the route table's syntax (`{name}` one segment, a final `*` the rest). */
	path: string;
	/**
	 * A generic path the API or a feed may also answer (`/{owner}`, `/{owner}/{repo}`): when the page
	 * finds nothing, the request goes on to them instead of the 404 page. Default: true for paths
	 * under `/{owner}`, false for the others.
	 */
	weak?: boolean;
	handler(ctx: WebContext): Answer | Promise<Answer>;
}

/** An HTML page answer with a status. */
export const withStatus = (vnode: VNode, status: number): PageAnswer => ({ vnode, status });
