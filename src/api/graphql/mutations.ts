/**
 * GraphQL mutations inside the request's write transaction. createIssue, updateIssue, closeIssue,
 * reopenIssue and addComment admit the caller with their REST route's access
 * (src/api/graphql/access.ts), validate with the REST bodies and call the issue services; the
 * others still run their REST twin's route (src/http/dispatch.ts). Inputs name objects by global
 * node id (an id the caller may not see is NOT_FOUND).
 */
import * as v from 'valibot';
import { validate } from '../../http/validation';
import type { GuardedContext, Route } from '../../http/route';
import type { RepoAccess } from '../../auth/access/types';
import type { IssueRow } from '../../model/rows';
import { commentBodyField } from '../markdown/body';
import { issueRepository, loadIssue, type IssueScope } from '../issues/service';
import { createIssueComment, renderIssueComments } from '../issue-comments/service';
import { createBody, updateBody } from '../issues/inputs';
import { createIssue, updateIssue } from '../issues/workflows';
import { admit, POLICIES } from './access';
import { TypedError } from './errors';
import { call, get, guarded, issueByNumber, type GraphContext } from './resolve';

// biome-ignore lint/suspicious/noExplicitAny: sources are REST representations of many shapes
type Source = Record<string, any>;
// biome-ignore lint/suspicious/noExplicitAny: arguments are validated by graphql-js against the schema
type Args = Record<string, any>;

const seg = (s: string | number) => encodeURIComponent(String(s));

/** The type and database id a global node id names. @throws TypedError NOT_FOUND when it is not one */
function decode(id: unknown): { type: string; id: number } {
	const m = /^0\d+:([A-Za-z]+)(\d{1,15})$/.exec(Buffer.from(String(id), 'base64').toString());
	if (!m) throw new TypedError('NOT_FOUND', `Could not resolve to a node with the global id of '${id}'`);
	return { type: m[1], id: Number(m[2]) };
}

const notFound = (id: unknown) => new TypedError('NOT_FOUND', `Could not resolve to a node with the global id of '${id}'`);

/** /repos/{owner}/{repo} of a repository node id. */
function repoPath(g: GraphContext, id: unknown): string {
	const node = decode(id);
	const { stores } = g.ctx.app;
	const repo = node.type === 'Repository' ? stores.repos.byId(node.id) : undefined;
	const owner = repo && stores.accounts.byId(repo.owner_id);
	if (!repo || !owner) throw notFound(id);
	return `/repos/${seg(owner.login)}/${seg(repo.name)}`;
}

/** /repos/{owner}/{repo}/issues/{number} of an issue or pull request node id. */
function issuePath(g: GraphContext, id: unknown, kinds: string[] = ['Issue', 'PullRequest']): string {
	const node = decode(id);
	const { stores } = g.ctx.app;
	const issue = kinds.includes(node.type) ? stores.issues.byId(node.id) : undefined;
	const repo = issue && stores.repos.byId(issue.repo_id);
	const owner = repo && stores.accounts.byId(repo.owner_id);
	if (!issue || !repo || !owner) throw notFound(id);
	return `/repos/${seg(owner.login)}/${seg(repo.name)}/issues/${issue.number}`;
}

/** Label names of label node ids. */
function labelNames(g: GraphContext, ids: unknown[]): string[] {
	return ids.map((id) => {
		const node = decode(id);
		const row = node.type === 'Label' ? g.ctx.app.stores.labels.byId(node.id) : undefined;
		if (!row) throw notFound(id);
		return row.name;
	});
}

/** Logins of user node ids. */
function logins(g: GraphContext, ids: unknown[]): string[] {
	return ids.map((id) => {
		const node = decode(id);
		const row = node.type === 'User' ? g.ctx.app.stores.accounts.byId(node.id) : undefined;
		if (!row) throw notFound(id);
		return row.login;
	});
}

/** A milestone number of a milestone node id. */
function milestoneNumber(g: GraphContext, id: unknown): number {
	const node = decode(id);
	const row = node.type === 'Milestone' ? g.ctx.app.stores.milestones.byId(node.id) : undefined;
	if (!row) throw notFound(id);
	return row.number;
}

