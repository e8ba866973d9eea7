/**
 * An issue's or pull request's conversation as GitHub shows it: the opening post, then the
 * timeline of src/api/issues/timeline.ts (what GET …/issues/{n}/timeline answers) — comments,
 * reviews with their line comments, commits, and one line per event ("added the bug label",
 * "closed this as completed in 1a2b3c4", "merged commit … into main", "force-pushed the topic
 * branch", …).
 */
import type { ComponentChildren } from 'preact';
import { namedIn } from '../../api/issues/event-render';
import type { IssueEventRow } from '../../api/issues/event-store';
import type { IssueRow } from '../../model/rows';
import { withRenderedBodies } from '../../api/issues/service';
import type { TimelineItem } from '../../api/issues/timeline';
import type { ReviewCommentRow } from '../../api/pulls/review-store';
import type { AccountRow } from '../../model/rows';
import type { WebContext } from '../context';
import type { IconName } from '../icon-names';
import { Octicon } from '../octicons';
import { Label } from './label';
import { Avatar, Markdown, RelativeTime } from './layout';

const REACTIONS: Record<string, string> = {
	'+1': '👍',
	'-1': '👎',
	laugh: '😄',
	hooray: '🎉',
	confused: '😕',
	heart: '❤️',
	rocket: '🚀',
	eyes: '👀',
};

function Reactions({ counts }: { counts: string }) {
	const parsed = JSON.parse(counts || '{}') as Record<string, number>;
	const shown = Object.entries(parsed).filter(([, n]) => n > 0);
	if (!shown.length) return null;
	return (
		<div class="mt-2">
			{shown.map(([content, n]) => (
				<span key={content} class="Label mr-1" title={content}>
					<span aria-hidden="true">{REACTIONS[content] ?? content}</span> <span class="gs-sr-only">{content}</span>
					{n}
				</span>
			))}
		</div>
	);
}

/** A comment box: avatar, who and when, the rendered body, reactions. */
export function Comment({
	ctx,
	login,
	id,
	created,
	html,
	reactions,
	label,
	anchor,
	children,
}: {
	ctx: WebContext;
	login: string;
	id: number;
	created: string;
	/** The rendered body; null says none was given; undefined shows no body at all. */
	html: string | null | undefined;
	reactions?: string;
	label?: string;
	anchor?: string;
	children?: ComponentChildren;
}) {
	return (
		<div class="d-flex mb-3" id={anchor}>
			<a href={`/${login}`} class="mr-3">
				<Avatar id={id} login={login} size={32} />
			</a>
			<div class="Box flex-auto min-width-0">
				<div class="Box-header py-2 f6">
					<strong>{login}</strong> {label ?? 'commented'} <RelativeTime iso={created} now={ctx.now} />
				</div>
				<div class="Box-body">
					{html !== undefined && <Markdown html={html} />}
					{reactions && <Reactions counts={reactions} />}
					{children}
				</div>
			</div>
		</div>
	);
}

const short = (sha: string | null) => (sha ? sha.slice(0, 7) : '');

interface EventView {
	icon: IconName;
	tone?: string;
	words: ComponentChildren;
}

/** The fields an issue event's details may hold (src/api/issues/timeline.ts writes them). */
interface Details {
	label?: { name?: string; color?: string };
	assignee_id?: number;
	milestone?: { title?: string };
	rename?: { from?: string; to?: string };
	state_reason?: string;
	lock_reason?: string | null;
	requested_reviewer_id?: number;
	requested_team?: { name?: string };
	reviewer_id?: number;
	dismissed_review?: { dismissal_message?: string | null };
	before?: string;
	after?: string;
	branch?: string;
	from?: string;
	to?: string;
}

