/**
 * The forms of an issue or pull request page, shown only to those the rule lets act (the services
 * decide again when a form is sent): the comment box with close/reopen, the title editor, the
 * sidebar's label, assignee and reviewer pickers, lock, the merge box, the review form and the
 * inline comment form of a diff line. Every form carries the CSRF token; a text area keeps what a
 * refused form sent (ctx.form) so nothing typed is lost.
 */
import type { ComponentChildren } from 'preact';
import { assignableScope } from '../../api/issues/service';
import type { RepoAccess } from '../../auth/access/types';
import { atLeast, type RepoPermission } from '../../model/repo-permissions';
import type { IssueRow, LabelRow } from '../../model/rows';
import type { WebContext } from '../context';
import { Octicon } from '../octicons';
import { Label } from './label';
import { Csrf } from './layout';
import { repoPath } from './repo';
import { FormGroup } from './form';

type Access = RepoAccess & { permission: RepoPermission };

/** Labels and assignable users offered by the sidebar pickers, at most. */
export const PICKER_LIMIT = 100;

/** What a sent form held (a refused form shows it again), or ''. */
export const sent = (ctx: WebContext, name: string) => ctx.form?.get(name) ?? '';

/** Whether the signed-in viewer may change the issue's title, body and state: its author, or triage access. */
export const canEditIssue = (ctx: WebContext, access: Access, row: IssueRow) =>
	!!ctx.user && (row.user_id === ctx.user.id || atLeast(access.permission, 'triage'));

/** Whether the repository takes changes (not archived). */
export const writable = (access: Access) => access.repo.archived !== 1;

/** A Markdown text area with its label. */
function BodyField({ id, name, label, value, rows = 6 }: { id: string; name: string; label: string; value: string; rows?: number }) {
	return (
		<FormGroup id={id} label={label} extra="mt-0">
			<textarea id={id} name={name} class="form-control width-full" rows={rows} maxLength={65536} placeholder="Leave a comment">
				{value}
			</textarea>
			<p class="note">Markdown is supported.</p>
		</FormGroup>
	);
}

/**
 * The comment box at the end of the conversation: "Comment", and for the author or a triager
 * "Close issue" (the script names it "Close with comment" while the box holds text) with its reason,
 * or "Reopen issue". Signed out: a sign-in link; a locked conversation: push access only.
 */
export function CommentForm({ ctx, access, row, merged }: { ctx: WebContext; access: Access; row: IssueRow; merged: boolean }) {
	const base = repoPath(access);
	const noun = row.pull_request ? 'pull request' : 'issue';
	if (!ctx.user)
		return (
			<div class="Box p-3 mb-3 text-center">
				<a href={`/login?return_to=${encodeURIComponent(ctx.path)}`}>Sign in</a> to join this conversation.
			</div>
		);
	if (!writable(access)) return <div class="flash flash-warn mb-3">This repository has been archived. It is read-only.</div>;
	if (row.locked === 1 && !atLeast(access.permission, 'push'))
		return (
			<div class="flash mb-3">
				<Octicon name="lock" /> This conversation has been locked and limited to collaborators.
			</div>
		);
	const editable = canEditIssue(ctx, access, row) && !merged;
	return (
		<form method="post" action={`${base}/issues/${row.number}/comment`} class="mb-4" id="new-comment">
			<Csrf ctx={ctx} />
			<BodyField id="comment-body" name="comment_body" label="Add a comment" value={sent(ctx, 'comment_body')} />
			<div class="d-flex flex-justify-end flex-items-center">
				{editable && row.state === 'open' && !row.pull_request && (
					<>
						<label class="gs-sr-only" for="close-reason">
							Reason for closing
						</label>
						<select id="close-reason" name="state_reason" class="form-select mr-2">
							<option value="completed">Close as completed</option>
							<option value="not_planned">Close as not planned</option>
						</select>
					</>
				)}
				{editable && row.state === 'open' && (
					<button type="submit" class="btn mr-2" name="action" value="close" data-with-comment="Close with comment">
						<Octicon name={row.pull_request ? 'git-pull-request-closed' : 'issue-closed'} class="color-fg-done" /> Close {noun}
					</button>
				)}
				{editable && row.state === 'closed' && (
					<button type="submit" class="btn mr-2" name="action" value="reopen">
						Reopen {noun}
					</button>
				)}
				<button type="submit" class="btn btn-primary" name="action" value="comment">
					Comment
				</button>
			</div>
		</form>
	);
}

