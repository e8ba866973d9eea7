/**
 * Issues and pull requests: the lists (`/{owner}/{repo}/issues`, `/pulls`: a search box taking
 * GitHub's qualifiers, with open/closed and label, author, assignee, milestone filters as query
 * words; the search of src/api/search/issues.ts, so access and counts are the API's), one issue
 * (`/issues/{n}`) and one pull request (`/pull/{n}`, `/pull/{n}/files`, `/pull/{n}/commits`).
 */
import type { ComponentChildren } from 'preact';
import { ACTIONS_APP_ID } from '../../api/checks/render';
import type { IssueRow, PullRow, RepositoryRow } from '../../model/rows';
import { presentMergeability } from '../../api/pulls/mergeable-state';
import type { ReviewCommentRow } from '../../api/pulls/review-store';
import { pullComparison } from '../../api/pulls/service';
import { findIssues } from '../../api/search/issues';
import { issueTimeline } from '../../api/issues/timeline';
import { requestedReviewers } from '../../api/pulls/requested';
import { callerRepoPermission } from '../../auth/access/repos';
import type { RepoAccess } from '../../auth/access/types';
import { atLeast, type RepoPermission } from '../../model/repo-permissions';
import { Flash } from '../components/form';
import {
	AssigneePicker,
	CommentForm,
	InlineCommentForm,
	LabelPicker,
	LockForm,
	MergeBox,
	MilestonePicker,
	ReviewerPicker,
	ReviewForm,
	TitleForm,
	writable,
} from '../components/issue-forms';
import { repoFor } from '../access';
import { Diff } from '../components/diff';
import { Label } from '../components/label';
import { Comment, Timeline } from '../components/timeline';
import { Avatar, Blankslate, Pagination, pageNumber, RelativeTime } from '../components/layout';
import { encodePath, RepoLayout, repoPath } from '../components/repo';
import { NotFound, type WebContext } from '../context';
import { Octicon } from '../octicons';
import type { PageRoute } from '../page';

const PER_PAGE = 25;

/** The state icon of an issue or pull request, in its colour (`plain`: the surrounding text's, inside a State badge). */
export function StateIcon({ row, merged, draft, plain }: { row: IssueRow; merged: boolean; draft: boolean; plain?: boolean }) {
	const tone = (color: string) => (plain ? undefined : color);
	if (row.pull_request) {
		if (merged) return <Octicon name="git-merge" class={tone('color-fg-done')} label="Merged pull request" />;
		if (row.state === 'closed')
			return <Octicon name="git-pull-request-closed" class={tone('color-fg-closed')} label="Closed pull request" />;
		if (draft) return <Octicon name="git-pull-request-draft" class={tone('color-fg-muted')} label="Draft pull request" />;
		return <Octicon name="git-pull-request" class={tone('color-fg-open')} label="Open pull request" />;
	}
	if (row.state === 'closed')
		return (
			<Octicon
				name={row.state_reason === 'not_planned' ? 'skip' : 'issue-closed'}
				class={tone(row.state_reason === 'not_planned' ? 'color-fg-muted' : 'color-fg-done')}
				label="Closed issue"
			/>
		);
	return <Octicon name="issue-opened" class={tone('color-fg-open')} label="Open issue" />;
}

