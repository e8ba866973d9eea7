/**
 * GraphQL's branch protection rule mutations (createBranchProtectionRule,
 * updateBranchProtectionRule, deleteBranchProtectionRule) over REST branch protection
 * (PUT/DELETE /repos/{owner}/{repo}/branches/{branch}/protection and
 * …/protection/required_signatures), so both interfaces read and write the same protection.
 * Gitstead protects branch names: a rule's `pattern` is one branch's name (a pattern with
 * wildcards is refused with a clear message). Terraform's github_branch_protection uses these.
 * https://docs.github.com/graphql/reference/mutations#createbranchprotectionrule
 */
import { TypedError } from './errors';
import { call, readProtectionRule, type GraphContext } from './resolve';

// biome-ignore lint/suspicious/noExplicitAny: sources are REST representations of many shapes
type Source = Record<string, any>;
// biome-ignore lint/suspicious/noExplicitAny: arguments are validated by graphql-js against the schema
type Args = Record<string, any>;

const seg = (s: string | number) => encodeURIComponent(String(s));
const notFound = (id: unknown) => new TypedError('NOT_FOUND', `Could not resolve to a node with the global id of '${id}'`);

/** The type and database id a global node id names (User, Team, Repository), or null. */
function decode(id: unknown): { type: string; id: number } | null {
	const m = /^0\d+:([A-Za-z]+)(\d{1,15})$/.exec(Buffer.from(String(id), 'base64').toString());
	return m ? { type: m[1], id: Number(m[2]) } : null;
}

/** owner/name of a repository node id. @throws TypedError NOT_FOUND */
function repoFullName(g: GraphContext, id: unknown): string {
	const node = decode(id);
	const { stores } = g.ctx.app;
	const repo = node?.type === 'Repository' ? stores.repos.byId(node.id) : undefined;
	const owner = repo && stores.accounts.byId(repo.owner_id);
	if (!repo || !owner) throw notFound(id);
	return `${owner.login}/${repo.name}`;
}

/** owner/name and branch of a BranchProtectionRule node id. @throws TypedError NOT_FOUND */
function ruleTarget(id: unknown): { repo: string; branch: string } {
	const m = /^020:BranchProtectionRule([^/:]+\/[^/:]+):(.+)$/s.exec(Buffer.from(String(id), 'base64').toString());
	if (!m) throw notFound(id);
	return { repo: m[1], branch: m[2] };
}

