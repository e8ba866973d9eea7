/**
 * A repository's history: commits (`/commits/{ref}`, with `?path=`), one commit with its diff
 * (`/commit/{sha}`), a comparison (`/compare/{base}...{head}`), branches, tags and releases.
 */
import { commitChanges, comparisonCommits, listCommits, requireMergeBase, resolveComparison } from '../../api/commits/service';
import { diffTrees } from '../../api/git/diff';
import type { WalkedCommit } from '../../api/git/graph';
import { parseCommit } from '../../api/git/objects';
import { resolveCommit } from '../../api/git/service';
import { callerRepoPermission } from '../../auth/access/repos';
import { atLeast } from '../../model/repo-permissions';
import { downloadAsset } from '../../api/releases/service';
import type { RepoAccess } from '../../auth/access/types';
import { issueScope } from '../../api/issues/service';
import { headRepository } from '../../api/pulls/workflows';
import { repoFor } from '../access';
import { Flash } from '../components/form';
import { CreatePullForm } from '../components/issue-forms';
import { Diff } from '../components/diff';
import { Blankslate, Markdown, Pagination, pageNumber, RelativeTime } from '../components/layout';
import { encodePath, RepoLayout, repoPath } from '../components/repo';
import { NotFound, Redirect, type WebContext } from '../context';
import { Octicon } from '../octicons';
import type { FileAnswer, PageRoute } from '../page';

const PER_PAGE = 30;

const isoOf = (seconds: number) => new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

function CommitRows({ ctx, access, commits }: { ctx: WebContext; access: RepoAccess; commits: WalkedCommit[] }) {
	const base = repoPath(access);
	return (
		<div class="Box">
			{commits.map(({ sha, data }) => {
				const [summary] = data.message.split('\n');
				return (
					<div class="Box-row d-flex flex-items-center" key={sha}>
						<div class="flex-auto min-width-0">
							<a class="text-bold text-truncate d-block" href={`${base}/commit/${sha}`}>
								{summary}
							</a>
							<span class="f6 color-fg-muted">
								{data.author.name} committed <RelativeTime iso={isoOf(data.committer.seconds)} now={ctx.now} />
							</span>
						</div>
						<a class="btn btn-sm gs-mono ml-2" href={`${base}/commit/${sha}`} aria-label={`Commit ${sha}`}>
							{sha.slice(0, 7)}
						</a>
						<a class="btn btn-sm ml-2" href={`${base}/tree/${sha}`} aria-label="Browse the repository at this point">
							<Octicon name="code" />
						</a>
					</div>
				);
			})}
		</div>
	);
}

function commits(ctx: WebContext) {
	const access = repoFor(ctx);
	const ref = ctx.params['*'] || access.repo.default_branch;
	if (!ctx.app.stores.git.hasCommits(access.repo.id)) throw new NotFound();
	const head = resolveCommit(ctx.app, access.repo, ref);
	if (!head) throw new NotFound();
	const page = pageNumber(ctx);
	const path = ctx.query.get('path')?.slice(0, 4096) || undefined;
	const { commits: rows, total } = listCommits(ctx.app, access, head, { path }, (page - 1) * PER_PAGE, PER_PAGE);
	return (
		<RepoLayout ctx={ctx} access={access} tab="commits" title={`Commits · ${access.owner.login}/${access.repo.name}`}>
			<h2 class="f3 text-normal mb-3">
				Commits on <span class="branch-name">{ref}</span>
				{path && <span class="gs-mono f5"> ({path})</span>}
			</h2>
			{rows.length ? <CommitRows ctx={ctx} access={access} commits={rows} /> : <Blankslate icon="git-commit" title="No commits" />}
			<Pagination ctx={ctx} page={page} hasNext={page * PER_PAGE < total} />
		</RepoLayout>
	);
}

