/**
 * The signed-in user's settings: public profile (the form of PATCH /user), personal access tokens (list, create classic and
 * fine-grained — the secret shown once —, revoke), browser sessions (list, revoke); notifications
 * (mark one thread read or done, or all read).
 */
import type { ComponentChildren } from 'preact';
import { sessionStore } from '../../auth/sessions';
import { ALL_TOP_LEVEL_SCOPES, normalizeScopes } from '../../auth/scopes';
import { parsePermissions } from '../../auth/permissions';
import { invitationThreads, MARKING_IN_BACKGROUND, markThreads, readableRepositories, userThread } from '../../api/notifications/service';
import { isoSeconds } from '../../time';
import { PROFILE_LIMITS, updateProfile } from '../../api/users/service';
import { DomainError } from '../../model/errors';
import { requireUser } from '../access';
import { Blankslate, Csrf, DangerButton, Layout, RelativeTime } from '../components/layout';
import { NotFound, Redirect, type WebContext, pathId } from '../context';
import { field } from '../forms';
import { Octicon } from '../octicons';
import type { PageRoute } from '../page';
import { Flash, FormGroup } from '../components/form';

const iso = (seconds: number | null) => (seconds === null ? null : isoSeconds(seconds * 1000));

function SettingsNav({ current }: { current: string }) {
	const item = (href: string, label: string) => (
		<a class="menu-item" href={href} aria-current={current === href ? 'page' : undefined}>
			{label}
		</a>
	);
	return (
		<nav class="menu" aria-label="Settings">
			{item('/settings/profile', 'Public profile')}
			{item('/settings/tokens', 'Personal access tokens')}
			{item('/settings/sessions', 'Sessions')}
		</nav>
	);
}

function SettingsLayout({
	ctx,
	current,
	title,
	children,
}: {
	ctx: WebContext;
	current: string;
	title: string;
	children: ComponentChildren;
}) {
	return (
		<Layout ctx={ctx} title={`${title} · Gitstead`}>
			<div class="d-flex flex-wrap gutter-md">
				<div class="col-12 col-md-3">
					<SettingsNav current={current} />
				</div>
				<div class="col-12 col-md-9">
					<h1 class="f2 text-normal border-bottom pb-2 mb-3">{title}</h1>
					{children}
				</div>
			</div>
		</Layout>
	);
}

function ProfileField({
	id,
	name,
	label,
	value,
	max,
	type = 'text',
}: {
	id: string;
	name: string;
	label: string;
	value: string;
	max: number;
	type?: 'text' | 'url';
}) {
	return (
		<FormGroup id={id} label={label}>
			<input id={id} class="form-control width-full" type={type} name={name} value={value} maxLength={max} />
		</FormGroup>
	);
}

