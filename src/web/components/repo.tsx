/** A repository page's frame: its name, visibility, counters and tabs (Code, Issues, Pull requests, …; Settings for administrators). */
import type { ComponentChildren } from 'preact';
import type { RepoAccess } from '../../auth/access/types';
import type { WebContext } from '../context';
import { Octicon } from '../octicons';
import type { IconName } from '../icon-names';
import { Layout } from './layout';

export type RepoTab = 'code' | 'issues' | 'pulls' | 'commits' | 'releases' | 'branches' | 'settings';

/** `/{owner}/{repo}` of a repository. */
export const repoPath = (access: Pick<RepoAccess, 'owner' | 'repo'>) => `/${access.owner.login}/${access.repo.name}`;

/** A path segment or ref as it goes in a URL: each part encoded, slashes kept. */
export const encodePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');

function Tab({ href, icon, label, selected, count }: { href: string; icon: IconName; label: string; selected: boolean; count?: number }) {
	return (
		<a class="UnderlineNav-item" href={href} aria-current={selected ? 'page' : undefined}>
			<Octicon name={icon} class="UnderlineNav-octicon" />
			<span>{label}</span>
			{count !== undefined && count > 0 && <span class="Counter">{count}</span>}
		</a>
	);
}

export function RepoLayout({
	ctx,
	access,
	tab,
	title,
	children,
}: {
	ctx: WebContext;
	access: RepoAccess;
	tab: RepoTab;
	title: string;
	children: ComponentChildren;
}) {
	const { repo, owner } = access;
	const base = repoPath(access);
	const counts = ctx.app.stores.issues.openCounts(repo.id);
	return (
		<Layout ctx={ctx} title={title} wide>
			<div class="d-flex flex-wrap flex-items-center mb-3">
				<Octicon name={repo.visibility === 'public' ? 'repo' : 'lock'} class="mr-2 color-fg-muted" />
				<h1 class="f3 text-normal mr-2">
					<a href={`/${owner.login}`}>{owner.login}</a>
					<span class="mx-1">/</span>
					<strong>
						<a href={base}>{repo.name}</a>
					</strong>
				</h1>
				<span class="Label Label--secondary mr-2">
					{repo.visibility === 'public' ? 'Public' : repo.visibility === 'internal' ? 'Internal' : 'Private'}
				</span>
				{repo.archived === 1 && <span class="Label Label--attention mr-2">Public archive</span>}
				<div class="flex-auto" />
				<span class="color-fg-muted f6 mr-3">
					<Octicon name="eye" /> {repo.subscribers_count} watching
				</span>
				<span class="color-fg-muted f6 mr-3">
					<Octicon name="repo-forked" /> {repo.forks_count} forks
				</span>
				<span class="color-fg-muted f6">
					<Octicon name="star" /> {repo.stargazers_count} stars
				</span>
			</div>
			<nav class="UnderlineNav mb-4" aria-label="Repository">
				<div class="UnderlineNav-body">
					<Tab href={base} icon="code" label="Code" selected={tab === 'code'} />
					{repo.has_issues === 1 && (
						<Tab
							href={`${base}/issues`}
							icon="issue-opened"
							label="Issues"
							selected={tab === 'issues'}
							count={counts?.issues}
						/>
					)}
					<Tab
						href={`${base}/pulls`}
						icon="git-pull-request"
						label="Pull requests"
						selected={tab === 'pulls'}
						count={counts?.pulls}
					/>
					<Tab href={`${base}/commits`} icon="history" label="Commits" selected={tab === 'commits'} />
					<Tab href={`${base}/branches`} icon="git-branch" label="Branches" selected={tab === 'branches'} />
					<Tab href={`${base}/releases`} icon="tag" label="Releases" selected={tab === 'releases'} />
					{access.permission === 'admin' && (
						<Tab href={`${base}/settings`} icon="gear" label="Settings" selected={tab === 'settings'} />
					)}
				</div>
			</nav>
			{children}
		</Layout>
	);
}

/** Breadcrumbs of a path inside a repository at a ref: repo / dir / dir / file. */
export function Breadcrumbs({ access, gitRef, path }: { access: RepoAccess; gitRef: string; path: string }) {
	const base = repoPath(access);
	const parts = path === '' ? [] : path.split('/');
	return (
		<nav aria-label="Breadcrumb" class="f4 mb-3">
			<a href={`${base}/tree/${encodePath(gitRef)}`}>
				<strong>{access.repo.name}</strong>
			</a>
			{parts.map((part, i) => {
				const sub = parts.slice(0, i + 1).join('/');
				return (
					<span key={sub}>
						<span class="mx-1">/</span>
						{i === parts.length - 1 ? (
							<strong aria-current="page">{part}</strong>
						) : (
							<a href={`${base}/tree/${encodePath(gitRef)}/${encodePath(sub)}`}>{part}</a>
						)}
					</span>
				);
			})}
		</nav>
	);
}