/** An issue (or pull request) a node id names, the caller admitted to `route` for it. */
interface IssueTarget {
	admitted: GuardedContext & { repo: RepoAccess };
	scope: IssueScope;
	issue: IssueRow;
}

/**
 * The issue or pull request of node `id` with the caller admitted to `route` (a REST issue route's
 * access) for it, as a request to the route is.
 * @throws TypedError NOT_FOUND for an id that names no issue the caller may see; the route's refusal (FORBIDDEN …)
 */
function issueTarget(g: GraphContext, route: Route, id: unknown, kinds: string[] = ['Issue', 'PullRequest']): IssueTarget {
	const node = decode(id);
	const { stores } = g.ctx.app;
	const row = kinds.includes(node.type) ? stores.issues.byId(node.id) : undefined;
	const repo = row && stores.repos.byId(row.repo_id);
	const owner = repo && stores.accounts.byId(repo.owner_id);
	if (!row || !repo || !owner) throw notFound(id);
	return guarded(`Could not resolve to a node with the global id of '${id}'`, () => {
		const params = { owner: owner.login, repo: repo.name, issue_number: String(row.number) };
		const admitted = admit(g.ctx, route, params) as GuardedContext & { repo: RepoAccess };
		const scope = issueRepository(admitted, { allowDisabled: true });
		return { admitted, scope, issue: loadIssue(admitted, scope) };
	});
}

/**
 * Edits the issue of node `id` as PATCH …/issues/{issue_number} does (its access, its body rules,
 * updateIssue) and returns the issue after the edit.
 * @param patch the edit in REST's names (title, body, state, state_reason, labels, assignees, milestone)
 */
function editIssue(g: GraphContext, id: unknown, patch: Source): Source {
	const { scope, issue } = guarded(undefined, () => {
		const target = issueTarget(g, POLICIES.updateIssue, id, ['Issue']);
		updateIssue(target.admitted, target.scope, target.issue, validate(updateBody, patch, 'Issue'));
		return target;
	});
	return issueByNumber(g, scope.owner.login, scope.repo.name, issue.number);
}

/** addComment's body: REST's comment body rules (not blank, bounded). */
const COMMENT_INPUT = v.object({ body: commentBodyField });

const asIssue = (json: Source): Source => ({ ...json, __typename: json.pull_request ? 'PullRequest' : 'Issue' });

/** The fields of an issue edit from createIssue/updateIssue inputs (REST names). */
function issueEdit(g: GraphContext, input: Args): Source {
	const body: Source = {};
	if (input.title != null) body.title = input.title;
	if (input.body !== undefined) body.body = input.body;
	if (input.labelIds) body.labels = labelNames(g, input.labelIds);
	if (input.assigneeIds) body.assignees = logins(g, input.assigneeIds);
	if (input.milestoneId !== undefined) body.milestone = input.milestoneId === null ? null : milestoneNumber(g, input.milestoneId);
	if (input.state) body.state = String(input.state).toLowerCase();
	return body;
}

const write = (g: GraphContext, method: 'POST' | 'PATCH' | 'PUT' | 'DELETE', path: string, body?: unknown) =>
	call(g, method, path, { body });