/** GET /settings/profile: the public profile form (PATCH /user's service). */
function profile(ctx: WebContext, error?: string) {
	const user = requireUser(ctx);
	// A refused form shows what was sent.
	const sent = error ? ctx.form : null;
	const value = (name: string, stored: string | null) => (sent ? (sent.get(name) ?? '') : (stored ?? ''));
	/** A one-line text field of the profile, at most its column's limit. */
	const text = (
		id: string,
		name: 'name' | 'blog' | 'twitter_username' | 'company' | 'location',
		label: string,
		max: number = PROFILE_LIMITS[name],
	) => <ProfileField id={id} name={name} label={label} value={value(name, user[name])} max={max} />;
	const publicEmail = sent ? (sent.get('email') ?? '') : user.email_public === 1 ? (user.email ?? '') : '';
	const vnode = (
		<SettingsLayout ctx={ctx} current="/settings/profile" title="Public profile">
			<Flash error={error} notice={ctx.query.get('saved') === '1' ? 'Profile updated successfully.' : null} />
			<form method="post" action="/settings/profile">
				<Csrf ctx={ctx} />
				{text('user-name', 'name', 'Name')}
				<FormGroup id="user-email" label="Public email">
					<select id="user-email" class="form-select" name="email">
						<option value="" selected={publicEmail === ''}>
							Don’t show my email address
						</option>
						{user.email && (
							<option value={user.email} selected={publicEmail !== ''}>
								{user.email}
							</option>
						)}
					</select>
					<p class="note">Your email address is shown on your profile and in the API only when you choose it here.</p>
				</FormGroup>
				<FormGroup id="user-bio" label="Bio">
					<textarea id="user-bio" class="form-control width-full" name="bio" rows={3} maxLength={PROFILE_LIMITS.bio}>
						{value('bio', user.bio)}
					</textarea>
					<p class="note">At most {PROFILE_LIMITS.bio} characters.</p>
				</FormGroup>
				{text('user-blog', 'blog', 'URL')}
				{/* One more than the limit: a leading @ is accepted and dropped. */}
				{text('user-twitter', 'twitter_username', 'Twitter username', PROFILE_LIMITS.twitter_username + 1)}
				{text('user-company', 'company', 'Company')}
				{text('user-location', 'location', 'Location')}
				<button type="submit" class="btn btn-primary">
					Update profile
				</button>
			</form>
		</SettingsLayout>
	);
	return error ? { status: 422, vnode } : vnode;
}

/** POST /settings/profile: the profile through the users service (as PATCH /user). */
function saveProfile(ctx: WebContext) {
	const user = requireUser(ctx);
	const get = (name: string) => (ctx.form?.get(name) ?? '').slice(0, 1000);
	try {
		updateProfile(
			ctx.app,
			user,
			{
				name: get('name'),
				email: get('email'),
				bio: get('bio'),
				blog: get('blog'),
				twitter_username: get('twitter_username'),
				company: get('company'),
				location: get('location'),
			},
			isoSeconds(ctx.now),
		);
	} catch (error) {
		if (error instanceof DomainError && error.status === 422)
			return profile(ctx, error.errors?.find((item) => item.message)?.message ?? error.message);
		throw error;
	}
	throw new Redirect('/settings/profile?saved=1', 303);
}

