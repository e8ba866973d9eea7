/**
 * Absolute URLs for responses, all built from the one configured external URL
 * (Octokit follows only absolute URLs, and they must already include /api/v3).
 */

export class Urls {
	/** Host (and port) of the external URL, for git_url and ssh_url. */
	readonly host: string;

	constructor(
		/** e.g. http://127.0.0.1:8080 */
		readonly origin: string,
		/** e.g. http://127.0.0.1:8080/api/v3 */
		readonly apiBase: string,
	) {
		this.host = new URL(origin).host;
	}

	/** API URL of a path beginning with '/'. */
	api(path: string): string {
		return this.apiBase + path;
	}

	/** Web (html_url) URL of a path beginning with '/'. */
	html(path: string): string {
		return this.origin + path;
	}
}

/**
 * GitHub's legacy global node id: base64 of "0<length of Type>:<Type><id>" (MDQ6VXNlcjE= is
 * "04:User1", MDEwOlJlcG9zaXRvcnkx is "010:Repository1").
 */
export function nodeId(type: string, id: number): string {
	return Buffer.from(`0${type.length}:${type}${id}`).toString('base64');
}
