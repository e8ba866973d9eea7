/**
 * Review comments of pull requests (GitHub's "Review comments" REST API): where a comment sits in
 * the pull request's diff, GitHub's pull-request-review-comment shape, and the domain events —
 * the pull_request_review_comment webhook (created, edited, deleted), PullRequestReviewCommentEvent
 * in the feeds (created), and notifications to the pull request's participants as for a comment.
 *
 * Anchoring (GitHub's rules): the file's patch is the pull request's diff from the merge base to
 * `commit_id` (src/api/git/diff.ts filePatch). `position` counts its lines below the first hunk
 * header (the line below it is 1; later headers count as lines); `line` with `side` names a line of
 * the file (RIGHT: the commit's, on an added or context line; LEFT: the merge base's, on a removed
 * or context line); `start_line`/`start_side` open a multi-line comment before it. `diff_hunk` is
 * the patch from the hunk's header down to the line. A path or line not in the diff is 422
 * `{resource: PullRequestReviewComment, code: custom, field: pull_request_review_thread.path |
 * .line | .start_line | .position, message: "could not be resolved"}`. Comments keep the anchor
 * they were made on (original_* equal the current fields; later pushes do not move them).
 */
import type { App } from '../../app';
import { record } from '../../events/log';
import { inOrganization, sender } from '../../events/payloads';
import { forbidden, validationFailed } from '../../model/errors';
import { atLeast } from '../../model/repo-permissions';
import { nodeId } from '../../model/urls';
import type { Caller } from '../../auth/caller';
import { filePatch } from '../git/diff';
import { bodyFields } from '../../model/markdown/render';
import { issueSubject, mentionedIn } from '../issues/events';
import type { IssueScope } from '../issues/service';
import { repository } from '../../model/render';
import { simpleUser } from '../../model/render';
import type { AccountRow, PullRow } from '../../model/rows';
import type { ReviewCommentRow } from './review-store';
import { pullComparison, renderPulls } from './service';

/** Where a review comment sits in the diff. */
export interface Anchor {
	path: string;
	position: number;
	line: number;
	side: 'LEFT' | 'RIGHT';
	start_line: number | null;
	start_side: 'LEFT' | 'RIGHT' | null;
	diff_hunk: string;
}

/**
 * A locked conversation takes reviews and review comments only from people with write access, as
 * issue comments. @throws DomainError 403
 */
export function assertUnlocked(scope: IssueScope, pull: PullRow): void {
	if (pull.locked === 1 && !atLeast(scope.permission, 'push')) throw forbidden('Unable to create comment because issue is locked.');
}

/** What a request says about the place of a comment. */
export interface PlaceInput {
	path: string;
	position?: number;
	line?: number;
	side?: 'LEFT' | 'RIGHT';
	start_line?: number;
	start_side?: 'LEFT' | 'RIGHT';
}

/** GitHub's 422 for a place outside the diff. */
const unresolved = (field: string) =>
	validationFailed([
		{
			resource: 'PullRequestReviewComment',
			code: 'custom',
			field: `pull_request_review_thread.${field}`,
			message: 'could not be resolved',
		},
	]);

interface PatchLine {
	kind: '@' | '-' | '+' | ' ' | '\\';
	old: number | null;
	new: number | null;
}

/** The patch's lines with their line numbers on each side. */
function numbered(lines: string[]): PatchLine[] {
	let oldLine = 0;
	let newLine = 0;
	return lines.map((text) => {
		if (text.startsWith('@@')) {
			const match = /^@@ -(\d+)(?:,\d+)? \+(\d+)/.exec(text);
			oldLine = Number(match?.[1] ?? 0);
			newLine = Number(match?.[2] ?? 0);
			return { kind: '@', old: null, new: null };
		}
		const kind = text[0] as PatchLine['kind'];
		if (kind === '-') return { kind, old: oldLine++, new: null };
		if (kind === '+') return { kind, old: null, new: newLine++ };
		if (kind === '\\') return { kind, old: null, new: null };
		return { kind: ' ', old: oldLine++, new: newLine++ };
	});
}

/** The index of the patch line numbered `line` on `side`, or -1. */
function find(entries: PatchLine[], line: number, side: 'LEFT' | 'RIGHT'): number {
	return entries.findIndex(
		(e) =>
			(side === 'RIGHT' ? e.kind !== '-' && e.new === line : e.kind !== '+' && e.old === line) && e.kind !== '@' && e.kind !== '\\',
	);
}

/**
 * Places a comment in the pull request's diff at `commitId` (GitHub's rules above).
 * @throws DomainError 422 when the path or line is not in the diff, or neither position nor line is given
 */
