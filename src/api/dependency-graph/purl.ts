/**
 * Package-urls (https://github.com/package-url/purl-spec, parsed with packageurl-js) as GitHub's
 * dependency graph names packages: the advisory database's ecosystem names and package names
 * (`@scope/name` for npm, `group:artifact` for Maven, the module path for Go).
 */
import type { PackageURL } from 'packageurl-js';

/** packageurl-js, loaded on first use rather than at start. */
let library: typeof import('packageurl-js') | null = null;
import { ecosystemName } from '../dependabot/advisories';

export interface ParsedPackage {
	ecosystem: string;
	name: string;
	version: string | null;
}

/**
 * Parses a package-url; GitHub's `pkg:/npm/...` spelling is accepted too.
 * @returns null when the string is not a package-url
 */
export function parsePackageUrl(purl: string): ParsedPackage | null {
	let parsed: PackageURL;
	try {
		parsed = (library ??= require('packageurl-js') as typeof import('packageurl-js')).PackageURL.fromString(purl);
	} catch {
		return null;
	}
	const type = parsed.type.toLowerCase();
	const ecosystem = ecosystemName(type);
	const namespace = parsed.namespace ?? null;
	let name: string;
	if (!namespace) name = parsed.name;
	else if (type === 'maven') name = `${namespace}:${parsed.name}`;
	else name = `${namespace}/${parsed.name}`;
	return { ecosystem, name, version: parsed.version ?? null };
}
