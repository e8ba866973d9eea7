/**
 * GitHub's licenses (choosealicense.com's, as GitHub serves them), by key: the license templates
 * repository creation accepts (`license_template`), with GitHub's names; ids are stable (node ids).
 */
export const LICENSES: Record<string, { id: number; name: string; spdx_id: string }> = {
	'agpl-3.0': { id: 1, name: 'GNU Affero General Public License v3.0', spdx_id: 'AGPL-3.0' },
	'apache-2.0': { id: 2, name: 'Apache License 2.0', spdx_id: 'Apache-2.0' },
	'bsd-2-clause': { id: 3, name: 'BSD 2-Clause "Simplified" License', spdx_id: 'BSD-2-Clause' },
	'bsd-3-clause': { id: 4, name: 'BSD 3-Clause "New" or "Revised" License', spdx_id: 'BSD-3-Clause' },
	'gpl-2.0': { id: 5, name: 'GNU General Public License v2.0', spdx_id: 'GPL-2.0' },
	'gpl-3.0': { id: 6, name: 'GNU General Public License v3.0', spdx_id: 'GPL-3.0' },
	'lgpl-2.1': { id: 7, name: 'GNU Lesser General Public License v2.1', spdx_id: 'LGPL-2.1' },
	'lgpl-3.0': { id: 8, name: 'GNU Lesser General Public License v3.0', spdx_id: 'LGPL-3.0' },
	mit: { id: 9, name: 'MIT License', spdx_id: 'MIT' },
	'mpl-2.0': { id: 10, name: 'Mozilla Public License 2.0', spdx_id: 'MPL-2.0' },
	unlicense: { id: 11, name: 'The Unlicense', spdx_id: 'Unlicense' },
	// The other licenses of choosealicense.com, GitHub's license data (GET /licenses/{license} serves them too).
	'0bsd': { id: 12, name: 'BSD Zero Clause License', spdx_id: '0BSD' },
	'afl-3.0': { id: 13, name: 'Academic Free License v3.0', spdx_id: 'AFL-3.0' },
	'artistic-2.0': { id: 14, name: 'Artistic License 2.0', spdx_id: 'Artistic-2.0' },
	'bsd-3-clause-clear': { id: 15, name: 'BSD 3-Clause Clear License', spdx_id: 'BSD-3-Clause-Clear' },
	'bsd-4-clause': { id: 16, name: 'BSD 4-Clause "Original" or "Old" License', spdx_id: 'BSD-4-Clause' },
	'bsl-1.0': { id: 17, name: 'Boost Software License 1.0', spdx_id: 'BSL-1.0' },
	'cc-by-4.0': { id: 18, name: 'Creative Commons Attribution 4.0 International', spdx_id: 'CC-BY-4.0' },
	'cc-by-sa-4.0': { id: 19, name: 'Creative Commons Attribution Share Alike 4.0 International', spdx_id: 'CC-BY-SA-4.0' },
	'cc0-1.0': { id: 20, name: 'Creative Commons Zero v1.0 Universal', spdx_id: 'CC0-1.0' },
	'cecill-2.1': { id: 21, name: 'CeCILL Free Software License Agreement v2.1', spdx_id: 'CECILL-2.1' },
	'ecl-2.0': { id: 22, name: 'Educational Community License v2.0', spdx_id: 'ECL-2.0' },
	'epl-1.0': { id: 23, name: 'Eclipse Public License 1.0', spdx_id: 'EPL-1.0' },
	'epl-2.0': { id: 24, name: 'Eclipse Public License 2.0', spdx_id: 'EPL-2.0' },
	'eupl-1.1': { id: 25, name: 'European Union Public License 1.1', spdx_id: 'EUPL-1.1' },
	'eupl-1.2': { id: 26, name: 'European Union Public License 1.2', spdx_id: 'EUPL-1.2' },
	isc: { id: 27, name: 'ISC License', spdx_id: 'ISC' },
	'lppl-1.3c': { id: 28, name: 'LaTeX Project Public License v1.3c', spdx_id: 'LPPL-1.3c' },
	'ms-pl': { id: 29, name: 'Microsoft Public License', spdx_id: 'MS-PL' },
	'ms-rl': { id: 30, name: 'Microsoft Reciprocal License', spdx_id: 'MS-RL' },
	ncsa: { id: 31, name: 'University of Illinois/NCSA Open Source License', spdx_id: 'NCSA' },
	'odbl-1.0': { id: 32, name: 'ODC Open Database License v1.0', spdx_id: 'ODbL-1.0' },
	'ofl-1.1': { id: 33, name: 'SIL Open Font License 1.1', spdx_id: 'OFL-1.1' },
	'osl-3.0': { id: 34, name: 'Open Software License 3.0', spdx_id: 'OSL-3.0' },
	postgresql: { id: 35, name: 'PostgreSQL License', spdx_id: 'PostgreSQL' },
	'upl-1.0': { id: 36, name: 'Universal Permissive License v1.0', spdx_id: 'UPL-1.0' },
	vim: { id: 37, name: 'Vim License', spdx_id: 'Vim' },
	wtfpl: { id: 38, name: 'Do What The F*ck You Want To Public License', spdx_id: 'WTFPL' },
	zlib: { id: 39, name: 'zlib License', spdx_id: 'Zlib' },
};

