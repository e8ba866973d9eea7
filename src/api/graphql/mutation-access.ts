/**
 * The access of the GraphQL mutations that change what a REST route changes: each states its REST
 * twin's route access by spreading the same declaration the route spreads (src/api/<feature>/access.ts),
 * so a mutation admits exactly the callers the REST request admits (token kinds, scopes,
 * fine-grained and app permissions, then the resource guard: 404 for what the caller may not
 * see, 403 for what it sees but may not change, 403 for an archived repository).
 * GraphQL-only mutations (draft state, issue transfer, pin and delete) state the access of the
 * nearest REST write; their service decides the rest.
 */
import { ISSUES_ADMIN, ISSUES_LOCK, ISSUES_TRIAGE } from '../issues/access';
import { LABELS_WRITE } from '../labels/access';
import { PULLS_MERGE, PULLS_WRITE } from '../pulls/access';
import { REPOSITORY_ADMIN, REPOSITORY_CREATE_ORG, REPOSITORY_CREATE_USER } from '../repos/access';
import { STAR_WRITE } from '../starring/access';
import { policy } from './access';

const ISSUE = '/repos/{owner}/{repo}/issues/{issue_number}';
const PULL = '/repos/{owner}/{repo}/pulls/{pull_number}';

export const MUTATION_POLICIES = {
	createLabel: policy({ ...LABELS_WRITE, method: 'POST', path: '/repos/{owner}/{repo}/labels', docs: 'issues/labels#create-a-label' }),
	addLabels: policy({ ...ISSUES_TRIAGE, method: 'POST', path: `${ISSUE}/labels`, docs: 'issues/labels#add-labels-to-an-issue' }),
	removeLabel: policy({
		...ISSUES_TRIAGE,
		method: 'DELETE',
		path: `${ISSUE}/labels/{name}`,
		docs: 'issues/labels#remove-a-label-from-an-issue',
	}),
	lock: policy({ ...ISSUES_LOCK, method: 'PUT', path: `${ISSUE}/lock`, docs: 'issues/issues#lock-an-issue' }),
	unlock: policy({ ...ISSUES_LOCK, method: 'DELETE', path: `${ISSUE}/lock`, docs: 'issues/issues#unlock-an-issue' }),
	/** transferIssue, pinIssue, unpinIssue, deleteIssue: Issues (write) on the repository (the service asks push or admin). */
	issueAdmin: policy({ ...ISSUES_ADMIN, method: 'PATCH', path: ISSUE, docs: 'issues/issues#update-an-issue' }),
	star: policy({
		...STAR_WRITE,
		method: 'PUT',
		path: '/user/starred/{owner}/{repo}',
		docs: 'activity/starring#star-a-repository-for-the-authenticated-user',
	}),
	unstar: policy({
		...STAR_WRITE,
		method: 'DELETE',
		path: '/user/starred/{owner}/{repo}',
		docs: 'activity/starring#unstar-a-repository-for-the-authenticated-user',
	}),
	createPull: policy({ ...PULLS_WRITE, method: 'POST', path: '/repos/{owner}/{repo}/pulls', docs: 'pulls/pulls#create-a-pull-request' }),
	/** updatePullRequest, close/reopenPullRequest, and the draft state (the service asks the author or write access). */
	updatePull: policy({ ...PULLS_WRITE, method: 'PATCH', path: PULL, docs: 'pulls/pulls#update-a-pull-request' }),
	mergePull: policy({ ...PULLS_MERGE, method: 'PUT', path: `${PULL}/merge`, docs: 'pulls/pulls#merge-a-pull-request' }),
	createReview: policy({
		...PULLS_WRITE,
		method: 'POST',
		path: `${PULL}/reviews`,
		docs: 'pulls/reviews#create-a-review-for-a-pull-request',
	}),
	submitReview: policy({
		...PULLS_WRITE,
		method: 'POST',
		path: `${PULL}/reviews/{review_id}/events`,
		docs: 'pulls/reviews#submit-a-review-for-a-pull-request',
	}),
	requestReviewers: policy({
		...PULLS_WRITE,
		method: 'POST',
		path: `${PULL}/requested_reviewers`,
		docs: 'pulls/review-requests#request-reviewers-for-a-pull-request',
	}),
	removeReviewers: policy({
		...PULLS_WRITE,
		method: 'DELETE',
		path: `${PULL}/requested_reviewers`,
		docs: 'pulls/review-requests#remove-requested-reviewers-from-a-pull-request',
	}),
	updateRepository: policy({
		...REPOSITORY_ADMIN,
		method: 'PATCH',
		path: '/repos/{owner}/{repo}',
		docs: 'repos/repos#update-a-repository',
	}),
	createUserRepository: policy({
		...REPOSITORY_CREATE_USER,
		method: 'POST',
		path: '/user/repos',
		docs: 'repos/repos#create-a-repository-for-the-authenticated-user',
	}),
	createOrgRepository: policy({
		...REPOSITORY_CREATE_ORG,
		method: 'POST',
		path: '/orgs/{org}/repos',
		docs: 'repos/repos#create-an-organization-repository',
	}),
	dismissReview: policy({
		...PULLS_WRITE,
		method: 'PUT',
		path: `${PULL}/reviews/{review_id}/dismissals`,
		docs: 'pulls/reviews#dismiss-a-review-for-a-pull-request',
	}),
};
