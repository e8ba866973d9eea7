/**
 * The write flows of issues and pull requests, at GitHub's paths, each calling the service the
 * REST route calls (so the same rules, events, webhooks and notifications follow):
 * - `/{owner}/{repo}/issues/new` (form) and POST `/{owner}/{repo}/issues`: open an issue (createIssue);
 * - POST `/issues/{n}/comment` (comment, close or reopen, "Close with comment"), `/title`,
 *   `/labels`, `/assignees`, `/milestone`, `/lock` — for issues and pull requests alike (issue numbers are shared);
 * - POST `/pull/create` (the compare page's form: createPullRequest), `/pull/{n}/reviewers`,
 *   `/reviews` (submit a review), `/review_comments` (an inline comment on a diff line: alone, or in
 *   a pending review), `/merge` (mergePullRequest), `/branch/delete` (the head ref's deletion,
 *   branch protection applying), `/ready_for_review` (setPullDraft).
 * Every form is CSRF-checked before its handler runs (src/web/index.ts). Access: a repository the
 * viewer cannot see is the 404 page, a signed-out viewer is sent to sign in, a role below the
 * form's is a 403 page; the services decide the rest. A service's refusal shows the page again
 * with its message in an error box (422, or 403 for a refused role), keeping what was typed.
 */
import type { VNode } from 'preact';
import { createIssueComment } from '../../api/issue-comments/service';
import { issueScope } from '../../api/issues/service';
import { createIssue, setIssueLabels, setIssueLock, updateIssue } from '../../api/issues/workflows';
import { deleteRef } from '../../api/git/writes';
import { setPullDraft } from '../../api/pulls/draft';
import { mergePullRequest } from '../../api/pulls/merge-service';
import { addReviewComment, createReview, requestPullReviewers, submitReview, type ReviewEvent } from '../../api/pulls/review-service';
import { createPullRequest, updatePullRequest } from '../../api/pulls/workflows';
import type { RepoAccess } from '../../auth/access/types';
import type { Caller } from '../../auth/caller';
import { DomainError } from '../../model/errors';
import { atLeast, type RepoPermission } from '../../model/repo-permissions';
import type { IssueRow, PullRow } from '../../model/rows';
import { isoSeconds } from '../../time';
import { repoFor, repoForChange, requireUser } from '../access';
import { allowedMethods, assignable, openMilestones, PICKER_LIMIT, sent } from '../components/issue-forms';
import { Label } from '../components/label';
import { Csrf } from '../components/layout';
import { RepoLayout, repoPath } from '../components/repo';
import { Forbidden, NotFound, Redirect, type WebContext } from '../context';
import { field } from '../forms';
import type { PageAnswer, PageRoute } from '../page';
import { compare } from './history';
import { deletableHead, issuePage, pullPage } from './issues';
import { Flash, FormGroup } from '../components/form';

type Access = RepoAccess & { permission: RepoPermission };

/** GitHub's longest issue and pull request title. */
const MAX_TITLE = 256;
/** GitHub's longest body (characters). */
const MAX_BODY = 65536;
/** Labels, assignees and reviewers one form takes at most. */
const MAX_NAMES = 100;
const LOCK_REASONS = new Set(['off-topic', 'too heated', 'resolved', 'spam']);
const REVIEW_EVENTS = new Set<ReviewEvent>(['COMMENT', 'APPROVE', 'REQUEST_CHANGES']);

/** The page's request as a service's caller: the signed-in user, now; bodies stored raw. */
const callerOf = (ctx: WebContext): Caller => ({ app: ctx.app, principal: ctx.principal, now: ctx.now, media: null });

/** A form's refusal of its own input (422, the page again with the sentence). */
class Invalid extends Error {}

/**
 * The sentence a refused change shows: the first errors[] message of a validation error, else the
 * error's message; null for what is no refusal of the domain (a fault, the 404 page, a redirect).
 */
function refusal(error: unknown): { message: string; status: number } | null {
	if (error instanceof Invalid) return { message: error.message, status: 422 };
	if (!(error instanceof DomainError) || error.status >= 500 || error.status === 404) return null;
	const item = error.errors?.find((e) => e.message || e.field);
	const message =
		item?.message ??
		(item?.field ? `${error.message}: ${item.field} is ${item.code === 'missing_field' ? 'missing' : 'invalid'}` : null);
	return { message: message ?? error.message, status: error.status === 403 ? 403 : 422 };
}

