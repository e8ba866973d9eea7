// Extracts the part of GitHub's public GraphQL schema Gitstead serves from
// node_modules/@octokit/graphql-schema/schema.graphql (a dev dependency) into the committed
// src/api/graphql/schema.ts (a string: the runtime never needs the dev dependency).
//
// SERVED below names each object and interface type with the fields Gitstead resolves; their
// arguments, descriptions and types are GitHub's, copied as they are. Enums, input objects and
// scalars that a served field or argument names are copied whole (with their closure). A served
// field whose type is not served is an error here, so the subset stays closed.
//
// Run: node scripts/graphql-schema.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
	buildSchema,
	GraphQLEnumType,
	GraphQLInputObjectType,
	GraphQLInterfaceType,
	GraphQLObjectType,
	GraphQLScalarType,
	GraphQLSchema,
	assertValidSchema,
	GraphQLUnionType,
	printSchema,
	specifiedScalarTypes,
} from 'graphql';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const source = readFileSync(resolve(root, 'node_modules/@octokit/graphql-schema/schema.graphql'), 'utf8');
const github = buildSchema(source, { assumeValidSDL: true });

const connection = (item) => ({
	[`${item}Connection`]: ['edges', 'nodes', 'pageInfo', 'totalCount'],
	[`${item}Edge`]: ['cursor', 'node'],
});

