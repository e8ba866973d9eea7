/**
 * An issue's or pull request's timeline (GitHub's issue events and timeline events).
 *
 * Writing: `timelineOf` turns an `issues` / `pull_request` domain event (its action and payload
 * fields) into the issue events GitHub keeps for it — labeled, unlabeled, assigned, unassigned,
 * milestoned, demilestoned, renamed (an edited title), base_ref_changed, closed (after `merged`
 * for a merge; with the closing commit when a push closed it), reopened, locked, unlocked,
 * review_requested, review_request_removed — and the event log (src/events/log.ts) writes them in
 * the change's transaction. Pushes add head_ref_force_pushed and head_ref_deleted (src/api/pulls/
 * follow.ts) and `referenced` for commits whose message names `#N` (recordCommitReferences).
 *
 * Reading: `issueTimeline` merges the issue's events, its comments and (pull requests) its reviews
 * and commits in time order, paged: what GET /repos/{owner}/{repo}/issues/{issue_number}/timeline
 * answers and the web interface's conversation shows.
 */
import type { App } from '../../app';
import type { TimelineEntry } from '../../events/log';
import type { WalkedCommit } from '../git/graph';
import type { ReviewRow } from '../../model/rows';
import type { RepositoryRow } from '../../model/rows';
import type { IssueEventRow } from './event-store';
import type { IssueCommentRow, IssueRow } from '../../model/rows';

/** One issue event to write with a domain event (the event log's own type). */
export type { TimelineEntry };

/** A pull request's part the timeline reads (merged, the merge commit, the base branch). */
export interface PullFacts {
	merged_at: string | null;
	merge_commit_sha: string | null;
	base_ref: string;
}

const object = (value: unknown): Record<string, unknown> =>
	value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};

/**
 * The issue events of one `issues` or `pull_request` domain event.
 * @param extra the payload's own fields (label, assignee, milestone, changes, requested_reviewer, requested_team)
 * @param pull the pull request's merge and base facts (pull requests only)
 * @param commitId the commit that closed the issue (a push with a closing keyword, a merge)
 */
export function timelineOf(
	row: IssueRow,
	action: string,
	extra: Record<string, unknown>,
	pull?: PullFacts,
	commitId?: string | null,
): TimelineEntry[] {
	const entry = (event: string, details: Record<string, unknown> = {}, commit: string | null = null): TimelineEntry => ({
		issueId: row.id,
		event,
		commitId: commit,
		details,
	});
	switch (action) {
		case 'labeled':
		case 'unlabeled': {
			const label = object(extra.label);
			return [entry(action, { label: { name: label.name, color: label.color } })];
		}
		case 'assigned':
		case 'unassigned':
			return [entry(action, { assignee_id: object(extra.assignee).id })];
		case 'milestoned':
		case 'demilestoned':
			return [entry(action, { milestone: { title: object(extra.milestone).title } })];
		case 'edited': {
			const changes = object(extra.changes);
			const out: TimelineEntry[] = [];
			const title = object(changes.title);
			if (typeof title.from === 'string' && title.from !== row.title)
				out.push(entry('renamed', { rename: { from: title.from, to: row.title } }));
			const base = object(object(changes.base).ref);
			if (typeof base.from === 'string' && pull) out.push(entry('base_ref_changed', { from: base.from, to: pull.base_ref }));
			return out;
		}
		case 'closed':
			if (pull?.merged_at) {
				return [entry('merged', {}, pull.merge_commit_sha), entry('closed', {}, pull.merge_commit_sha)];
			}
			return [entry('closed', row.state_reason ? { state_reason: row.state_reason } : {}, commitId ?? null)];
		case 'reopened':
			return [entry('reopened')];
		case 'locked':
			return [entry('locked', { lock_reason: row.active_lock_reason })];
		case 'unlocked':
			return [entry('unlocked')];
		// A pull request marked ready (ready_for_review) or turned back into a draft (GitHub's issue event convert_to_draft).
		case 'ready_for_review':
			return [entry('ready_for_review')];
		case 'converted_to_draft':
			return [entry('convert_to_draft')];
		case 'review_requested':
		case 'review_request_removed': {
			const reviewer = object(extra.requested_reviewer);
			const team = object(extra.requested_team);
			return [
				entry(
					action,
					typeof reviewer.id === 'number'
						? { requested_reviewer_id: reviewer.id }
						: { requested_team: { id: team.id, name: team.name, slug: team.slug } },
				),
			];
		}
		default:
			return [];
	}
}

