/**
 * A repository's code: the overview (`/{owner}/{repo}`: files of the default branch, README, about
 * box, clone URL), folders (`/tree/{ref}/{path}`), files (`/blob/{ref}/{path}`: line numbers,
 * highlighting, line anchors) and raw files (`/raw/{ref}/{path}`: text/plain or octet-stream, in a
 * sandbox, so a stored HTML file never runs in the site's origin).
 */
import { parseCommit, type TreeEntry } from '../../api/git/objects';
import { resolveCommit } from '../../api/git/service';
import { findReadme } from '../../api/contents/service';
import { lookupPath, treeEntries } from '../../api/contents/paths';
import { renderMarkdown } from '../../model/markdown/render';
import { repositoryLanguages } from '../../api/repos/languages';
import { LICENSES } from '../../model/licenses';
import type { ComponentChildren } from 'preact';
import type { RepoAccess } from '../../auth/access/types';
import { repoFor } from '../access';
import { Blankslate, Markdown, RelativeTime } from '../components/layout';
import { Breadcrumbs, encodePath, RepoLayout, repoPath } from '../components/repo';
import { NotFound, type WebContext } from '../context';
import { highlightLines } from '../highlight';
import { Octicon } from '../octicons';
import type { PageRoute, RawAnswer } from '../page';

/** Files larger than this are not shown in the page (the raw link serves them). */
const MAX_SHOWN = 1024 * 1024;
/** README sources rendered at most (bytes). */
const MAX_README = 512 * 1024;

interface At {
	/** The ref as the URL names it (branch, tag or commit id). */
	ref: string;
	commit: string;
	tree: string;
	path: string;
}

/**
 * The ref and path of `{ref}/{path}` (a ref may hold slashes: the shortest prefix that names a
 * branch, tag or commit wins).
 */
function refAndPath(ctx: WebContext, access: RepoAccess, rest: string): At {
	const { app } = ctx;
	const parts = rest.split('/').filter((p) => p !== '');
	if (parts.length === 0) throw new NotFound();
	for (let i = 1; i <= Math.min(parts.length, 12); i++) {
		const ref = parts.slice(0, i).join('/');
		const commit = resolveCommit(app, access.repo, ref);
		if (!commit) continue;
		const tree = parseCommit(app.stores.git.object(access.repo.id, commit)!.content).tree;
		return { ref, commit, tree, path: parts.slice(i).join('/') };
	}
	throw new NotFound();
}

/** The default branch's head, or null for an empty repository. */
function defaultHead(ctx: WebContext, access: RepoAccess): At | null {
	const { app } = ctx;
	if (!app.stores.git.hasCommits(access.repo.id)) return null;
	const commit = resolveCommit(app, access.repo, access.repo.default_branch);
	if (!commit) return null;
	const tree = parseCommit(app.stores.git.object(access.repo.id, commit)!.content).tree;
	return { ref: access.repo.default_branch, commit, tree, path: '' };
}

/** The latest commit's line above a file list: author, message, id, time, commit count. */
function LatestCommit({ ctx, access, at }: { ctx: WebContext; access: RepoAccess; at: At }) {
	const data = parseCommit(ctx.app.stores.git.object(access.repo.id, at.commit)!.content);
	const count = ctx.app.stores.git.ancestors(access.repo.id, at.commit).length;
	const base = repoPath(access);
	const summary = data.message.split('\n')[0];
	return (
		<div class="Box-header d-flex flex-items-center">
			<strong class="mr-2">{data.author.name}</strong>
			<a class="color-fg-muted flex-auto text-truncate" href={`${base}/commit/${at.commit}`}>
				{summary}
			</a>
			<a class="color-fg-muted ml-2 gs-mono f6" href={`${base}/commit/${at.commit}`}>
				{at.commit.slice(0, 7)}
			</a>
			<span class="color-fg-muted ml-2 f6">
				<RelativeTime iso={new Date(data.author.seconds * 1000).toISOString()} now={ctx.now} />
			</span>
			<a class="ml-3 f6" href={`${base}/commits/${encodePath(at.ref)}`}>
				<Octicon name="history" /> {count} commit{count === 1 ? '' : 's'}
			</a>
		</div>
	);
}