/** Mutation resolvers: (input) → payload. */
export const MUTATIONS: Record<string, (source: unknown, args: Args, g: GraphContext) => unknown> = {
	createIssue: (_s, { input }, g) => {
		const node = decode(input.repositoryId);
		const { stores } = g.ctx.app;
		const repo = node.type === 'Repository' ? stores.repos.byId(node.id) : undefined;
		const owner = repo && stores.accounts.byId(repo.owner_id);
		if (!repo || !owner) throw notFound(input.repositoryId);
		const row = guarded(`Could not resolve to a node with the global id of '${input.repositoryId}'`, () => {
			const admitted = admit(g.ctx, POLICIES.createIssue, { owner: owner.login, repo: repo.name }) as GuardedContext & {
				repo: RepoAccess;
			};
			const scope = issueRepository(admitted);
			const body = validate(createBody, issueEdit(g, input), 'Issue');
			return createIssue(admitted, scope, body);
		});
		return { clientMutationId: input.clientMutationId ?? null, issue: issueByNumber(g, owner.login, repo.name, row.number) };
	},
	closeIssue: (_s, { input }, g) => {
		const body: Source = { state: 'closed' };
		if (input.stateReason) body.state_reason = String(input.stateReason).toLowerCase();
		return { clientMutationId: input.clientMutationId ?? null, issue: editIssue(g, input.issueId, body) };
	},
	reopenIssue: (_s, { input }, g) => ({
		clientMutationId: input.clientMutationId ?? null,
		issue: editIssue(g, input.issueId, { state: 'open' }),
	}),
	updateIssue: (_s, { input }, g) => ({
		clientMutationId: input.clientMutationId ?? null,
		issue: editIssue(g, input.id, issueEdit(g, input)),
	}),
	addComment: (_s, { input }, g) => {
		const { admitted, scope, issue } = issueTarget(g, POLICIES.comment, input.subjectId);
		const row = guarded(undefined, () =>
			createIssueComment(admitted, scope, issue, validate(COMMENT_INPUT, { body: input.body }, 'IssueComment').body),
		);
		const comment = renderIssueComments(admitted, scope, [row], [issue])[0];
		return {
			clientMutationId: input.clientMutationId ?? null,
			commentEdge: {
				cursor: Buffer.from(`cursor:v2:${comment.id}`).toString('base64'),
				node: { ...comment, __typename: 'IssueComment', __owner: scope.owner.login, __name: scope.repo.name },
			},
			subject: issueByNumber(g, scope.owner.login, scope.repo.name, issue.number),
		};
	},
	createLabel: (_s, { input }, g) => {
		const label = write(g, 'POST', `${repoPath(g, input.repositoryId)}/labels`, {
			name: input.name,
			color: input.color,
			...(input.description != null ? { description: input.description } : {}),
		}).body;
		return { clientMutationId: input.clientMutationId ?? null, label: { ...label, __typename: 'Label' } };
	},
	addLabelsToLabelable: (_s, { input }, g) => {
		const path = issuePath(g, input.labelableId);
		write(g, 'POST', `${path}/labels`, { labels: labelNames(g, input.labelIds) });
		return { clientMutationId: input.clientMutationId ?? null, labelable: asIssue(get(g, path)) };
	},
	removeLabelsFromLabelable: (_s, { input }, g) => {
		const path = issuePath(g, input.labelableId);
		for (const name of labelNames(g, input.labelIds)) write(g, 'DELETE', `${path}/labels/${seg(name)}`);
		return { clientMutationId: input.clientMutationId ?? null, labelable: asIssue(get(g, path)) };
	},
	addStar: (_s, { input }, g) => {
		const path = repoPath(g, input.starrableId);
		write(g, 'PUT', `/user/starred${path.slice('/repos'.length)}`);
		return { clientMutationId: input.clientMutationId ?? null, starrable: { ...get(g, path), __typename: 'Repository' } };
	},
	removeStar: (_s, { input }, g) => {
		const path = repoPath(g, input.starrableId);
		write(g, 'DELETE', `/user/starred${path.slice('/repos'.length)}`);
		return { clientMutationId: input.clientMutationId ?? null, starrable: { ...get(g, path), __typename: 'Repository' } };
	},
};

/** /repos/{owner}/{repo}/pulls/{number} of a pull request node id. */
const pullPath = (g: GraphContext, id: unknown) => issuePath(g, id, ['PullRequest']).replace(/\/issues\/(\d+)$/, '/pulls/$1');

const asPull = (json: Source): Source => ({ ...json, __typename: 'PullRequest' });
const asReview = (json: Source): Source => ({ ...json, __typename: 'PullRequestReview' });

/** Team slugs of team node ids (with their organization). */
function teamSlugs(g: GraphContext, ids: unknown[]): string[] {
	return ids.map((id) => {
		const node = decode(id);
		const team = node.type === 'Team' ? g.ctx.app.stores.teams.byId(node.id) : undefined;
		if (!team) throw notFound(id);
		return team.slug;
	});
}

