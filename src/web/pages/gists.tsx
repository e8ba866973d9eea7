/**
 * Gists at the paths the API hands out (`html_url` is `/gist/{gist_id}`) and GitHub's own:
 * - `/gist`: public gists, newest first;
 * - `/gist/{gist_id}` and `/gist/{user}/{gist_id}`: one gist, its files (Markdown rendered, code
 *   highlighted) and its comments; `/gist/{user}` (a login, when no gist has that id): the user's
 *   gists (their secret ones too when they look at their own);
 * - `/gist/{user}/{gist_id}/raw/{filename}`: a file's text, served like a repository's raw files
 *   (text/plain in a sandbox).
 * A secret gist is unlisted, not private: anyone with its id reads it, as on GitHub and through
 * the API. A gist a site administrator blocked answers 403 with the reason.
 */
import type { GistCommentRow, GistFileRow } from '../../api/gists/store';
import type { GistRow } from '../../model/rows';
import { renderMarkdown } from '../../model/markdown/render';
import type { AccountRow } from '../../model/rows';
import { Avatar, Blankslate, Layout, Markdown, Pagination, pageNumber, RelativeTime } from '../components/layout';
import { Forbidden, NotFound, Redirect, type WebContext } from '../context';
import { highlightLines } from '../highlight';
import { Octicon } from '../octicons';
import type { PageRoute, RawAnswer } from '../page';

const PER_PAGE = 10;
/** Lines of a gist's first file shown in lists. */
const PREVIEW_LINES = 10;
/** Files larger than this are not shown in the page (the raw link serves them). */
const MAX_SHOWN = 1024 * 1024;
/** Comments shown on a gist's page at most (oldest first). */
const MAX_COMMENTS = 300;

const isMarkdown = (name: string) => /\.(md|markdown|mdown|mkdn|mkd)$/i.test(name);

/** The gist of an id (GitHub's are hex), blocked ones refused; undefined when there is none. */
function gistById(ctx: WebContext, id: string): GistRow | undefined {
	const row = /^[0-9a-f]{1,64}$/i.test(id) ? ctx.app.stores.gists.byGistId(id.toLowerCase()) : undefined;
	if (row?.blocked_at)
		throw new Forbidden(`This gist was blocked by a site administrator${row.block_reason ? `: ${row.block_reason}` : '.'}`);
	return row;
}

/** `/gist/{owner}/{gist_id}` of a gist. */
const gistPath = (owner: AccountRow, row: GistRow) => `/gist/${owner.login}/${row.gist_id}`;

/** Files by gist, in one query. */
function filesOf(ctx: WebContext, rows: GistRow[]): Map<number, GistFileRow[]> {
	const out = new Map<number, GistFileRow[]>();
	for (const file of ctx.app.stores.gists.files(rows.map((row) => row.id))) {
		const list = out.get(file.gist_id);
		if (list) list.push(file);
		else out.set(file.gist_id, [file]);
	}
	return out;
}

/** A file's text as the page shows it: Markdown rendered, code highlighted (line numbers), or too large. */
function FileBody({ file, preview }: { file: GistFileRow; preview?: boolean }) {
	if (file.content.length > MAX_SHOWN) return <div class="Box-body color-fg-muted f6">This file is too large to show.</div>;
	if (!preview && isMarkdown(file.filename)) {
		return (
			<div class="Box-body">
				<Markdown html={renderMarkdown(file.content, 'gfm')} />
			</div>
		);
	}
	let text = file.content;
	if (preview) {
		let at = -1;
		for (let i = 0; i < PREVIEW_LINES; i++) {
			at = text.indexOf('\n', at + 1);
			if (at < 0) break;
		}
		if (at >= 0) text = text.slice(0, at + 1);
	}
	const { lines } = highlightLines(file.filename, text);
	return (
		<div class="gs-overflow">
			<table class="gs-code highlight" aria-label={`Contents of ${file.filename}`}>
				<tbody>
					{lines.map((html, i) => (
						<tr id={preview ? undefined : `file-${file.filename.replace(/[^A-Za-z0-9_-]/g, '-')}-L${i + 1}`} key={i}>
							<td class="gs-num">{i + 1}</td>
							<td class="gs-line" dangerouslySetInnerHTML={{ __html: html }} />
						</tr>
					))}
				</tbody>
			</table>
		</div>
	);
}