export function locateComment(app: App, pull: PullRow, commitId: string, input: PlaceInput): Anchor {
	if (input.position === undefined && input.line === undefined) {
		throw validationFailed([{ resource: 'PullRequestReviewComment', field: 'line', code: 'missing_field' }]);
	}
	const comparison = pullComparison(app, { ...pull.pr, head_sha: commitId });
	const change = comparison?.changes.find((c) => c.path === input.path);
	const patch = change ? filePatch(app, comparison!.repoId, change).patch : undefined;
	if (!patch) throw unresolved('path');
	const lines = patch.split('\n');
	const entries = numbered(lines);
	let index: number;
	let side: 'LEFT' | 'RIGHT';
	if (input.line !== undefined) {
		side = input.side ?? 'RIGHT';
		index = find(entries, input.line, side);
		if (index === -1) throw unresolved('line');
	} else {
		index = input.position!;
		const entry = entries[index];
		if (!entry || entry.kind === '@' || entry.kind === '\\') throw unresolved('position');
		side = entry.kind === '-' ? 'LEFT' : 'RIGHT';
	}
	const entry = entries[index];
	let startLine: number | null = null;
	let startSide: 'LEFT' | 'RIGHT' | null = null;
	if (input.start_line !== undefined) {
		startSide = input.start_side ?? side;
		const start = find(entries, input.start_line, startSide);
		if (start === -1 || start >= index) throw unresolved('start_line');
		startLine = input.start_line;
	}
	let header = index;
	while (header > 0 && entries[header].kind !== '@') header--;
	return {
		path: input.path,
		position: index,
		line: (side === 'LEFT' ? entry.old : entry.new)!,
		side,
		start_line: startLine,
		start_side: startSide,
		diff_hunk: lines.slice(header, index + 1).join('\n'),
	};
}

/** A review comment as GitHub renders it (pull-request-review-comment). @param media body media type (null: raw) */
export function renderReviewComment(
	ctx: Caller,
	scope: IssueScope,
	pullNumber: number,
	comment: ReviewCommentRow,
	author: AccountRow,
	media: string | null = ctx.media,
) {
	const url = `${scope.paths.api}/pulls/comments/${comment.id}`;
	const html = `${scope.paths.html}/pull/${pullNumber}#discussion_r${comment.id}`;
	const pullUrl = `${scope.paths.api}/pulls/${pullNumber}`;
	return {
		url,
		pull_request_review_id: comment.review_id,
		id: comment.id,
		node_id: nodeId('PullRequestReviewComment', comment.id),
		diff_hunk: comment.diff_hunk,
		path: comment.path,
		position: comment.position,
		original_position: comment.position,
		commit_id: comment.commit_id,
		original_commit_id: comment.commit_id,
		...(comment.in_reply_to_id === null ? {} : { in_reply_to_id: comment.in_reply_to_id }),
		user: simpleUser(ctx.app.urls, author),
		...bodyFields(comment, media),
		created_at: comment.created_at,
		updated_at: comment.updated_at,
		html_url: html,
		pull_request_url: pullUrl,
		author_association: scope.associations.of(author),
		_links: { self: { href: url }, html: { href: html }, pull_request: { href: pullUrl } },
		// Reactions to review comments are not served: the counts are always 0.
		reactions: {
			url: `${url}/reactions`,
			total_count: 0,
			'+1': 0,
			'-1': 0,
			laugh: 0,
			hooray: 0,
			confused: 0,
			heart: 0,
			rocket: 0,
			eyes: 0,
		},
		start_line: comment.start_line,
		original_start_line: comment.start_line,
		start_side: comment.start_side,
		line: comment.line,
		original_line: comment.line,
		side: comment.side,
		subject_type: 'line',
	};
}

/** Renders many review comments, loading their authors and pull request numbers once. */
export function renderReviewComments(ctx: Caller, scope: IssueScope, comments: ReviewCommentRow[]) {
	const authors = ctx.app.stores.accounts.mapByIds([...new Set(comments.map((c) => c.user_id))]);
	const numbers = new Map<number, number>();
	for (const issueId of new Set(comments.map((c) => c.issue_id))) numbers.set(issueId, ctx.app.stores.pulls.byIssue(issueId)!.number);
	return comments.map((c) => renderReviewComment(ctx, scope, numbers.get(c.issue_id)!, c, authors.get(c.user_id)!));
}

/**
 * Records a review comment's event: `created` (webhook, feed, notification as a comment),
 * `edited` (with the previous body; new mentions notified) or `deleted`.
 */
export function recordReviewComment(
	ctx: Caller,
	scope: IssueScope,
	pull: PullRow,
	comment: ReviewCommentRow,
	action: 'created' | 'edited' | 'deleted',
	previousBody?: string,
): void {
	const { app } = ctx;
	const actorId = ctx.principal.actorId;
	const object = renderReviewComment(ctx, scope, pull.number, comment, app.stores.accounts.byId(comment.user_id)!, null);
	let pullObject: unknown;
	const pullRequest = () => (pullObject ??= renderPulls(ctx, scope, [app.stores.pulls.byIssue(pull.id)!], 'event', null)[0]);
	const commentPath = `/pulls/comments/${comment.id}`;
	record(app, {
		event: 'pull_request_review_comment',
		action,
		actorId,
		repo: scope.repo,
		feed:
			action === 'created'
				? { type: 'PullRequestReviewCommentEvent', payload: { action, comment: object, pull_request: pullRequest() } }
				: undefined,
		webhook: () => ({
			...(action === 'edited' ? { changes: { body: { from: previousBody ?? '' } } } : {}),
			comment: object,
			pull_request: pullRequest(),
			repository: repository(app.urls, scope.repo, scope.owner, null),
			...(scope.owner.type === 'Organization' ? inOrganization(app, scope.owner) : {}),
			...sender(app, actorId),
		}),
		notification:
			action === 'created'
				? {
						subject: issueSubject(pull, commentPath),
						broadcast: true,
						actorReason: 'comment',
						involved: mentionedIn(ctx, scope, comment.body),
					}
				: action === 'edited'
					? { subject: issueSubject(pull), broadcast: false, involved: mentionedIn(ctx, scope, comment.body, previousBody) }
					: { subject: { ...issueSubject(pull), withdrawnCommentPath: commentPath }, broadcast: false, involved: [] },
	});
}
