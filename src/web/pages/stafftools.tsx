/**
 * The site admin area, at GitHub Enterprise's `/stafftools` paths, for site administrators only
 * (everyone else gets the 404 page, as for a page that does not exist):
 * - `/stafftools`: counts and links;
 * - `/stafftools/users` and `/stafftools/organizations`: every account, paged;
 * - `/stafftools/users/{login}`: one user (role, suspension, sessions, tokens, organizations) with
 *   the forms to suspend or unsuspend and to grant or take the site-administrator role (the rules
 *   and events of src/api/users/admin.ts, shared with `gitstead admin suspend` and `admin site-admin`);
 * - `/stafftools/hooks` and `/stafftools/hooks/{id}`: the global webhooks and a hook's recent deliveries (read).
 */
import { setSiteAdmin, suspendUser, unsuspendUser } from '../../api/users/admin';
import type { AccountRow } from '../../api/users/store';
import { sessionStore } from '../../auth/sessions';
import { DomainError } from '../../model/errors';
import { requireUser } from '../access';
import { Avatar, Blankslate, Csrf, Layout, Pagination, pageNumber, RelativeTime } from '../components/layout';
import { NotFound, Redirect, type WebContext, pathId } from '../context';
import { field } from '../forms';
import { Octicon } from '../octicons';
import type { PageRoute } from '../page';
import { FormGroup } from '../components/form';

const PER_PAGE = 50;

/** The signed-in site administrator; anyone else gets the 404 page. */
function requireSiteAdmin(ctx: WebContext): AccountRow {
	const user = requireUser(ctx);
	if (user.site_admin !== 1) throw new NotFound();
	return user;
}

function StafftoolsLayout({ ctx, title, current, children }: { ctx: WebContext; title: string; current: string; children: unknown }) {
	const item = (href: string, label: string) => (
		<a class="menu-item" href={href} aria-current={current === href ? 'page' : undefined}>
			{label}
		</a>
	);
	return (
		<Layout ctx={ctx} title={`${title} · Site admin · Gitstead`}>
			<div class="d-flex flex-wrap gutter-md">
				<div class="col-12 col-md-3">
					<nav class="menu" aria-label="Site admin">
						{item('/stafftools', 'Overview')}
						{item('/stafftools/users', 'Users')}
						{item('/stafftools/organizations', 'Organizations')}
						{item('/stafftools/hooks', 'Global webhooks')}
					</nav>
				</div>
				<div class="col-12 col-md-9">
					<h1 class="f2 text-normal border-bottom pb-2 mb-3">{title}</h1>
					{children as never}
				</div>
			</div>
		</Layout>
	);
}

function overview(ctx: WebContext) {
	requireSiteAdmin(ctx);
	const { accounts, webhooks } = ctx.app.stores;
	const users = accounts.page('User', 0, 0).total;
	const orgs = accounts.page('Organization', 0, 0).total;
	const hooks = webhooks.page({ kind: 'global' }, 0, 0).total;
	const tile = (href: string, icon: 'person' | 'organization' | 'link', count: number, label: string) => (
		<a class="Box p-3 mr-3 mb-3 d-inline-block" href={href}>
			<Octicon name={icon} class="mr-2" />
			<strong>{count}</strong> {label}
		</a>
	);
	return (
		<StafftoolsLayout ctx={ctx} title="Site admin" current="/stafftools">
			<p class="mb-3 color-fg-muted">Accounts and site-wide settings of this Gitstead.</p>
			{tile('/stafftools/users', 'person', users, users === 1 ? 'user' : 'users')}
			{tile('/stafftools/organizations', 'organization', orgs, orgs === 1 ? 'organization' : 'organizations')}
			{tile('/stafftools/hooks', 'link', hooks, hooks === 1 ? 'global webhook' : 'global webhooks')}
		</StafftoolsLayout>
	);
}