/** A list of gists: owner / first file name, description, times, files and comments, a preview of the first file. */
function GistList({ ctx, rows }: { ctx: WebContext; rows: GistRow[] }) {
	const { stores } = ctx.app;
	const owners = stores.accounts.mapByIds(rows.map((row) => row.owner_id));
	const files = filesOf(ctx, rows);
	const comments = stores.gists.commentCounts(rows.map((row) => row.id));
	if (!rows.length) return <Blankslate icon="code-square" title="No gists to show" />;
	return (
		<div>
			{rows.map((row) => {
				const owner = owners.get(row.owner_id);
				const list = files.get(row.id) ?? [];
				if (!owner) return null;
				const n = comments.get(row.id) ?? 0;
				return (
					<div class="mb-4" key={row.id}>
						<div class="d-flex flex-items-center mb-2">
							<Avatar id={owner.id} login={owner.login} size={32} />
							<div class="ml-2 flex-auto min-width-0">
								<a href={`/gist/${owner.login}`}>{owner.login}</a> /{' '}
								<a class="text-bold" href={gistPath(owner, row)}>
									{list[0]?.filename ?? row.gist_id}
								</a>
								{row.public === 0 && <span class="Label ml-2">Secret</span>}
								<div class="f6 color-fg-muted">
									Created <RelativeTime iso={row.created_at} now={ctx.now} />
									{row.description && <span> · {row.description}</span>}
								</div>
							</div>
							<span class="f6 color-fg-muted">
								<Octicon name="code-square" /> {list.length} file{list.length === 1 ? '' : 's'} · <Octicon name="comment" />{' '}
								{n}
							</span>
						</div>
						{list[0] && (
							<a
								class="Box d-block no-underline color-fg-default"
								href={gistPath(owner, row)}
								aria-label={`Open ${list[0].filename}`}
							>
								<FileBody file={list[0]} preview />
							</a>
						)}
					</div>
				);
			})}
		</div>
	);
}

function discover(ctx: WebContext) {
	const page = pageNumber(ctx);
	const { rows, total } = ctx.app.stores.gists.list({
		ownerId: null,
		publicOnly: true,
		since: null,
		limit: PER_PAGE,
		offset: (page - 1) * PER_PAGE,
	});
	return (
		<Layout ctx={ctx} title="Discover gists · Gitstead">
			<div class="d-flex flex-items-center mb-3">
				<h1 class="f2 text-normal flex-auto">Discover gists</h1>
				{ctx.user && (
					<a class="btn btn-sm" href={`/gist/${ctx.user.login}`}>
						Your gists
					</a>
				)}
			</div>
			<GistList ctx={ctx} rows={rows} />
			<Pagination ctx={ctx} page={page} hasNext={page * PER_PAGE < total} />
		</Layout>
	);
}

function userGists(ctx: WebContext, owner: AccountRow) {
	const page = pageNumber(ctx);
	const own = ctx.user?.id === owner.id;
	const { rows, total } = ctx.app.stores.gists.list({
		ownerId: owner.id,
		publicOnly: !own,
		since: null,
		limit: PER_PAGE,
		offset: (page - 1) * PER_PAGE,
	});
	return (
		<Layout ctx={ctx} title={`${owner.login}’s gists · Gitstead`}>
			<div class="d-flex flex-items-center mb-3">
				<Avatar id={owner.id} login={owner.login} size={48} />
				<h1 class="f2 text-normal ml-3 flex-auto">
					<a href={`/${owner.login}`}>{owner.login}</a>’s gists <span class="Counter">{total}</span>
				</h1>
			</div>
			<GistList ctx={ctx} rows={rows} />
			<Pagination ctx={ctx} page={page} hasNext={page * PER_PAGE < total} />
		</Layout>
	);
}

function Comment({ ctx, comment, author }: { ctx: WebContext; comment: GistCommentRow; author: AccountRow | undefined }) {
	const login = author?.login ?? 'ghost';
	return (
		<div class="d-flex mb-3" id={`gistcomment-${comment.id}`}>
			<Avatar id={comment.user_id} login={login} size={32} />
			<div class="Box flex-auto min-width-0 ml-3">
				<div class="Box-header py-2 f6">
					<strong>{login}</strong> commented <RelativeTime iso={comment.created_at} now={ctx.now} />
				</div>
				<div class="Box-body">
					<Markdown html={comment.body_html} />
				</div>
			</div>
		</div>
	);
}

