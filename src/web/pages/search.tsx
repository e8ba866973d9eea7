/**
 * The header's search box: `/search?q=…&type=repositories|issues|pullrequests|users`, with GitHub's
 * search syntax (qualifiers such as `user:`, `language:`, `is:open`, `label:`). Each kind runs the
 * search of src/api/search (the same SQL, access rules and counts as GET /search/…), so a page
 * shows exactly what the signed-in user (or an anonymous visitor) may read; the sidebar gives the
 * count of every kind.
 */
import { repositoryPermissions } from '../../auth/access/repos';
import { DomainError } from '../../model/errors';
import { findIssues } from '../../api/search/issues';
import { MAX_QUERY } from '../../api/search/query';
import { findRepositories } from '../../api/search/repositories';
import { findUsers } from '../../api/search/users';
import type { IssueRow } from '../../model/rows';
import { Label } from '../components/label';
import { Avatar, Blankslate, Layout, Pagination, pageNumber, RelativeTime } from '../components/layout';
import { RepoList } from '../components/repo-list';
import type { WebContext } from '../context';
import { Octicon } from '../octicons';
import type { PageRoute } from '../page';
import { StateIcon } from './issues';

const PER_PAGE = 20;
/** GitHub answers only the first 1000 results of a search. */
const MAX_RESULTS = 1000;

type Kind = 'repositories' | 'issues' | 'pullrequests' | 'users';
const KINDS: Array<{ kind: Kind; label: string; icon: 'repo' | 'issue-opened' | 'git-pull-request' | 'people' }> = [
	{ kind: 'repositories', label: 'Repositories', icon: 'repo' },
	{ kind: 'issues', label: 'Issues', icon: 'issue-opened' },
	{ kind: 'pullrequests', label: 'Pull requests', icon: 'git-pull-request' },
	{ kind: 'users', label: 'Users', icon: 'people' },
];

/** The message of a search GitHub refuses (422: a bad qualifier value, a user: naming nothing readable), else null. */
function messageOf(caught: unknown): string | null {
	if (!(caught instanceof DomainError) || caught.status !== 422) return null;
	return caught.errors?.[0]?.message ?? caught.message;
}

/** Runs one kind's search: its rows (as the kind renders them) and total, or the reason it was refused. */
function run(ctx: WebContext, kind: Kind, q: string, page: { limit: number; offset: number }) {
	try {
		if (kind === 'repositories') {
			const { rows, total } = findRepositories(ctx.viewer, { q }, page);
			return { kind, total, repositories: rows };
		}
		if (kind === 'users') {
			const { rows, total } = findUsers(ctx.app, { q }, page);
			return { kind, total, users: rows };
		}
		const { rows, total } = findIssues(ctx.viewer, { q: `${q} ${kind === 'issues' ? 'is:issue' : 'is:pr'}` }, page);
		return { kind, total, issues: rows };
	} catch (caught) {
		const message = messageOf(caught);
		if (message === null) throw caught;
		return { kind, total: 0, error: message };
	}
}

function IssueResults({ ctx, rows }: { ctx: WebContext; rows: IssueRow[] }) {
	const { stores } = ctx.app;
	const repos = new Map(stores.repos.byIds([...new Set(rows.map((row) => row.repo_id))]).map((repo) => [repo.id, repo]));
	const accounts = stores.accounts.mapByIds([...[...repos.values()].map((repo) => repo.owner_id), ...rows.map((row) => row.user_id)]);
	const labels = stores.labels.forIssues(rows.map((row) => row.id));
	const pulls = stores.pulls.forIssues(rows.filter((row) => row.pull_request).map((row) => row.id));
	return (
		<div class="Box">
			{rows.map((row) => {
				const repo = repos.get(row.repo_id);
				const owner = repo && accounts.get(repo.owner_id);
				if (!repo || !owner) return null;
				const base = `/${owner.login}/${repo.name}`;
				const pull = pulls.get(row.id);
				return (
					<div class="Box-row d-flex" key={row.id}>
						<span class="mr-2">
							<StateIcon row={row} merged={!!pull?.merged_at} draft={pull?.draft === 1} />
						</span>
						<div class="flex-auto min-width-0">
							<div class="f6 color-fg-muted">
								<a class="color-fg-muted" href={base}>
									{owner.login}/{repo.name}
								</a>
							</div>
							<a class="text-bold mr-2" href={`${base}/${row.pull_request ? 'pull' : 'issues'}/${row.number}`}>
								{row.title}
							</a>
							{(labels.get(row.id) ?? []).map((label) => (
								<Label key={label.id} ctx={ctx} name={label.name} color={label.color} description={label.description} />
							))}
							<div class="f6 color-fg-muted">
								#{row.number} opened <RelativeTime iso={row.created_at} now={ctx.now} /> by{' '}
								{accounts.get(row.user_id)?.login ?? 'ghost'}
							</div>
						</div>
						{row.comments > 0 && (
							<span class="f6 color-fg-muted">
								<Octicon name="comment" /> {row.comments}
							</span>
						)}
					</div>
				);
			})}
		</div>
	);
}

