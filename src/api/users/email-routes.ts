/**
 * The authenticated user's email addresses (GitHub's users/emails operations): list them, list the
 * public ones, add and delete addresses, set the primary address's visibility. GitHub's "Email
 * addresses" user permission for fine-grained and user-to-server tokens (read lists, write
 * changes; installation tokens act for no user), the user:email or user scope for classic and
 * OAuth tokens to read and user to change.
 */
import * as v from 'valibot';
import { created, noContent, ok, paged } from '../../http/reply';
import { route, type Context } from '../../http/route';
import { isoSeconds } from '../../time';
import type { AccountRow } from '../../model/rows';
import { addEmails, deleteEmails, MAX_EMAILS, publicEmails, setPrimaryVisibility, userEmails } from './emails';

/** The acting user (the `self` guard guarantees one). */
const self = (ctx: Pick<Context, 'app' | 'principal'>): AccountRow => ctx.app.stores.accounts.byId(ctx.principal.user!.id)!;

const address = v.pipe(v.string('each email must be a string'), v.maxLength(320, 'email is too long'));
/** GitHub's body: {emails: [...]}, or (as GitHub also takes, route.arrayBody) the array itself or one address. */
const emailsBody = v.object({
	emails: v.pipe(v.array(address, 'emails must be an array of email addresses'), v.maxLength(MAX_EMAILS)),
});

const SELF = {
	access: 'authenticated' as const,
	resource: { self: true as const, bound: true as const },
	tokens: ['classic', 'oauth', 'fine-grained', 'user-to-server'] as Array<'classic' | 'oauth' | 'fine-grained' | 'user-to-server'>,
};

export const emailRoutes = [
	route({
		...SELF,
		method: 'GET',
		path: '/user/emails',
		docs: 'users/emails#list-email-addresses-for-the-authenticated-user',
		permissions: [{ emails: 'read' }],
		pagination: true,
		handler(ctx) {
			const all = userEmails(ctx.app, self(ctx));
			return paged(all.slice(ctx.page.offset, ctx.page.offset + ctx.page.perPage), all.length);
		},
	}),
	route({
		...SELF,
		method: 'GET',
		path: '/user/public_emails',
		docs: 'users/emails#list-public-email-addresses-for-the-authenticated-user',
		permissions: [{ emails: 'read' }],
		pagination: true,
		handler(ctx) {
			const all = publicEmails(ctx.app, self(ctx));
			return paged(all.slice(ctx.page.offset, ctx.page.offset + ctx.page.perPage), all.length);
		},
	}),
	route({
		...SELF,
		method: 'POST',
		path: '/user/emails',
		docs: 'users/emails#add-an-email-address-for-the-authenticated-user',
		permissions: [{ emails: 'write' }],
		errorResource: 'UserEmail',
		body: emailsBody,
		arrayBody: 'emails',
		handler: (ctx) => created(addEmails(ctx.app, self(ctx), ctx.body.emails, isoSeconds(ctx.now))),
	}),
	route({
		...SELF,
		method: 'DELETE',
		path: '/user/emails',
		docs: 'users/emails#delete-an-email-address-for-the-authenticated-user',
		permissions: [{ emails: 'write' }],
		errorResource: 'UserEmail',
		body: emailsBody,
		arrayBody: 'emails',
		handler(ctx) {
			deleteEmails(ctx.app, self(ctx), ctx.body.emails);
			return noContent();
		},
	}),
	route({
		...SELF,
		method: 'PATCH',
		path: '/user/email/visibility',
		docs: 'users/emails#set-primary-email-visibility-for-the-authenticated-user',
		permissions: [{ emails: 'write' }],
		errorResource: 'UserEmail',
		body: v.object({ visibility: v.picklist(['public', 'private'], 'visibility must be public or private') }),
		handler: (ctx) => ok(setPrimaryVisibility(ctx.app, self(ctx), ctx.body.visibility, isoSeconds(ctx.now))),
	}),
];
