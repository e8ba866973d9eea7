/**
 * People and organizations: the dashboard (`/`: your repositories and the events of what you
 * watch; signed out: public repositories), `/explore`, a user's or organization's profile
 * (`/{login}`: repositories, and for organizations people and teams), and a team
 * (`/orgs/{org}/teams/{team}`; secret teams only to owners and their members).
 */
import { repositoryPermissions, type OwnedRepository } from '../../auth/access/repos';
import { teamVisible } from '../../auth/access/teams';
import { receivedFeed } from '../../api/feeds/service';
import type { RepositoryRow, AccountRow } from '../../model/rows';
import { accountNamed, orgStanding, requireUser, teamFor } from '../access';
import { Avatar, Blankslate, Layout, RelativeTime } from '../components/layout';
import { RepoList } from '../components/repo-list';
import { NotFound, type WebContext } from '../context';
import { Octicon } from '../octicons';
import type { PageRoute } from '../page';

/** The repositories among `rows` the viewer may read, most recently pushed first. */
function readable(ctx: WebContext, rows: RepositoryRow[]): OwnedRepository[] {
	const owners = ctx.app.stores.accounts.mapByIds(rows.map((r) => r.owner_id));
	const entries = rows.flatMap((repo) => (owners.has(repo.owner_id) ? [{ repo, owner: owners.get(repo.owner_id)! }] : []));
	const permissions = repositoryPermissions(ctx.viewer, entries);
	return entries
		.filter(({ repo }) => permissions.get(repo.id))
		.sort((a, b) => ((b.repo.pushed_at ?? b.repo.updated_at) < (a.repo.pushed_at ?? a.repo.updated_at) ? -1 : 1));
}

const PHRASES: Record<string, string> = {
	PushEvent: 'pushed to',
	CreateEvent: 'created a branch or tag in',
	DeleteEvent: 'deleted a branch or tag in',
	IssuesEvent: 'acted on an issue in',
	IssueCommentEvent: 'commented in',
	PullRequestEvent: 'acted on a pull request in',
	PullRequestReviewEvent: 'reviewed a pull request in',
	PullRequestReviewCommentEvent: 'commented on a pull request in',
	ReleaseEvent: 'released in',
	WatchEvent: 'starred',
	ForkEvent: 'forked',
	PublicEvent: 'made public',
	MemberEvent: 'changed collaborators of',
};

function Feed({ ctx, user }: { ctx: WebContext; user: AccountRow }) {
	const filter = receivedFeed({ ...ctx.viewer, now: ctx.now }, user.id, true);
	const { rows } = ctx.app.stores.events.feed(filter, 30, 0);
	const actors = ctx.app.stores.accounts.mapByIds(rows.flatMap((r) => (r.actor_id ? [r.actor_id] : [])));
	if (!rows.length)
		return (
			<Blankslate icon="bell" title="Nothing new">
				Watch repositories to see their activity here.
			</Blankslate>
		);
	return (
		<ul class="list-style-none">
			{rows.map((row) => {
				const actor = row.actor_id ? actors.get(row.actor_id) : undefined;
				const payload = row.payload ? (JSON.parse(row.payload) as { action?: string }) : {};
				return (
					<li class="py-2 border-bottom d-flex flex-items-center" key={row.id}>
						{actor && <Avatar id={actor.id} login={actor.login} />}
						<span class="ml-2 flex-auto">
							<strong>{actor?.login ?? 'someone'}</strong>{' '}
							{payload.action && row.feed_type !== 'PushEvent'
								? `${payload.action} in`
								: (PHRASES[row.feed_type ?? ''] ?? 'acted in')}{' '}
							{row.repo_name && <a href={`/${row.repo_name}`}>{row.repo_name}</a>}
						</span>
						<span class="f6 color-fg-muted">
							<RelativeTime iso={row.created_at} now={ctx.now} />
						</span>
					</li>
				);
			})}
		</ul>
	);
}