/** The title editor of the header (author or triage), folded in a details element. */
export function TitleForm({ ctx, access, row }: { ctx: WebContext; access: Access; row: IssueRow }) {
	if (!canEditIssue(ctx, access, row) || !writable(access)) return null;
	return (
		<details class="details-reset mt-2">
			<summary class="btn btn-sm">
				<Octicon name="pencil" /> Edit title
			</summary>
			<form method="post" action={`${repoPath(access)}/issues/${row.number}/title`} class="d-flex mt-2">
				<Csrf ctx={ctx} />
				<label class="gs-sr-only" for="issue-title-edit">
					Title
				</label>
				<input
					id="issue-title-edit"
					class="form-control flex-auto mr-2"
					name="title"
					value={sent(ctx, 'title') || row.title}
					maxLength={256}
					required
				/>
				<button type="submit" class="btn">
					Save
				</button>
			</form>
		</details>
	);
}

/**
 * A picker of the sidebar: an "Edit …" link that opens it (`?edit=key`, so the page does not load
 * every label and user until asked, and works without JavaScript), and once open a form of
 * checkboxes with an Apply button.
 */
function Picker({
	ctx,
	row,
	access,
	which,
	action,
	title,
	name,
	options,
}: {
	ctx: WebContext;
	row: IssueRow;
	access: Access;
	which: 'labels' | 'assignees' | 'reviewers';
	action: string;
	title: string;
	name: string;
	options: () => Array<{ value: string; checked: boolean; content: ComponentChildren }>;
}) {
	const here = `${repoPath(access)}/${row.pull_request ? 'pull' : 'issues'}/${row.number}`;
	if (ctx.method !== 'GET' || ctx.query.get('edit') !== which)
		return (
			<a class="f6 d-block mb-2" href={`${here}?edit=${which}#edit-${which}`}>
				<Octicon name="gear" /> Edit {title.toLowerCase()}
			</a>
		);
	const choices = options();
	return (
		<form method="post" action={action} class="mb-2" id={`edit-${which}`}>
			<Csrf ctx={ctx} />
			<fieldset>
				<legend class="f6 text-bold">Choose {title.toLowerCase()}</legend>
				{choices.map((o) => (
					<div class="form-checkbox my-1" key={o.value}>
						<label>
							<input type="checkbox" name={name} value={o.value} checked={o.checked} /> {o.content}
						</label>
					</div>
				))}
				{choices.length === 0 && <p class="f6 color-fg-muted">Nothing to choose from.</p>}
			</fieldset>
			<button type="submit" class="btn btn-sm mt-1 mr-2">
				Apply {title.toLowerCase()}
			</button>
			<a class="f6" href={here}>
				Cancel
			</a>
		</form>
	);
}

/** The label picker (triage access): every label of the repository (the first PICKER_LIMIT), the issue's checked. */
export function LabelPicker({ ctx, access, row, current }: { ctx: WebContext; access: Access; row: IssueRow; current: LabelRow[] }) {
	if (!ctx.user || !atLeast(access.permission, 'triage') || !writable(access)) return null;
	const on = new Set(current.map((l) => l.id));
	return (
		<Picker
			ctx={ctx}
			row={row}
			access={access}
			which="labels"
			action={`${repoPath(access)}/issues/${row.number}/labels`}
			title="Labels"
			name="labels[]"
			options={() =>
				ctx.app.stores.labels.list(access.repo.id, PICKER_LIMIT, 0).rows.map((l) => ({
					value: l.name,
					checked: on.has(l.id),
					content: <Label ctx={ctx} name={l.name} color={l.color} description={l.description} />,
				}))
			}
		/>
	);
}