function list(kind: 'issues' | 'pulls') {
	return (ctx: WebContext) => {
		const access = repoFor(ctx);
		const { app } = ctx;
		const base = repoPath(access);
		const kindWord = kind === 'issues' ? 'is:issue' : 'is:pr';
		const typed = (ctx.query.get('q') ?? `${kindWord} is:open`).slice(0, 256);
		// The repository and the kind are always part of the search; the rest is the box's text.
		const words = typed.split(/\s+/).filter((w) => w && !/^repo:/i.test(w) && !/^(is|type):(issue|pr|pull-request)$/i.test(w));
		const q = `repo:${access.owner.login}/${access.repo.name} ${kindWord} ${words.join(' ')}`;
		const page = pageNumber(ctx);
		const state = (s: string) =>
			`${base}/${kind}?q=${encodeURIComponent(
				`${kindWord} ${words
					.filter((w) => !/^(is|state):(open|closed)$/i.test(w))
					.concat(`is:${s}`)
					.join(' ')}`,
			)}`;
		let result: ReturnType<typeof findIssues>;
		let error: string | null = null;
		try {
			result = findIssues(ctx.viewer, { q, sort: 'created', order: 'desc' }, { limit: PER_PAGE, offset: (page - 1) * PER_PAGE });
		} catch (caught) {
			error = (caught as Error & { errors?: Array<{ message?: string }> }).errors?.[0]?.message ?? 'The search could not be run.';
			result = { total: 0, rows: [], terms: [], issueColumns: [] };
		}
		const { rows, total } = result;
		const labels = app.stores.labels.forIssues(rows.map((r) => r.id));
		const pulls = app.stores.pulls.forIssues(rows.filter((r) => r.pull_request).map((r) => r.id));
		const authors = app.stores.accounts.mapByIds(rows.map((r) => r.user_id));
		const counts = app.stores.issues.openCounts(access.repo.id);
		return (
			<RepoLayout
				ctx={ctx}
				access={access}
				tab={kind}
				title={`${kind === 'issues' ? 'Issues' : 'Pull requests'} · ${access.owner.login}/${access.repo.name}`}
			>
				<form method="get" action={`${base}/${kind}`} class="d-flex mb-3">
					<label class="gs-sr-only" for="issue-search">
						Search {kind === 'issues' ? 'issues' : 'pull requests'}
					</label>
					<input
						id="issue-search"
						class="form-control flex-auto mr-2"
						type="search"
						name="q"
						value={`${kindWord} ${words.join(' ')}`}
					/>
					<button class="btn" type="submit">
						<Octicon name="search" /> Search
					</button>
					{kind === 'issues' && access.repo.archived !== 1 && (
						<a class="btn btn-primary ml-2" href={`${base}/issues/new`}>
							New issue
						</a>
					)}
					{kind === 'pulls' && access.repo.archived !== 1 && (
						<a class="btn btn-primary ml-2" href={`${base}/compare`}>
							New pull request
						</a>
					)}
				</form>
				{error && (
					<div class="flash flash-error mb-3" role="alert">
						{error}
					</div>
				)}
				<div class="Box">
					<div class="Box-header d-flex flex-items-center">
						<a class="mr-3" href={state('open')}>
							<Octicon name={kind === 'issues' ? 'issue-opened' : 'git-pull-request'} />{' '}
							{kind === 'issues' ? counts.issues : counts.pulls} Open
						</a>
						<a href={state('closed')}>
							<Octicon name="check" /> Closed
						</a>
						<span class="flex-auto" />
						<span class="f6 color-fg-muted">
							{total} found · qualifiers: label:, author:, assignee:, milestone:, no:milestone
						</span>
					</div>
					{rows.map((row) => {
						const pr = pulls.get(row.id);
						const author = authors.get(row.user_id);
						const path = `${base}/${row.pull_request ? 'pull' : 'issues'}/${row.number}`;
						return (
							<div class="Box-row d-flex" key={row.id}>
								<span class="mr-2">
									<StateIcon row={row} merged={!!pr?.merged_at} draft={pr?.draft === 1} />
								</span>
								<div class="flex-auto min-width-0">
									<a class="text-bold mr-2" href={path}>
										{row.title}
									</a>
									{(labels.get(row.id) ?? []).map((label) => (
										<Label
											key={label.id}
											ctx={ctx}
											name={label.name}
											color={label.color}
											description={label.description}
										/>
									))}
									<div class="f6 color-fg-muted">
										#{row.number} opened <RelativeTime iso={row.created_at} now={ctx.now} /> by{' '}
										{author?.login ?? 'ghost'}
									</div>
								</div>
								{row.comments > 0 && (
									<a class="f6 color-fg-muted" href={path} aria-label={`${row.comments} comments`}>
										<Octicon name="comment" /> {row.comments}
									</a>
								)}
							</div>
						);
					})}
					{rows.length === 0 && (
						<Blankslate
							icon={kind === 'issues' ? 'issue-opened' : 'git-pull-request'}
							title="No results matched your search."
						/>
					)}
				</div>
				<Pagination ctx={ctx} page={page} hasNext={page * PER_PAGE < Math.min(total, 1000)} />
			</RepoLayout>
		);
	};
}

