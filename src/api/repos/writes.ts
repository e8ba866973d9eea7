/**
 * Repository writes as a caller makes them (REST POST /user/repos, POST /orgs/{org}/repos, PATCH
 * /repos/{owner}/{repo}; GraphQL createRepository, archiveRepository, unarchiveRepository): the
 * caller-dependent rules — a classic token's `repo` scope for a repository that is not public, an
 * organization's members_can_create_* policies, the one change an archived repository takes —
 * then the repository service (service.ts). The route's (or field's) guard has admitted the caller.
 */
import type { OrgAccess, RepoAccess } from '../../auth/access/types';
import type { Caller } from '../../auth/caller';
import { forbidden, invalidField } from '../../model/errors';
import type { AccountRow, RepositoryRow } from '../../model/rows';
import { isoSeconds } from '../../time';
import {
	checkRepositoryUpdate,
	createRepository,
	type CreateRepositoryInput,
	updateRepository,
	type UpdateRepositoryInput,
} from './service';

/**
 * Classic and OAuth tokens need the `repo` scope for a repository that is not public: `public_repo`
 * covers public repositories only (docs/api/auth.md).
 * @throws DomainError 403 with GitHub's missing-scope message.
 */
export function requireScopeFor(caller: Pick<Caller, 'principal'>, visibility: 'public' | 'private' | 'internal'): void {
	const { principal } = caller;
	if ((principal.kind === 'classic' || principal.kind === 'oauth') && visibility !== 'public' && !principal.scopes.has('repo')) {
		throw forbidden(
			'Your token has not been granted the required scopes to execute this operation. It needs one of these scopes: repo.',
		);
	}
}

/** The visibility a creation body asks for (GitHub's default: public). */
export const requestedVisibility = (body: { private?: boolean; visibility?: 'public' | 'private' | 'internal' }) =>
	body.visibility ?? (body.private ? 'private' : 'public');

/**
 * Checks that the caller may create repositories of this visibility in the organization and returns
 * the user to grant admin as a direct collaborator: a member who creates a repository administers
 * it, as on GitHub (owners and apps need no grant).
 * @throws DomainError 403 when the organization lets only owners create repositories, or not members
 *   this visibility (members_can_create_public/private/internal_repositories).
 */
export function repositoryCreator(access: OrgAccess, visibility: RepositoryRow['visibility']): number | null {
	const { org } = access;
	if (!access.admin && org.members_can_create_repositories === 0) {
		throw forbidden(`Members of ${org.login} may not create repositories; ask an owner.`);
	}
	const allowed =
		visibility === 'public'
			? org.members_can_create_public_repositories
			: visibility === 'internal'
				? org.members_can_create_internal_repositories
				: org.members_can_create_private_repositories;
	if (!access.admin && allowed === 0) throw forbidden(`Members of ${org.login} may not create ${visibility} repositories; ask an owner.`);
	return access.userId !== null && !access.admin ? access.userId : null;
}

/**
 * Creates a repository of the calling user (POST /user/repos).
 * @returns the repository and its owner
 * @throws DomainError 403 (scope), 422 (team_id, or the service's rules)
 */
export function createUserRepository(caller: Caller, input: CreateRepositoryInput): { repo: RepositoryRow; owner: AccountRow } {
	const self = caller.principal.user;
	if (!self) throw forbidden('Only a user may create a repository of their own.');
	requireScopeFor(caller, requestedVisibility(input));
	const owner = caller.app.stores.accounts.byId(self.id)!;
	if (input.team_id !== undefined) throw invalidField('Repository', 'team_id', 'team_id applies to organization repositories only');
	const repo = createRepository(caller.app, owner, input, { collaboratorId: null, now: isoSeconds(caller.now), actorId: self.id });
	return { repo, owner };
}

/**
 * Creates a repository of the organization `access` names (POST /orgs/{org}/repos), its creator
 * granted admin when a member (not an owner) creates it.
 * @throws DomainError 403 (scope, the organization's creation policies), 422 (the service's rules)
 */
export function createOrganizationRepository(caller: Caller, access: OrgAccess, input: CreateRepositoryInput): RepositoryRow {
	requireScopeFor(caller, requestedVisibility(input));
	return createRepository(caller.app, access.org, input, {
		collaboratorId: repositoryCreator(access, requestedVisibility(input)),
		now: isoSeconds(caller.now),
		actorId: access.actorId,
	});
}

/**
 * Changes a repository's settings (PATCH /repos/{owner}/{repo}; archiving and unarchiving too):
 * `public_repo` suffices for public repositories only, an archived repository takes unarchiving
 * alone (checkRepositoryUpdate), then updateRepository.
 * @returns the repository as it now is
 * @throws DomainError 403, 422
 */
export function editRepository(caller: Caller, access: RepoAccess, input: UpdateRepositoryInput): RepositoryRow {
	const { repo, owner } = access;
	if (input.private !== undefined || input.visibility !== undefined) requireScopeFor(caller, requestedVisibility(input));
	else requireScopeFor(caller, repo.visibility);
	checkRepositoryUpdate(caller.app, repo, owner, input, {
		userId: caller.principal.user?.id ?? null,
		installation: caller.principal.kind === 'installation',
	});
	return updateRepository(caller.app, repo, owner, input, { actorId: caller.principal.actorId, now: isoSeconds(caller.now) });
}