/**
 * The licenses GET /licenses lists (GitHub's "commonly used" ones: those choosealicense.com does
 * not hide).
 */
export const COMMON_LICENSES: readonly string[] = [
	'agpl-3.0',
	'apache-2.0',
	'bsd-2-clause',
	'bsd-3-clause',
	'bsl-1.0',
	'cc0-1.0',
	'epl-2.0',
	'gpl-2.0',
	'gpl-3.0',
	'lgpl-2.1',
	'mit',
	'mpl-2.0',
	'unlicense',
];

/**
 * Recognises a license file's text as one of LICENSES' keys by the wording each license is known
 * by (the more specific first: Affero and Lesser before the GPL, BSD-3 before BSD-2), or 'other'
 * for a license file GitHub would not recognise either.
 * https://docs.github.com/repositories/managing-your-repositorys-settings-and-features/customizing-your-repository/licensing-a-repository#detecting-a-license
 */
export function detectLicense(text: string): string {
	const t = text.slice(0, 64 * 1024).replace(/\s+/g, ' ');
	if (/GNU AFFERO GENERAL PUBLIC LICENSE,? Version 3/i.test(t)) return 'agpl-3.0';
	if (/GNU LESSER GENERAL PUBLIC LICENSE,? Version 3/i.test(t)) return 'lgpl-3.0';
	if (/GNU LESSER GENERAL PUBLIC LICENSE,? Version 2\.1/i.test(t)) return 'lgpl-2.1';
	if (/GNU GENERAL PUBLIC LICENSE,? Version 3/i.test(t)) return 'gpl-3.0';
	if (/GNU GENERAL PUBLIC LICENSE,? Version 2/i.test(t)) return 'gpl-2.0';
	if (/Apache License,? Version 2\.0/i.test(t)) return 'apache-2.0';
	if (/Mozilla Public License,? (Version|v\.?) ?2\.0/i.test(t)) return 'mpl-2.0';
	if (/free and unencumbered software released into the public domain/i.test(t)) return 'unlicense';
	if (/Permission is hereby granted, free of charge/i.test(t)) return 'mit';
	if (/Redistribution and use in source and binary forms/i.test(t))
		return /Neither the name|names of its contributors may be used/i.test(t) ? 'bsd-3-clause' : 'bsd-2-clause';
	return 'other';
}

/** Whether a file name is one GitHub looks at for a license (LICENSE, LICENCE, COPYING, UNLICENSE, with an extension or suffix). */
export const LICENSE_FILE = /^(un)?licen[cs]e([-._][^/]*)?$|^copying([-._][^/]*)?$/i;