function tokens(ctx: WebContext, created?: { token: string; note: string }, error?: string) {
	const user = requireUser(ctx);
	const now = Math.floor(ctx.now / 1000);
	const rows = ctx.app.tokens.list(user.id).filter((t) => (t.kind === 'classic' || t.kind === 'fine-grained') && t.revoked_at === null);
	return (
		<SettingsLayout ctx={ctx} current="/settings/tokens" title="Personal access tokens">
			{created && (
				<output class="flash flash-success mb-3 d-block">
					<p>Make sure to copy your personal access token now. You won’t be able to see it again!</p>
					<div class="d-flex flex-items-center">
						<code class="gs-token flex-auto" id="new-token">
							{created.token}
						</code>
						<button type="button" class="btn btn-sm ml-2" data-copy={created.token} aria-label="Copy the token">
							<Octicon name="copy" />
						</button>
					</div>
				</output>
			)}
			{error && (
				<div class="flash flash-error mb-3" role="alert">
					{error}
				</div>
			)}
			<div class="Box mb-4">
				{rows.map((token) => (
					<div class="Box-row d-flex flex-items-center" key={token.id}>
						<div class="flex-auto">
							<strong>{token.note || '(no note)'}</strong>{' '}
							<span class="Label">{token.kind === 'classic' ? 'classic' : 'fine-grained'}</span>
							<div class="f6 color-fg-muted">
								…{token.token_last_eight} ·{' '}
								{token.kind === 'classic'
									? token.scopes || 'no scopes'
									: Object.keys(JSON.parse(token.permissions)).join(', ') || 'public read'}{' '}
								·{' '}
								{token.expires_at === null
									? 'never expires'
									: token.expires_at <= now
										? 'expired'
										: `expires ${iso(token.expires_at)?.slice(0, 10)}`}
								{token.last_used_at !== null && (
									<span>
										{' '}
										· last used <RelativeTime iso={iso(token.last_used_at)} now={ctx.now} />
									</span>
								)}
							</div>
						</div>
						<DangerButton ctx={ctx} action={`/settings/tokens/${token.id}/delete`}>
							Delete
						</DangerButton>
					</div>
				))}
				{rows.length === 0 && <div class="Box-row color-fg-muted">You have no personal access tokens.</div>}
			</div>
			<h2 class="f3 text-normal mb-2">Generate a new token</h2>
			<form method="post" action="/settings/tokens" class="Box p-3">
				<Csrf ctx={ctx} />
				<FormGroup id="token-note" label="Note">
					<input id="token-note" class="form-control" type="text" name="note" maxLength={100} required />
				</FormGroup>
				<FormGroup id="token-kind" label="Kind">
					<select id="token-kind" class="form-select" name="kind">
						<option value="classic">Classic (scopes)</option>
						<option value="fine-grained">Fine-grained (permissions on your own account)</option>
					</select>
				</FormGroup>
				<FormGroup id="token-expiration" label="Expiration (days, empty for never)">
					<input id="token-expiration" class="form-control" type="number" name="expires_in" min={1} max={3650} value="30" />
				</FormGroup>
				<fieldset class="form-group">
					<legend class="text-bold mb-2">Scopes (classic tokens)</legend>
					{ALL_TOP_LEVEL_SCOPES.map((scope) => (
						<label key={scope} class="d-inline-block mr-3 mb-1 f6">
							<input type="checkbox" name="scopes" value={scope} /> {scope}
						</label>
					))}
				</fieldset>
				<FormGroup id="token-permissions" label="Permissions (fine-grained tokens: key:level,…, e.g. contents:read,issues:write)">
					<input id="token-permissions" class="form-control" type="text" name="permissions" maxLength={2000} />
				</FormGroup>
				<button type="submit" class="btn btn-primary">
					Generate token
				</button>
			</form>
		</SettingsLayout>
	);
}

function createToken(ctx: WebContext) {
	const user = requireUser(ctx);
	const note = field(ctx, 'note', 100);
	const kind = field(ctx, 'kind') === 'fine-grained' ? 'fine-grained' : 'classic';
	const days = field(ctx, 'expires_in');
	if (!note) return { vnode: tokens(ctx, undefined, 'A note is required.'), status: 422 };
	if (days !== '' && !(/^\d+$/.test(days) && Number(days) >= 1 && Number(days) <= 3650))
		return { vnode: tokens(ctx, undefined, 'Expiration must be a number of days from 1 to 3650.'), status: 422 };
	let scopes: string[] = [];
	let permissions = {};
	try {
		if (kind === 'classic') scopes = normalizeScopes(ctx.form?.getAll('scopes').slice(0, 50) ?? []);
		else if (field(ctx, 'permissions', 2000)) permissions = parsePermissions(field(ctx, 'permissions', 2000));
	} catch (error) {
		return { vnode: tokens(ctx, undefined, (error as Error).message), status: 422 };
	}
	const now = Math.floor(ctx.now / 1000);
	const { token } = ctx.app.transaction(() =>
		ctx.app.tokens.create({
			kind,
			userId: user.id,
			createdById: user.id,
			scopes,
			permissions,
			resourceOwnerId: kind === 'fine-grained' ? user.id : null,
			note,
			now,
			expiresAt: days === '' ? null : now + Number(days) * 86400,
		}),
	);
	return tokens(ctx, { token, note });
}

function deleteToken(ctx: WebContext): never {
	const user = requireUser(ctx);
	const id = Number(ctx.params.id);
	const row = Number.isInteger(id) ? ctx.app.tokens.get(id) : undefined;
	if (!row || row.user_id !== user.id) throw new NotFound();
	ctx.app.transaction(() => ctx.app.tokens.revoke(id, Math.floor(ctx.now / 1000)));
	ctx.app.authenticator.clear();
	throw new Redirect('/settings/tokens', 303);
}