/**
 * Runs a change in one transaction and redirects (303) to `then`; a refusal renders `again` with
 * its message instead (nothing of the change is kept).
 */
function attempt(ctx: WebContext, change: () => string, again: (error: string) => VNode): PageAnswer {
	let location: string;
	try {
		location = ctx.app.transaction(change);
	} catch (error) {
		const refused = refusal(error);
		if (!refused) throw error;
		return { status: refused.status, vnode: again(refused.message) };
	}
	throw new Redirect(location, 303);
}

/** The path's issue or pull request ({number}); a plain issue of a repository without issues is missing. */
function issueOf(ctx: WebContext, access: Access): IssueRow {
	const text = ctx.params.number;
	const n = /^\d{1,10}$/.test(text) ? Number(text) : 0;
	const row = n ? ctx.app.stores.issues.byNumber(access.repo.id, n) : undefined;
	if (!row || (!row.pull_request && access.repo.has_issues !== 1)) throw new NotFound();
	return row;
}

/** The path's pull request. */
function pullOf(ctx: WebContext, access: Access): PullRow {
	const row = issueOf(ctx, access);
	const pull = row.pull_request ? ctx.app.stores.pulls.byIssue(row.id) : undefined;
	if (!pull) throw new NotFound();
	return pull;
}

/** Where an issue or pull request lives. */
const pathOf = (access: Access, row: IssueRow) => `${repoPath(access)}/${row.pull_request ? 'pull' : 'issues'}/${row.number}`;

/** The page of the issue or pull request again, with a refusal's message. */
const againOf =
	(ctx: WebContext, row: IssueRow, tab: 'conversation' | 'files' = 'conversation') =>
	(error: string) =>
		(row.pull_request ? pullPage(tab)(ctx, error) : issuePage(ctx, error)) as VNode;

/** A title field: trimmed, not blank, at most MAX_TITLE characters. @throws Invalid */
function titleField(ctx: WebContext): string {
	const title = (ctx.form?.get('title') ?? '').trim();
	if (!title) throw new Invalid("Title can't be blank.");
	if (title.length > MAX_TITLE) throw new Invalid(`Title is longer than ${MAX_TITLE} characters.`);
	return title;
}

/** A Markdown body field as typed (line endings as browsers send them), at most MAX_BODY characters. @throws Invalid */
function bodyField(ctx: WebContext, name: string): string {
	const body = ctx.form?.get(name) ?? '';
	if (body.length > MAX_BODY) throw new Invalid(`The text is longer than ${MAX_BODY} characters.`);
	return body;
}

/** The values of a repeated field (`name[]`), distinct, non-blank, at most `max`. @throws Invalid */
function names(ctx: WebContext, name: string, max = MAX_NAMES): string[] {
	const values = [...new Set((ctx.form?.getAll(name) ?? []).map((v) => v.trim()).filter(Boolean))];
	if (values.length > max) throw new Invalid(`Choose at most ${max}.`);
	if (values.some((v) => v.length > 256)) throw new Invalid('A name is too long.');
	return values;
}

/** A form field's refusal as the page again (Invalid before any service ran). */
function guarded(again: (error: string) => VNode, read: () => PageAnswer): PageAnswer {
	try {
		return read();
	} catch (error) {
		if (error instanceof Invalid) return { status: 422, vnode: again(error.message) };
		throw error;
	}
}

// ---------------------------------------------------------------------------------------------
// New issue

