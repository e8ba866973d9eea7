/**
 * GitHub's label object.
 */
import { nodeId } from '../../http/urls';
import type { LabelRow } from './store';

/** A label; `repositoryUrl` is the repository's API URL (…/api/v3/repos/{owner}/{repo}). */
export function label(repositoryUrl: string, row: LabelRow) {
	return {
		id: row.id,
		node_id: nodeId('Label', row.id),
		url: `${repositoryUrl}/labels/${encodeURIComponent(row.name)}`,
		name: row.name,
		color: row.color,
		default: row.is_default === 1,
		description: row.description,
	};
}
