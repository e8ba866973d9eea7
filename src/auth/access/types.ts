/**
 * What the access rules see and what they answer: the viewer (the application, the principal and
 * whether the request is answered as a public view) and the caller's standing in a repository, an
 * organization, a team or an enterprise. The pipeline loads the resources a route declares
 * (src/http/guards.ts) and hands them to the handler as ctx.repo, ctx.org, ctx.team, ctx.enterprise.
 */
import type { App } from '../../app';
import type { EnterpriseRow, RepositoryRow, TeamRow, AccountRow } from '../../model/rows';
import type { Principal } from '../principal';
import type { RepoPermission } from '../../model/repo-permissions';

/** Who asks: a request context satisfies it. */
export interface Viewer {
	app: App;
	principal: Principal;
	/**
	 * True when the caller's token lacks the route's permission on a public route: the request is
	 * answered as for an anonymous caller (public resources only), as GitHub does.
	 */
	publicView: boolean;
	/** The route asked for: its accepted classic scopes decide which substitutes for `repo` count. */
	route?: { acceptedScopes: readonly string[] };
}

/** A repository with its owner and the caller's permission. */
export interface RepoAccess {
	repo: RepositoryRow;
	owner: AccountRow;
	/** The caller's permission; null only for a public repository seen without any role. */
	permission: RepoPermission | null;
}

/** The caller's standing in an organization. */
export interface OrgAccess {
	org: AccountRow;
	/** The caller's active role; null for outsiders, pending invitees and public views. */
	role: 'owner' | 'member' | null;
	/** An installation token issued for this organization. */
	app: boolean;
	/** Owner, or app: may administer the organization. */
	admin: boolean;
	/** Member, owner or app: may see what members see. */
	member: boolean;
	/** The acting user's id; null for an app, an anonymous caller, or a token bound to another account. */
	userId: number | null;
	/** Who acts, for records and webhook senders: the user, or an app's bot account. */
	actorId: number | null;
}

/** A team the caller may see, with the caller's standing in it and in its organization. */
export interface TeamAccess extends OrgAccess {
	team: TeamRow;
	/** The caller's direct active role in the team. */
	teamRole: 'member' | 'maintainer' | null;
	/** Organization owner, the app, or a team maintainer: may change the team. */
	manage: boolean;
}

/** The caller's role in an enterprise. */
export interface EnterpriseAccess {
	enterprise: EnterpriseRow;
	/** Owner, billing manager, member through one of its organizations, or none. */
	role: 'owner' | 'billing_manager' | 'member' | null;
	userId: number | null;
}