function commit(ctx: WebContext) {
	const access = repoFor(ctx);
	const { app } = ctx;
	const sha = ctx.params.sha.length <= 255 ? resolveCommit(app, access.repo, ctx.params.sha) : null;
	const row = sha ? app.stores.git.object(access.repo.id, sha) : undefined;
	if (!sha || !row || row.type !== 'commit') throw new NotFound();
	const data = parseCommit(row.content);
	const changes = commitChanges(app, access.repo.id, data);
	const base = repoPath(access);
	const [summary, ...rest] = data.message.split('\n');
	return (
		<RepoLayout
			ctx={ctx}
			access={access}
			tab="commits"
			title={`${summary} · ${access.owner.login}/${access.repo.name}@${sha.slice(0, 7)}`}
		>
			<div class="Box mb-3">
				<div class="Box-header">
					<h2 class="f4">{summary}</h2>
					{rest.join('\n').trim() && <pre class="mt-2 f6 gs-mono">{rest.join('\n').trim()}</pre>}
				</div>
				<div class="Box-body d-flex flex-items-center f6">
					<span class="flex-auto">
						<strong>{data.author.name}</strong> authored <RelativeTime iso={isoOf(data.author.seconds)} now={ctx.now} />
						{data.committer.name !== data.author.name && (
							<span>
								{' '}
								· <strong>{data.committer.name}</strong> committed
							</span>
						)}
					</span>
					<span class="color-fg-muted mr-2">{data.parents.length === 1 ? '1 parent' : `${data.parents.length} parents`}</span>
					{data.parents.map((parent) => (
						<a key={parent} class="gs-mono mr-2" href={`${base}/commit/${parent}`}>
							{parent.slice(0, 7)}
						</a>
					))}
					<span class="color-fg-muted mr-1">commit</span>
					<span class="gs-mono">{sha}</span>
				</div>
			</div>
			<Diff app={app} repoId={access.repo.id} changes={changes} complete={true} />
		</RepoLayout>
	);
}

/**
 * GET /{owner}/{repo}/compare/{base}...{head}: the commits and the diff, and for a signed-in viewer
 * comparing two branches the "Open a pull request" form (or the open one's link). `error` is a
 * refused form's message.
 */
export function compare(ctx: WebContext, error?: string) {
	const access = repoFor(ctx);
	const { app } = ctx;
	const basehead = ctx.params['*'];
	if (!basehead || !basehead.includes('..')) {
		const pickedBase = ctx.query.get('base');
		const pickedHead = ctx.query.get('head');
		if (pickedBase && pickedHead && pickedBase.length <= 255 && pickedHead.length <= 255)
			throw new Redirect(`${repoPath(access)}/compare/${encodePath(pickedBase)}...${encodePath(pickedHead)}`, 302);
		const names = app.stores.branches.list(access.repo.id, null, 100, 0).rows.map((b) => b.name);
		const select = (id: string, name: string, label: string, value: string) => (
			<span class="mr-2">
				<label for={id} class="mr-1">
					{label}
				</label>
				<select id={id} name={name} class="form-select">
					{names.map((n) => (
						<option key={n} value={n} selected={n === value}>
							{n}
						</option>
					))}
				</select>
			</span>
		);
		return (
			<RepoLayout ctx={ctx} access={access} tab="code" title={`Compare · ${access.owner.login}/${access.repo.name}`}>
				<h2 class="f3 text-normal mb-3">Compare changes</h2>
				<p class="mb-3">Choose two branches to see what changed or to open a pull request.</p>
				<form method="get" action={`${repoPath(access)}/compare`} class="d-flex flex-items-center mb-3">
					{select('compare-base', 'base', 'base:', access.repo.default_branch)}
					{select(
						'compare-head',
						'head',
						'compare:',
						names.find((n) => n !== access.repo.default_branch) ?? access.repo.default_branch,
					)}
					<button type="submit" class="btn">
						Compare
					</button>
				</form>
				<p class="f6 color-fg-muted">
					Or name two branches, tags or commits in the address: <code>{repoPath(access)}/compare/main...feature</code>.
				</p>
			</RepoLayout>
		);
	}
	const canRead = (repoId: number) => {
		const repo = app.stores.repos.byId(repoId);
		const owner = repo && app.stores.accounts.byId(repo.owner_id);
		return !!(repo && owner && callerRepoPermission(ctx.viewer, repo, owner));
	};
	const { repoId, base, head } = resolveComparison(app, access, basehead, canRead);
	const mergeBase = requireMergeBase(app, repoId, base, head);
	const { commits: rows, total } = comparisonCommits(app, repoId, base.sha, head.sha);
	const treeOf = (sha: string) => parseCommit(app.stores.git.object(repoId, sha)!.content).tree;
	const { changes, complete } = diffTrees(app, repoId, treeOf(mergeBase), treeOf(head.sha), 3000);
	const sameRepo = repoId === access.repo.id;
	// The form: two branches (not commits or tags), with commits to merge; an open pull request for them instead links to it.
	const baseBranch = app.stores.git.ref(access.repo.id, `refs/heads/${base.text}`) ? base.text : null;
	const named =
		head.text.split(':').length > 2
			? null
			: headRepository({ app, principal: ctx.principal, now: ctx.now, media: null }, issueScope(app, access), head.text, undefined);
	const headBranch = named?.branch ?? head.text;
	const isBranch = !!named && !!app.stores.git.ref(named.repo.id, `refs/heads/${named.branch}`);
	const open =
		baseBranch && named && isBranch
			? app.stores.pulls.openWithHead(access.repo.id, named.repo.id, named.branch, baseBranch)
			: undefined;
	const offerForm = !!ctx.user && baseBranch !== null && isBranch && total > 0 && access.repo.archived !== 1;
	const defaultTitle = total === 1 ? rows[0].data.message.split('\n')[0] : humanize(headBranch);
	return (
		<RepoLayout
			ctx={ctx}
			access={access}
			tab="code"
			title={`Comparing ${base.text}...${head.text} · ${access.owner.login}/${access.repo.name}`}
		>
			<h2 class="f3 text-normal mb-3">
				Comparing <span class="branch-name">{base.text}</span> ... <span class="branch-name">{head.text}</span>
			</h2>
			<p class="f6 color-fg-muted mb-3">
				{total} commit{total === 1 ? '' : 's'} · {changes.length} file{changes.length === 1 ? '' : 's'} changed
			</p>
			<Flash error={error} />
			{open ? (
				<div class="flash mb-3">
					<a href={`${repoPath(access)}/pull/${open.number}`}>
						#{open.number} {open.title}
					</a>{' '}
					is already open for these branches.
				</div>
			) : offerForm ? (
				<CreatePullForm ctx={ctx} access={access} base={baseBranch} head={head.text} defaultTitle={defaultTitle} />
			) : !ctx.user && baseBranch && isBranch && total > 0 ? (
				<p class="mb-3">
					<a href={`/login?return_to=${encodeURIComponent(ctx.path)}`}>Sign in</a> to open a pull request.
				</p>
			) : null}
			{rows.length > 0 && sameRepo && (
				<div class="mb-4">
					<CommitRows ctx={ctx} access={access} commits={[...rows].reverse()} />
				</div>
			)}
			<Diff app={app} repoId={repoId} changes={changes} complete={complete} />
		</RepoLayout>
	);
}

