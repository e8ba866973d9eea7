/**
 * Signing in and out: GET/POST /login (GitHub's form: "Username or email address", "Password",
 * "Sign in"), GET/POST /logout. Attempts are throttled per account and per client address.
 */
import { hashPassword, sessionStore, verifyPassword } from '../../auth/sessions';
import type { AccountRow } from '../../model/rows';
import { Csrf, Layout, SignOut } from '../components/layout';
import { cookie, LOGIN_CSRF_COOKIE, Redirect, SESSION_COOKIE, type WebContext } from '../context';
import { field } from '../forms';
import { Octicon } from '../octicons';
import type { PageRoute } from '../page';
import { signInFailed, signInSucceeded, signInWait } from '../throttle';
import { FormGroup } from '../components/form';

/** A local path to go back to after signing in ('/' for anything else: no open redirect). */
export function returnTo(value: string | null | undefined): string {
	if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\') || /[\r\n]/.test(value)) return '/';
	return value.slice(0, 2000);
}

function LoginPage({ ctx, error, login }: { ctx: WebContext; error?: string; login?: string }) {
	const back = returnTo(ctx.form?.get('return_to') ?? ctx.query.get('return_to'));
	return (
		<Layout ctx={ctx} title="Sign in to Gitstead · Gitstead">
			<div class="mx-auto col-12 col-sm-8 col-md-6 col-lg-4">
				<div class="text-center mb-3">
					<Octicon name="mark-github" class="mb-2" />
					<h1 class="f2 text-normal">Sign in to Gitstead</h1>
				</div>
				{error && (
					<div class="flash flash-error mb-3" role="alert">
						{error}
					</div>
				)}
				<div class="Box p-3 color-bg-subtle">
					<form method="post" action="/login">
						<Csrf ctx={ctx} />
						<input type="hidden" name="return_to" value={back} />
						<FormGroup id="login_field" label="Username or email address">
							<input
								id="login_field"
								class="form-control input-block"
								type="text"
								name="login"
								value={login ?? ''}
								autocomplete="username"
								autocapitalize="off"
								required
							/>
						</FormGroup>
						<FormGroup id="password" label="Password">
							<input
								id="password"
								class="form-control input-block"
								type="password"
								name="password"
								autocomplete="current-password"
								required
							/>
						</FormGroup>
						<button type="submit" class="btn btn-primary btn-block">
							Sign in
						</button>
					</form>
				</div>
				<p class="mt-3 f6 color-fg-muted text-center">
					An administrator sets passwords with <code>gitstead admin set-password LOGIN</code>.
				</p>
			</div>
		</Layout>
	);
}

/** A hash to compare against when the account does not exist, so both cost the same time. */
let decoy: Promise<string> | undefined;

async function signIn(ctx: WebContext) {
	const login = field(ctx, 'login', 256);
	const password = (ctx.form?.get('password') ?? '').slice(0, 1024);
	const { app } = ctx;
	const refuse = (error: string, status = 422) => ({ vnode: <LoginPage ctx={ctx} error={error} login={login} />, status });
	const wait = signInWait(app, login, ctx.ip, ctx.now);
	if (wait > 0) {
		return {
			...refuse(`Too many sign-in attempts. Try again in ${Math.ceil(wait / 60)} minute${wait > 60 ? 's' : ''}.`, 429),
			headers: { 'Retry-After': String(wait) },
		};
	}
	if (!login || !password) return refuse('Incorrect username or password.');
	const user: AccountRow | undefined = login.includes('@') ? app.stores.branches.userByEmail(login) : app.stores.accounts.user(login);
	const store = sessionStore(app);
	const stored = user ? store.passwordHash(user.id) : undefined;
	decoy ??= hashPassword('gitstead-decoy-password');
	const ok = await verifyPassword(password, stored ?? (await decoy));
	if (!user || !stored || !ok) {
		signInFailed(app, login, ctx.ip, ctx.now);
		return refuse('Incorrect username or password.');
	}
	if (store.suspendedAt(user.id)) return refuse('Your account is suspended. Contact your site administrator.', 403);
	signInSucceeded(app, login);
	const { secret } = app.transaction(() =>
		store.create({
			userId: user.id,
			now: Math.floor(ctx.now / 1000),
			ip: ctx.ip,
			userAgent: typeof ctx.req.headers['user-agent'] === 'string' ? ctx.req.headers['user-agent'] : null,
		}),
	);
	ctx.cookies = [
		cookie(SESSION_COOKIE, secret, { secure: ctx.secure }),
		cookie(LOGIN_CSRF_COOKIE, '', { secure: ctx.secure, maxAge: 0 }),
	];
	throw new Redirect(returnTo(ctx.form?.get('return_to')), 303);
}

function LogoutPage({ ctx }: { ctx: WebContext }) {
	return (
		<Layout ctx={ctx} title="Sign out · Gitstead">
			<div class="mx-auto col-12 col-md-6 text-center">
				<h1 class="f2 text-normal mb-3">Sign out from Gitstead</h1>
				<SignOut ctx={ctx} button="btn btn-primary" />
			</div>
		</Layout>
	);
}

export const sessionPages: PageRoute[] = [
	{
		method: 'GET',
		path: '/login',
		handler(ctx) {
			if (ctx.user) throw new Redirect(returnTo(ctx.query.get('return_to')));
			return <LoginPage ctx={ctx} />;
		},
	},
	{ method: 'POST', path: '/login', handler: signIn },
	{ method: 'POST', path: '/session', handler: signIn },
	{
		method: 'GET',
		path: '/logout',
		handler(ctx) {
			if (!ctx.user) throw new Redirect('/');
			return <LogoutPage ctx={ctx} />;
		},
	},
	{
		method: 'POST',
		path: '/logout',
		handler(ctx) {
			const secret = ctx.req.headers.cookie ? /(?:^|;\s*)gitstead_session=([^;]*)/.exec(ctx.req.headers.cookie)?.[1] : undefined;
			if (secret) ctx.app.transaction(() => sessionStore(ctx.app).end(secret));
			ctx.cookies = [cookie(SESSION_COOKIE, '', { secure: ctx.secure, maxAge: 0 })];
			throw new Redirect('/', 303);
		},
	},
];
