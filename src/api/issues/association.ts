/**
 * author_association of issues and comments (GitHub's CommentAuthorAssociation): how the author
 * relates to the repository. OWNER: the user who owns the repository (organization repositories
 * have no OWNER; owners of the organization are MEMBERs, as on GitHub); MEMBER: an active member
 * of the owning organization; COLLABORATOR: a direct collaborator; NONE otherwise. Gitstead does
 * not link commit authors to accounts, so it never answers CONTRIBUTOR.
 */
import type { App } from '../../app';
import type { RepositoryRow, AccountRow } from '../../model/rows';

export type AuthorAssociation = 'OWNER' | 'MEMBER' | 'COLLABORATOR' | 'NONE';

/** Computes associations for one repository, remembering each author (lists render many rows per author). */
export class Associations {
	private readonly known = new Map<number, AuthorAssociation>();

	constructor(
		private readonly app: App,
		private readonly repo: RepositoryRow,
		private readonly owner: AccountRow,
	) {}

	of(author: AccountRow): AuthorAssociation {
		let association = this.known.get(author.id);
		if (association === undefined) this.known.set(author.id, (association = this.compute(author)));
		return association;
	}

	private compute(author: AccountRow): AuthorAssociation {
		const { stores } = this.app;
		if (this.owner.type === 'User') {
			if (author.id === this.owner.id) return 'OWNER';
		} else if (stores.memberships.get(this.owner.id, author.id)?.state === 'active') {
			return 'MEMBER';
		}
		if (stores.repos.collaboratorPermission(this.repo.id, author.id)) return 'COLLABORATOR';
		return 'NONE';
	}
}
