/**
 * GraphQL's branch protection rule mutations (createBranchProtectionRule,
 * updateBranchProtectionRule, deleteBranchProtectionRule) over the branch protection service that
 * PUT and DELETE /repos/{owner}/{repo}/branches/{branch}/protection call, admitted with those
 * routes' access (the repository's admin role, Administration write), so both interfaces read and
 * write the same protection and record the same branch_protection_rule events.
 * Gitstead protects branch names: a rule's `pattern` is one branch's name (a pattern with
 * wildcards is refused with a clear message). Terraform's github_branch_protection uses these.
 * https://docs.github.com/graphql/reference/mutations#createbranchprotectionrule
 */
import { isoSeconds } from '../../time';
import type { Route } from '../../http/route';
import { removeProtection, replaceProtection, requireBranch, type ActorNames, type ProtectionInput } from '../branches/service';
import type { ActorIds } from '../branches/store';
import { repositoryAccess } from './access';
import { TypedError } from './errors';
import { ruleOf } from './repository-fields';
import { REPO_POLICIES } from './repository-policies';
import { guarded, type Admitted, type GraphContext } from './resolve';

// biome-ignore lint/suspicious/noExplicitAny: sources are REST representations of many shapes
type Source = Record<string, any>;
// biome-ignore lint/suspicious/noExplicitAny: arguments are validated by graphql-js against the schema
type Args = Record<string, any>;

const notFoundMessage = (id: unknown) => `Could not resolve to a node with the global id of '${id}'`;
const notFound = (id: unknown) => new TypedError('NOT_FOUND', notFoundMessage(id));

/** The type and database id a global node id names (User, Team, Repository), or null. */
function decode(id: unknown): { type: string; id: number } | null {
	const m = /^0\d+:([A-Za-z]+)(\d{1,15})$/.exec(Buffer.from(String(id), 'base64').toString());
	return m ? { type: m[1], id: Number(m[2]) } : null;
}

/**
 * The repository `owner`/`name` admitted under `route` (a protection write: the admin role).
 * @throws TypedError NOT_FOUND worded for `id` when the caller cannot see it, FORBIDDEN below admin
 */
function admitted(g: GraphContext, route: Route, owner: string, name: string, id: unknown): Admitted {
	return guarded(notFoundMessage(id), () => repositoryAccess(g.ctx, route, owner, name));
}

/** owner and name of a repository node id. @throws TypedError NOT_FOUND */
function repositoryOf(g: GraphContext, id: unknown): [string, string] {
	const node = decode(id);
	const { stores } = g.ctx.app;
	const repo = node?.type === 'Repository' ? stores.repos.byId(node.id) : undefined;
	const owner = repo && stores.accounts.byId(repo.owner_id);
	if (!repo || !owner) throw notFound(id);
	return [owner.login, repo.name];
}

/** owner, name and branch of a BranchProtectionRule node id. @throws TypedError NOT_FOUND */
function ruleTarget(id: unknown): { owner: string; name: string; branch: string } {
	const m = /^020:BranchProtectionRule([^/:]+)\/([^/:]+):(.+)$/s.exec(Buffer.from(String(id), 'base64').toString());
	if (!m) throw notFound(id);
	return { owner: m[1], name: m[2], branch: m[3] };
}

/** Logins and team slugs of actor node ids (users and teams; apps are not push actors here). */
function actors(g: GraphContext, ids: unknown[]): { users: string[]; teams: string[] } {
	const users: string[] = [];
	const teams: string[] = [];
	const { stores } = g.ctx.app;
	for (const id of ids) {
		const node = decode(id);
		if (node?.type === 'User') {
			const user = stores.accounts.byId(node.id);
			if (!user) throw notFound(id);
			users.push(user.login);
		} else if (node?.type === 'Team') {
			const team = stores.teams.byId(node.id);
			if (!team) throw notFound(id);
			teams.push(team.slug);
		} else throw notFound(id);
	}
	return { users, teams };
}

/** The logins, team slugs and app slugs of stored actor ids, as a request names them again. */
function names(g: GraphContext, ids: ActorIds | null): Required<ActorNames> {
	const { stores } = g.ctx.app;
	return {
		users: (ids?.users ?? []).flatMap((id) => stores.accounts.byId(id)?.login ?? []),
		teams: (ids?.teams ?? []).flatMap((id) => stores.teams.byId(id)?.slug ?? []),
		apps: (ids?.apps ?? []).flatMap((id) => stores.apps.byId(id)?.slug ?? []),
	};
}

/**
 * Writes the rule for `branch` of an admitted repository: the input's fields over the current
 * rule's (none for a new rule), through the service PUT …/protection calls, required signatures
 * included. @returns the rule as read back
 * @throws TypedError UNPROCESSABLE for a pattern with wildcards, NOT_FOUND for a missing branch
 *   or unknown actor id; the service's refusals (422 for actors it cannot restrict)
 */