/** The sidebar: assignees, labels, milestone (and reviewers for pull requests), with their pickers for those who may change them. */
function Sidebar({ ctx, access, row, reviewers }: { ctx: WebContext; access: Access; row: IssueRow; reviewers?: string[] }) {
	const { app } = ctx;
	const labels = app.stores.labels.forIssues([row.id]).get(row.id) ?? [];
	const assigneeIds = app.stores.issues.assignees([row.id]).get(row.id) ?? [];
	const people = app.stores.accounts.mapByIds(assigneeIds);
	const milestone = row.milestone_id === null ? undefined : app.stores.milestones.mapByIds([row.milestone_id]).get(row.milestone_id);
	const section = (title: string, body: ComponentChildren) => (
		<div class="border-bottom pb-3 mb-3">
			<h2 class="f6 text-bold mb-2">{title}</h2>
			{body}
		</div>
	);
	return (
		<div>
			{reviewers &&
				section(
					'Reviewers',
					<>
						<ReviewerPicker ctx={ctx} access={access} row={row} />
						{reviewers.length ? (
							reviewers.map((r) => <div key={r}>{r}</div>)
						) : (
							<span class="f6 color-fg-muted">No reviews</span>
						)}
					</>,
				)}
			{section(
				'Assignees',
				<>
					<AssigneePicker ctx={ctx} access={access} row={row} current={assigneeIds} />
					{assigneeIds.length ? (
						assigneeIds.map((id) => (
							<div key={id} class="mb-1">
								<Avatar id={id} login={people.get(id)?.login ?? 'ghost'} />{' '}
								<a href={`/${people.get(id)?.login}`}>{people.get(id)?.login}</a>
							</div>
						))
					) : (
						<span class="f6 color-fg-muted">No one assigned</span>
					)}
				</>,
			)}
			{section(
				'Labels',
				<>
					<LabelPicker ctx={ctx} access={access} row={row} current={labels} />
					{labels.length ? (
						labels.map((l) => <Label key={l.id} ctx={ctx} name={l.name} color={l.color} description={l.description} />)
					) : (
						<span class="f6 color-fg-muted">None yet</span>
					)}
				</>,
			)}
			{section(
				'Milestone',
				<>
					<MilestonePicker ctx={ctx} access={access} row={row} />
					{milestone ? <span>{milestone.title}</span> : <span class="f6 color-fg-muted">No milestone</span>}
				</>,
			)}
			<LockForm ctx={ctx} access={access} row={row} />
		</div>
	);
}