function home(ctx: WebContext) {
	if (!ctx.user) return explore(ctx);
	const user = ctx.user;
	const mine = readable(ctx, ctx.app.stores.repos.affiliated(user.id));
	return (
		<Layout ctx={ctx} title="Dashboard · Gitstead">
			<div class="d-flex flex-wrap gutter-md">
				<div class="col-12 col-md-4">
					<h2 class="f4 mb-2">Your repositories</h2>
					<ul class="list-style-none">
						{mine.slice(0, 50).map(({ repo, owner }) => (
							<li class="py-1" key={repo.id}>
								<Octicon name={repo.visibility === 'public' ? 'repo' : 'lock'} class="mr-1 color-fg-muted" />
								<a href={`/${owner.login}/${repo.name}`}>
									{owner.login}/{repo.name}
								</a>
							</li>
						))}
						{mine.length === 0 && <li class="color-fg-muted">None yet.</li>}
					</ul>
				</div>
				<div class="col-12 col-md-8">
					<h2 class="f4 mb-2">Recent activity</h2>
					<Feed ctx={ctx} user={user} />
				</div>
			</div>
		</Layout>
	);
}

function explore(ctx: WebContext) {
	const rows = ctx.app.stores.repos.publicSince(0, 200);
	return (
		<Layout ctx={ctx} title="Explore · Gitstead">
			{!ctx.user && (
				<div class="Box p-4 mb-4 color-bg-subtle">
					<h1 class="f2 text-normal">Welcome to Gitstead</h1>
					<p class="f4 color-fg-muted">
						A self-hosted home for code. <a href="/login">Sign in</a> to see your repositories, issues and pull requests.
					</p>
				</div>
			)}
			<h2 class="f3 text-normal mb-2">Explore public repositories</h2>
			<RepoList ctx={ctx} entries={readable(ctx, rows)} />
		</Layout>
	);
}

function Profile({ account }: { account: AccountRow }) {
	return (
		<div>
			<Avatar id={account.id} login={account.login} size={260} />
			<h1 class="mt-2">
				{account.name && <span class="d-block f2">{account.name}</span>}
				<span class="f3 text-normal color-fg-muted">{account.login}</span>
			</h1>
			{(account.bio || account.description) && <p class="mt-2">{account.bio ?? account.description}</p>}
			<ul class="list-style-none f6 mt-2">
				{account.company && (
					<li>
						<Octicon name="organization" /> {account.company}
					</li>
				)}
				{account.location && (
					<li>
						<Octicon name="location" /> {account.location}
					</li>
				)}
				{account.email && account.email_public === 1 && (
					<li>
						<Octicon name="mail" /> {account.email}
					</li>
				)}
				{account.blog && (
					<li>
						<Octicon name="link" /> {account.blog}
					</li>
				)}
			</ul>
		</div>
	);
}

function profile(ctx: WebContext) {
	const account = accountNamed(ctx, ctx.params.owner);
	const { app } = ctx;
	const repos = readable(ctx, app.stores.repos.forOwner(account.id));
	if (account.type === 'User') {
		return (
			<Layout ctx={ctx} title={`${account.login}${account.name ? ` (${account.name})` : ''} · Gitstead`}>
				<div class="d-flex flex-wrap gutter-md">
					<div class="col-12 col-md-3">
						<Profile account={account} />
					</div>
					<div class="col-12 col-md-9">
						<h2 class="f4 mb-2">
							Repositories <span class="Counter">{repos.length}</span>
						</h2>
						<RepoList ctx={ctx} entries={repos} />
					</div>
				</div>
			</Layout>
		);
	}
	const standing = orgStanding(ctx, account);
	const tab = ctx.query.get('tab');
	return (
		<Layout ctx={ctx} title={`${account.name ?? account.login} · Gitstead`}>
			<div class="d-flex flex-items-center mb-4">
				<Avatar id={account.id} login={account.login} size={48} />
				<div class="ml-3">
					<h1 class="f2">{account.name ?? account.login}</h1>
					{account.description && <p class="color-fg-muted">{account.description}</p>}
				</div>
			</div>
			<nav class="UnderlineNav mb-3" aria-label="Organization">
				<div class="UnderlineNav-body">
					<a class="UnderlineNav-item" href={`/${account.login}`} aria-current={!tab ? 'page' : undefined}>
						<Octicon name="repo" class="UnderlineNav-octicon" /> Repositories
					</a>
					<a class="UnderlineNav-item" href={`/orgs/${account.login}/people`}>
						<Octicon name="person" class="UnderlineNav-octicon" /> People
					</a>
					{standing.member && (
						<a class="UnderlineNav-item" href={`/orgs/${account.login}/teams`}>
							<Octicon name="people" class="UnderlineNav-octicon" /> Teams
						</a>
					)}
				</div>
			</nav>
			<RepoList ctx={ctx} entries={repos} />
		</Layout>
	);
}