function users(ctx: WebContext) {
	requireSiteAdmin(ctx);
	const page = pageNumber(ctx);
	const { rows, total } = ctx.app.stores.accounts.page('User', PER_PAGE, (page - 1) * PER_PAGE);
	const store = sessionStore(ctx.app);
	const ids = rows.map((row) => row.id);
	const suspended = store.suspendedAmong(ids);
	const withPassword = store.withPasswordAmong(ids);
	return (
		<StafftoolsLayout ctx={ctx} title="Users" current="/stafftools/users">
			<div class="Box">
				{rows.map((account) => (
					<div class="Box-row d-flex flex-items-center" key={account.id}>
						<Avatar id={account.id} login={account.login} />
						<a class="ml-2 flex-auto" href={`/stafftools/users/${account.login}`}>
							{account.login}
							{account.name && <span class="color-fg-muted ml-2">{account.name}</span>}
						</a>
						{account.site_admin === 1 && <span class="Label Label--accent mr-2">Site admin</span>}
						{suspended.has(account.id) && <span class="Label Label--danger mr-2">Suspended</span>}
						{!withPassword.has(account.id) && <span class="Label Label--secondary">No password</span>}
					</div>
				))}
			</div>
			<Pagination ctx={ctx} page={page} hasNext={page * PER_PAGE < total} />
		</StafftoolsLayout>
	);
}

function organizations(ctx: WebContext) {
	requireSiteAdmin(ctx);
	const page = pageNumber(ctx);
	const { accounts, memberships } = ctx.app.stores;
	const { rows, total } = accounts.page('Organization', PER_PAGE, (page - 1) * PER_PAGE);
	return (
		<StafftoolsLayout ctx={ctx} title="Organizations" current="/stafftools/organizations">
			<div class="Box">
				{rows.map((org) => {
					const counts = accounts.counts(org.id);
					const members = memberships.members({ orgId: org.id, role: 'all', publicOnly: false, limit: 0, offset: 0 }).total;
					return (
						<div class="Box-row d-flex flex-items-center" key={org.id}>
							<Avatar id={org.id} login={org.login} />
							<a class="ml-2 flex-auto" href={`/${org.login}`}>
								{org.login}
								{org.name && <span class="color-fg-muted ml-2">{org.name}</span>}
							</a>
							<span class="f6 color-fg-muted">
								{members} member{members === 1 ? '' : 's'} · {counts.public_repos + counts.private_repos} repositor
								{counts.public_repos + counts.private_repos === 1 ? 'y' : 'ies'}
							</span>
						</div>
					);
				})}
				{rows.length === 0 && <div class="Box-row color-fg-muted">No organizations yet.</div>}
			</div>
			<Pagination ctx={ctx} page={page} hasNext={page * PER_PAGE < total} />
		</StafftoolsLayout>
	);
}

/** The user of the path's {login} (organizations and bots have no user page here). */
function userNamed(ctx: WebContext): AccountRow {
	const login = ctx.params.login;
	const user = /^[A-Za-z0-9-]{1,39}$/.test(login) ? ctx.app.stores.accounts.user(login) : undefined;
	if (!user) throw new NotFound();
	return user;
}