function Header({ ctx, access, row, merged, draft }: { ctx: WebContext; access: Access; row: IssueRow; merged: boolean; draft: boolean }) {
	const author = ctx.app.stores.accounts.byId(row.user_id);
	const stateLabel = merged ? 'Merged' : row.state === 'closed' ? 'Closed' : draft ? 'Draft' : 'Open';
	const stateClass = merged ? 'State--merged' : row.state === 'closed' ? 'State--closed' : draft ? 'State--draft' : 'State--open';
	return (
		<div class="border-bottom pb-3 mb-3">
			<h1 class="f1 text-normal">
				{row.title} <span class="color-fg-muted">#{row.number}</span>
			</h1>
			<div class="d-flex flex-items-center mt-2">
				<span class={`State ${stateClass} mr-2`}>
					<StateIcon row={row} merged={merged} draft={draft} plain /> {stateLabel}
				</span>
				<span class="color-fg-muted">
					<strong>{author?.login ?? 'ghost'}</strong> opened this <RelativeTime iso={row.created_at} now={ctx.now} /> ·{' '}
					{row.comments} comment
					{row.comments === 1 ? '' : 's'}
				</span>
				{row.locked === 1 && (
					<span class="ml-2 f6 color-fg-muted">
						<Octicon name="lock" /> Locked
					</span>
				)}
			</div>
			<TitleForm ctx={ctx} access={access} row={row} />
			<span class="gs-sr-only">{repoPath(access)}</span>
		</div>
	);
}

type Access = RepoAccess & { permission: RepoPermission };

/** The line of a diff the files tab's query selects for an inline comment (`path`, `line`, `side`), or null. */
function selectedLine(ctx: WebContext): { path: string; line: number; side: 'LEFT' | 'RIGHT' } | null {
	const path = ctx.query.get('path') ?? '';
	const line = Number(ctx.query.get('line'));
	const side = ctx.query.get('side') === 'LEFT' ? 'LEFT' : 'RIGHT';
	if (!path || path.length > 4096 || !Number.isInteger(line) || line < 1 || line > 10_000_000) return null;
	return { path, line, side };
}

/**
 * The head branch of a merged or closed pull request the viewer may delete: it still exists in the
 * head repository at the pull request's head commit (as GitHub offers it), is not that repository's
 * default branch, and the viewer can push there. Protection is the deletion's own check.
 */
export function deletableHead(ctx: WebContext, access: Access, pull: PullRow): { repo: RepositoryRow; branch: string } | null {
	if (!ctx.user || (pull.state !== 'closed' && !pull.pr.merged_at) || pull.pr.head_repo_id === null) return null;
	const { app } = ctx;
	const repo = pull.pr.head_repo_id === access.repo.id ? access.repo : app.stores.repos.byId(pull.pr.head_repo_id);
	const owner = repo && (repo.id === access.repo.id ? access.owner : app.stores.accounts.byId(repo.owner_id));
	if (!repo || !owner || repo.archived === 1 || repo.default_branch === pull.pr.head_ref) return null;
	const permission = repo.id === access.repo.id ? access.permission : callerRepoPermission(ctx.viewer, repo, owner);
	if (!permission || !atLeast(permission, 'push')) return null;
	if (app.stores.git.ref(repo.id, `refs/heads/${pull.pr.head_ref}`)?.sha !== pull.pr.head_sha) return null;
	return { repo, branch: pull.pr.head_ref };
}

function loadRow(ctx: WebContext, access: RepoAccess, pull: boolean): IssueRow {
	const n = Number(ctx.params.number);
	if (!Number.isInteger(n) || n < 1 || n > 2 ** 31) throw new NotFound();
	const row = ctx.app.stores.issues.byNumber(access.repo.id, n);
	if (!row) throw new NotFound();
	if (!pull && !row.pull_request && access.repo.has_issues !== 1) throw new NotFound();
	return row;
}

/** Timeline items a conversation page shows at most (the REST timeline pages through all of them). */
const MAX_TIMELINE = 1000;

/**
 * The page of an issue (`/issues/{n}`); `error` is a refused form's message, shown above the
 * conversation (the form keeps what was typed).
 */
