/**
 * Users: GET /user, GET /users/{username} (GitHub's users API; not in the permission matrix, so no
 * fine-grained permission is needed, as on GitHub).
 */
import { notFound } from '../../model/errors';
import { ok } from '../../http/reply';
import { route } from '../../http/route';
import { privateUser, publicUser } from './render';

export const userRoutes = [
	route({
		method: 'GET',
		path: '/user',
		docs: 'users/users#get-the-authenticated-user',
		permissions: [],
		access: 'authenticated',
		resource: { self: true },
		handler(ctx) {
			const account = ctx.app.stores.accounts.byId(ctx.principal.user!.id)!;
			return ok(privateUser(ctx.app.urls, account, ctx.app.stores.accounts.counts(account.id)));
		},
	}),
	route({
		method: 'GET',
		path: '/users/{username}',
		docs: 'users/users#get-a-user',
		permissions: [],
		access: 'public',
		resource: 'none',
		handler(ctx) {
			const account = ctx.app.stores.accounts.byLogin(ctx.params.username);
			if (!account) throw notFound();
			return ok(publicUser(ctx.app.urls, account, ctx.app.stores.accounts.counts(account.id)));
		},
	}),
];
