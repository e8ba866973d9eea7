/**
 * GitHub's gitignore API (gitignore/gitignore): the template names and each template's source.
 * Public, about no resource; the raw media type answers the source itself.
 */
import { notFound } from '../../model/errors';
import { ok } from '../../http/reply';
import { route } from '../../http/route';
import { GITIGNORE_TEMPLATES } from './templates';

/**
 * The template names, sorted as GitHub lists them (case-insensitively); sorted on first use, with
 * one collator (localeCompare with options builds one per comparison: tens of milliseconds at start).
 */
let names: string[] | undefined;
const templateNames = () => {
	if (!names) {
		const { compare } = new Intl.Collator('en', { sensitivity: 'base' });
		names = Object.keys(GITIGNORE_TEMPLATES).sort(compare);
	}
	return names;
};

/** GET /gitignore/templates and GET /gitignore/templates/{name}, registered in src/api/routes.ts. */
export const gitignoreRoutes = [
	route({
		method: 'GET',
		path: '/gitignore/templates',
		docs: 'gitignore/gitignore#get-all-gitignore-templates',
		permissions: [],
		access: 'public',
		resource: 'none',
		handler: () => ok(templateNames()),
	}),
	route({
		method: 'GET',
		path: '/gitignore/templates/{name}',
		docs: 'gitignore/gitignore#get-a-gitignore-template',
		permissions: [],
		access: 'public',
		resource: 'none',
		handler(ctx) {
			const name = ctx.params.name;
			if (!Object.hasOwn(GITIGNORE_TEMPLATES, name)) throw notFound();
			const source = GITIGNORE_TEMPLATES[name];
			// application/vnd.github.raw: the source itself.
			if (ctx.media === 'raw')
				return { status: 200, raw: { body: source, contentType: 'application/vnd.github.raw; charset=utf-8' } };
			return ok({ name, source });
		},
	}),
];
