/**
 * Plain-text answers of the front ends that are not the JSON API (git's smart HTTP transport, raw
 * files and archives): what git and a browser show a person as it is.
 */
import type { ServerResponse } from 'node:http';

/**
 * Answers `text` as `text/plain; charset=utf-8` with its Content-Length, after `headers` (which it
 * overrides for those two).
 */
export function plainText(res: ServerResponse, status: number, text: string, headers: Record<string, string>): void {
	res.writeHead(status, { ...headers, 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': String(Buffer.byteLength(text)) });
	res.end(text);
}

/** A percent-encoded path segment decoded; null for a malformed escape (`%ZZ`, a cut UTF-8 sequence). */
export function decodeSegment(segment: string): string | null {
	try {
		return decodeURIComponent(segment);
	} catch {
		return null;
	}
}
