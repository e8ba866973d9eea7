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