function userPage(ctx: WebContext, error?: string) {
	const admin = requireSiteAdmin(ctx);
	const user = userNamed(ctx);
	const { app } = ctx;
	const store = sessionStore(app);
	const suspension = store.suspension(user.id);
	const counts = app.stores.accounts.counts(user.id);
	const sessions = store.sessionCount(user.id, Math.floor(ctx.now / 1000));
	const tokens = app.tokens.list(user.id).filter((t) => t.revoked_at === null).length;
	const orgIds = app.stores.memberships.forUser({ userId: user.id, state: 'active', limit: 100, offset: 0 }).rows.map((m) => m.org_id);
	const orgs = app.stores.accounts.mapByIds(orgIds);
	const action = (path: string, label: string, danger: boolean, extra?: unknown) => (
		<form method="post" action={`/stafftools/users/${user.login}/${path}`} class="mb-3">
			<Csrf ctx={ctx} />
			{extra as never}
			<button type="submit" class={`btn ${danger ? 'btn-danger' : ''}`}>
				{label}
			</button>
		</form>
	);
	return {
		status: error ? 422 : 200,
		vnode: (
			<StafftoolsLayout ctx={ctx} title={user.login} current="/stafftools/users">
				{error && (
					<div class="flash flash-error mb-3" role="alert">
						{error}
					</div>
				)}
				<div class="d-flex flex-items-center mb-3">
					<Avatar id={user.id} login={user.login} size={48} />
					<div class="ml-3">
						<a class="f3" href={`/${user.login}`}>
							{user.login}
						</a>
						{user.name && <div class="color-fg-muted">{user.name}</div>}
					</div>
				</div>
				<dl class="mb-4">
					<dt class="text-bold">Email</dt>
					<dd class="mb-2">{user.email ?? 'none'}</dd>
					<dt class="text-bold">Created</dt>
					<dd class="mb-2">
						<RelativeTime iso={user.created_at} now={ctx.now} />
					</dd>
					<dt class="text-bold">Role</dt>
					<dd class="mb-2">{user.site_admin === 1 ? 'Site administrator' : 'User'}</dd>
					<dt class="text-bold">Status</dt>
					<dd class="mb-2">
						{suspension ? (
							<span>
								<span class="Label Label--danger mr-2">Suspended</span>
								<RelativeTime iso={suspension.suspended_at} now={ctx.now} />
								{suspension.reason && <span> — {suspension.reason}</span>}
							</span>
						) : (
							'Active'
						)}
					</dd>
					<dt class="text-bold">Web interface</dt>
					<dd class="mb-2">
						{store.passwordHash(user.id) ? 'Password set' : 'No password (set one with gitstead admin set-password)'} ·{' '}
						{sessions} signed-in session{sessions === 1 ? '' : 's'}
					</dd>
					<dt class="text-bold">Tokens</dt>
					<dd class="mb-2">{tokens} active</dd>
					<dt class="text-bold">Repositories</dt>
					<dd class="mb-2">
						{counts.public_repos} public, {counts.private_repos} private
					</dd>
					<dt class="text-bold">Organizations</dt>
					<dd class="mb-2">
						{orgIds.length === 0
							? 'none'
							: orgIds.map((id, i) => (
									<span key={id}>
										{i > 0 && ', '}
										<a href={`/${orgs.get(id)?.login}`}>{orgs.get(id)?.login}</a>
									</span>
								))}
					</dd>
				</dl>
				<h2 class="f3 text-normal border-bottom pb-2 mb-3">Administrative actions</h2>
				{user.id === admin.id ? (
					<p class="color-fg-muted">You cannot suspend yourself or change your own role here.</p>
				) : (
					<div>
						{user.site_admin === 1
							? action('demote', 'Remove site administrator role', true)
							: !suspension && action('promote', 'Make site administrator', false)}
						{suspension
							? action('unsuspend', 'Unsuspend', false)
							: user.site_admin !== 1 &&
								action(
									'suspend',
									'Suspend',
									true,
									<FormGroup id="suspend-reason" label="Reason (kept with the suspension)">
										<input id="suspend-reason" class="form-control" type="text" name="reason" maxLength={1000} />
									</FormGroup>,
								)}
					</div>
				)}
			</StafftoolsLayout>
		),
	};
}

/** POST /stafftools/users/{login}/{suspend,unsuspend,promote,demote}. */
function change(kind: 'suspend' | 'unsuspend' | 'promote' | 'demote') {
	return (ctx: WebContext) => {
		const admin = requireSiteAdmin(ctx);
		const user = userNamed(ctx);
		if (user.id === admin.id) return userPage(ctx, 'You cannot suspend yourself or change your own role.');
		try {
			if (kind === 'suspend') suspendUser(ctx.app, user, field(ctx, 'reason', 1000) || null, admin.id);
			else if (kind === 'unsuspend') unsuspendUser(ctx.app, user, admin.id);
			else setSiteAdmin(ctx.app, user, kind === 'promote', admin.id);
		} catch (error) {
			if (error instanceof DomainError && error.status === 422) return userPage(ctx, error.message);
			throw error;
		}
		throw new Redirect(`/stafftools/users/${user.login}`, 303);
	};
}

function hooks(ctx: WebContext) {
	requireSiteAdmin(ctx);
	const page = pageNumber(ctx);
	const { rows, total } = ctx.app.stores.webhooks.page({ kind: 'global' }, PER_PAGE, (page - 1) * PER_PAGE);
	return (
		<StafftoolsLayout ctx={ctx} title="Global webhooks" current="/stafftools/hooks">
			<p class="mb-3 color-fg-muted">
				Hooks that receive events from the whole site. Create and change them with the REST API (<code>POST /admin/hooks</code>, a
				classic token with the site_admin scope).
			</p>
			{rows.length === 0 ? (
				<Blankslate icon="link" title="No global webhooks" />
			) : (
				<div class="Box">
					{rows.map((hook) => (
						<div class="Box-row d-flex flex-items-center" key={hook.id}>
							<Octicon
								name={
									hook.last_response_status === 'active'
										? 'check-circle-fill'
										: hook.last_response_status === 'unused'
											? 'dot'
											: 'alert'
								}
								class={
									hook.last_response_status === 'active'
										? 'color-fg-success mr-2'
										: hook.last_response_status === 'unused'
											? 'color-fg-muted mr-2'
											: 'color-fg-danger mr-2'
								}
							/>
							<div class="flex-auto min-width-0">
								<a class="text-bold gs-mono" href={`/stafftools/hooks/${hook.id}`}>
									{hook.url}
								</a>
								<div class="f6 color-fg-muted">
									{(JSON.parse(hook.events) as string[]).join(', ')} · {hook.content_type}
									{hook.last_response_code !== null && ` · last answer ${hook.last_response_code}`}
								</div>
							</div>
							{hook.active !== 1 && <span class="Label">Inactive</span>}
						</div>
					))}
				</div>
			)}
			<Pagination ctx={ctx} page={page} hasNext={page * PER_PAGE < total} />
		</StafftoolsLayout>
	);
}

