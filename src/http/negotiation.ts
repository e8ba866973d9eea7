/**
 * Content negotiation (https://docs.github.com/en/rest/using-the-rest-api/getting-started-with-the-rest-api): the API version header
 * and the Accept media type.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { HttpError } from './errors';

/** Supported API versions, newest first (also GET /versions). */
export const API_VERSIONS = ['2026-03-10', '2022-11-28'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];
/** Applied when the request names no version (GitHub's rule). */
export const DEFAULT_API_VERSION: ApiVersion = '2022-11-28';

/**
 * The version named by X-Service-Api-Version or its alias X-GitHub-Api-Version, else the default.
 * @throws HttpError 400 for any value that is not a supported version.
 */
export function negotiateVersion(headers: IncomingHttpHeaders): ApiVersion {
	const raw = headers['x-service-api-version'] ?? headers['x-github-api-version'];
	if (raw === undefined) return DEFAULT_API_VERSION;
	const value = Array.isArray(raw) ? raw[0] : raw;
	if ((API_VERSIONS as readonly string[]).includes(value)) return value as ApiVersion;
	const header = headers['x-service-api-version'] !== undefined ? 'X-Service-Api-Version' : 'X-GitHub-Api-Version';
	throw new HttpError(
		400,
		`The version you specified in the "${header}" request header, "${value}", is not a supported version. ` +
			`The following versions are currently supported: ${API_VERSIONS.map((x) => `"${x}"`).join(', ')}.`,
		{ documentation: 'https://docs.github.com/rest/about-the-rest-api/api-versions' },
	);
}

/** A requested property media type: raw, text, html, full, repository, ... or null for plain JSON. */
export type MediaParam = string | null;

const VENDOR = /application\/vnd\.(?:github|service)(?:\.v3)?(?:\.([a-z][a-z0-9-]*))?(?:\+json)?/i;

/**
 * The property parameter of the first GitHub-style vendor media type in Accept
 * (`application/vnd.github.v3.full+json` → 'full'); unknown Accept values are served as JSON.
 */
export function negotiateMedia(accept: string | undefined): MediaParam {
	if (!accept || accept.indexOf('vnd.') === -1) return null;
	const match = VENDOR.exec(accept);
	if (!match || !match[1]) return null;
	const param = match[1].toLowerCase();
	return param === 'v3' ? null : param;
}

/** The X-GitHub-Media-Type header value for a served media type. */
export function mediaTypeHeader(param: MediaParam): string {
	return param ? `github.v3; param=${param}; format=json` : 'github.v3; format=json';
}
