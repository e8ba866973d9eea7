/**
 * The page shell: GitHub's header (logo, search, the signed-in user's menu with sign-out), the
 * content, a footer. The stylesheet and the one script come from content-hashed paths.
 */
import type { ComponentChildren } from 'preact';
import { assetPaths } from '../assets';
import type { WebContext } from '../context';
import { Octicon } from '../octicons';

export interface PageProps {
	ctx: WebContext;
	title: string;
	children: ComponentChildren;
	/** Full-width pages (code views) use a wider container. */
	wide?: boolean;
}

/** The avatar of an account (a generated picture served by the same origin). */
export function Avatar({ id, login, size = 20 }: { id: number; login: string; size?: 20 | 32 | 48 | 260 }) {
	return (
		<img
			class={`avatar gs-avatar-${size}${size === 260 ? '' : ' circle'}`}
			src={`/avatars/u/${id}`}
			alt={`@${login}`}
			width={size}
			height={size}
		/>
	);
}

/** A hidden form field carrying the CSRF token. */
export function Csrf({ ctx }: { ctx: WebContext }) {
	return <input type="hidden" name="authenticity_token" value={ctx.csrf} />;
}

/** The sign-out form: one button (of class `button`) that posts to /logout with the CSRF token. */
export function SignOut({ ctx, button }: { ctx: WebContext; button: string }) {
	return (
		<form method="post" action="/logout">
			<Csrf ctx={ctx} />
			<button type="submit" class={button}>
				Sign out
			</button>
		</form>
	);
}

/**
 * A form of one red button that posts to `action` with the CSRF token: the delete, remove or revoke
 * of a list's row. `label` names what it acts on for assistive technology.
 */
export function DangerButton({
	ctx,
	action,
	label,
	children,
}: {
	ctx: WebContext;
	action: string;
	label?: string;
	children: ComponentChildren;
}) {
	return (
		<form method="post" action={action}>
			<Csrf ctx={ctx} />
			<button type="submit" class="btn btn-sm btn-danger" aria-label={label}>
				{children}
			</button>
		</form>
	);
}

function UserMenu({ ctx }: { ctx: WebContext }) {
	const user = ctx.user;
	if (!user) {
		const here = ctx.path === '/login' ? '' : `?return_to=${encodeURIComponent(ctx.path)}`;
		return (
			<a class="btn btn-sm" href={`/login${here}`}>
				Sign in
			</a>
		);
	}
	return (
		<details class="details-reset d-inline-block position-relative">
			<summary class="d-flex flex-items-center" aria-label="View profile and more">
				<Avatar id={user.id} login={user.login} />
				<span class="dropdown-caret ml-1" />
			</summary>
			<div class="dropdown-menu dropdown-menu-sw">
				<div class="dropdown-header">
					Signed in as <strong>{user.login}</strong>
				</div>
				<div class="dropdown-divider" />
				<a class="dropdown-item" href={`/${user.login}`}>
					Your profile
				</a>
				<a class="dropdown-item" href={`/${user.login}?tab=repositories`}>
					Your repositories
				</a>
				<a class="dropdown-item" href="/notifications">
					Notifications
				</a>
				<a class="dropdown-item" href={`/gist/${user.login}`}>
					Your gists
				</a>
				<a class="dropdown-item" href="/settings/profile">
					Settings
				</a>
				<a class="dropdown-item" href="/settings/tokens">
					Personal access tokens
				</a>
				{user.site_admin === 1 && (
					<a class="dropdown-item" href="/stafftools">
						Site admin
					</a>
				)}
				<div class="dropdown-divider" />
				<SignOut ctx={ctx} button="dropdown-item btn-link" />
			</div>
		</details>
	);
}

