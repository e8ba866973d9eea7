/**
 * The `status` webhook (GitHub: "status" event, no action): a commit status was created. GitHub
 * shows no activity-feed entry for it. Payload: id, sha, name (the repository's full name),
 * target_url, avatar_url, context, description, state, commit (the commit as the commits API shows
 * it), branches (the branches whose head is the commit), created_at, updated_at, repository,
 * organization, sender.
 */
import type { App } from '../../app';
import { record } from '../../events/log';
import { inRepository } from '../../events/payloads';
import { commit as gitCommit, repoApi } from '../git/render';
import { parseCommit } from '../git/objects';
import type { RepositoryRow } from '../../model/rows';
import { signatureVerifier } from '../keys/verification';
import { status } from './render';
import type { CommitStatusRow } from './store';

/** Records the status event of a new status (inside the transaction that stored it). */
export function recordStatus(app: App, repo: RepositoryRow, row: CommitStatusRow, actorId: number | null): void {
	record(app, {
		event: 'status',
		action: null,
		actorId,
		repo,
		webhook: () => {
			const owner = app.stores.accounts.byId(repo.owner_id)!;
			const view = { repo, owner };
			const api = repoApi(app.urls, view);
			const creator = row.creator_id === null ? undefined : app.stores.accounts.byId(row.creator_id);
			const object = app.stores.git.object(repo.id, row.sha);
			const data = object ? gitCommit(app.urls, view, row.sha, parseCommit(object.content), signatureVerifier(app)) : null;
			// The branches whose head is the commit (GitHub lists at most 10).
			const branches = app.stores.git
				.matchingRefs(repo.id, 'refs/heads/', 1000, 0)
				.rows.filter((ref) => ref.sha === row.sha)
				.slice(0, 10)
				.map((ref) => ({
					name: ref.name.slice('refs/heads/'.length),
					commit: { sha: row.sha, url: `${api}/commits/${row.sha}` },
					protected: false,
				}));
			const shown = status(app.urls, api, row, creator);
			return {
				id: row.id,
				sha: row.sha,
				name: `${owner.login}/${repo.name}`,
				target_url: row.target_url,
				avatar_url: shown.avatar_url,
				context: row.context,
				description: row.description,
				state: row.state,
				commit: {
					sha: row.sha,
					node_id: data?.node_id ?? null,
					commit: data,
					url: `${api}/commits/${row.sha}`,
					html_url: app.urls.html(`/${owner.login}/${repo.name}/commit/${row.sha}`),
					comments_url: `${api}/commits/${row.sha}/comments`,
					parents: data?.parents ?? [],
				},
				branches,
				created_at: row.created_at,
				updated_at: row.updated_at,
				...inRepository(app, repo, actorId),
			};
		},
	});
}