function gistPage(ctx: WebContext, row: GistRow) {
	const { stores } = ctx.app;
	const owner = stores.accounts.byId(row.owner_id);
	if (!owner) throw new NotFound();
	const files = stores.gists.files([row.id]);
	const { rows: comments, total } = stores.gists.comments(row.id, MAX_COMMENTS, 0);
	const authors = stores.accounts.mapByIds(comments.map((c) => c.user_id));
	const revisions = stores.gists.revisions(row.id, 1, 0).total;
	const forks = stores.gists.forks(row.id, 0, 0).total;
	const source = row.fork_of_id === null ? undefined : stores.gists.byId(row.fork_of_id);
	const sourceOwner = source && source.blocked_at === null ? stores.accounts.byId(source.owner_id) : undefined;
	const base = gistPath(owner, row);
	return (
		<Layout ctx={ctx} title={`${row.description || files[0]?.filename || row.gist_id} · ${owner.login}’s gist · Gitstead`}>
			<div class="d-flex flex-items-center border-bottom pb-3 mb-3">
				<Avatar id={owner.id} login={owner.login} size={32} />
				<div class="ml-2 flex-auto min-width-0">
					<h1 class="f3 text-normal">
						<a href={`/gist/${owner.login}`}>{owner.login}</a> / <strong>{files[0]?.filename ?? row.gist_id}</strong>
						{row.public === 0 && <span class="Label ml-2">Secret</span>}
					</h1>
					<div class="f6 color-fg-muted">
						Created <RelativeTime iso={row.created_at} now={ctx.now} /> · updated{' '}
						<RelativeTime iso={row.updated_at} now={ctx.now} />
						{source && sourceOwner && (
							<span>
								{' '}
								· forked from <a href={gistPath(sourceOwner, source)}>{sourceOwner.login}</a>
							</span>
						)}
					</div>
				</div>
				<span class="f6 color-fg-muted">
					<Octicon name="history" /> {revisions} revision{revisions === 1 ? '' : 's'} · <Octicon name="repo-forked" /> {forks}{' '}
					fork
					{forks === 1 ? '' : 's'}
				</span>
			</div>
			{row.description && <p class="f4 mb-3">{row.description}</p>}
			{files.map((file) => (
				<div class="Box mb-3" key={file.filename} id={`file-${file.filename.replace(/[^A-Za-z0-9_-]/g, '-')}`}>
					<div class="Box-header py-2 d-flex flex-items-center">
						<Octicon name="file" class="mr-2 color-fg-muted" />
						<strong class="flex-auto gs-mono f6">{file.filename}</strong>
						<a class="btn btn-sm" href={`${base}/raw/${encodeURIComponent(file.filename)}`}>
							Raw
						</a>
					</div>
					<FileBody file={file} />
				</div>
			))}
			<h2 class="f3 text-normal mt-4 mb-3">
				<Octicon name="comment" /> {total} comment{total === 1 ? '' : 's'}
			</h2>
			{comments.map((comment) => (
				<Comment key={comment.id} ctx={ctx} comment={comment} author={authors.get(comment.user_id)} />
			))}
			{total > comments.length && <p class="f6 color-fg-muted">Only the first {MAX_COMMENTS} comments are shown.</p>}
		</Layout>
	);
}

/** `/gist/{x}`: the gist with that id, else the gists of the user with that login. */
function gistOrUser(ctx: WebContext) {
	const id = ctx.params.id;
	const row = gistById(ctx, id);
	if (row) return gistPage(ctx, row);
	const owner = /^[A-Za-z0-9-]{1,39}$/.test(id) ? ctx.app.stores.accounts.user(id) : undefined;
	if (!owner) throw new NotFound();
	return userGists(ctx, owner);
}

/** The gist of `/gist/{user}/{gist_id}`; another user's login redirects to its owner's path. */
function ownedGist(ctx: WebContext): { row: GistRow; owner: AccountRow } {
	const row = gistById(ctx, ctx.params.gist_id);
	const owner = row && ctx.app.stores.accounts.byId(row.owner_id);
	if (!row || !owner) throw new NotFound();
	if (owner.login.toLowerCase() !== ctx.params.user.toLowerCase()) {
		const rest = ctx.path.split('/').slice(4).join('/');
		throw new Redirect(`${gistPath(owner, row)}${rest ? `/${rest}` : ''}`, 301);
	}
	return { row, owner };
}

function raw(ctx: WebContext): RawAnswer {
	const { row } = ownedGist(ctx);
	const file = ctx.app.stores.gists.files([row.id]).find((f) => f.filename === ctx.params.filename);
	if (!file) throw new NotFound();
	return {
		status: 200,
		headers: {
			'Content-Type': 'text/plain; charset=utf-8',
			// Whatever the file holds, it never runs as this site's page.
			'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
			'Cache-Control': 'no-cache',
		},
		body: file.content,
	};
}

export const gistPages: PageRoute[] = [
	{ method: 'GET', path: '/gist', handler: discover },
	{ method: 'GET', path: '/gist/{id}', handler: gistOrUser },
	{ method: 'GET', path: '/gist/{user}/{gist_id}', handler: (ctx) => gistPage(ctx, ownedGist(ctx).row) },
	{ method: 'GET', path: '/gist/{user}/{gist_id}/raw/{filename}', handler: raw },
];