function sessions(ctx: WebContext) {
	const user = requireUser(ctx);
	const rows = sessionStore(ctx.app).list(user.id, Math.floor(ctx.now / 1000));
	return (
		<SettingsLayout ctx={ctx} current="/settings/sessions" title="Sessions">
			<p class="mb-3 color-fg-muted">Browsers signed in to your account. Revoke any you do not recognize.</p>
			<div class="Box">
				{rows.map((session) => (
					<div class="Box-row d-flex flex-items-center" key={session.id}>
						<div class="flex-auto">
							<strong>{session.ip ?? 'unknown address'}</strong>
							{session.id === ctx.session?.id && <span class="Label Label--success ml-2">This browser</span>}
							<div class="f6 color-fg-muted">
								{session.user_agent ?? 'unknown browser'} · signed in{' '}
								<RelativeTime iso={iso(session.created_at)} now={ctx.now} /> · last seen{' '}
								<RelativeTime iso={iso(session.last_seen_at)} now={ctx.now} />
							</div>
						</div>
						<DangerButton ctx={ctx} action={`/settings/sessions/${session.id}/revoke`}>
							Revoke
						</DangerButton>
					</div>
				))}
			</div>
		</SettingsLayout>
	);
}

function revokeSession(ctx: WebContext): never {
	const user = requireUser(ctx);
	const id = Number(ctx.params.id);
	if (!Number.isInteger(id) || !ctx.app.transaction(() => sessionStore(ctx.app).revoke(user.id, id))) throw new NotFound();
	throw new Redirect(id === ctx.session?.id ? '/login' : '/settings/sessions', 303);
}

function notifications(ctx: WebContext) {
	const user = requireUser(ctx);
	const { app } = ctx;
	const repositories = readableRepositories(app, ctx.principal);
	const invitations = invitationThreads(app, user.id, isoSeconds(ctx.now));
	const all = ctx.query.get('query') === 'is:read' || ctx.query.get('all') === '1';
	const { rows } = app.stores.notifications.list(
		{
			userId: user.id,
			repoIds: [...repositories.keys()],
			invitationIds: invitations.ids,
			all,
			participating: false,
			since: null,
			before: null,
		},
		50,
		0,
	);
	const marked = ctx.query.get('marked');
	const back = all ? '/notifications?all=1' : '/notifications';
	return (
		<Layout ctx={ctx} title="Notifications · Gitstead">
			<div class="d-flex flex-items-center mb-3">
				<h1 class="f2 text-normal flex-auto">Notifications</h1>
				<a class="btn btn-sm mr-2" href={all ? '/notifications' : '/notifications?all=1'}>
					{all ? 'Unread only' : 'Show read too'}
				</a>
				{rows.some((thread) => thread.unread) && (
					<form method="post" action="/notifications/mark_read">
						<Csrf ctx={ctx} />
						<input type="hidden" name="return_to" value={back} />
						<button type="submit" class="btn btn-sm">
							<Octicon name="check" /> Mark all as read
						</button>
					</form>
				)}
			</div>
			{marked === 'queued' && <output class="flash mb-3 d-block">{MARKING_IN_BACKGROUND}</output>}
			{rows.length === 0 ? (
				<Blankslate icon="bell" title="All caught up!">
					No new notifications.
				</Blankslate>
			) : (
				<div class="Box">
					{rows.map((thread) => {
						const repo = repositories.get(thread.repository_id) ?? invitations.repositories.get(thread.repository_id);
						const base = repo ? `/${repo.owner.login}/${repo.repo.name}` : '';
						const href =
							thread.subject_type === 'Issue' || thread.subject_type === 'PullRequest'
								? `${base}/${thread.subject_type === 'Issue' ? 'issues' : 'pull'}/${thread.subject_path?.split('/').pop() ?? ''}`
								: base;
						return (
							<div class="Box-row d-flex flex-items-center" key={thread.id}>
								<Octicon
									name={thread.subject_type === 'PullRequest' ? 'git-pull-request' : 'issue-opened'}
									class="mr-2 color-fg-muted"
								/>
								<div class="flex-auto">
									<span class="f6 color-fg-muted">{repo ? `${repo.owner.login}/${repo.repo.name}` : ''}</span>
									<div>
										<a class={thread.unread ? 'text-bold' : ''} href={href}>
											{thread.subject_title}
										</a>
										{thread.unread ? <span class="gs-sr-only"> (unread)</span> : null}
									</div>
								</div>
								<span class="Label mr-2">{thread.reason}</span>
								<span class="f6 color-fg-muted mr-2">
									<RelativeTime iso={thread.updated_at} now={ctx.now} />
								</span>
								{thread.unread ? (
									<form method="post" action={`/notifications/threads/${thread.id}/read`} class="mr-1">
										<Csrf ctx={ctx} />
										<input type="hidden" name="return_to" value={back} />
										<button type="submit" class="btn btn-sm" aria-label={`Mark “${thread.subject_title}” as read`}>
											<Octicon name="check" /> Read
										</button>
									</form>
								) : null}
								<form method="post" action={`/notifications/threads/${thread.id}/done`}>
									<Csrf ctx={ctx} />
									<input type="hidden" name="return_to" value={back} />
									<button type="submit" class="btn btn-sm" aria-label={`Mark “${thread.subject_title}” as done`}>
										Done
									</button>
								</form>
							</div>
						);
					})}
				</div>
			)}
		</Layout>
	);
}