/** The assignee picker (triage access): the users who can be assigned (the first PICKER_LIMIT). */
export function AssigneePicker({ ctx, access, row, current }: { ctx: WebContext; access: Access; row: IssueRow; current: number[] }) {
	if (!ctx.user || !atLeast(access.permission, 'triage') || !writable(access)) return null;
	const on = new Set(current);
	return (
		<Picker
			ctx={ctx}
			row={row}
			access={access}
			which="assignees"
			action={`${repoPath(access)}/issues/${row.number}/assignees`}
			title="Assignees"
			name="assignees[]"
			options={() => assignable(ctx, access).map((p) => ({ value: p.login, checked: on.has(p.id), content: p.login }))}
		/>
	);
}

/** The users issues of the repository can be assigned to (GET /repos/{o}/{r}/assignees's statement). */
export function assignable(ctx: WebContext, access: Access) {
	return ctx.app.stores.issues.assignable(assignableScope(access), PICKER_LIMIT, 0).rows;
}

/** The repository's open milestones a picker offers, the next due first (at most PICKER_LIMIT). */
export function openMilestones(ctx: WebContext, access: Access) {
	const query = { repoId: access.repo.id, state: 'open', sort: 'due_on', direction: 'asc', limit: PICKER_LIMIT, offset: 0 } as const;
	return ctx.app.stores.milestones.list(query).rows;
}

/** The reviewer picker of a pull request (its author or triage access): the repository's assignable users but the author. */
export function ReviewerPicker({ ctx, access, row }: { ctx: WebContext; access: Access; row: IssueRow }) {
	if (!ctx.user || !writable(access) || row.state !== 'open') return null;
	if (!atLeast(access.permission, 'triage') && row.user_id !== ctx.user.id) return null;
	return (
		<Picker
			ctx={ctx}
			row={row}
			access={access}
			which="reviewers"
			action={`${repoPath(access)}/pull/${row.number}/reviewers`}
			title="Reviewers"
			name="reviewers[]"
			options={() =>
				assignable(ctx, access)
					.filter((p) => p.id !== row.user_id)
					.map((p) => ({ value: p.login, checked: false, content: p.login }))
			}
		/>
	);
}

/** The milestone picker (triage access): on demand (`?edit=milestone`), the repository's open milestones and "No milestone". */
export function MilestonePicker({ ctx, access, row }: { ctx: WebContext; access: Access; row: IssueRow }) {
	if (!ctx.user || !atLeast(access.permission, 'triage') || !writable(access)) return null;
	const here = `${repoPath(access)}/${row.pull_request ? 'pull' : 'issues'}/${row.number}`;
	if (ctx.method !== 'GET' || ctx.query.get('edit') !== 'milestone')
		return (
			<a class="f6 d-block mb-2" href={`${here}?edit=milestone#edit-milestone`}>
				<Octicon name="gear" /> Edit milestone
			</a>
		);
	const milestones = openMilestones(ctx, access);
	return (
		<form method="post" action={`${repoPath(access)}/issues/${row.number}/milestone`} class="mb-2" id="edit-milestone">
			<Csrf ctx={ctx} />
			<label class="f6 text-bold d-block mb-1" for="milestone-choice">
				Choose a milestone
			</label>
			<select id="milestone-choice" name="milestone" class="form-select select-sm mb-2 d-block">
				<option value="">No milestone</option>
				{milestones.map((m) => (
					<option key={m.id} value={String(m.number)} selected={m.id === row.milestone_id}>
						{m.title}
					</option>
				))}
			</select>
			<button type="submit" class="btn btn-sm mr-2">
				Apply milestone
			</button>
			<a class="f6" href={here}>
				Cancel
			</a>
		</form>
	);
}