const ICONS: Record<string, 'file-directory-fill' | 'file-submodule' | 'file-symlink-file' | 'file'> = {
	'040000': 'file-directory-fill',
	'160000': 'file-submodule',
	'120000': 'file-symlink-file',
};

/** A folder's entries, folders first, as GitHub lists them. */
function FileList({ access, at, entries }: { access: RepoAccess; at: At; entries: TreeEntry[] }) {
	const base = repoPath(access);
	const sorted = [...entries].sort((a, b) => {
		const da = a.mode === '040000' ? 0 : 1;
		const db = b.mode === '040000' ? 0 : 1;
		return da - db || (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : 1);
	});
	const parent = at.path.includes('/') ? at.path.slice(0, at.path.lastIndexOf('/')) : '';
	return (
		<table class="width-full gs-file-list" aria-label="Files">
			<tbody>
				{at.path !== '' && (
					<tr>
						<td colSpan={2}>
							<a
								href={`${base}/tree/${encodePath(at.ref)}${parent ? `/${encodePath(parent)}` : ''}`}
								aria-label="Parent folder"
							>
								..
							</a>
						</td>
					</tr>
				)}
				{sorted.slice(0, 1000).map((entry) => {
					const path = at.path ? `${at.path}/${entry.name}` : entry.name;
					const kind = entry.mode === '040000' ? 'tree' : 'blob';
					return (
						<tr key={entry.name}>
							<td class="width-full">
								<Octicon name={ICONS[entry.mode] ?? 'file'} class="mr-2 color-fg-muted" />
								{entry.mode === '160000' ? (
									<span>
										{entry.name} @ {entry.sha.slice(0, 7)}
									</span>
								) : (
									<a href={`${base}/${kind}/${encodePath(at.ref)}/${encodePath(path)}`}>{entry.name}</a>
								)}
							</td>
						</tr>
					);
				})}
			</tbody>
		</table>
	);
}

/** The README of a folder, rendered (Markdown) or shown as text. */
function Readme({ ctx, access, at }: { ctx: WebContext; access: RepoAccess; at: At }) {
	const { app } = ctx;
	const path = findReadme(app, access.repo.id, at.tree, at.path);
	if (!path) return null;
	const found = lookupPath(app, access.repo.id, at.tree, path);
	const blob = found && !found.root ? app.stores.git.object(access.repo.id, found.entry.sha) : undefined;
	if (!blob || blob.type !== 'blob' || blob.content.length > MAX_README) return null;
	const text = blob.content.toString('utf8');
	const markdown = /\.(md|markdown|mdown|mkdn|mkd)$/i.test(path);
	return (
		<div class="Box mt-3" id="readme">
			<div class="Box-header">
				<h2 class="Box-title">
					<Octicon name="book" class="mr-2" />
					{path.slice(path.lastIndexOf('/') + 1)}
				</h2>
			</div>
			<div class="Box-body">{markdown ? <Markdown html={renderMarkdown(text, 'gfm')} /> : <pre class="gs-mono f6">{text}</pre>}</div>
		</div>
	);
}