/** Where a notifications form goes back to: the list it was sent from (unread or all). */
const notificationsBack = (ctx: WebContext) =>
	ctx.form?.get('return_to') === '/notifications?all=1' ? '/notifications?all=1' : '/notifications';

/** POST /notifications/threads/{id}/read and /done: one of the user's threads marked read, or done (and read). */
function markThread(done: boolean) {
	return (ctx: WebContext): never => {
		const user = requireUser(ctx);
		const id = pathId(ctx);
		const now = isoSeconds(ctx.now);
		const found = id === null ? undefined : userThread(ctx.app, user.id, id, now);
		if (!found) throw new NotFound();
		ctx.app.transaction(() =>
			done ? ctx.app.stores.notifications.markDone(found.view.id, now) : ctx.app.stores.notifications.markRead(found.view.id, now),
		);
		throw new Redirect(notificationsBack(ctx), 303);
	};
}

/** POST /notifications/mark_read: every thread read (as PUT /notifications; many go on in the background). */
function markAll(ctx: WebContext): never {
	const user = requireUser(ctx);
	const result = ctx.app.transaction(() =>
		markThreads(ctx.app, { userId: user.id, repoId: null, lastReadAt: isoSeconds(ctx.now), read: true }),
	);
	const back = notificationsBack(ctx);
	throw new Redirect(result === 'queued' ? `${back}${back.includes('?') ? '&' : '?'}marked=queued` : back, 303);
}

export const settingsPages: PageRoute[] = [
	{ method: 'GET', path: '/settings/profile', handler: (ctx) => profile(ctx) },
	{ method: 'POST', path: '/settings/profile', handler: saveProfile },
	{ method: 'GET', path: '/settings/tokens', handler: (ctx) => tokens(ctx) },
	{ method: 'POST', path: '/settings/tokens', handler: createToken },
	{ method: 'POST', path: '/settings/tokens/{id}/delete', handler: deleteToken },
	{ method: 'GET', path: '/settings/sessions', handler: sessions },
	{ method: 'POST', path: '/settings/sessions/{id}/revoke', handler: revokeSession },
	{ method: 'GET', path: '/notifications', handler: notifications },
	{ method: 'POST', path: '/notifications/mark_read', handler: markAll },
	{ method: 'POST', path: '/notifications/threads/{id}/read', handler: markThread(false) },
	{ method: 'POST', path: '/notifications/threads/{id}/done', handler: markThread(true) },
];