/** Lock or unlock the conversation (push access). */
export function LockForm({ ctx, access, row }: { ctx: WebContext; access: Access; row: IssueRow }) {
	if (!ctx.user || !atLeast(access.permission, 'push') || !writable(access)) return null;
	const locked = row.locked === 1;
	return (
		<form method="post" action={`${repoPath(access)}/issues/${row.number}/lock`} class="border-bottom pb-3 mb-3">
			<Csrf ctx={ctx} />
			<input type="hidden" name="lock" value={locked ? '0' : '1'} />
			{!locked && (
				<>
					<label class="f6 d-block mb-1" for="lock-reason">
						Reason for locking
					</label>
					<select id="lock-reason" name="lock_reason" class="form-select select-sm mb-2 d-block">
						<option value="">No reason</option>
						<option value="off-topic">Off-topic</option>
						<option value="too heated">Too heated</option>
						<option value="resolved">Resolved</option>
						<option value="spam">Spam</option>
					</select>
				</>
			)}
			<button type="submit" class="btn btn-sm">
				<Octicon name="lock" /> {locked ? 'Unlock conversation' : 'Lock conversation'}
			</button>
		</form>
	);
}

/** What the merge box says of each mergeable_state (GitHub's wording where it has one). */
const MERGE_STATES: Record<string, { icon: 'check-circle-fill' | 'x-circle-fill' | 'alert' | 'dot-fill'; tone: string; text: string }> = {
	clean: { icon: 'check-circle-fill', tone: 'color-fg-success', text: 'This branch has no conflicts with the base branch.' },
	unstable: { icon: 'alert', tone: 'color-fg-attention', text: 'Some checks were not successful, but merging is allowed.' },
	has_hooks: { icon: 'check-circle-fill', tone: 'color-fg-success', text: 'This branch has no conflicts with the base branch.' },
	behind: { icon: 'alert', tone: 'color-fg-attention', text: 'This branch is out-of-date with the base branch.' },
	blocked: {
		icon: 'x-circle-fill',
		tone: 'color-fg-danger',
		text: "Merging is blocked: the base branch's protection rules (required reviews or status checks) are not satisfied.",
	},
	dirty: { icon: 'x-circle-fill', tone: 'color-fg-danger', text: 'This branch has conflicts that must be resolved.' },
	draft: { icon: 'dot-fill', tone: 'color-fg-muted', text: 'This pull request is still a work in progress.' },
	unknown: { icon: 'dot-fill', tone: 'color-fg-attention', text: 'Checking for the ability to merge automatically…' },
};

/** The merge methods a repository allows, with GitHub's names. */
export function allowedMethods(access: Access): Array<{ value: 'merge' | 'squash' | 'rebase'; label: string }> {
	const { repo } = access;
	return [
		...(repo.allow_merge_commit === 1 ? [{ value: 'merge' as const, label: 'Create a merge commit' }] : []),
		...(repo.allow_squash_merge === 1 ? [{ value: 'squash' as const, label: 'Squash and merge' }] : []),
		...(repo.allow_rebase_merge === 1 ? [{ value: 'rebase' as const, label: 'Rebase and merge' }] : []),
	];
}

/**
 * The merge box of an open pull request: its mergeable state, and for push access the merge form
 * (the repository's allowed methods, commit title and message, the head sha seen); a draft offers
 * "Ready for review" to its author and writers. Merged or closed: the outcome, and "Delete branch"
 * while the head branch is still there and the viewer may delete it.
 */
