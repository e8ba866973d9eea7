/**
 * Users: GET /user, GET /users/{username} (GitHub's users API; not in the permission matrix, so no
 * fine-grained permission is needed, as on GitHub), and PATCH /user (the Profile user permission,
 * or a classic token with the user scope).
 */
import * as v from 'valibot';
import { ok } from '../../http/reply';
import { route } from '../../http/route';
import { isoSeconds } from '../../time';
import { AUTHENTICATED_USER, USER_READ } from './access';
import { privateUser } from './render';
import { publicProfile, updateProfile } from './service';

const text = v.optional(v.nullable(v.string()));
const profileBody = v.object({
	name: text,
	email: text,
	blog: text,
	twitter_username: text,
	company: text,
	location: text,
	bio: text,
	/** Accepted as GitHub does; Gitstead keeps no hireable flag (answers null). */
	hireable: v.optional(v.nullable(v.boolean())),
});

export const userRoutes = [
	route({
		...AUTHENTICATED_USER,
		handler(ctx) {
			const account = ctx.app.stores.accounts.byId(ctx.principal.user!.id)!;
			return ok(privateUser(ctx.app.urls, account, ctx.app.stores.accounts.counts(account.id)));
		},
	}),
	route({
		method: 'PATCH',
		path: '/user',
		docs: 'users/users#update-the-authenticated-user',
		permissions: [{ profile: 'write' }],
		scopes: ['user'],
		access: 'authenticated',
		resource: { self: true },
		errorResource: 'User',
		body: profileBody,
		handler(ctx) {
			const account = ctx.app.stores.accounts.byId(ctx.principal.user!.id)!;
			const { hireable: _hireable, ...input } = ctx.body;
			const updated = updateProfile(ctx.app, account, input, isoSeconds(ctx.now));
			return ok(privateUser(ctx.app.urls, updated, ctx.app.stores.accounts.counts(updated.id)));
		},
	}),
	route({
		method: 'GET',
		path: '/users/{username}',
		docs: 'users/users#get-a-user',
		...USER_READ,
		handler: (ctx) => ok(publicProfile(ctx.app, ctx.params.username)),
	}),
];