function search(ctx: WebContext) {
	const q = (ctx.query.get('q') ?? '').trim().slice(0, MAX_QUERY);
	const asked = ctx.query.get('type')?.toLowerCase();
	const kind: Kind = KINDS.some((k) => k.kind === asked) ? (asked as Kind) : 'repositories';
	const page = pageNumber(ctx);
	const offset = (page - 1) * PER_PAGE;
	if (!q) {
		return (
			<Layout ctx={ctx} title="Search · Gitstead">
				<Blankslate icon="search" title="Search Gitstead">
					Find repositories, issues, pull requests and people. Qualifiers such as <code>user:</code>, <code>language:</code>,{' '}
					<code>is:open</code> and <code>label:</code> narrow the results.
				</Blankslate>
			</Layout>
		);
	}
	const shown = run(ctx, kind, q, { limit: offset < MAX_RESULTS ? Math.min(PER_PAGE, MAX_RESULTS - offset) : 0, offset });
	// The other kinds' counts for the sidebar (one counted query each; their first row only).
	const totals = new Map<Kind, number | null>(
		KINDS.map(({ kind: other }) => {
			if (other === kind) return [other, shown.total];
			const counted = run(ctx, other, q, { limit: 1, offset: 0 });
			return [other, 'error' in counted ? null : counted.total];
		}),
	);
	const link = (other: Kind) => `/search?${new URLSearchParams({ q, type: other })}`;
	let results = null;
	if ('repositories' in shown && shown.repositories) {
		const owners = ctx.app.stores.accounts.mapByIds(shown.repositories.map((repo) => repo.owner_id));
		const entries = shown.repositories.flatMap((repo) => {
			const owner = owners.get(repo.owner_id);
			return owner ? [{ repo, owner }] : [];
		});
		// The search already left out what the viewer may not read; the permissions only confirm it.
		const permissions = repositoryPermissions(ctx.viewer, entries);
		results = <RepoList ctx={ctx} entries={entries.filter(({ repo }) => permissions.get(repo.id))} />;
	} else if ('issues' in shown && shown.issues) {
		results = shown.issues.length ? (
			<IssueResults ctx={ctx} rows={shown.issues} />
		) : (
			<Blankslate icon="search" title={`No ${kind === 'issues' ? 'issues' : 'pull requests'} matched your search`} />
		);
	} else if ('users' in shown && shown.users) {
		results = shown.users.length ? (
			<div class="Box">
				{shown.users.map((account) => (
					<div class="Box-row d-flex flex-items-center" key={account.id}>
						<Avatar id={account.id} login={account.login} size={32} />
						<div class="ml-2">
							<a class="text-bold" href={`/${account.login}`}>
								{account.login}
							</a>
							{account.name && <span class="ml-2 color-fg-muted">{account.name}</span>}
							{account.type === 'Organization' && <span class="Label ml-2">Organization</span>}
						</div>
					</div>
				))}
			</div>
		) : (
			<Blankslate icon="people" title="No users matched your search" />
		);
	}
	return (
		<Layout ctx={ctx} title={`Search · ${q} · Gitstead`}>
			<div class="d-flex flex-wrap gutter-md">
				<div class="col-12 col-md-3">
					<nav class="menu" aria-label="Search results by kind">
						{KINDS.map((k) => (
							<a key={k.kind} class="menu-item" href={link(k.kind)} aria-current={k.kind === kind ? 'page' : undefined}>
								<Octicon name={k.icon} class="mr-2" />
								{k.label}
								{totals.get(k.kind) !== null && <span class="Counter ml-2">{totals.get(k.kind)}</span>}
							</a>
						))}
					</nav>
				</div>
				<div class="col-12 col-md-9">
					<h1 class="f3 text-normal mb-3">
						{shown.total} {KINDS.find((k) => k.kind === kind)!.label.toLowerCase()} result{shown.total === 1 ? '' : 's'} for{' '}
						<strong>{q}</strong>
					</h1>
					{'error' in shown && (
						<div class="flash flash-error mb-3" role="alert">
							{shown.error}
						</div>
					)}
					{results}
					<Pagination ctx={ctx} page={page} hasNext={page * PER_PAGE < Math.min(shown.total, MAX_RESULTS)} />
				</div>
			</div>
		</Layout>
	);
}

export const searchPages: PageRoute[] = [{ method: 'GET', path: '/search', handler: search }];