/** Logins and team slugs of actor node ids (users and teams; apps are not push actors here). */
function actors(g: GraphContext, ids: unknown[] | null | undefined): { users: string[]; teams: string[] } {
	const users: string[] = [];
	const teams: string[] = [];
	for (const id of ids ?? []) {
		const node = decode(id);
		const { stores } = g.ctx.app;
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

/** The REST protection of a branch, or null when it has none. */
function restProtection(g: GraphContext, repo: string, branch: string): Source | null {
	try {
		return call(g, 'GET', `/repos/${repo}/branches/${seg(branch)}/protection`).body;
	} catch (error) {
		if (error instanceof TypedError && error.type === 'NOT_FOUND') return null;
		throw error;
	}
}

/** Who the REST restrictions name, as PUT takes them back. */
const restrictionsOf = (current: Source | null) =>
	current?.restrictions
		? {
				users: (current.restrictions.users as Source[]).map((u) => u.login),
				teams: (current.restrictions.teams as Source[]).map((t) => t.slug),
				apps: ((current.restrictions.apps ?? []) as Source[]).map((a) => a.slug),
			}
		: null;

/**
 * Writes the rule for `branch`: the input's fields over the current rule's (none for a new rule),
 * through PUT …/protection and the required_signatures switch. @returns the rule as read back
 */
function save(g: GraphContext, repo: string, branch: string, input: Args): Source {
	if (/[*?[\]]/.test(branch))
		throw new TypedError('UNPROCESSABLE', `Gitstead protects branch names; the pattern '${branch}' has wildcards`);
	const current = restProtection(g, repo, branch);
	const rule = current ? readProtectionRule(g, repo, branch) : null;
	const pick = <T>(key: string, fallback: T): T =>
		input[key] !== undefined && input[key] !== null ? input[key] : (rule?.[key] ?? fallback);
	const reviews = pick('requiresApprovingReviews', false);
	const checks = pick('requiresStatusChecks', false);
	const contexts =
		input.requiredStatusCheckContexts ??
		(input.requiredStatusChecks as Source[] | undefined)?.map((c) => c.context) ??
		rule?.requiredStatusCheckContexts ??
		[];
	const restricts = pick('restrictsPushes', false);
	const dismissals = pick('restrictsReviewDismissals', false);
	const currentReviews = current?.required_pull_request_reviews as Source | undefined;
	const body = {
		required_status_checks: checks ? { strict: pick('requiresStrictStatusChecks', false), contexts } : null,
		enforce_admins: pick('isAdminEnforced', false),
		required_pull_request_reviews: reviews
			? {
					required_approving_review_count: pick('requiredApprovingReviewCount', 1) ?? 1,
					require_code_owner_reviews: pick('requiresCodeOwnerReviews', false),
					dismiss_stale_reviews: pick('dismissesStaleReviews', false),
					require_last_push_approval: pick('requireLastPushApproval', false),
					...(dismissals
						? {
								dismissal_restrictions:
									input.reviewDismissalActorIds != null
										? actors(g, input.reviewDismissalActorIds)
										: {
												users: ((currentReviews?.dismissal_restrictions?.users ?? []) as Source[]).map(
													(u) => u.login,
												),
												teams: ((currentReviews?.dismissal_restrictions?.teams ?? []) as Source[]).map(
													(t) => t.slug,
												),
											},
							}
						: {}),
				}
			: null,
		restrictions: restricts
			? input.pushActorIds != null
				? { ...actors(g, input.pushActorIds), apps: [] }
				: (restrictionsOf(current) ?? { users: [], teams: [], apps: [] })
			: null,
		required_linear_history: pick('requiresLinearHistory', false),
		allow_force_pushes: pick('allowsForcePushes', false),
		allow_deletions: pick('allowsDeletions', false),
		block_creations: pick('blocksCreations', false),
		required_conversation_resolution: pick('requiresConversationResolution', false),
		lock_branch: pick('lockBranch', false),
	};
	const path = `/repos/${repo}/branches/${seg(branch)}/protection`;
	call(g, 'PUT', path, { body });
	const signatures = pick('requiresCommitSignatures', false);
	if (signatures !== (rule?.requiresCommitSignatures ?? false)) call(g, signatures ? 'POST' : 'DELETE', `${path}/required_signatures`);
	return readProtectionRule(g, repo, branch) as Source;
}

export const PROTECTION_MUTATIONS: Record<string, (source: unknown, args: Args, g: GraphContext) => unknown> = {
	createBranchProtectionRule: (_s, { input }, g) => {
		const repo = repoFullName(g, input.repositoryId);
		const branch = String(input.pattern);
		if (restProtection(g, repo, branch)) throw new TypedError('UNPROCESSABLE', `Name already protected: ${branch}`);
		return { clientMutationId: input.clientMutationId ?? null, branchProtectionRule: save(g, repo, branch, input) };
	},
	updateBranchProtectionRule: (_s, { input }, g) => {
		const { repo, branch } = ruleTarget(input.branchProtectionRuleId);
		if (!restProtection(g, repo, branch)) throw notFound(input.branchProtectionRuleId);
		const pattern = input.pattern != null ? String(input.pattern) : branch;
		if (pattern !== branch) {
			// A new pattern moves the rule: the old branch's protection goes, the new one's is written.
			const moved = save(g, repo, pattern, { ...(readProtectionRule(g, repo, branch) ?? {}), ...stripNulls(input) });
			call(g, 'DELETE', `/repos/${repo}/branches/${seg(branch)}/protection`);
			return { clientMutationId: input.clientMutationId ?? null, branchProtectionRule: moved };
		}
		return { clientMutationId: input.clientMutationId ?? null, branchProtectionRule: save(g, repo, branch, input) };
	},
	deleteBranchProtectionRule: (_s, { input }, g) => {
		const { repo, branch } = ruleTarget(input.branchProtectionRuleId);
		if (!restProtection(g, repo, branch)) throw notFound(input.branchProtectionRuleId);
		call(g, 'DELETE', `/repos/${repo}/branches/${seg(branch)}/protection`);
		return { clientMutationId: input.clientMutationId ?? null };
	},
};

const stripNulls = (input: Args) => Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined));