/** The icon and sentence of one event (after the actor's name). */
function describe(ctx: WebContext, base: string, issue: IssueRow, row: IssueEventRow, people: Map<number, AccountRow>): EventView | null {
	const d = JSON.parse(row.details) as Details;
	const who = (id: unknown) => (typeof id === 'number' ? (people.get(id)?.login ?? 'ghost') : 'ghost');
	const commit = (sha: string | null) =>
		sha ? (
			<a class="gs-mono" href={`${base}/commit/${sha}`}>
				{short(sha)}
			</a>
		) : null;
	const noun = issue.pull_request ? 'pull request' : 'issue';
	switch (row.event) {
		case 'labeled':
		case 'unlabeled':
			return {
				icon: 'tag',
				words: (
					<>
						{row.event === 'labeled' ? 'added' : 'removed'}{' '}
						<Label ctx={ctx} name={String(d.label?.name ?? '')} color={String(d.label?.color ?? '')} /> label
					</>
				),
			};
		case 'assigned':
		case 'unassigned': {
			const self = d.assignee_id === row.actor_id;
			if (self) return { icon: 'person', words: row.event === 'assigned' ? 'self-assigned this' : 'removed their assignment' };
			return {
				icon: 'person',
				words: (
					<>
						{row.event === 'assigned' ? 'assigned' : 'unassigned'} <strong>{who(d.assignee_id)}</strong>
					</>
				),
			};
		}
		case 'milestoned':
			return {
				icon: 'milestone',
				words: (
					<>
						added this to the <strong>{String(d.milestone?.title ?? '')}</strong> milestone
					</>
				),
			};
		case 'demilestoned':
			return {
				icon: 'milestone',
				words: (
					<>
						removed this from the <strong>{String(d.milestone?.title ?? '')}</strong> milestone
					</>
				),
			};
		case 'renamed':
			return {
				icon: 'pencil',
				words: (
					<>
						changed the title <del>{String(d.rename?.from ?? '')}</del> <ins>{String(d.rename?.to ?? '')}</ins>
					</>
				),
			};
		case 'closed': {
			const reason = d.state_reason === 'not_planned' ? ' as not planned' : d.state_reason === 'completed' ? ' as completed' : '';
			return {
				icon: issue.pull_request ? 'git-pull-request-closed' : d.state_reason === 'not_planned' ? 'skip' : 'issue-closed',
				tone: issue.pull_request ? 'color-fg-closed' : 'color-fg-done',
				words: (
					<>
						closed this{reason}
						{row.commit_id && <> in {commit(row.commit_id)}</>}
					</>
				),
			};
		}
		case 'reopened':
			return { icon: 'issue-opened', tone: 'color-fg-open', words: `reopened this ${noun}` };
		case 'merged':
			return {
				icon: 'git-merge',
				tone: 'color-fg-done',
				words: <>merged commit {commit(row.commit_id)}</>,
			};
		case 'referenced':
			return {
				icon: 'git-commit',
				words: (
					<>
						referenced this {noun} in commit {commit(row.commit_id)}
					</>
				),
			};
		case 'locked':
			return {
				icon: 'lock',
				words: `locked${d.lock_reason ? ` as ${d.lock_reason}` : ''} and limited conversation to collaborators`,
			};
		case 'unlocked':
			return { icon: 'key', words: 'unlocked this conversation' };
		case 'review_requested':
		case 'review_request_removed': {
			const target =
				typeof d.requested_reviewer_id === 'number' ? who(d.requested_reviewer_id) : String(d.requested_team?.name ?? 'a team');
			return {
				icon: 'eye',
				words: (
					<>
						{row.event === 'review_requested' ? 'requested a review from' : 'removed the request for review from'}{' '}
						<strong>{target}</strong>
					</>
				),
			};
		}
		case 'review_dismissed':
			return {
				icon: 'x',
				words: (
					<>
						dismissed <strong>{who(d.reviewer_id)}</strong>’s review
						{d.dismissed_review?.dismissal_message ? `: ${d.dismissed_review.dismissal_message}` : ''}
					</>
				),
			};
		case 'head_ref_force_pushed':
			return {
				icon: 'repo-forked',
				words: (
					<>
						force-pushed the <span class="branch-name">{String(d.branch ?? '')}</span> branch from {commit(d.before ?? null)} to{' '}
						{commit(d.after ?? null)}
					</>
				),
			};
		case 'head_ref_deleted':
			return {
				icon: 'git-branch',
				words: (
					<>
						deleted the <span class="branch-name">{String(d.branch ?? '')}</span> branch
					</>
				),
			};
		case 'base_ref_changed':
			return {
				icon: 'git-branch',
				words: (
					<>
						changed the base branch from <span class="branch-name">{String(d.from ?? '')}</span> to{' '}
						<span class="branch-name">{String(d.to ?? '')}</span>
					</>
				),
			};
		default:
			return null;
	}
}