function About({ ctx, access }: { ctx: WebContext; access: RepoAccess }) {
	const { repo } = access;
	const topics = JSON.parse(repo.topics) as string[];
	const languages = Object.entries(repositoryLanguages(ctx.app, repo));
	const total = languages.reduce((sum, [, bytes]) => sum + bytes, 0);
	const branches = ctx.app.stores.git.matchingRefs(repo.id, 'refs/heads/', 1, 0).total;
	const tags = ctx.app.stores.git.matchingRefs(repo.id, 'refs/tags/', 1, 0).total;
	const base = repoPath(access);
	const license = repo.license_key ? LICENSES[repo.license_key] : undefined;
	return (
		<div>
			<h2 class="f4 mb-3">About</h2>
			<p class="f4">{repo.description ?? <span class="color-fg-muted">No description, website, or topics provided.</span>}</p>
			{repo.homepage && (
				<p>
					<Octicon name="link" class="mr-1" />
					<a href={/^https?:\/\//i.test(repo.homepage) ? repo.homepage : '#'} rel="nofollow noopener">
						{repo.homepage}
					</a>
				</p>
			)}
			{topics.length > 0 && (
				<p>
					{topics.map((topic) => (
						<span key={topic} class="Label Label--accent mr-1">
							{topic}
						</span>
					))}
				</p>
			)}
			<ul class="list-style-none f6">
				{license && (
					<li class="mb-2">
						<Octicon name="law" class="mr-2" />
						{license.name}
					</li>
				)}
				<li class="mb-2">
					<a href={`${base}/branches`}>
						<Octicon name="git-branch" class="mr-2" />
						{branches} branch{branches === 1 ? '' : 'es'}
					</a>
				</li>
				<li class="mb-2">
					<a href={`${base}/tags`}>
						<Octicon name="tag" class="mr-2" />
						{tags} tag{tags === 1 ? '' : 's'}
					</a>
				</li>
			</ul>
			{languages.length > 0 && (
				<div class="mt-3">
					<h2 class="f4 mb-2">Languages</h2>
					<ul class="list-style-none f6">
						{languages.slice(0, 8).map(([name, bytes]) => (
							<li key={name} class="d-inline-block mr-3">
								<strong>{name}</strong> <span class="color-fg-muted">{((100 * bytes) / total).toFixed(1)}%</span>
							</li>
						))}
					</ul>
				</div>
			)}
		</div>
	);
}

/** The clone URL (`<origin>/{owner}/{repo}.git`) with a copy button. */
function CloneBox({ ctx, access }: { ctx: WebContext; access: RepoAccess }) {
	const url = `${ctx.app.urls.origin}${repoPath(access)}.git`;
	return (
		<div class="d-flex flex-items-center mb-3">
			<label for="clone-url" class="mr-2 text-bold f6">
				Clone
			</label>
			<input id="clone-url" class="form-control input-sm input-monospace flex-auto gs-select-all" type="text" readOnly value={url} />
			<button type="button" class="btn btn-sm ml-2" data-copy={url} aria-label="Copy the clone URL">
				<Octicon name="copy" />
			</button>
		</div>
	);
}

function overview(ctx: WebContext) {
	const access = repoFor(ctx);
	const at = defaultHead(ctx, access);
	const title = `${access.owner.login}/${access.repo.name}${access.repo.description ? `: ${access.repo.description}` : ''}`;
	return (
		<RepoLayout ctx={ctx} access={access} tab="code" title={title}>
			<div class="d-flex flex-wrap gutter-md">
				<div class="col-12 col-md-9">
					<CloneBox ctx={ctx} access={access} />
					{at ? (
						<>
							<div class="d-flex flex-items-center mb-2">
								<span class="branch-name mr-2">
									<Octicon name="git-branch" /> {at.ref}
								</span>
							</div>
							<div class="Box">
								<LatestCommit ctx={ctx} access={access} at={at} />
								<FileList access={access} at={at} entries={treeEntries(ctx.app, access.repo.id, at.tree)} />
							</div>
							<Readme ctx={ctx} access={access} at={at} />
						</>
					) : (
						<Blankslate icon="repo" title="This repository is empty.">
							Push a first commit, or create a file through the contents API.
						</Blankslate>
					)}
				</div>
				<div class="col-12 col-md-3">
					<About ctx={ctx} access={access} />
				</div>
			</div>
		</RepoLayout>
	);
}

/**
 * A page of a folder or file at a reference: the repository layout with the reference and the
 * path's breadcrumbs above `children`.
 */
function PathPage({ ctx, access, at, children }: { ctx: WebContext; access: RepoAccess; at: At; children: ComponentChildren }) {
	return (
		<RepoLayout
			ctx={ctx}
			access={access}
			tab="code"
			title={`${access.repo.name}/${at.path} at ${at.ref} · ${access.owner.login}/${access.repo.name}`}
		>
			<div class="d-flex flex-items-center mb-3">
				<span class="branch-name mr-3">
					<Octicon name="git-branch" /> {at.ref}
				</span>
				<Breadcrumbs access={access} gitRef={at.ref} path={at.path} />
			</div>
			{children}
		</RepoLayout>
	);
}

/** The file (a blob, not a folder or submodule) at a reference's path, with its tree entry. @throws NotFound */
function fileAt(ctx: WebContext, access: RepoAccess, at: At) {
	const found = lookupPath(ctx.app, access.repo.id, at.tree, at.path);
	if (!found || found.root || found.entry.mode === '040000' || found.entry.mode === '160000') throw new NotFound();
	const row = ctx.app.stores.git.object(access.repo.id, found.entry.sha);
	if (!row || row.type !== 'blob') throw new NotFound();
	return { found, row };
}

function tree(ctx: WebContext) {
	const access = repoFor(ctx);
	const at = refAndPath(ctx, access, ctx.params['*']);
	const found = lookupPath(ctx.app, access.repo.id, at.tree, at.path);
	if (!found) throw new NotFound();
	const sha = found.root ? found.sha : found.entry.mode === '040000' ? found.entry.sha : null;
	if (!sha) throw new NotFound();
	return (
		<PathPage ctx={ctx} access={access} at={at}>
			<div class="Box">
				<LatestCommit ctx={ctx} access={access} at={at} />
				<FileList access={access} at={at} entries={treeEntries(ctx.app, access.repo.id, sha)} />
			</div>
			<Readme ctx={ctx} access={access} at={{ ...at, path: at.path }} />
		</PathPage>
	);
}

/** Whether bytes look binary (a NUL in the first 8000 bytes, as git decides). */
const isBinary = (content: Buffer) => content.subarray(0, 8000).includes(0);

function blob(ctx: WebContext) {
	const access = repoFor(ctx);
	const at = refAndPath(ctx, access, ctx.params['*']);
	const { found, row } = fileAt(ctx, access, at);
	const base = repoPath(access);
	const rawHref = `${base}/raw/${encodePath(at.ref)}/${encodePath(at.path)}`;
	const name = at.path.slice(at.path.lastIndexOf('/') + 1);
	const binary = isBinary(row.content);
	const tooLarge = row.content.length > MAX_SHOWN;
	const shown = binary || tooLarge ? null : highlightLines(name, row.content.toString('utf8'));
	return (
		<PathPage ctx={ctx} access={access} at={at}>
			<div class="Box">
				<div class="Box-header d-flex flex-items-center">
					<span class="flex-auto f6 color-fg-muted">
						{shown ? `${shown.lines.length} lines · ` : ''}
						{row.content.length} bytes{found.entry.mode === '100755' ? ' · executable' : ''}
					</span>
					<a class="btn btn-sm mr-2" href={rawHref}>
						Raw
					</a>
					<a class="btn btn-sm" href={`${base}/commits/${encodePath(at.ref)}?path=${encodeURIComponent(at.path)}`}>
						<Octicon name="history" /> History
					</a>
				</div>
				{shown ? (
					<div class="gs-overflow">
						<table class="gs-code highlight" aria-label={`Contents of ${name}`}>
							<tbody>
								{shown.lines.map((html, i) => (
									<tr id={`L${i + 1}`} key={i}>
										<td class="gs-num">
											<a href={`#L${i + 1}`} data-line={i + 1}>
												{i + 1}
											</a>
										</td>
										<td class="gs-line" dangerouslySetInnerHTML={{ __html: html }} />
									</tr>
								))}
							</tbody>
						</table>
					</div>
				) : (
					<div class="Box-body text-center color-fg-muted">
						{binary ? 'Binary file not shown.' : 'This file is too large to show.'} <a href={rawHref}>View raw</a>
					</div>
				)}
			</div>
		</PathPage>
	);
}

function raw(ctx: WebContext): RawAnswer {
	const access = repoFor(ctx);
	const at = refAndPath(ctx, access, ctx.params['*']);
	const { found, row } = fileAt(ctx, access, at);
	return {
		status: 200,
		headers: {
			'Content-Type': isBinary(row.content) ? 'application/octet-stream' : 'text/plain; charset=utf-8',
			// Whatever the file holds, it never runs as this site's page.
			'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
			'Cache-Control': access.repo.visibility === 'public' ? 'public, max-age=300' : 'private, max-age=300',
			ETag: `"${found.entry.sha}"`,
		},
		body: row.content,
	};
}

export const codePages: PageRoute[] = [
	{ method: 'GET', path: '/{owner}/{repo}', weak: true, handler: overview },
	{ method: 'GET', path: '/{owner}/{repo}/tree/*', handler: tree },
	{ method: 'GET', path: '/{owner}/{repo}/blob/*', handler: blob },
	{ method: 'GET', path: '/{owner}/{repo}/raw/*', handler: raw },
];