/** Type → the fields served (unions: the member types served). */
export const SERVED = {
	Query: ['viewer', 'user', 'repository', 'repositoryOwner', 'organization', 'node', 'nodes', 'rateLimit', 'search'],
	Mutation: [
		'createIssue',
		'closeIssue',
		'reopenIssue',
		'updateIssue',
		'addComment',
		'createLabel',
		'addLabelsToLabelable',
		'removeLabelsFromLabelable',
		'addStar',
		'removeStar',
		'createPullRequest',
		'mergePullRequest',
		'addPullRequestReview',
		'submitPullRequestReview',
		'dismissPullRequestReview',
		'requestReviews',
		'createRepository',
		'closePullRequest',
		'reopenPullRequest',
		'updatePullRequest',
		'archiveRepository',
		'unarchiveRepository',
		'createBranchProtectionRule',
		'updateBranchProtectionRule',
		'deleteBranchProtectionRule',
		'lockLockable',
		'unlockLockable',
		'markPullRequestReadyForReview',
		'convertPullRequestToDraft',
		'transferIssue',
		'pinIssue',
		'unpinIssue',
		'deleteIssue',
		'enablePullRequestAutoMerge',
		'disablePullRequestAutoMerge',
	],
	TransferIssuePayload: ['clientMutationId', 'issue'],
	PinIssuePayload: ['clientMutationId', 'issue'],
	UnpinIssuePayload: ['clientMutationId', 'id', 'issue'],
	DeleteIssuePayload: ['clientMutationId', 'repository'],
	PinnedIssue: ['databaseId', 'fullDatabaseId', 'id', 'issue', 'pinnedBy', 'repository'],
	...connection('PinnedIssue'),
	EnablePullRequestAutoMergePayload: ['actor', 'clientMutationId', 'pullRequest'],
	DisablePullRequestAutoMergePayload: ['actor', 'clientMutationId', 'pullRequest'],
	AutoMergeRequest: ['authorEmail', 'commitBody', 'commitHeadline', 'enabledAt', 'enabledBy', 'mergeMethod', 'pullRequest'],
	GitObject: ['abbreviatedOid', 'id', 'oid'],
	MarkPullRequestReadyForReviewPayload: ['clientMutationId', 'pullRequest'],
	ConvertPullRequestToDraftPayload: ['clientMutationId', 'pullRequest'],
	Lockable: ['activeLockReason', 'locked'],
	LockLockablePayload: ['actor', 'clientMutationId', 'lockedRecord'],
	UnlockLockablePayload: ['actor', 'clientMutationId', 'unlockedRecord'],
	Node: ['id'],
	Actor: ['avatarUrl', 'login', 'url'],
	RepositoryOwner: ['avatarUrl', 'id', 'login', 'repositories', 'url'],
	UniformResourceLocatable: ['url'],
	Starrable: ['id', 'stargazerCount', 'viewerHasStarred'],
	Labelable: ['labels'],
	Closable: ['closed', 'closedAt'],
	Assignable: ['assignees'],
	RateLimit: ['cost', 'limit', 'nodeCount', 'remaining', 'resetAt', 'used'],
	PageInfo: ['endCursor', 'hasNextPage', 'hasPreviousPage', 'startCursor'],
	User: [
		'avatarUrl',
		'bio',
		'company',
		'createdAt',
		'databaseId',
		'email',
		'gists',
		'id',
		'location',
		'login',
		'name',
		'organizations',
		'repositories',
		'updatedAt',
		'url',
	],
	Gist: ['createdAt', 'description', 'files', 'id', 'isFork', 'isPublic', 'name', 'owner', 'pushedAt', 'updatedAt', 'url'],
	GistFile: ['encodedName', 'extension', 'name', 'size', 'text'],
	...connection('Gist'),
	Organization: [
		'avatarUrl',
		'createdAt',
		'databaseId',
		'description',
		'id',
		'login',
		'membersWithRole',
		'name',
		'repositories',
		'team',
		'teams',
		'updatedAt',
		'url',
	],
	Team: [
		'childTeams',
		'databaseId',
		'description',
		'id',
		'members',
		'name',
		'organization',
		'parentTeam',
		'privacy',
		'repositories',
		'slug',
		'url',
	],
	TeamMemberConnection: ['edges', 'nodes', 'pageInfo', 'totalCount'],
	TeamMemberEdge: ['cursor', 'node', 'role'],
	TeamRepositoryConnection: ['edges', 'nodes', 'pageInfo', 'totalCount'],
	TeamRepositoryEdge: ['cursor', 'node', 'permission'],
	Repository: [
		'autoMergeAllowed',
		'createdAt',
		'databaseId',
		'defaultBranchRef',
		'description',
		'forkCount',
		'hasIssuesEnabled',
		'hasVulnerabilityAlertsEnabled',
		'hasWikiEnabled',
		'homepageUrl',
		'id',
		'deleteBranchOnMerge',
		'isArchived',
		'isFork',
		'isPrivate',
		'isTemplate',
		'issue',
		'issueOrPullRequest',
		'issues',
		'label',
		'labels',
		'mergeCommitAllowed',
		'milestones',
		'name',
		'nameWithOwner',
		'owner',
		'parent',
		'pullRequest',
		'rebaseMergeAllowed',
		'refs',
		'squashMergeAllowed',
		'pullRequests',
		'pushedAt',
		'release',
		'releases',
		'languages',
		'latestRelease',
		'primaryLanguage',
		'repositoryTopics',
		'sshUrl',
		'stargazerCount',
		'updatedAt',
		'url',
		'viewerHasStarred',
		'viewerPermission',
		'visibility',
		'assignableUsers',
		'branchProtectionRules',
		'codeOfConduct',
		'contactLinks',
		'isBlankIssuesEnabled',
		'isSecurityPolicyEnabled',
		'issueTemplates',
		'pullRequestTemplates',
		'securityPolicyUrl',
		'pinnedIssues',
		'diskUsage',
		'hasDiscussionsEnabled',
		'hasProjectsEnabled',
		'isEmpty',
		'isInOrganization',
		'isMirror',
		'isUserConfigurationRepository',
		'milestone',
		'licenseInfo',
		'mirrorUrl',
		'projects',
		'templateRepository',
		'viewerCanAdminister',
		'viewerDefaultMergeMethod',
		'viewerSubscription',
		'watchers',
	],
	License: ['id', 'key', 'name', 'nickname', 'spdxId', 'url'],
	CodeOfConduct: ['body', 'id', 'key', 'name', 'url'],
	RepositoryContactLink: ['about', 'name', 'url'],
	IssueTemplate: ['about', 'body', 'filename', 'name', 'title'],
	PullRequestTemplate: ['body', 'filename'],
	...connection('Project'),
	Ref: ['branchProtectionRule', 'id', 'name', 'prefix', 'target'],
	...connection('Ref'),
	Tag: ['abbreviatedOid', 'id', 'message', 'name', 'oid', 'tagger', 'target'],
	PullRequestChangedFile: ['additions', 'changeType', 'deletions', 'path', 'viewerViewedState'],
	...connection('PullRequestChangedFile'),
	Language: ['color', 'id', 'name'],
	LanguageConnection: ['edges', 'nodes', 'pageInfo', 'totalCount', 'totalSize'],
	LanguageEdge: ['cursor', 'node', 'size'],
	RepositoryTopic: ['id', 'topic', 'url'],
	...connection('RepositoryTopic'),
	Topic: ['id', 'name'],
	BranchProtectionRule: [
		'allowsDeletions',
		'allowsForcePushes',
		'blocksCreations',
		'databaseId',
		'dismissesStaleReviews',
		'id',
		'isAdminEnforced',
		'lockBranch',
		'pattern',
		'repository',
		'requireLastPushApproval',
		'requiredApprovingReviewCount',
		'requiredStatusCheckContexts',
		'requiresApprovingReviews',
		'requiresCodeOwnerReviews',
		'requiresCommitSignatures',
		'requiresConversationResolution',
		'requiresLinearHistory',
		'requiresStatusChecks',
		'requiresStrictStatusChecks',
		'restrictsPushes',
		'restrictsReviewDismissals',
	],
	...connection('BranchProtectionRule'),
	CreateBranchProtectionRulePayload: ['branchProtectionRule', 'clientMutationId'],
	UpdateBranchProtectionRulePayload: ['branchProtectionRule', 'clientMutationId'],
	DeleteBranchProtectionRulePayload: ['clientMutationId'],
	Issue: [
		'activeLockReason',
		'assignees',
		'author',
		'body',
		'closed',
		'closedAt',
		'comments',
		'createdAt',
		'databaseId',
		'id',
		'isPinned',
		'labels',
		'locked',
		'milestone',
		'number',
		'projectCards',
		'projectItems',
		'reactionGroups',
		'repository',
		'state',
		'stateReason',
		'title',
		'updatedAt',
		'url',
	],
	PullRequest: [
		'activeLockReason',
		'additions',
		'autoMergeRequest',
		'assignees',
		'author',
		'baseRef',
		'baseRefName',
		'body',
		'changedFiles',
		'closed',
		'closedAt',
		'comments',
		'files',
		'commits',
		'createdAt',
		'databaseId',
		'deletions',
		'headRefName',
		'headRefOid',
		'headRepository',
		'headRepositoryOwner',
		'id',
		'isCrossRepository',
		'isDraft',
		'labels',
		'latestReviews',
		'locked',
		'maintainerCanModify',
		'mergeCommit',
		'mergeStateStatus',
		'mergeable',
		'merged',
		'mergedAt',
		'mergedBy',
		'potentialMergeCommit',
		'milestone',
		'number',
		'projectCards',
		'projectItems',
		'reactionGroups',
		'repository',
		'reviewDecision',
		'reviewRequests',
		'reviews',
		'state',
		'title',
		'updatedAt',
		'url',
	],
	IssueComment: [
		'author',
		'authorAssociation',
		'body',
		'createdAt',
		'databaseId',
		'id',
		'includesCreatedEdit',
		'isMinimized',
		'minimizedReason',
		'reactionGroups',
		'updatedAt',
		'url',
		'viewerDidAuthor',
	],
	PullRequestCommit: ['commit', 'id', 'url'],
	...connection('PullRequestCommit'),
	Commit: [
		'abbreviatedOid',
		'authoredDate',
		'authors',
		'committedDate',
		'id',
		'message',
		'messageBody',
		'messageHeadline',
		'oid',
		'statusCheckRollup',
		'url',
	],
	GitActor: ['date', 'email', 'name', 'user'],
	...connection('GitActor'),
	StatusCheckRollup: ['contexts', 'id', 'state'],
	StatusCheckRollupContextConnection: ['edges', 'nodes', 'pageInfo', 'totalCount'],
	StatusCheckRollupContextEdge: ['cursor', 'node'],
	StatusCheckRollupContext: ['CheckRun', 'StatusContext'],
	StatusContext: ['context', 'createdAt', 'description', 'id', 'isRequired', 'state', 'targetUrl'],
	CheckRun: ['checkSuite', 'completedAt', 'conclusion', 'detailsUrl', 'id', 'isRequired', 'name', 'startedAt', 'status'],
	CheckSuite: ['id', 'workflowRun'],
	WorkflowRun: ['id', 'workflow'],
	Workflow: ['id', 'name'],
	ReviewRequest: ['id', 'requestedReviewer'],
	...connection('ReviewRequest'),
	RequestedReviewer: ['Team', 'User'],
	...connection('PullRequestReview'),
	IssueOrPullRequest: ['Issue', 'PullRequest'],
	ReactionGroup: ['content', 'users'],
	ReactingUserConnection: ['edges', 'nodes', 'pageInfo', 'totalCount'],
	ReactingUserEdge: ['cursor', 'node', 'reactedAt'],
	ProjectCard: ['column', 'id', 'project'],
	Project: ['body', 'id', 'name', 'number', 'resourcePath', 'url'],
	ProjectColumn: ['id', 'name'],
	...connection('ProjectCard'),
	Label: ['color', 'createdAt', 'description', 'id', 'isDefault', 'name', 'url'],
	Milestone: ['closed', 'closedAt', 'description', 'dueOn', 'id', 'number', 'state', 'title', 'url'],
	Release: [
		'author',
		'createdAt',
		'databaseId',
		'description',
		'id',
		'isDraft',
		'isLatest',
		'isPrerelease',
		'name',
		'publishedAt',
		'tagName',
		'url',
	],
	...connection('Issue'),
	...connection('PullRequest'),
	...connection('Label'),
	...connection('Milestone'),
	...connection('Release'),
	...connection('Repository'),
	...connection('Organization'),
	...connection('Team'),
	...connection('User'),
	...connection('IssueComment'),
	OrganizationMemberConnection: ['edges', 'nodes', 'pageInfo', 'totalCount'],
	OrganizationMemberEdge: ['cursor', 'node', 'role'],
	SearchResultItemConnection: ['edges', 'issueCount', 'nodes', 'pageInfo', 'repositoryCount', 'userCount'],
	SearchResultItemEdge: ['cursor', 'node'],
	SearchResultItem: ['Issue', 'PullRequest', 'Repository', 'User', 'Organization'],
	CreateIssuePayload: ['clientMutationId', 'issue'],
	CloseIssuePayload: ['clientMutationId', 'issue'],
	ReopenIssuePayload: ['clientMutationId', 'issue'],
	UpdateIssuePayload: ['clientMutationId', 'issue'],
	AddCommentPayload: ['clientMutationId', 'commentEdge', 'subject'],
	CreateLabelPayload: ['clientMutationId', 'label'],
	AddLabelsToLabelablePayload: ['clientMutationId', 'labelable'],
	RemoveLabelsFromLabelablePayload: ['clientMutationId', 'labelable'],
	AddStarPayload: ['clientMutationId', 'starrable'],
	RemoveStarPayload: ['clientMutationId', 'starrable'],
	CreatePullRequestPayload: ['clientMutationId', 'pullRequest'],
	MergePullRequestPayload: ['clientMutationId', 'pullRequest'],
	AddPullRequestReviewPayload: ['clientMutationId', 'pullRequestReview'],
	SubmitPullRequestReviewPayload: ['clientMutationId', 'pullRequestReview'],
	DismissPullRequestReviewPayload: ['clientMutationId', 'pullRequestReview'],
	RequestReviewsPayload: ['clientMutationId', 'pullRequest'],
	CreateRepositoryPayload: ['clientMutationId', 'repository'],
	ClosePullRequestPayload: ['clientMutationId', 'pullRequest'],
	ReopenPullRequestPayload: ['clientMutationId', 'pullRequest'],
	UpdatePullRequestPayload: ['clientMutationId', 'pullRequest'],
	ArchiveRepositoryPayload: ['clientMutationId', 'repository'],
	UnarchiveRepositoryPayload: ['clientMutationId', 'repository'],
	ProjectV2Item: ['id', 'project'],
	ProjectV2: ['id', 'number', 'title', 'url'],
	...connection('ProjectV2Item'),
	PullRequestReview: [
		'author',
		'authorAssociation',
		'body',
		'commit',
		'createdAt',
		'databaseId',
		'id',
		'reactionGroups',
		'state',
		'submittedAt',
		'url',
	],
};