/** GET /{owner}/{repo}/issues/new: title and body; labels, assignees and milestone for push access (createIssue's rule). */
function newIssue(ctx: WebContext, error?: string) {
	const access = repoFor(ctx);
	requireUser(ctx);
	if (access.repo.has_issues !== 1) throw new NotFound();
	const { app } = ctx;
	const base = repoPath(access);
	const push = atLeast(access.permission, 'push');
	const labels = push ? app.stores.labels.list(access.repo.id, PICKER_LIMIT, 0).rows : [];
	const people = push ? assignable(ctx, access) : [];
	const milestones = push ? openMilestones(ctx, access) : [];
	const chosen = (name: string) => new Set(ctx.form?.getAll(name) ?? []);
	const chosenLabels = chosen('labels[]');
	const chosenPeople = chosen('assignees[]');
	return (
		<RepoLayout ctx={ctx} access={access} tab="issues" title={`New issue · ${access.owner.login}/${access.repo.name}`}>
			<h2 class="f2 text-normal border-bottom pb-2 mb-3">New issue</h2>
			<Flash error={error} />
			{access.repo.archived === 1 ? (
				<div class="flash flash-warn">This repository has been archived. It is read-only.</div>
			) : (
				<form method="post" action={`${base}/issues`} class="d-flex flex-wrap gutter-md" id="new-issue">
					<Csrf ctx={ctx} />
					<div class="col-12 col-md-9">
						<FormGroup id="issue-title" label="Title" extra="mt-0">
							<input
								id="issue-title"
								class="form-control width-full"
								name="title"
								maxLength={MAX_TITLE}
								required
								value={sent(ctx, 'title')}
							/>
						</FormGroup>
						<FormGroup id="issue-body" label="Description">
							<textarea id="issue-body" class="form-control width-full" name="body" rows={10} maxLength={MAX_BODY}>
								{sent(ctx, 'body')}
							</textarea>
							<p class="note">Markdown is supported.</p>
						</FormGroup>
						<button type="submit" class="btn btn-primary">
							Submit new issue
						</button>
					</div>
					{push && (
						<div class="col-12 col-md-3">
							<fieldset class="border-bottom pb-3 mb-3">
								<legend class="f6 text-bold mb-2">Assignees</legend>
								{people.map((p) => (
									<div class="form-checkbox my-1" key={p.id}>
										<label>
											<input type="checkbox" name="assignees[]" value={p.login} checked={chosenPeople.has(p.login)} />{' '}
											{p.login}
										</label>
									</div>
								))}
							</fieldset>
							<fieldset class="border-bottom pb-3 mb-3">
								<legend class="f6 text-bold mb-2">Labels</legend>
								{labels.map((l) => (
									<div class="form-checkbox my-1" key={l.id}>
										<label>
											<input type="checkbox" name="labels[]" value={l.name} checked={chosenLabels.has(l.name)} />{' '}
											<Label ctx={ctx} name={l.name} color={l.color} description={l.description} />
										</label>
									</div>
								))}
							</fieldset>
							<div class="form-group mt-0">
								<div class="form-group-header">
									<label for="issue-milestone" class="f6">
										Milestone
									</label>
								</div>
								<div class="form-group-body">
									<select id="issue-milestone" name="milestone" class="form-select">
										<option value="">No milestone</option>
										{milestones.map((m) => (
											<option
												key={m.id}
												value={String(m.number)}
												selected={sent(ctx, 'milestone') === String(m.number)}
											>
												{m.title}
											</option>
										))}
									</select>
								</div>
							</div>
						</div>
					)}
				</form>
			)}
		</RepoLayout>
	);
}

/** POST /{owner}/{repo}/issues: createIssue (labels, assignees and milestone apply with push access). */
function createIssuePost(ctx: WebContext) {
	const access = repoForChange(ctx);
	if (access.repo.has_issues !== 1) throw new NotFound();
	const again = (error: string) => newIssue(ctx, error);
	return guarded(again, () => {
		const title = titleField(ctx);
		const body = bodyField(ctx, 'body');
		const milestone = field(ctx, 'milestone', 20);
		const input = {
			title,
			body: body || null,
			labels: names(ctx, 'labels[]'),
			assignees: names(ctx, 'assignees[]', 10),
			milestone: /^\d{1,10}$/.test(milestone) ? Number(milestone) : null,
		};
		return attempt(
			ctx,
			() => {
				const row = createIssue(callerOf(ctx), issueScope(ctx.app, access), input);
				return `${repoPath(access)}/issues/${row.number}`;
			},
			again,
		);
	});
}

// ---------------------------------------------------------------------------------------------
// Conversation: comment, close, reopen, title, labels, assignees, lock

/** Changes the state of an issue (updateIssue) or a pull request (updatePullRequest, as PATCH …/pulls/{n}). */
function setState(ctx: WebContext, access: Access, row: IssueRow, state: 'open' | 'closed', reason: 'completed' | 'not_planned' | null) {
	const caller = callerOf(ctx);
	const scope = issueScope(ctx.app, access);
	const pull = row.pull_request ? ctx.app.stores.pulls.byIssue(row.id) : undefined;
	if (pull) updatePullRequest(caller, scope, pull, { state });
	else updateIssue(caller, scope, row, { state, ...(state === 'closed' && reason ? { state_reason: reason } : {}) });
}