/** `#N`, `GH-N` and `owner/repo#N` references in a text (code spans and URLs left out). */
const REFERENCE = /(?:^|[^\w/.#-])(?:([\w.-]+)\/([\w.-]+))?(?:#|GH-)(\d{1,9})\b/gi;

/** The issue numbers of the repository `owner/repo` a commit message or text names. */
export function referencedNumbers(text: string, owner: string, repo: string): number[] {
	const numbers: number[] = [];
	for (const match of text.replace(/`[^`\n]*`/g, '').matchAll(REFERENCE)) {
		const [, refOwner, refRepo, number] = match;
		if (refOwner !== undefined && (refOwner.toLowerCase() !== owner.toLowerCase() || refRepo.toLowerCase() !== repo.toLowerCase()))
			continue;
		const n = Number(number);
		if (n > 0 && !numbers.includes(n)) numbers.push(n);
	}
	return numbers;
}

/**
 * Writes a `referenced` event for each issue or pull request of `repo` that a pushed commit's
 * message names (once per commit and issue, however often the commit is pushed). Call inside a
 * transaction, after the push.
 * @param commits the commits new to the pushed branches, with their messages
 * @param now ISO timestamp
 * @returns how many events were written at most (one per commit and issue named)
 */
export function recordCommitReferences(
	app: App,
	repo: RepositoryRow,
	ownerLogin: string,
	commits: ReadonlyArray<{ sha: string; message: string }>,
	actorId: number | null,
	now: string,
): number {
	let written = 0;
	for (const commit of commits) {
		for (const number of referencedNumbers(commit.message, ownerLogin, repo.name)) {
			const issue = app.stores.issues.byNumber(repo.id, number);
			if (!issue) continue;
			app.stores.issueEvents.insert({
				repoId: repo.id,
				issueId: issue.id,
				actorId,
				event: 'referenced',
				commitId: commit.sha,
				createdAt: now,
			});
			written++;
		}
	}
	return written;
}

/** One item of a timeline, in time order. */
export type TimelineItem =
	| { kind: 'event'; at: string; event: IssueEventRow }
	| { kind: 'comment'; at: string; comment: IssueCommentRow }
	| { kind: 'review'; at: string; review: ReviewRow }
	| { kind: 'commit'; at: string; commit: WalkedCommit };

const KIND_ORDER = { commit: 0, event: 1, comment: 2, review: 3 };

/**
 * One page of an issue's timeline: its events, comments and (a pull request's) submitted reviews
 * and commits, oldest first (ties: commits, events, comments, reviews; then by id). Each source is
 * read up to `offset + limit` rows, so a page costs what it shows and skips.
 * @param commits a pull request's commits (pullComparison), dated by their committer time; omit for none
 * @returns the page and the timeline's length
 */
export function issueTimeline(
	app: App,
	issue: IssueRow,
	options: { viewerId: number | null; commits?: readonly WalkedCommit[]; limit: number; offset: number },
): { items: TimelineItem[]; total: number } {
	const want = options.offset + options.limit;
	const events = app.stores.issueEvents.forIssue(issue.id, want, 0);
	const comments = app.stores.issues.issueComments(issue.id, null, want, 0);
	const items: TimelineItem[] = [
		...events.rows.map((event): TimelineItem => ({ kind: 'event', at: event.created_at, event })),
		...comments.rows.map((comment): TimelineItem => ({ kind: 'comment', at: comment.created_at, comment })),
	];
	let total = events.total + comments.total;
	if (issue.pull_request) {
		// Submitted reviews only: a pending review is its author's draft, in no timeline.
		const reviews = app.stores.reviews.reviews(issue.id, null, want, 0);
		for (const review of reviews.rows) if (review.submitted_at) items.push({ kind: 'review', at: review.submitted_at, review });
		total += reviews.total;
		const commits = options.commits ?? [];
		for (const commit of commits.slice(0, want)) {
			items.push({
				kind: 'commit',
				at: new Date(commit.data.committer.seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
				commit,
			});
		}
		total += commits.length;
	}
	const idOf = (item: TimelineItem) =>
		item.kind === 'event' ? item.event.id : item.kind === 'comment' ? item.comment.id : item.kind === 'review' ? item.review.id : 0;
	items.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || idOf(a) - idOf(b)));
	return { items: items.slice(options.offset, want), total };
}