export function MergeBox({
	ctx,
	access,
	row,
	headSha,
	merged,
	draft,
	state,
	defaultTitle,
	deletableBranch,
}: {
	ctx: WebContext;
	access: Access;
	row: IssueRow;
	headSha: string;
	merged: boolean;
	draft: boolean;
	/** mergeable_state (presentMergeability). */
	state: string;
	defaultTitle: string;
	/** The head branch the viewer may delete (it still points at the head), or null. */
	deletableBranch: string | null;
}) {
	const base = repoPath(access);
	const push = !!ctx.user && atLeast(access.permission, 'push') && writable(access);
	const deleteForm = deletableBranch && (
		<form method="post" action={`${base}/pull/${row.number}/branch/delete`} class="ml-auto">
			<Csrf ctx={ctx} />
			<button type="submit" class="btn btn-sm">
				<Octicon name="trash" /> Delete branch
			</button>
		</form>
	);
	if (merged || row.state === 'closed')
		return (
			<div class="Box mb-3" id="merge-box">
				<div class="Box-row d-flex flex-items-center">
					<Octicon
						name={merged ? 'git-merge' : 'git-pull-request-closed'}
						class={`mr-2 ${merged ? 'color-fg-done' : 'color-fg-closed'}`}
					/>
					<strong class="mr-2">{merged ? 'Pull request successfully merged and closed' : 'Closed with unmerged commits'}</strong>
					{deletableBranch ? (
						deleteForm
					) : (
						<span class="f6 color-fg-muted ml-auto">{merged ? 'The branch can be safely deleted.' : ''}</span>
					)}
				</div>
			</div>
		);
	const shown = MERGE_STATES[state] ?? MERGE_STATES.unknown;
	const methods = allowedMethods(access);
	const mayDraft = !!ctx.user && writable(access) && (row.user_id === ctx.user.id || atLeast(access.permission, 'push'));
	return (
		<div class="Box mb-3" id="merge-box">
			<div class="Box-row">
				<Octicon name={shown.icon} class={`mr-2 ${shown.tone}`} /> <strong>{shown.text}</strong>
			</div>
			{draft && mayDraft && (
				<div class="Box-row">
					<form method="post" action={`${base}/pull/${row.number}/ready_for_review`}>
						<Csrf ctx={ctx} />
						<button type="submit" class="btn">
							Ready for review
						</button>
					</form>
				</div>
			)}
			{push && !draft && methods.length > 0 && (
				<div class="Box-row">
					<form method="post" action={`${base}/pull/${row.number}/merge`}>
						<Csrf ctx={ctx} />
						<input type="hidden" name="sha" value={headSha} />
						<FormGroup id="merge-method" label="Merge method" extra="mt-0">
							<select id="merge-method" name="merge_method" class="form-select">
								{methods.map((m) => (
									<option key={m.value} value={m.value} selected={sent(ctx, 'merge_method') === m.value}>
										{m.label}
									</option>
								))}
							</select>
						</FormGroup>
						<FormGroup id="merge-title" label="Commit title">
							<input
								id="merge-title"
								class="form-control width-full"
								name="commit_title"
								maxLength={1024}
								value={sent(ctx, 'commit_title') || defaultTitle}
							/>
						</FormGroup>
						<FormGroup id="merge-message" label="Commit message">
							<textarea id="merge-message" class="form-control width-full" name="commit_message" rows={3} maxLength={65536}>
								{sent(ctx, 'commit_message')}
							</textarea>
						</FormGroup>
						<button type="submit" class={`btn ${state === 'clean' || state === 'has_hooks' ? 'btn-primary' : ''}`}>
							<Octicon name="git-merge" /> Merge pull request
						</button>
					</form>
				</div>
			)}
			{!push && <div class="Box-row f6 color-fg-muted">Only those with write access to this repository can merge pull requests.</div>}
		</div>
	);
}