/**
 * POST …/issues/{n}/comment: `action` comment (a body is needed), close (with the body as a
 * comment first when there is one: "Close with comment"; `state_reason` completed or not_planned)
 * or reopen (likewise).
 */
function commentPost(ctx: WebContext) {
	const access = repoForChange(ctx);
	const row = issueOf(ctx, access);
	const again = againOf(ctx, row);
	return guarded(again, () => {
		const action = field(ctx, 'action', 10) || 'comment';
		if (action !== 'comment' && action !== 'close' && action !== 'reopen') throw new Invalid('Choose Comment, Close or Reopen.');
		const body = bodyField(ctx, 'comment_body');
		if (action === 'comment' && !body.trim()) throw new Invalid("Comment body can't be blank.");
		const reason = field(ctx, 'state_reason', 20) === 'not_planned' ? 'not_planned' : 'completed';
		return attempt(
			ctx,
			() => {
				let anchor = '';
				if (body.trim()) {
					const comment = createIssueComment(callerOf(ctx), issueScope(ctx.app, access), row, body);
					anchor = `#issuecomment-${comment.id}`;
				}
				if (action !== 'comment') {
					const current = ctx.app.stores.issues.byId(row.id)!;
					setState(ctx, access, current, action === 'close' ? 'closed' : 'open', row.pull_request ? null : reason);
				}
				return `${pathOf(access, row)}${anchor}`;
			},
			again,
		);
	});
}

/** POST …/issues/{n}/title: the author or triage access (the services' rule). */
function titlePost(ctx: WebContext) {
	const access = repoForChange(ctx);
	const row = issueOf(ctx, access);
	const again = againOf(ctx, row);
	return guarded(again, () => {
		const title = titleField(ctx);
		return attempt(
			ctx,
			() => {
				const caller = callerOf(ctx);
				const scope = issueScope(ctx.app, access);
				const pull = row.pull_request ? ctx.app.stores.pulls.byIssue(row.id) : undefined;
				if (pull) updatePullRequest(caller, scope, pull, { title });
				else updateIssue(caller, scope, row, { title });
				return pathOf(access, row);
			},
			again,
		);
	});
}

/** POST …/issues/{n}/labels: the checked labels replace the issue's (triage access; PUT …/labels). */
function labelsPost(ctx: WebContext) {
	const access = repoForChange(ctx, 'triage');
	const row = issueOf(ctx, access);
	const again = againOf(ctx, row);
	return guarded(again, () => {
		const labels = names(ctx, 'labels[]');
		return attempt(
			ctx,
			() => {
				setIssueLabels(callerOf(ctx), issueScope(ctx.app, access), row, labels, 'replace');
				return pathOf(access, row);
			},
			again,
		);
	});
}

/** POST …/issues/{n}/assignees: the checked users become the assignees (triage access; PATCH's `assignees`). */
function assigneesPost(ctx: WebContext) {
	const access = repoForChange(ctx, 'triage');
	const row = issueOf(ctx, access);
	const again = againOf(ctx, row);
	return guarded(again, () => {
		const logins = names(ctx, 'assignees[]', 10);
		return attempt(
			ctx,
			() => {
				updateIssue(callerOf(ctx), issueScope(ctx.app, access), row, { assignees: logins });
				return pathOf(access, row);
			},
			again,
		);
	});
}

/** POST …/issues/{n}/milestone: the milestone's number, or '' for none (triage access; PATCH's `milestone`). */
function milestonePost(ctx: WebContext) {
	const access = repoForChange(ctx, 'triage');
	const row = issueOf(ctx, access);
	const again = againOf(ctx, row);
	return guarded(again, () => {
		const value = field(ctx, 'milestone', 20);
		if (value && !/^\d{1,10}$/.test(value)) throw new Invalid('Choose a milestone.');
		return attempt(
			ctx,
			() => {
				updateIssue(callerOf(ctx), issueScope(ctx.app, access), row, { milestone: value ? Number(value) : null });
				return pathOf(access, row);
			},
			again,
		);
	});
}

