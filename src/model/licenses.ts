/** License templates accepted by repository creation (`license_template`), with GitHub's names. */
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
};

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