function people(ctx: WebContext) {
	const org = ctx.app.stores.accounts.organization(ctx.params.org);
	if (!org) throw new NotFound();
	const standing = orgStanding(ctx, org);
	// Members see every member; others the public members only (GitHub's rule).
	const rows = ctx.app.stores.memberships.members({
		orgId: org.id,
		role: 'all',
		publicOnly: !standing.member,
		limit: 500,
		offset: 0,
	}).rows;
	return (
		<Layout ctx={ctx} title={`People · ${org.login} · Gitstead`}>
			<h1 class="f2 text-normal mb-3">
				<a href={`/${org.login}`}>{org.login}</a> / People
			</h1>
			<div class="Box">
				{rows.map((member) => (
					<div class="Box-row d-flex flex-items-center" key={member.id}>
						<Avatar id={member.id} login={member.login} size={32} />
						<a class="ml-2 flex-auto" href={`/${member.login}`}>
							{member.login}
						</a>
					</div>
				))}
				{rows.length === 0 && <div class="Box-row color-fg-muted">This organization has no public members.</div>}
			</div>
		</Layout>
	);
}

function teams(ctx: WebContext) {
	const org = ctx.app.stores.accounts.organization(ctx.params.org);
	if (!org) throw new NotFound();
	const standing = orgStanding(ctx, org);
	if (!standing.member) throw new NotFound();
	const ids = ctx.app.stores.teams.order(org.id).map(([id]) => id);
	const all = ctx.app.stores.teams.byIds(ids).filter((team) => teamVisible(ctx.app, standing, team));
	return (
		<Layout ctx={ctx} title={`Teams · ${org.login} · Gitstead`}>
			<h1 class="f2 text-normal mb-3">
				<a href={`/${org.login}`}>{org.login}</a> / Teams
			</h1>
			<div class="Box">
				{all.map((team) => (
					<div class="Box-row" key={team.id}>
						<a class="text-bold" href={`/orgs/${org.login}/teams/${team.slug}`}>
							{team.name}
						</a>{' '}
						{team.privacy === 'secret' && <span class="Label">Secret</span>}
						{team.description && <p class="f6 color-fg-muted mb-0">{team.description}</p>}
					</div>
				))}
				{all.length === 0 && <div class="Box-row color-fg-muted">No teams.</div>}
			</div>
		</Layout>
	);
}

function team(ctx: WebContext) {
	const access = teamFor(ctx);
	const { app } = ctx;
	const members = app.stores.teams.members({ teamId: access.team.id, role: 'all', limit: 500, offset: 0 }).rows;
	const repos = readable(ctx, app.stores.teams.lineageRepositories(access.team.id));
	return (
		<Layout ctx={ctx} title={`${access.team.name} · ${access.org.login} · Gitstead`}>
			<h1 class="f2 text-normal mb-1">
				<a href={`/${access.org.login}`}>{access.org.login}</a> / {access.team.name}{' '}
				{access.team.privacy === 'secret' && <span class="Label">Secret</span>}
			</h1>
			{access.team.description && <p class="color-fg-muted">{access.team.description}</p>}
			<div class="d-flex flex-wrap gutter-md mt-3">
				<div class="col-12 col-md-6">
					<h2 class="f4 mb-2">
						Members <span class="Counter">{members.length}</span>
					</h2>
					<div class="Box">
						{members.map((m) => (
							<div class="Box-row d-flex flex-items-center" key={m.id}>
								<Avatar id={m.id} login={m.login} />
								<a class="ml-2 flex-auto" href={`/${m.login}`}>
									{m.login}
								</a>
								<span class="Label">{m.member_role === 'maintainer' ? 'Maintainer' : 'Member'}</span>
							</div>
						))}
					</div>
				</div>
				<div class="col-12 col-md-6">
					<h2 class="f4 mb-2">Repositories</h2>
					<RepoList ctx={ctx} entries={repos} />
				</div>
			</div>
		</Layout>
	);
}

export const accountPages: PageRoute[] = [
	{ method: 'GET', path: '/', handler: home },
	{
		method: 'GET',
		path: '/dashboard',
		handler: (ctx) => {
			requireUser(ctx);
			return home(ctx);
		},
	},
	{ method: 'GET', path: '/explore', handler: explore },
	{ method: 'GET', path: '/{owner}', weak: true, handler: profile },
	{ method: 'GET', path: '/orgs/{org}/people', handler: people },
	{ method: 'GET', path: '/orgs/{org}/teams', handler: teams },
	{ method: 'GET', path: '/orgs/{org}/teams/{team}', handler: team },
];