/** The review form of the Files changed tab: a summary and Comment / Approve / Request changes. */
export function ReviewForm({
	ctx,
	access,
	row,
	pendingComments,
}: {
	ctx: WebContext;
	access: Access;
	row: IssueRow;
	/** The viewer's pending review's comment count, or null without one. */
	pendingComments: number | null;
}) {
	if (!ctx.user || !writable(access) || row.state !== 'open') return null;
	const own = row.user_id === ctx.user.id;
	const choice = sent(ctx, 'event') || 'COMMENT';
	const option = (value: string, label: string, note: string, disabled = false) => (
		<div class="form-checkbox my-1">
			<label>
				<input type="radio" name="event" value={value} checked={choice === value} disabled={disabled} /> {label}
			</label>
			<p class="note">{note}</p>
		</div>
	);
	return (
		<details class="details-reset Box mb-3" id="review" open={!!ctx.form?.get('event') || pendingComments !== null}>
			<summary class="Box-header d-flex flex-items-center">
				<span class="btn btn-primary btn-sm">Review changes</span>
				{pendingComments !== null && (
					<span class="ml-2 f6">
						Pending review: {pendingComments} comment{pendingComments === 1 ? '' : 's'}
					</span>
				)}
			</summary>
			<form method="post" action={`${repoPath(access)}/pull/${row.number}/reviews`} class="Box-body">
				<Csrf ctx={ctx} />
				<BodyField id="review-body" name="body" label="Review summary" value={sent(ctx, 'body')} rows={4} />
				<fieldset class="mb-2">
					<legend class="f6 text-bold">Review decision</legend>
					{option('COMMENT', 'Comment', 'Submit general feedback without explicit approval.')}
					{option('APPROVE', 'Approve', 'Give your approval to merge these changes.', own)}
					{option('REQUEST_CHANGES', 'Request changes', 'Submit feedback that must be addressed before merging.', own)}
				</fieldset>
				<button type="submit" class="btn btn-primary">
					Submit review
				</button>
			</form>
		</details>
	);
}

/** The inline comment form under a diff line (path, line, side of GitHub's review comments). */
export function InlineCommentForm({
	ctx,
	access,
	row,
	path,
	line,
	side,
	pending,
}: {
	ctx: WebContext;
	access: Access;
	row: IssueRow;
	path: string;
	line: number;
	side: 'LEFT' | 'RIGHT';
	/** Whether the viewer has a pending review (the comment joins it). */
	pending: boolean;
}) {
	return (
		<form method="post" action={`${repoPath(access)}/pull/${row.number}/review_comments`} class="p-2" id="inline-comment">
			<Csrf ctx={ctx} />
			<input type="hidden" name="path" value={path} />
			<input type="hidden" name="line" value={String(line)} />
			<input type="hidden" name="side" value={side} />
			<BodyField
				id="inline-comment-body"
				name="comment_body"
				label={`Comment on ${side === 'LEFT' ? 'old' : 'new'} line ${line} of ${path}`}
				value={sent(ctx, 'comment_body')}
				rows={3}
			/>
			<div class="d-flex flex-justify-end">
				{!pending && (
					<button type="submit" class="btn mr-2" name="action" value="single">
						Add single comment
					</button>
				)}
				<button type="submit" class="btn btn-primary" name="action" value="review">
					{pending ? 'Add review comment' : 'Start a review'}
				</button>
			</div>
		</form>
	);
}

/** The "Open a pull request" form of the compare page (head and base as compared). */
export function CreatePullForm({
	ctx,
	access,
	base,
	head,
	defaultTitle,
}: {
	ctx: WebContext;
	access: Access;
	base: string;
	head: string;
	defaultTitle: string;
}) {
	return (
		<form method="post" action={`${repoPath(access)}/pull/create`} class="Box p-3 mb-4" id="new-pull-request">
			<h3 class="f4 mb-2">Open a pull request</h3>
			<Csrf ctx={ctx} />
			<input type="hidden" name="base" value={base} />
			<input type="hidden" name="head" value={head} />
			<FormGroup id="pull-title" label="Title" extra="mt-0">
				<input
					id="pull-title"
					class="form-control width-full"
					name="title"
					maxLength={256}
					required
					value={sent(ctx, 'title') || defaultTitle}
				/>
			</FormGroup>
			<BodyField id="pull-body" name="body" label="Description" value={sent(ctx, 'body')} />
			<div class="form-checkbox">
				<label>
					<input type="checkbox" name="draft" value="1" checked={sent(ctx, 'draft') === '1'} /> Create as draft
				</label>
				<p class="note">A draft pull request cannot be merged until it is marked ready for review.</p>
			</div>
			<button type="submit" class="btn btn-primary">
				Create pull request
			</button>
		</form>
	);
}