export function issuePage(ctx: WebContext, error?: string) {
	const access = repoFor(ctx);
	const row = loadRow(ctx, access, false);
	if (row.pull_request) throw new NotFoundOrPull(`${repoPath(access)}/pull/${row.number}`);
	return (
		<RepoLayout
			ctx={ctx}
			access={access}
			tab="issues"
			title={`${row.title} · Issue #${row.number} · ${access.owner.login}/${access.repo.name}`}
		>
			<Header ctx={ctx} access={access} row={row} merged={false} draft={false} />
			<Flash error={error} />
			<div class="d-flex flex-wrap gutter-md">
				<div class="col-12 col-md-9">
					<Timeline
						ctx={ctx}
						base={repoPath(access)}
						issue={row}
						{...issueTimeline(ctx.app, row, { viewerId: ctx.user?.id ?? null, limit: MAX_TIMELINE, offset: 0 })}
					/>
					<CommentForm ctx={ctx} access={access} row={row} merged={false} />
				</div>
				<div class="col-12 col-md-3">
					<Sidebar ctx={ctx} access={access} row={row} />
				</div>
			</div>
		</RepoLayout>
	);
}

/** An issue number that is a pull request: GitHub redirects /issues/N to /pull/N. */
class NotFoundOrPull extends Error {}

/** The tabs of a pull request's page. */
export type PullTab = 'conversation' | 'commits' | 'files';

function PullTabs({ base, number, tab, commits, files }: { base: string; number: number; tab: PullTab; commits: number; files: number }) {
	const item = (href: string, label: string, current: boolean, count?: number) => (
		<a class="tabnav-tab" href={href} aria-current={current ? 'page' : undefined}>
			{label} {count !== undefined && <span class="Counter">{count}</span>}
		</a>
	);
	return (
		<nav class="tabnav mb-3" aria-label="Pull request">
			<div class="tabnav-tabs">
				{item(`${base}/pull/${number}`, 'Conversation', tab === 'conversation')}
				{item(`${base}/pull/${number}/commits`, 'Commits', tab === 'commits', commits)}
				{item(`${base}/pull/${number}/files`, 'Files changed', tab === 'files', files)}
			</div>
		</nav>
	);
}

/** The head commit's check runs and statuses (the merge box below says what they mean for merging). */
function Checks({ ctx, pull }: { ctx: WebContext; pull: PullRow }) {
	const { app } = ctx;
	const statuses = app.stores.statuses.latestByContext(pull.pr.repo_id, pull.pr.head_sha);
	const filter = { name: null, status: null, all: false, appId: null, actionsAppId: ACTIONS_APP_ID };
	const runs = app.stores.checks.forCommit(pull.pr.repo_id, pull.pr.head_sha, filter, 50, 0).rows;
	return (
		<div class="Box mb-3">
			<div class="Box-header">
				<h2 class="Box-title">Checks</h2>
			</div>
			{runs.map((run) => (
				<div class="Box-row f6" key={`r${run.id}`}>
					<Octicon
						name={
							run.status !== 'completed' ? 'dot-fill' : run.conclusion === 'success' ? 'check-circle-fill' : 'x-circle-fill'
						}
						class={
							run.status !== 'completed'
								? 'color-fg-attention'
								: run.conclusion === 'success'
									? 'color-fg-success'
									: 'color-fg-danger'
						}
					/>{' '}
					{run.name} <span class="color-fg-muted">— {run.status === 'completed' ? run.conclusion : run.status}</span>
				</div>
			))}
			{statuses.map((status) => (
				<div class="Box-row f6" key={`s${status.id}`}>
					<Octicon
						name={status.state === 'success' ? 'check-circle-fill' : status.state === 'pending' ? 'dot-fill' : 'x-circle-fill'}
						class={
							status.state === 'success'
								? 'color-fg-success'
								: status.state === 'pending'
									? 'color-fg-attention'
									: 'color-fg-danger'
						}
					/>{' '}
					{status.context} <span class="color-fg-muted">— {status.description ?? status.state}</span>
				</div>
			))}
			{runs.length === 0 && statuses.length === 0 && (
				<div class="Box-row f6 color-fg-muted">No checks or statuses reported for the head commit.</div>
			)}
		</div>
	);
}