/** POST …/issues/{n}/lock: lock=1 locks (with an optional reason), lock=0 unlocks (push access). */
function lockPost(ctx: WebContext) {
	const access = repoForChange(ctx, 'push');
	const row = issueOf(ctx, access);
	const again = againOf(ctx, row);
	return guarded(again, () => {
		const lock = field(ctx, 'lock', 1) === '1';
		const reason = field(ctx, 'lock_reason', 20);
		if (reason && !LOCK_REASONS.has(reason)) throw new Invalid('Choose off-topic, too heated, resolved or spam.');
		return attempt(
			ctx,
			() => {
				setIssueLock(callerOf(ctx), issueScope(ctx.app, access), row, lock, lock ? reason || null : null);
				return pathOf(access, row);
			},
			again,
		);
	});
}

// ---------------------------------------------------------------------------------------------
// Pull requests

/** POST /{owner}/{repo}/pull/create: the compare page's form (createPullRequest); a refusal shows the comparison again. */
function createPullPost(ctx: WebContext) {
	const access = repoForChange(ctx);
	const base = field(ctx, 'base', 255);
	const head = field(ctx, 'head', 400);
	if (!base || !head) throw new NotFound();
	const again = (error: string) => {
		ctx.params['*'] = `${base}...${head}`;
		return compare(ctx, error) as VNode;
	};
	return guarded(again, () => {
		const title = titleField(ctx);
		const body = bodyField(ctx, 'body');
		const draft = ctx.form?.get('draft') === '1';
		return attempt(
			ctx,
			() => {
				const pull = createPullRequest(callerOf(ctx), issueScope(ctx.app, access), {
					base,
					head,
					title,
					body: body || null,
					draft,
				});
				return `${repoPath(access)}/pull/${pull.number}`;
			},
			again,
		);
	});
}

/** POST …/pull/{n}/reviewers: requests reviews from the checked users (the author or triage access). */
function reviewersPost(ctx: WebContext) {
	const access = repoForChange(ctx);
	const pull = pullOf(ctx, access);
	const again = againOf(ctx, pull);
	return guarded(again, () => {
		const logins = names(ctx, 'reviewers[]');
		if (!logins.length) throw new Invalid('Choose at least one reviewer.');
		return attempt(
			ctx,
			() => {
				requestPullReviewers(callerOf(ctx), issueScope(ctx.app, access), pull, logins, undefined);
				return pathOf(access, pull);
			},
			again,
		);
	});
}

/** POST …/pull/{n}/reviews: submits the viewer's pending review, or a new review, with the event chosen. */
function reviewPost(ctx: WebContext) {
	const access = repoForChange(ctx);
	const pull = pullOf(ctx, access);
	const again = againOf(ctx, pull, 'files');
	return guarded(again, () => {
		const event = field(ctx, 'event', 20) as ReviewEvent;
		if (!REVIEW_EVENTS.has(event)) throw new Invalid('Choose Comment, Approve or Request changes.');
		const body = bodyField(ctx, 'body');
		return attempt(
			ctx,
			() => {
				const caller = callerOf(ctx);
				const scope = issueScope(ctx.app, access);
				const pending = ctx.app.stores.reviews.pending(pull.id, ctx.user!.id);
				const id = pending ? pending.id : createReview(caller, scope, pull, { body, event });
				if (pending) submitReview(caller, scope, pull, pending, event, body || undefined);
				return `${pathOf(access, pull)}#pullrequestreview-${id}`;
			},
			again,
		);
	});
}

/**
 * POST …/pull/{n}/review_comments: an inline comment on a diff line (`path`, `line`, `side`):
 * `action` single posts it at once (a COMMENT review holding it), review adds it to the viewer's
 * pending review (started when there is none).
 */
function reviewCommentPost(ctx: WebContext) {
	const access = repoForChange(ctx);
	const pull = pullOf(ctx, access);
	const again = againOf(ctx, pull, 'files');
	return guarded(again, () => {
		const path = field(ctx, 'path', 4096);
		const line = Number(field(ctx, 'line', 10));
		const side = field(ctx, 'side', 5) === 'LEFT' ? 'LEFT' : 'RIGHT';
		if (!path || !Number.isInteger(line) || line < 1) throw new Invalid('Choose a line of the diff to comment on.');
		const body = bodyField(ctx, 'comment_body');
		if (!body.trim()) throw new Invalid("Comment body can't be blank.");
		const single = field(ctx, 'action', 10) === 'single';
		return attempt(
			ctx,
			() => {
				const caller = callerOf(ctx);
				const scope = issueScope(ctx.app, access);
				const place = { path, line, side } as const;
				const pending = ctx.app.stores.reviews.pending(pull.id, ctx.user!.id);
				if (pending && !single) addReviewComment(caller, scope, pull, pending, place, body);
				else if (single && pending) throw new Invalid('Finish your pending review first: add the comment to it.');
				else createReview(caller, scope, pull, { event: single ? 'COMMENT' : undefined, comments: [{ ...place, body }] });
				return `${pathOf(access, pull)}/files`;
			},
			again,
		);
	});
}