/** The whole document. */
export function Layout({ ctx, title, children, wide }: PageProps) {
	const { css, js } = assetPaths();
	const q = ctx.path === '/search' ? (ctx.query.get('q') ?? '') : '';
	return (
		<html lang="en" data-color-mode="light" data-light-theme="light">
			<head>
				<meta charset="utf-8" />
				<meta name="viewport" content="width=device-width, initial-scale=1" />
				<title>{title}</title>
				<link rel="stylesheet" href={css} />
				<script src={js} defer />
			</head>
			<body>
				<a class="show-on-focus p-2" href="#main">
					Skip to content
				</a>
				<header class="gs-header px-3 px-md-4 py-3 d-flex flex-items-center">
					<a class="gs-brand d-flex flex-items-center mr-3" href="/" aria-label="Gitstead home">
						<Octicon name="mark-github" class="mr-2" />
						<span>Gitstead</span>
					</a>
					<search class="flex-auto mr-3">
						<form method="get" action="/search">
							<label class="gs-sr-only" for="header-search">
								Search
							</label>
							<input
								id="header-search"
								class="form-control input-sm width-full"
								type="search"
								name="q"
								value={q}
								placeholder="Search or jump to…"
							/>
						</form>
					</search>
					{ctx.user && (
						<nav class="d-flex flex-items-center mr-3" aria-label="Global">
							<a class="gs-nav mr-3" href="/pulls">
								Pull requests
							</a>
							<a class="gs-nav mr-3" href="/issues">
								Issues
							</a>
							<a class="gs-nav mr-3" href="/explore">
								Explore
							</a>
							<a class="gs-nav" href="/notifications" aria-label="Notifications">
								<Octicon name="bell" />
							</a>
						</nav>
					)}
					<UserMenu ctx={ctx} />
				</header>
				<main id="main" class={`gs-main ${wide ? 'container-xl' : 'container-lg'} px-3 px-md-4 py-4`}>
					{children}
				</main>
				<footer class="container-xl px-3 px-md-4 py-4 border-top color-fg-muted f6">
					Gitstead · <a href="/api/v3">REST API</a> · <a href="/openapi.json">OpenAPI</a>
				</footer>
			</body>
		</html>
	);
}

/** "3 days ago"-style time, with the exact time in the title. @param iso ISO timestamp */
export function RelativeTime({ iso, now }: { iso: string | null; now: number }) {
	if (!iso) return null;
	const at = Date.parse(iso);
	return (
		<time dateTime={iso} title={iso.replace('T', ' ').replace('Z', ' UTC')}>
			{ago(now - at, at)}
		</time>
	);
}

/** Words for a past interval (ms): "just now", "5 minutes ago", "on Mar 4, 2025". */
export function ago(ms: number, at: number): string {
	const s = Math.max(0, Math.round(ms / 1000));
	if (s < 45) return 'just now';
	const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'} ago`;
	if (s < 3600) return plural(Math.max(1, Math.round(s / 60)), 'minute');
	if (s < 86400) return plural(Math.round(s / 3600), 'hour');
	if (s < 30 * 86400) return plural(Math.round(s / 86400), 'day');
	const date = new Date(at);
	return `on ${date.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' })}`;
}

/** A blank-slate box: an icon, a heading and a sentence. */
export function Blankslate({
	icon,
	title,
	children,
}: {
	icon: Parameters<typeof Octicon>[0]['name'];
	title: string;
	children?: ComponentChildren;
}) {
	return (
		<div class="blankslate">
			<Octicon name={icon} class="blankslate-icon" />
			<h3 class="blankslate-heading">{title}</h3>
			{children && <p>{children}</p>}
		</div>
	);
}

/** Previous / next page links keeping the other query parameters. */
export function Pagination({ ctx, page, hasNext }: { ctx: WebContext; page: number; hasNext: boolean }) {
	if (page <= 1 && !hasNext) return null;
	const link = (n: number) => {
		const query = new URLSearchParams(ctx.query);
		query.set('page', String(n));
		return `${ctx.path}?${query}`;
	};
	return (
		<nav class="paginate-container" aria-label="Pagination">
			<div class="pagination">
				{page > 1 ? (
					<a class="previous_page" rel="prev" href={link(page - 1)}>
						Previous
					</a>
				) : (
					<span class="previous_page" aria-disabled="true">
						Previous
					</span>
				)}
				{hasNext ? (
					<a class="next_page" rel="next" href={link(page + 1)}>
						Next
					</a>
				) : (
					<span class="next_page" aria-disabled="true">
						Next
					</span>
				)}
			</div>
		</nav>
	);
}

/** Sanitized HTML produced by the Markdown renderer (src/model/markdown/render.ts), never raw user input. */
export function Markdown({ html }: { html: string | null }) {
	if (!html) return <p class="color-fg-muted">No description provided.</p>;
	return <div class="markdown-body gs-markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}

/** The page number of `?page=` (1 when absent or malformed; at most 1000). */
export function pageNumber(ctx: WebContext): number {
	const n = Number(ctx.query.get('page') ?? '1');
	return Number.isInteger(n) && n >= 1 && n <= 1000 ? n : 1;
}