/**
 * The page of a pull request at a tab (`/pull/{n}`, `/commits`, `/files`); `error` is a refused
 * form's message. On the files tab, `?path=&line=&side=` opens the inline comment form of that line.
 */
export function pullPage(tab: PullTab) {
	return (ctx: WebContext, error?: string) => {
		const access = repoFor(ctx);
		const row = loadRow(ctx, access, true);
		const pull = ctx.app.stores.pulls.byNumber(access.repo.id, row.number);
		if (!pull) throw new NotFound();
		const { app } = ctx;
		const base = repoPath(access);
		const comparison = pullComparison(app, pull.pr);
		const reviewComments: ReviewCommentRow[] = app.stores.reviews.comments({
			issueId: row.id,
			viewerId: ctx.user?.id ?? null,
			sort: 'created',
			direction: 'asc',
			since: null,
			limit: 500,
			offset: 0,
		}).rows;
		const people = app.stores.accounts.mapByIds(reviewComments.map((c) => c.user_id));
		const login = (id: number) => people.get(id)?.login ?? 'ghost';
		// Reviewers: those asked (users and teams) and those who reviewed, with their latest decision.
		const requested = requestedReviewers(app, access.owner, [row.id]).get(row.id)!;
		const decided = app.stores.reviews.reviews(row.id, null, 100, 0).rows.filter((r) => r.state !== 'PENDING');
		const latest = new Map(decided.map((r) => [r.user_id, r.state]));
		const reviewerNames = app.stores.accounts.mapByIds(latest.keys());
		const reviewers = [
			...(requested.users as Array<{ login: string }>).map((u) => `${u.login} (requested)`),
			...(requested.teams as Array<{ name: string }>).map((t) => `${t.name} (requested)`),
			...[...latest].map(([id, state]) => `${reviewerNames.get(id)?.login ?? 'ghost'} (${state.toLowerCase().replace('_', ' ')})`),
		];
		const byReview = new Map<number, ReviewCommentRow[]>();
		for (const c of reviewComments) {
			const list = byReview.get(c.review_id);
			if (list) list.push(c);
			else byReview.set(c.review_id, [c]);
		}
		const pending = ctx.user ? app.stores.reviews.pending(row.id, ctx.user.id) : undefined;
		// The line whose inline comment form is open (files tab, signed in, an open pull request).
		const reviewing = tab === 'files' && !!ctx.user && row.state === 'open' && writable(access);
		const selected = reviewing ? selectedLine(ctx) : null;
		const commentView = (c: ReviewCommentRow) => (
			<Comment
				key={c.id}
				ctx={ctx}
				login={login(c.user_id)}
				id={c.user_id}
				created={c.created_at}
				html={c.body_html}
				label="commented on this line"
			/>
		);
		const commentsAt = (path: string) => {
			const here = reviewComments.filter((c) => c.path === path);
			const formHere = selected?.path === path;
			if (!here.length && !formHere) return undefined;
			return (side: 'LEFT' | 'RIGHT', line: number) => {
				const at = here.filter((c) => c.side === side && c.line === line);
				const form =
					formHere && selected.side === side && selected.line === line ? (
						<InlineCommentForm ctx={ctx} access={access} row={row} path={path} line={line} side={side} pending={!!pending} />
					) : null;
				const shown = at.map(commentView);
				if (form) shown.push(form);
				return shown.length ? shown : null;
			};
		};
		const lineHref = reviewing
			? (path: string) => (side: 'LEFT' | 'RIGHT', line: number) =>
					`${base}/pull/${row.number}/files?${new URLSearchParams({ path, line: String(line), side })}#inline-comment`
			: undefined;
		const merge = presentMergeability(app, pull);
		return (
			<RepoLayout
				ctx={ctx}
				access={access}
				tab="pulls"
				title={`${row.title} · Pull Request #${row.number} · ${access.owner.login}/${access.repo.name}`}
			>
				<Header ctx={ctx} access={access} row={row} merged={!!pull.pr.merged_at} draft={pull.pr.draft === 1} />
				<p class="mb-3 f6">
					wants to merge {comparison?.commits.length ?? 0} commit{comparison?.commits.length === 1 ? '' : 's'} into{' '}
					<a class="branch-name" href={`${base}/tree/${encodePath(pull.pr.base_ref)}`}>
						{pull.pr.base_ref}
					</a>{' '}
					from <span class="branch-name">{pull.pr.head_ref}</span>
				</p>
				<PullTabs
					base={base}
					number={row.number}
					tab={tab}
					commits={comparison?.commits.length ?? 0}
					files={comparison?.changes.length ?? 0}
				/>
				<Flash error={error} />
				{tab === 'conversation' && (
					<div class="d-flex flex-wrap gutter-md">
						<div class="col-12 col-md-9">
							<Timeline
								ctx={ctx}
								base={base}
								issue={row}
								reviewComments={byReview}
								{...issueTimeline(app, row, {
									viewerId: ctx.user?.id ?? null,
									commits: comparison?.commits ?? [],
									limit: MAX_TIMELINE,
									offset: 0,
								})}
							/>
							<Checks ctx={ctx} pull={pull} />
							<MergeBox
								ctx={ctx}
								access={access}
								row={row}
								headSha={pull.pr.head_sha}
								merged={!!pull.pr.merged_at}
								draft={pull.pr.draft === 1}
								state={merge.state}
								defaultTitle={`Merge pull request #${row.number} from ${pull.pr.head_ref}`}
								deletableBranch={deletableHead(ctx, access, pull)?.branch ?? null}
							/>
							<CommentForm ctx={ctx} access={access} row={row} merged={!!pull.pr.merged_at} />
						</div>
						<div class="col-12 col-md-3">
							<Sidebar ctx={ctx} access={access} row={row} reviewers={reviewers} />
						</div>
					</div>
				)}
				{tab === 'commits' && (
					<div class="Box">
						{(comparison?.commits ?? []).map(({ sha, data }) => (
							<div class="Box-row d-flex" key={sha}>
								<a class="flex-auto text-bold" href={`${base}/commit/${sha}`}>
									{data.message.split('\n')[0]}
								</a>
								<span class="gs-mono f6">{sha.slice(0, 7)}</span>
							</div>
						))}
					</div>
				)}
				{tab === 'files' && (
					<ReviewForm
						ctx={ctx}
						access={access}
						row={row}
						pendingComments={pending ? app.stores.reviews.commentsOfReview(pending.id).length : null}
					/>
				)}
				{tab === 'files' &&
					(comparison ? (
						<Diff
							app={app}
							repoId={comparison.repoId}
							changes={comparison.changes}
							complete={true}
							commentsAt={commentsAt}
							lineHref={lineHref}
						/>
					) : (
						<Blankslate icon="file-diff" title="The diff is not available">
							The head or base commit is no longer in the repository.
						</Blankslate>
					))}
			</RepoLayout>
		);
	};
}

export const issuePages: PageRoute[] = [
	{ method: 'GET', path: '/{owner}/{repo}/issues', handler: list('issues') },
	{ method: 'GET', path: '/{owner}/{repo}/pulls', handler: list('pulls') },
	{
		method: 'GET',
		path: '/{owner}/{repo}/issues/{number}',
		handler(ctx) {
			try {
				return issuePage(ctx);
			} catch (error) {
				if (error instanceof NotFoundOrPull) return { status: 302, headers: { Location: error.message }, body: '' };
				throw error;
			}
		},
	},
	{ method: 'GET', path: '/{owner}/{repo}/pull/{number}', handler: pullPage('conversation') },
	{ method: 'GET', path: '/{owner}/{repo}/pull/{number}/commits', handler: pullPage('commits') },
	{ method: 'GET', path: '/{owner}/{repo}/pull/{number}/files', handler: pullPage('files') },
];