Object.assign(MUTATIONS, {
	createPullRequest: (_s: unknown, { input }: Args, g: GraphContext) => {
		let head = input.headRefName as string;
		if (input.headRepositoryId) {
			const headRepo = get(g, repoPath(g, input.headRepositoryId));
			head = `${headRepo.owner.login}:${head}`;
		}
		const pull = write(g, 'POST', `${repoPath(g, input.repositoryId)}/pulls`, {
			title: input.title,
			head,
			base: input.baseRefName,
			...(input.body != null ? { body: input.body } : {}),
			draft: input.draft ?? false,
			maintainer_can_modify: input.maintainerCanModify ?? true,
		}).body;
		return { clientMutationId: input.clientMutationId ?? null, pullRequest: asPull(pull) };
	},
	mergePullRequest: (_s: unknown, { input }: Args, g: GraphContext) => {
		const path = pullPath(g, input.pullRequestId);
		const body: Source = { merge_method: String(input.mergeMethod ?? 'MERGE').toLowerCase() };
		if (input.commitHeadline != null) body.commit_title = input.commitHeadline;
		if (input.commitBody != null) body.commit_message = input.commitBody;
		if (input.expectedHeadOid != null) body.sha = input.expectedHeadOid;
		write(g, 'PUT', `${path}/merge`, body);
		return { clientMutationId: input.clientMutationId ?? null, pullRequest: asPull(get(g, path)) };
	},
	addPullRequestReview: (_s: unknown, { input }: Args, g: GraphContext) => {
		const body: Source = {};
		if (input.body != null) body.body = input.body;
		if (input.event != null) body.event = input.event;
		if (input.commitOID != null) body.commit_id = input.commitOID;
		if (input.comments?.length) {
			body.comments = (input.comments as Source[]).map((c) => ({
				path: c.path,
				body: c.body,
				...(c.position != null ? { position: c.position } : {}),
			}));
		}
		const review = write(g, 'POST', `${pullPath(g, input.pullRequestId)}/reviews`, body).body;
		return { clientMutationId: input.clientMutationId ?? null, pullRequestReview: asReview(review) };
	},
	submitPullRequestReview: (_s: unknown, { input }: Args, g: GraphContext) => {
		const { stores } = g.ctx.app;
		let reviewId: number | null = null;
		let issueId: number | null = null;
		if (input.pullRequestReviewId != null) {
			const node = decode(input.pullRequestReviewId);
			const review = node.type === 'PullRequestReview' ? stores.reviews.byId(node.id) : undefined;
			if (!review) throw notFound(input.pullRequestReviewId);
			reviewId = review.id;
			issueId = review.issue_id;
		} else if (input.pullRequestId != null) {
			issueId = decode(input.pullRequestId).id;
			const pending = (
				call(g, 'GET', `${pullPath(g, input.pullRequestId)}/reviews`, { query: { per_page: '100' } }).body as Source[]
			).find((r) => r.state === 'PENDING' && r.user?.id === g.ctx.principal.user?.id);
			if (!pending) throw new TypedError('NOT_FOUND', 'Could not find a pending review for this pull request.');
			reviewId = pending.id;
		} else {
			throw new TypedError('UNPROCESSABLE', 'Either pullRequestReviewId or pullRequestId must be given.');
		}
		const path = pullPath(g, Buffer.from(`011:PullRequest${issueId}`).toString('base64'));
		const body: Source = { event: input.event };
		if (input.body != null) body.body = input.body;
		const review = write(g, 'POST', `${path}/reviews/${reviewId}/events`, body).body;
		return { clientMutationId: input.clientMutationId ?? null, pullRequestReview: asReview(review) };
	},
	requestReviews: (_s: unknown, { input }: Args, g: GraphContext) => {
		const path = pullPath(g, input.pullRequestId);
		const reviewers = logins(g, input.userIds ?? []);
		const teams = teamSlugs(g, input.teamIds ?? []);
		if (!input.union) {
			// Without union the requested reviewers become exactly these: the others are withdrawn.
			const current = call(g, 'GET', `${path}/requested_reviewers`).body as { users: Source[]; teams: Source[] };
			const dropUsers = current.users.map((u) => u.login as string).filter((login) => !reviewers.includes(login));
			const dropTeams = current.teams.map((t) => t.slug as string).filter((slug) => !teams.includes(slug));
			if (dropUsers.length || dropTeams.length)
				write(g, 'DELETE', `${path}/requested_reviewers`, { reviewers: dropUsers, team_reviewers: dropTeams });
		}
		if (reviewers.length || teams.length) write(g, 'POST', `${path}/requested_reviewers`, { reviewers, team_reviewers: teams });
		return { clientMutationId: input.clientMutationId ?? null, pullRequest: asPull(get(g, path)) };
	},
	closePullRequest: (_s: unknown, { input }: Args, g: GraphContext) => {
		const pull = write(g, 'PATCH', pullPath(g, input.pullRequestId), { state: 'closed' }).body;
		return { clientMutationId: input.clientMutationId ?? null, pullRequest: asPull(pull) };
	},
	reopenPullRequest: (_s: unknown, { input }: Args, g: GraphContext) => {
		const pull = write(g, 'PATCH', pullPath(g, input.pullRequestId), { state: 'open' }).body;
		return { clientMutationId: input.clientMutationId ?? null, pullRequest: asPull(pull) };
	},
	/**
	 * updatePullRequest: title, body, base, state and maintainerCanModify through
	 * PATCH /repos/{owner}/{repo}/pulls/{number}; assignees, labels and milestone through
	 * PATCH /repos/{owner}/{repo}/issues/{number} (the pull request's issue), as REST splits them.
	 * Gitstead has no projects: projectIds naming any project is NOT_FOUND.
	 */
	updatePullRequest: (_s: unknown, { input }: Args, g: GraphContext) => {
		const path = pullPath(g, input.pullRequestId);
		if (input.projectIds?.length) throw notFound(input.projectIds[0]);
		const pullBody: Source = {};
		if (input.title != null) pullBody.title = input.title;
		if (input.body !== undefined) pullBody.body = input.body;
		if (input.baseRefName != null) pullBody.base = input.baseRefName;
		if (input.state != null) pullBody.state = String(input.state).toLowerCase();
		if (input.maintainerCanModify != null) pullBody.maintainer_can_modify = input.maintainerCanModify;
		const issueBody = issueEdit(g, { labelIds: input.labelIds, assigneeIds: input.assigneeIds, milestoneId: input.milestoneId });
		if (Object.keys(pullBody).length) write(g, 'PATCH', path, pullBody);
		if (Object.keys(issueBody).length) write(g, 'PATCH', path.replace(/\/pulls\/(\d+)$/, '/issues/$1'), issueBody);
		return { clientMutationId: input.clientMutationId ?? null, pullRequest: asPull(get(g, path)) };
	},
	archiveRepository: (_s: unknown, { input }: Args, g: GraphContext) => {
		const repo = write(g, 'PATCH', repoPath(g, input.repositoryId), { archived: true }).body;
		return { clientMutationId: input.clientMutationId ?? null, repository: { ...repo, __typename: 'Repository' } };
	},
	unarchiveRepository: (_s: unknown, { input }: Args, g: GraphContext) => {
		const repo = write(g, 'PATCH', repoPath(g, input.repositoryId), { archived: false }).body;
		return { clientMutationId: input.clientMutationId ?? null, repository: { ...repo, __typename: 'Repository' } };
	},
	createRepository: (_s: unknown, { input }: Args, g: GraphContext) => {
		const visibility = String(input.visibility).toLowerCase();
		const body: Source = {
			name: input.name,
			private: visibility !== 'public',
			has_issues: input.hasIssuesEnabled ?? true,
			has_wiki: input.hasWikiEnabled ?? false,
			is_template: input.template ?? false,
		};
		if (input.description != null) body.description = input.description;
		if (input.homepageUrl != null) body.homepage = input.homepageUrl;
		let path = '/user/repos';
		if (input.ownerId != null) {
			const node = decode(input.ownerId);
			const owner = g.ctx.app.stores.accounts.byId(node.id);
			if (!owner || (node.type !== 'User' && node.type !== 'Organization')) throw notFound(input.ownerId);
			if (owner.type === 'Organization') {
				path = `/orgs/${seg(owner.login)}/repos`;
				body.visibility = visibility;
				if (input.teamId != null) {
					const team = decode(input.teamId);
					body.team_id = team.id;
				}
			} else if (owner.id !== g.ctx.principal.user?.id) {
				throw new TypedError(
					'FORBIDDEN',
					`${g.ctx.principal.user?.login ?? 'The caller'} cannot create a repository for ${owner.login}.`,
				);
			}
		}
		const repo = write(g, 'POST', path, body).body;
		return { clientMutationId: input.clientMutationId ?? null, repository: { ...repo, __typename: 'Repository' } };
	},
});