/** A branch name as a title: "fix-login_page" → "Fix login page" (GitHub's default title of a multi-commit pull request). */
function humanize(branch: string): string {
	const words = branch.replace(/[-_/]+/g, ' ').trim();
	return words ? words[0].toUpperCase() + words.slice(1) : branch;
}

function branches(ctx: WebContext) {
	const access = repoFor(ctx);
	const page = pageNumber(ctx);
	const { rows, total } = ctx.app.stores.branches.list(access.repo.id, null, PER_PAGE, (page - 1) * PER_PAGE);
	const base = repoPath(access);
	return (
		<RepoLayout ctx={ctx} access={access} tab="branches" title={`Branches · ${access.owner.login}/${access.repo.name}`}>
			<h2 class="f3 text-normal mb-3">Branches</h2>
			<div class="Box">
				{rows.map((branch) => (
					<div class="Box-row d-flex flex-items-center" key={branch.name}>
						<Octicon name="git-branch" class="mr-2 color-fg-muted" />
						<a class="branch-name flex-auto" href={`${base}/tree/${encodePath(branch.name)}`}>
							{branch.name}
						</a>
						{branch.name === access.repo.default_branch && <span class="Label mr-2">Default</span>}
						{branch.protected && (
							<span class="Label Label--attention mr-2">
								<Octicon name="shield-lock" /> Protected
							</span>
						)}
						<a class="gs-mono f6 mr-2" href={`${base}/commit/${branch.sha}`}>
							{branch.sha.slice(0, 7)}
						</a>
						{branch.name !== access.repo.default_branch && (
							<a
								class="btn btn-sm"
								href={`${base}/compare/${encodePath(access.repo.default_branch)}...${encodePath(branch.name)}`}
							>
								Compare
							</a>
						)}
					</div>
				))}
				{rows.length === 0 && <div class="Box-row color-fg-muted">No branches.</div>}
			</div>
			<Pagination ctx={ctx} page={page} hasNext={page * PER_PAGE < total} />
		</RepoLayout>
	);
}

function tags(ctx: WebContext) {
	const access = repoFor(ctx);
	const page = pageNumber(ctx);
	const { rows, total } = ctx.app.stores.git.matchingRefs(access.repo.id, 'refs/tags/', PER_PAGE, (page - 1) * PER_PAGE);
	const base = repoPath(access);
	return (
		<RepoLayout ctx={ctx} access={access} tab="releases" title={`Tags · ${access.owner.login}/${access.repo.name}`}>
			<h2 class="f3 text-normal mb-3">Tags</h2>
			<div class="Box">
				{rows.map((ref) => {
					const name = ref.name.slice('refs/tags/'.length);
					return (
						<div class="Box-row d-flex flex-items-center" key={name}>
							<Octicon name="tag" class="mr-2 color-fg-muted" />
							<a class="flex-auto text-bold" href={`${base}/tree/${encodePath(name)}`}>
								{name}
							</a>
							<a class="gs-mono f6" href={`${base}/commit/${ref.sha}`}>
								{ref.sha.slice(0, 7)}
							</a>
						</div>
					);
				})}
				{rows.length === 0 && <div class="Box-row color-fg-muted">No tags.</div>}
			</div>
			<Pagination ctx={ctx} page={page} hasNext={page * PER_PAGE < total} />
		</RepoLayout>
	);
}

