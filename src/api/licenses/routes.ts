/**
 * GitHub's licenses API (licenses/licenses): the commonly used licenses, and any license GitHub
 * knows with its text and rules (choosealicense.com's data, src/api/licenses/templates.ts). Public,
 * about no resource. A repository's own license is GET /repos/{owner}/{repo}/license.
 */
import * as v from 'valibot';
import { notFound } from '../../model/errors';
import { COMMON_LICENSES, LICENSES } from '../../model/licenses';
import { license } from '../../model/render';
import { ok, paged } from '../../http/reply';
import { route } from '../../http/route';
import { licenseTemplate } from './templates';

/** GET /licenses and GET /licenses/{license}, registered in src/api/routes.ts. */
export const licenseRoutes = [
	route({
		method: 'GET',
		path: '/licenses',
		docs: 'licenses/licenses#get-all-commonly-used-licenses',
		permissions: [],
		access: 'public',
		resource: 'none',
		query: v.object({ featured: v.optional(v.picklist(['true', 'false'], 'featured must be true or false')) }),
		pagination: true,
		handler(ctx) {
			let keys = [...COMMON_LICENSES];
			if (ctx.query.featured !== undefined) {
				const featured = ctx.query.featured === 'true';
				keys = keys.filter((key) => (licenseTemplate(key)?.featured ?? false) === featured);
			}
			const page = keys.slice(ctx.page.offset, ctx.page.offset + ctx.page.perPage);
			return paged(
				page.map((key) => license(ctx.app.urls, key)),
				keys.length,
			);
		},
	}),
	route({
		method: 'GET',
		path: '/licenses/{license}',
		docs: 'licenses/licenses#get-a-license',
		permissions: [],
		access: 'public',
		resource: 'none',
		handler(ctx) {
			const key = ctx.params.license.toLowerCase();
			const template = Object.hasOwn(LICENSES, key) ? licenseTemplate(key) : undefined;
			if (!template) throw notFound();
			return ok({
				...license(ctx.app.urls, key),
				description: template.description,
				implementation: template.implementation,
				permissions: template.permissions,
				conditions: template.conditions,
				limitations: template.limitations,
				body: template.body,
				featured: template.featured,
			});
		},
	}),
];