function hook(ctx: WebContext) {
	requireSiteAdmin(ctx);
	const id = pathId(ctx);
	const row = id === null ? undefined : ctx.app.stores.webhooks.getInScope({ kind: 'global' }, id);
	if (!row) throw new NotFound();
	const { rows } = ctx.app.stores.webhooks.deliveries({ hookId: row.id, status: null, limit: 30, offset: 0 });
	return (
		<StafftoolsLayout ctx={ctx} title={`Global webhook ${row.id}`} current="/stafftools/hooks">
			<dl class="mb-4">
				<dt class="text-bold">Payload URL</dt>
				<dd class="mb-2 gs-mono">{row.url}</dd>
				<dt class="text-bold">Content type</dt>
				<dd class="mb-2">{row.content_type}</dd>
				<dt class="text-bold">Events</dt>
				<dd class="mb-2">{(JSON.parse(row.events) as string[]).join(', ')}</dd>
				<dt class="text-bold">Secret</dt>
				<dd class="mb-2">{row.secret ? 'set (not shown)' : 'none'}</dd>
				<dt class="text-bold">SSL verification</dt>
				<dd class="mb-2">{row.insecure_ssl === '1' ? 'disabled' : 'enabled'}</dd>
				<dt class="text-bold">Active</dt>
				<dd class="mb-2">{row.active === 1 ? 'yes' : 'no'}</dd>
			</dl>
			<h2 class="f3 text-normal mb-2">Recent deliveries</h2>
			{rows.length === 0 ? (
				<Blankslate icon="link" title="No deliveries yet" />
			) : (
				<div class="Box">
					{rows.map((delivery) => (
						<div class="Box-row d-flex flex-items-center f6" key={delivery.id}>
							<Octicon
								name={
									delivery.state === 'delivered'
										? 'check-circle-fill'
										: delivery.state === 'queued'
											? 'clock'
											: 'x-circle-fill'
								}
								class={
									delivery.state === 'delivered'
										? 'color-fg-success mr-2'
										: delivery.state === 'queued'
											? 'color-fg-muted mr-2'
											: 'color-fg-danger mr-2'
								}
							/>
							<span class="gs-mono flex-auto">{delivery.guid}</span>
							<span class="mr-3">
								{delivery.event}
								{delivery.action ? `.${delivery.action}` : ''}
							</span>
							<span class="mr-3">{delivery.status_code ?? delivery.state}</span>
							<RelativeTime iso={delivery.delivered_at ?? delivery.created_at} now={ctx.now} />
						</div>
					))}
				</div>
			)}
			<p class="mt-3 f6 color-fg-muted">
				Redeliver one with <code>POST /admin/hooks/{row.id}/deliveries/ID/attempts</code>.
			</p>
		</StafftoolsLayout>
	);
}

export const stafftoolsPages: PageRoute[] = [
	{ method: 'GET', path: '/stafftools', handler: overview },
	{ method: 'GET', path: '/stafftools/users', handler: users },
	{ method: 'GET', path: '/stafftools/users/{login}', handler: (ctx) => userPage(ctx) },
	{ method: 'POST', path: '/stafftools/users/{login}/suspend', handler: change('suspend') },
	{ method: 'POST', path: '/stafftools/users/{login}/unsuspend', handler: change('unsuspend') },
	{ method: 'POST', path: '/stafftools/users/{login}/promote', handler: change('promote') },
	{ method: 'POST', path: '/stafftools/users/{login}/demote', handler: change('demote') },
	{ method: 'GET', path: '/stafftools/organizations', handler: organizations },
	{ method: 'GET', path: '/stafftools/hooks', handler: hooks },
	{ method: 'GET', path: '/stafftools/hooks/{id}', handler: hook },
];