function save(g: GraphContext, repo: Admitted, branch: string, input: Args): Source {
	if (/[*?[\]]/.test(branch))
		throw new TypedError('UNPROCESSABLE', `Gitstead protects branch names; the pattern '${branch}' has wildcards`);
	const { app } = g.ctx;
	const current = app.stores.branches.protection(repo.repo.repo.id, branch)?.settings ?? null;
	const rule = current ? ruleOf(app, repo, branch) : null;
	const pick = <T>(key: string, fallback: T): T =>
		input[key] !== undefined && input[key] !== null ? input[key] : (rule?.[key] ?? fallback);
	const contexts: string[] =
		input.requiredStatusCheckContexts ??
		(input.requiredStatusChecks as Source[] | undefined)?.map((c) => String(c.context)) ??
		rule?.requiredStatusCheckContexts ??
		[];
	const reviews = current?.required_pull_request_reviews ?? null;
	const body: ProtectionInput = {
		required_status_checks: pick('requiresStatusChecks', false)
			? { strict: pick('requiresStrictStatusChecks', false), contexts }
			: null,
		enforce_admins: pick('isAdminEnforced', false),
		required_pull_request_reviews: pick('requiresApprovingReviews', false)
			? {
					required_approving_review_count: pick('requiredApprovingReviewCount', 1) ?? 1,
					require_code_owner_reviews: pick('requiresCodeOwnerReviews', false),
					dismiss_stale_reviews: pick('dismissesStaleReviews', false),
					require_last_push_approval: pick('requireLastPushApproval', false),
					...(pick('restrictsReviewDismissals', false)
						? {
								dismissal_restrictions:
									input.reviewDismissalActorIds != null
										? actors(g, input.reviewDismissalActorIds)
										: names(g, reviews?.dismissal_restrictions ?? null),
							}
						: {}),
				}
			: null,
		restrictions: pick('restrictsPushes', false)
			? input.pushActorIds != null
				? { ...actors(g, input.pushActorIds), apps: [] }
				: names(g, current?.restrictions ?? null)
			: null,
		required_linear_history: pick('requiresLinearHistory', false),
		allow_force_pushes: pick('allowsForcePushes', false),
		allow_deletions: pick('allowsDeletions', false),
		block_creations: pick('blocksCreations', false),
		required_conversation_resolution: pick('requiresConversationResolution', false),
		lock_branch: pick('lockBranch', false),
		allow_fork_syncing: current?.allow_fork_syncing ?? false,
	};
	guarded(undefined, () =>
		replaceProtection(app, { repo: repo.repo.repo, owner: repo.repo.owner }, branch, body, {
			now: isoSeconds(g.ctx.now),
			actorId: g.ctx.principal.actorId,
			requiredSignatures: pick('requiresCommitSignatures', false),
		}),
	);
	return ruleOf(app, repo, branch) as Source;
}

/** Whether the admitted repository's `branch` is protected. */
const isProtected = (g: GraphContext, repo: Admitted, branch: string) =>
	g.ctx.app.stores.branches.protection(repo.repo.repo.id, branch) !== undefined;

export const PROTECTION_MUTATIONS: Record<string, (source: unknown, args: Args, g: GraphContext) => unknown> = {
	createBranchProtectionRule: (_s, { input }, g) => {
		const repo = admitted(g, REPO_POLICIES.updateProtection, ...repositoryOf(g, input.repositoryId), input.repositoryId);
		const branch = String(input.pattern);
		if (isProtected(g, repo, branch)) throw new TypedError('UNPROCESSABLE', `Name already protected: ${branch}`);
		return { clientMutationId: input.clientMutationId ?? null, branchProtectionRule: save(g, repo, branch, input) };
	},
	updateBranchProtectionRule: (_s, { input }, g) => {
		const id = input.branchProtectionRuleId;
		const { owner, name, branch } = ruleTarget(id);
		const repo = admitted(g, REPO_POLICIES.updateProtection, owner, name, id);
		if (!isProtected(g, repo, branch)) throw notFound(id);
		const pattern = input.pattern != null ? String(input.pattern) : branch;
		if (pattern !== branch) {
			// A new pattern moves the rule: the new branch's protection is written, the old one's goes.
			if (isProtected(g, repo, pattern)) throw new TypedError('UNPROCESSABLE', `Name already protected: ${pattern}`);
			const moved = save(g, repo, pattern, { ...(ruleOf(g.ctx.app, repo, branch) ?? {}), ...stripNulls(input) });
			removeProtection(g.ctx.app, { repo: repo.repo.repo, owner: repo.repo.owner }, branch, g.ctx.principal.actorId);
			return { clientMutationId: input.clientMutationId ?? null, branchProtectionRule: moved };
		}
		return { clientMutationId: input.clientMutationId ?? null, branchProtectionRule: save(g, repo, branch, input) };
	},
	deleteBranchProtectionRule: (_s, { input }, g) => {
		const id = input.branchProtectionRuleId;
		const { owner, name, branch } = ruleTarget(id);
		const repo = admitted(g, REPO_POLICIES.deleteProtection, owner, name, id);
		guarded(notFoundMessage(id), () => requireBranch(g.ctx.app, repo.repo.repo.id, branch));
		if (!removeProtection(g.ctx.app, { repo: repo.repo.repo, owner: repo.repo.owner }, branch, g.ctx.principal.actorId))
			throw notFound(id);
		return { clientMutationId: input.clientMutationId ?? null };
	},
};

const stripNulls = (input: Args) => Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined));