const built = new Map();
const served = (name) => name in SERVED || built.has(name);

function copy(type) {
	if (built.has(type.name)) return built.get(type.name);
	if (specifiedScalarTypes.some((s) => s.name === type.name)) return type;
	if (type instanceof GraphQLScalarType) {
		const scalar = new GraphQLScalarType({ name: type.name, description: type.description });
		built.set(type.name, scalar);
		return scalar;
	}
	if (type instanceof GraphQLEnumType) {
		const config = type.toConfig();
		const e = new GraphQLEnumType(config);
		built.set(type.name, e);
		return e;
	}
	if (type instanceof GraphQLInputObjectType) {
		const config = type.toConfig();
		const input = new GraphQLInputObjectType({
			...config,
			fields: () => Object.fromEntries(Object.entries(config.fields).map(([name, f]) => [name, { ...f, type: wrap(f.type) }])),
		});
		built.set(type.name, input);
		return input;
	}
	const wanted = SERVED[type.name];
	if (!wanted) throw new Error(`${type.name} is named by a served field but is not served`);
	if (type instanceof GraphQLUnionType) {
		const union = new GraphQLUnionType({
			...type.toConfig(),
			types: () =>
				type
					.getTypes()
					.filter((t) => wanted.includes(t.name))
					.map(copy),
		});
		built.set(type.name, union);
		return union;
	}
	const config = type.toConfig();
	for (const name of wanted) if (!config.fields[name]) throw new Error(`${type.name}.${name} is not in GitHub's schema`);
	const fields = () =>
		Object.fromEntries(
			wanted.map((name) => {
				const f = config.fields[name];
				const args = Object.fromEntries(Object.entries(f.args ?? {}).map(([a, arg]) => [a, { ...arg, type: wrap(arg.type) }]));
				return [name, { ...f, type: wrap(f.type), args }];
			}),
		);
	// An interface is kept where the type serves every field of it that is served.
	const interfaces = () =>
		(config.interfaces ?? []).filter((i) => served(i.name) && SERVED[i.name].every((f) => wanted.includes(f))).map(copy);
	const made =
		type instanceof GraphQLInterfaceType
			? new GraphQLInterfaceType({ ...config, fields, interfaces })
			: new GraphQLObjectType({ ...config, fields, interfaces });
	built.set(type.name, made);
	return made;
}

/** The same wrapping (non-null, list) around the served copy of the named type. */
function wrap(type) {
	if (type.ofType) return new type.constructor(wrap(type.ofType));
	return copy(type);
}

const query = copy(github.getType('Query'));
const mutation = copy(github.getType('Mutation'));
for (const name of Object.keys(SERVED)) copy(github.getType(name));
const schema = new GraphQLSchema({ query, mutation, types: [...built.values()].filter((t) => t instanceof GraphQLObjectType) });
const sdl = printSchema(schema);
// The schema is checked by building and validating it again (resolvers are attached at runtime).
assertValidSchema(buildSchema(sdl));
const out = `/**
 * The part of GitHub's public GraphQL schema Gitstead serves (types, fields, arguments and
 * descriptions as GitHub publishes them in @octokit/graphql-schema), generated by
 * scripts/graphql-schema.mjs: do not edit by hand, change SERVED there and run it again.
 */
export const SCHEMA_SDL = ${JSON.stringify(sdl)};
`;
writeFileSync(resolve(root, 'src/api/graphql/schema.ts'), out);
console.log(`src/api/graphql/schema.ts: ${built.size} types, ${sdl.length} characters`);
