/**
 * GitHub's license data: choosealicense.com's licenses (the texts and rules GitHub's licenses API
 * serves and repository creation writes as LICENSE), read from the @rexxars/choosealicense-list
 * package when first needed (about 450 KB of JSON, so not at start-up). Bodies hold choosealicense's
 * placeholders ([year], [fullname], …) as GitHub's API shows them.
 */
import { LICENSES } from '../../model/licenses';

/** One license as choosealicense.com describes it. */
export interface LicenseTemplate {
	/** GitHub's key ('mit', 'agpl-3.0'). */
	key: string;
	description: string;
	/** How to apply it (GitHub's `implementation`). */
	implementation: string;
	permissions: string[];
	conditions: string[];
	limitations: string[];
	body: string;
	featured: boolean;
}

interface ChooseALicenseEntry {
	'spdx-id': string;
	description: string;
	how: string;
	permissions: string[];
	conditions: string[];
	limitations: string[];
	body: string;
	featured?: boolean;
}

let templates: Map<string, LicenseTemplate> | null = null;

/** The license of GitHub's key `key` (any case), or undefined for a key GitHub does not know. */
export function licenseTemplate(key: string): LicenseTemplate | undefined {
	if (!templates) {
		const data = require('@rexxars/choosealicense-list/licenses.json') as Record<string, ChooseALicenseEntry>;
		templates = new Map();
		for (const entry of Object.values(data)) {
			const k = entry['spdx-id'].toLowerCase();
			if (!Object.hasOwn(LICENSES, k)) continue;
			templates.set(k, {
				key: k,
				description: entry.description,
				implementation: entry.how,
				permissions: entry.permissions ?? [],
				conditions: entry.conditions ?? [],
				limitations: entry.limitations ?? [],
				body: entry.body,
				featured: entry.featured === true,
			});
		}
	}
	return templates.get(key.toLowerCase());
}

/**
 * A license's text for a repository's LICENSE file, filled in as GitHub fills it: [year] and
 * [fullname] (the copyright holder: the owner's name, else login).
 * @returns the text, or undefined for an unknown key
 */
export function licenseText(key: string, year: number, holder: string): string | undefined {
	const body = licenseTemplate(key)?.body;
	if (body === undefined) return undefined;
	// GitHub fills these two only (Apache's appendix keeps its [yyyy] and [name of copyright owner]).
	return body.replace(/\[year\]/g, String(year)).replace(/\[fullname\]/g, holder);
}