function releases(ctx: WebContext) {
	const access = repoFor(ctx);
	const page = pageNumber(ctx);
	// Drafts are seen by those who may push (GitHub's rule for the releases list).
	const drafts = atLeast(access.permission, 'push');
	const { rows, total } = ctx.app.stores.releases.list(access.repo.id, drafts, 10, (page - 1) * 10);
	const assets = ctx.app.stores.releases.assetsOf(rows.map((r) => r.id));
	const base = repoPath(access);
	return (
		<RepoLayout ctx={ctx} access={access} tab="releases" title={`Releases · ${access.owner.login}/${access.repo.name}`}>
			<div class="d-flex flex-items-center mb-3">
				<h2 class="f3 text-normal flex-auto">Releases</h2>
				<a class="btn btn-sm" href={`${base}/tags`}>
					<Octicon name="tag" /> Tags
				</a>
			</div>
			{rows.length === 0 && <Blankslate icon="package" title="There aren’t any releases here" />}
			{rows.map((release) => (
				<div class="Box mb-4" key={release.id}>
					<div class="Box-header d-flex flex-items-center">
						<h3 class="f3 flex-auto">{release.name || release.tag_name}</h3>
						{release.draft === 1 && <span class="Label Label--attention mr-2">Draft</span>}
						{release.prerelease === 1 && <span class="Label Label--attention mr-2">Pre-release</span>}
						{release.is_latest === 1 && <span class="Label Label--success mr-2">Latest</span>}
						<span class="branch-name">
							<Octicon name="tag" /> {release.tag_name}
						</span>
					</div>
					<div class="Box-body">
						<p class="f6 color-fg-muted">
							<RelativeTime iso={release.published_at ?? release.created_at} now={ctx.now} />
						</p>
						<Markdown html={release.body_html} />
						<h4 class="f5 mt-3 mb-2">Assets</h4>
						<ul class="list-style-none">
							{(assets.get(release.id) ?? []).map((asset) => (
								<li key={asset.id} class="py-1">
									<Octicon name="package" class="mr-2" />
									<a
										href={`${base}/releases/download/${encodeURIComponent(release.tag_name)}/${encodeURIComponent(asset.name)}`}
									>
										{asset.name}
									</a>
									<span class="f6 color-fg-muted ml-2">{asset.size} bytes</span>
								</li>
							))}
							{!release.draft && (
								<li class="py-1">
									<Octicon name="download" class="mr-2" />
									Source code (tag {release.tag_name}):{' '}
									<a href={`${base}/tree/${encodePath(release.tag_name)}`}>browse</a>
								</li>
							)}
						</ul>
					</div>
				</div>
			))}
			<Pagination ctx={ctx} page={page} hasNext={page * 10 < total} />
		</RepoLayout>
	);
}

/**
 * `/{owner}/{repo}/releases/download/{tag}/{name}` (an asset's browser_download_url) for a signed-in
 * browser: the session's access decides, so private repositories' assets download from the
 * releases page too (the API route at the same path takes tokens only). Drafts' assets need push.
 */
function downloadPage(ctx: WebContext): FileAnswer {
	const access = repoFor(ctx);
	const { releases } = ctx.app.stores;
	const release = releases.byTag(access.repo.id, ctx.params.tag);
	if (!release || (release.draft === 1 && !atLeast(access.permission, 'push'))) throw new NotFound();
	const asset = releases.assetByName(release.id, ctx.params.name);
	const file = asset && downloadAsset(ctx.app, asset);
	if (!asset || !file) throw new NotFound();
	return { file, name: asset.name };
}

export const historyPages: PageRoute[] = [
	{ method: 'GET', path: '/{owner}/{repo}/commits', handler: commits },
	{ method: 'GET', path: '/{owner}/{repo}/commits/*', handler: commits },
	{ method: 'GET', path: '/{owner}/{repo}/commit/{sha}', handler: commit },
	{ method: 'GET', path: '/{owner}/{repo}/compare', handler: compare },
	{ method: 'GET', path: '/{owner}/{repo}/compare/*', handler: compare },
	{ method: 'GET', path: '/{owner}/{repo}/branches', handler: branches },
	{ method: 'GET', path: '/{owner}/{repo}/tags', handler: tags },
	{ method: 'GET', path: '/{owner}/{repo}/releases', handler: releases },
	{ method: 'GET', path: '/{owner}/{repo}/releases/download/{tag}/{name}', handler: downloadPage },
];
