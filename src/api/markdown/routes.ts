/**
 * GitHub's markdown API: POST /markdown ({text, mode, context}) and POST /markdown/raw (the body is
 * the Markdown itself, text/plain or text/x-markdown), both answered as text/html. They render with
 * the bounded renderer of comment bodies (render.ts): `gfm` as comments (newlines are line breaks,
 * and references become links), `markdown` as documents. Rendering changes nothing; anyone may ask.
 */
import * as v from 'valibot';
import type { Reply } from '../../http/reply';
import { route, type Context } from '../../http/route';
import { maxCharacters } from '../../http/validation';
import { callerRepoPermission } from '../../auth/access/repos';
import type { RepositoryRow, AccountRow } from '../../model/rows';
import { MAX_BODY } from './body';
import { renderMarkdown } from '../../model/markdown/render';

/** Longest text rendered, in characters (code points): four bodies of GitHub's maximum size. */
export const MAX_DOCUMENT = 4 * MAX_BODY;

/** References linked per rendering at most (each may cost a lookup); later ones stay text. */
const MAX_REFERENCES = 500;

const text = v.pipe(v.string('text must be a string'), maxCharacters('text', MAX_DOCUMENT));

const MARKDOWN = {
	access: 'public' as const,
	resource: 'none' as const,
	permissions: [],
	errorResource: 'Markdown',
};

/** The answer: the HTML as text/html. */
const html = (body: string): Reply => ({ status: 200, raw: { body, contentType: 'text/html;charset=utf-8' } });

/**
 * Links GitHub's references in rendered HTML, outside links and code: `@login` of an existing
 * account → its profile; `#42` (in the context repository) and `owner/repo#42` → the issue or pull
 * request, when it exists in a repository the caller can read. Other text is left as it is.
 */
function linkReferences(ctx: Context, rendered: string, contextName: string | undefined): string {
	const { stores, urls } = ctx.app;
	let budget = MAX_REFERENCES;
	const readable = new Map<string, { repo: RepositoryRow; owner: AccountRow } | null>();
	const repository = (fullName: string) => {
		const key = fullName.toLowerCase();
		if (readable.has(key)) return readable.get(key)!;
		const [login, name] = fullName.split('/');
		const owner = stores.accounts.byLogin(login);
		const repo = owner ? stores.repos.byOwnerAndName(owner.id, name) : undefined;
		const found = owner && repo && callerRepoPermission(ctx, repo, owner) !== null ? { repo, owner } : null;
		readable.set(key, found);
		return found;
	};
	const issueLink = (whole: string, fullName: string | undefined, number: string, shown: string) => {
		const name = fullName ?? contextName;
		if (!name || budget <= 0) return whole;
		budget--;
		const target = repository(name);
		const issue = target && stores.issues.byNumber(target.repo.id, Number(number));
		if (!target || !issue) return whole;
		const path = `/${target.owner.login}/${target.repo.name}/${issue.pull_request ? 'pull' : 'issues'}/${issue.number}`;
		return `<a href="${urls.html(path)}" class="issue-link">${shown}</a>`;
	};
	let depth = 0; // inside <a>, <code> or <pre>
	return rendered
		.split(/(<[^>]*>)/)
		.map((part) => {
			if (part.startsWith('<')) {
				const tag = /^<(\/?)(a|code|pre)\b/i.exec(part);
				if (tag) depth = Math.max(0, depth + (tag[1] ? -1 : 1));
				return part;
			}
			if (depth > 0 || part === '') return part;
			return part
				.replace(
					/(^|[^\w/#&])(?:([\w.-]+\/[\w.-]+))?#(\d{1,9})(?![\w])/g,
					(whole, before: string, fullName: string | undefined, number: string) => {
						const linked = issueLink(whole.slice(before.length), fullName, number, whole.slice(before.length));
						return before + linked;
					},
				)
				.replace(
					/(^|[^\w@/.])@([A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38})(?![\w-])/g,
					(whole, before: string, login: string) => {
						if (budget <= 0) return whole;
						budget--;
						const account = stores.accounts.byLogin(login);
						if (!account || account.type === 'Bot') return whole;
						return `${before}<a href="${urls.html(`/${account.login}`)}" class="user-mention">@${account.login}</a>`;
					},
				);
		})
		.join('');
}

/** POST /markdown and POST /markdown/raw (GitHub's markdown API). */
export const markdownRoutes = [
	route({
		...MARKDOWN,
		method: 'POST',
		path: '/markdown',
		docs: 'markdown/markdown#render-a-markdown-document',
		body: v.object({
			text,
			mode: v.optional(v.picklist(['markdown', 'gfm'], 'mode must be markdown or gfm'), 'markdown'),
			context: v.optional(
				v.pipe(v.string('context must be a string'), v.regex(/^[^/\s]+\/[^/\s]+$/, 'context must be a repository: owner/repo')),
			),
		}),
		handler(ctx) {
			const { text: source, mode, context } = ctx.body;
			const rendered = renderMarkdown(source, mode);
			return html(mode === 'gfm' ? linkReferences(ctx as Context, rendered, context) : rendered);
		},
	}),
	route({
		...MARKDOWN,
		method: 'POST',
		path: '/markdown/raw',
		docs: 'markdown/markdown#render-a-markdown-document-in-raw-mode',
		textBody: true,
		body: v.object({ text: v.optional(text, '') }),
		handler(ctx) {
			return html(renderMarkdown(ctx.body.text, 'markdown'));
		},
	}),
];
