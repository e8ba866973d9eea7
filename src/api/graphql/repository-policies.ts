/**
 * The access policies of the Repository, PullRequest, Commit, Release and BranchProtectionRule
 * fields served from the stores (src/api/graphql/repository-fields.ts) and of the branch
 * protection rule mutations (protection.ts): each spreads the access declaration its REST twin
 * spreads, so both interfaces admit the same callers (src/api/graphql/access.ts admits them).
 */
import { PROTECTION_READ, PROTECTION_WRITE, BRANCHES_READ } from '../branches/access';
import { CHECKS_READ } from '../checks/access';
import { COMMITS_READ } from '../commits/access';
import { ISSUES_READ } from '../issues/access';
import { RELEASES_READ } from '../releases/access';
import { REPOSITORY_READ } from '../repos/access';
import { STAR_READ } from '../starring/access';
import { STATUSES_READ } from '../statuses/access';
import { SUBSCRIPTION } from '../watching/access';
import { policy } from './access';

const REPO = '/repos/{owner}/{repo}';
const PROTECTION = `${REPO}/branches/{branch}/protection`;

/** The policies by the REST resource each field reads or changes. */
export const REPO_POLICIES = {
	branch: policy({ ...BRANCHES_READ, method: 'GET', path: `${REPO}/branches/{branch}`, docs: 'branches/branches#get-a-branch' }),
	protection: policy({ ...PROTECTION_READ, method: 'GET', path: PROTECTION, docs: 'branches/branch-protection#get-branch-protection' }),
	updateProtection: policy({
		...PROTECTION_WRITE,
		method: 'PUT',
		path: PROTECTION,
		docs: 'branches/branch-protection#update-branch-protection',
	}),
	deleteProtection: policy({
		...PROTECTION_WRITE,
		method: 'DELETE',
		path: PROTECTION,
		docs: 'branches/branch-protection#delete-branch-protection',
	}),
	milestones: policy({ ...ISSUES_READ, method: 'GET', path: `${REPO}/milestones`, docs: 'issues/milestones#list-milestones' }),
	assignees: policy({ ...ISSUES_READ, method: 'GET', path: `${REPO}/assignees`, docs: 'issues/assignees#list-assignees' }),
	subscription: policy({ ...SUBSCRIPTION, method: 'GET', docs: 'activity/watching#get-a-repository-subscription' }),
	watchers: policy({ ...REPOSITORY_READ, method: 'GET', path: `${REPO}/subscribers`, docs: 'activity/watching#list-watchers' }),
	starred: policy({
		...STAR_READ,
		method: 'GET',
		docs: 'activity/starring#check-if-a-repository-is-starred-by-the-authenticated-user',
	}),
	languages: policy({ ...REPOSITORY_READ, method: 'GET', path: `${REPO}/languages`, docs: 'repos/repos#list-repository-languages' }),
	topics: policy({ ...REPOSITORY_READ, method: 'GET', path: `${REPO}/topics`, docs: 'repos/repos#get-all-repository-topics' }),
	releases: policy({ ...RELEASES_READ, method: 'GET', path: `${REPO}/releases`, docs: 'releases/releases#list-releases' }),
	commits: policy({ ...COMMITS_READ, method: 'GET', path: `${REPO}/commits`, docs: 'commits/commits#list-commits' }),
	tags: policy({ ...COMMITS_READ, method: 'GET', path: `${REPO}/tags`, docs: 'repos/repos#list-repository-tags' }),
	status: policy({
		...STATUSES_READ,
		method: 'GET',
		path: `${REPO}/commits/{ref}/status`,
		docs: 'commits/statuses#get-the-combined-status-for-a-specific-reference',
	}),
	checkRuns: policy({
		...CHECKS_READ,
		method: 'GET',
		path: `${REPO}/commits/{ref}/check-runs`,
		docs: 'checks/runs#list-check-runs-for-a-git-reference',
	}),
};