const REVIEW_WORDS: Record<string, string> = {
	APPROVED: 'approved these changes',
	CHANGES_REQUESTED: 'requested changes',
	DISMISSED: 'reviewed (dismissed)',
	COMMENTED: 'reviewed',
};

/**
 * The opening post and the timeline's items.
 * @param reviewComments a pull request's line comments by review id (shown under their review)
 */
export function Timeline({
	ctx,
	base,
	issue,
	items,
	total,
	reviewComments,
}: {
	ctx: WebContext;
	base: string;
	issue: IssueRow;
	items: TimelineItem[];
	total: number;
	reviewComments?: Map<number, ReviewCommentRow[]>;
}) {
	const events = items.flatMap((item) => (item.kind === 'event' ? [item.event] : []));
	const ids = new Set<number>([issue.user_id, ...namedIn(events).accountIds]);
	for (const item of items) {
		if (item.kind === 'comment') ids.add(item.comment.user_id);
		if (item.kind === 'review') ids.add(item.review.user_id);
	}
	for (const list of reviewComments?.values() ?? []) for (const c of list) ids.add(c.user_id);
	const people = ctx.app.stores.accounts.mapByIds(ids);
	const login = (id: number | null) => (id === null ? 'ghost' : (people.get(id)?.login ?? 'ghost'));
	return (
		<div>
			<Comment
				ctx={ctx}
				login={login(issue.user_id)}
				id={issue.user_id}
				created={issue.created_at}
				html={withRenderedBodies(ctx.app, [issue])[0].body_html}
				reactions={issue.reaction_counts}
				label="opened this"
			/>
			{items.map((item) => {
				switch (item.kind) {
					case 'comment':
						return (
							<Comment
								key={`c${item.comment.id}`}
								anchor={`issuecomment-${item.comment.id}`}
								ctx={ctx}
								login={login(item.comment.user_id)}
								id={item.comment.user_id}
								created={item.comment.created_at}
								html={item.comment.body_html}
								reactions={item.comment.reaction_counts}
							/>
						);
					case 'review': {
						const lines = reviewComments?.get(item.review.id) ?? [];
						return (
							<Comment
								key={`r${item.review.id}`}
								anchor={`pullrequestreview-${item.review.id}`}
								ctx={ctx}
								login={login(item.review.user_id)}
								id={item.review.user_id}
								created={item.at}
								html={item.review.body_html || undefined}
								label={REVIEW_WORDS[item.review.state] ?? 'reviewed'}
							>
								{lines.map((c) => (
									<div key={c.id} class="border-top pt-2 mt-2 f6">
										<div class="color-fg-muted gs-mono">
											{c.path}
											{c.line !== null ? `:${c.line}` : ''}
										</div>
										<Markdown html={c.body_html} />
									</div>
								))}
							</Comment>
						);
					}
					case 'commit': {
						const summary = item.commit.data.message.split('\n')[0];
						return (
							<div class="gs-timeline-event" key={`k${item.commit.sha}`}>
								<Octicon name="git-commit" class="mr-2" />
								<span class="color-fg-default">{item.commit.data.author.name}</span> added{' '}
								<a href={`${base}/commit/${item.commit.sha}`}>{summary}</a>{' '}
								<a class="gs-mono f6" href={`${base}/commit/${item.commit.sha}`}>
									{short(item.commit.sha)}
								</a>
							</div>
						);
					}
					default: {
						const view = describe(ctx, base, issue, item.event, people);
						if (!view) return null;
						return (
							<div class="gs-timeline-event" key={`e${item.event.id}`} id={`event-${item.event.id}`}>
								<Octicon name={view.icon} class={`mr-2${view.tone ? ` ${view.tone}` : ''}`} />
								<strong class="color-fg-default">{login(item.event.actor_id)}</strong> {view.words}{' '}
								<RelativeTime iso={item.event.created_at} now={ctx.now} />
							</div>
						);
					}
				}
			})}
			{total > items.length && (
				<p class="f6 color-fg-muted">
					Showing the first {items.length} of {total} timeline items.
				</p>
			)}
		</div>
	);
}