/** POST …/pull/{n}/merge: mergePullRequest with the method, the head sha seen, the commit's title and message. */
function mergePost(ctx: WebContext) {
	const access = repoForChange(ctx, 'push');
	const pull = pullOf(ctx, access);
	const again = againOf(ctx, pull);
	return guarded(again, () => {
		const method = field(ctx, 'merge_method', 10);
		if (!allowedMethods(access).some((m) => m.value === method))
			throw new Invalid('Choose one of the merge methods this repository allows.');
		const sha = field(ctx, 'sha', 40);
		const title = field(ctx, 'commit_title', 1024);
		const message = bodyField(ctx, 'commit_message');
		return attempt(
			ctx,
			() => {
				mergePullRequest(callerOf(ctx), issueScope(ctx.app, access), pull, {
					method: method as 'merge' | 'squash' | 'rebase',
					sha: /^[0-9a-f]{40}$/i.test(sha) ? sha : undefined,
					title: title || undefined,
					message: message.trim() ? message : undefined,
				});
				return pathOf(access, pull);
			},
			again,
		);
	});
}

/**
 * POST …/pull/{n}/branch/delete: deletes the head branch of a merged or closed pull request
 * (DELETE /git/refs's service: the default branch stays, protection refuses).
 */
function deleteBranchPost(ctx: WebContext) {
	const access = repoForChange(ctx);
	const pull = pullOf(ctx, access);
	const target = deletableHead(ctx, access, pull);
	if (!target) throw new Forbidden('This branch cannot be deleted from here.');
	return attempt(
		ctx,
		() => {
			deleteRef(ctx.app, target.repo, `refs/heads/${target.branch}`, {
				now: isoSeconds(ctx.now),
				actorId: ctx.user!.id,
				admin: target.repo.id === access.repo.id && access.permission === 'admin',
			});
			return pathOf(access, pull);
		},
		againOf(ctx, pull),
	);
}

/** POST …/pull/{n}/ready_for_review: a draft becomes ready (its author or write access). */
function readyPost(ctx: WebContext) {
	const access = repoForChange(ctx);
	const pull = pullOf(ctx, access);
	return attempt(
		ctx,
		() => {
			setPullDraft(callerOf(ctx), pull, false);
			return pathOf(access, pull);
		},
		againOf(ctx, pull),
	);
}

export const issueWritePages: PageRoute[] = [
	{ method: 'GET', path: '/{owner}/{repo}/issues/new', handler: (ctx) => newIssue(ctx) },
	{ method: 'POST', path: '/{owner}/{repo}/issues', handler: createIssuePost },
	{ method: 'POST', path: '/{owner}/{repo}/issues/{number}/comment', handler: commentPost },
	{ method: 'POST', path: '/{owner}/{repo}/issues/{number}/title', handler: titlePost },
	{ method: 'POST', path: '/{owner}/{repo}/issues/{number}/labels', handler: labelsPost },
	{ method: 'POST', path: '/{owner}/{repo}/issues/{number}/assignees', handler: assigneesPost },
	{ method: 'POST', path: '/{owner}/{repo}/issues/{number}/milestone', handler: milestonePost },
	{ method: 'POST', path: '/{owner}/{repo}/issues/{number}/lock', handler: lockPost },
	{ method: 'POST', path: '/{owner}/{repo}/pull/create', handler: createPullPost },
	{ method: 'POST', path: '/{owner}/{repo}/pull/{number}/reviewers', handler: reviewersPost },
	{ method: 'POST', path: '/{owner}/{repo}/pull/{number}/reviews', handler: reviewPost },
	{ method: 'POST', path: '/{owner}/{repo}/pull/{number}/review_comments', handler: reviewCommentPost },
	{ method: 'POST', path: '/{owner}/{repo}/pull/{number}/merge', handler: mergePost },
	{ method: 'POST', path: '/{owner}/{repo}/pull/{number}/branch/delete', handler: deleteBranchPost },
	{ method: 'POST', path: '/{owner}/{repo}/pull/{number}/ready_for_review', handler: readyPost },
];
