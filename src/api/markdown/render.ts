/**
 * GitHub-flavored Markdown for comment bodies (body_html, body_text): markdown-it with GFM's
 * tables, strikethrough, autolinks, hard line breaks as in comments, and task lists; raw HTML is
 * allowed in the source and then sanitized with sanitize-html to GitHub's kind of allowlist.
 * markdown-it's superlinear rules are replaced (./bounded): any body renders in time linear in its length.
 */
import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';
import { boundMarkdown } from './bounded';

const markdown = new MarkdownIt({ html: true, linkify: true, breaks: true, typographer: false });
boundMarkdown(markdown);

// Task lists ("- [ ] todo", "- [x] done"): GitHub renders a disabled checkbox in the list item.
markdown.core.ruler.after('inline', 'task-lists', (state) => {
	const tokens = state.tokens;
	for (let i = 2; i < tokens.length; i++) {
		const inline = tokens[i];
		if (inline.type !== 'inline' || tokens[i - 1].type !== 'paragraph_open' || tokens[i - 2].type !== 'list_item_open') continue;
		const match = /^\[([ xX])\] /.exec(inline.content);
		if (!match || !inline.children?.length) continue;
		const first = inline.children[0];
		if (first.type !== 'text') continue;
		first.content = first.content.slice(4);
		const box = new state.Token('html_inline', '', 0);
		box.content = `<input type="checkbox" class="task-list-item-checkbox" disabled${match[1] === ' ' ? '' : ' checked'}> `;
		inline.children.unshift(box);
		tokens[i - 2].attrJoin('class', 'task-list-item');
	}
});

const ALLOWED: sanitizeHtml.IOptions = {
	allowedTags: [
		'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'b', 'i', 'strong', 'em', 'a', 'pre', 'code', 'img', 'tt', 'div', 'span',
		'ins', 'del', 's', 'sup', 'sub', 'ul', 'ol', 'li', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th', 'blockquote', 'dl', 'dt',
		'dd', 'kbd', 'q', 'samp', 'var', 'ruby', 'rt', 'rp', 'summary', 'details', 'input', 'picture', 'source', 'caption',
	],
	allowedAttributes: {
		a: ['href', 'title', 'name'],
		img: ['src', 'alt', 'title', 'width', 'height', 'align'],
		input: ['type', 'checked', 'disabled', 'class'],
		li: ['class'],
		code: ['class'],
		td: ['align'],
		th: ['align'],
		div: ['align'],
		p: ['align', 'dir'],
		details: ['open'],
	},
	allowedSchemes: ['http', 'https', 'mailto'],
	allowedSchemesAppliedToAttributes: ['href', 'src'],
	allowProtocolRelative: false,
	transformTags: {
		// GitHub marks paragraphs for automatic text direction.
		p: (tagName, attribs) => ({ tagName, attribs: { ...attribs, dir: 'auto' } }),
		input: (tagName, attribs) =>
			attribs.type === 'checkbox' ? { tagName, attribs: { ...attribs, disabled: '' } } : { tagName: 'span', attribs: {} },
	},
};

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&#x27;': "'", '&nbsp;': ' ' };

/** Sanitized HTML of rendered Markdown. */
const sanitized = (rendered: string) => sanitizeHtml(rendered, ALLOWED).trim();

/** Plain text of rendered Markdown: the HTML without tags, entities decoded. */
function plain(rendered: string): string {
	const html = rendered.replace(/<br\s*\/?>/g, '\n').replace(/<\/(p|li|h\d|tr|blockquote|pre)>/g, '$&\n');
	return sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} })
		.replace(/&(amp|lt|gt|quot|#39|#x27|nbsp);/g, (entity) => ENTITIES[entity])
		.replace(/\n{3,}/g, '\n\n')
		.trim();
}

/** Sanitized HTML of a Markdown source. */
const toHtml = (source: string): string => sanitized(markdown.render(source));

/** Plain text of a Markdown source. */
const toText = (source: string): string => plain(markdown.render(source));

/**
 * The body fields of a comment for the requested media type (spec document 2, media types):
 * raw (default) → body; text → body_text; html → body_html; full → all three (rendered once).
 */
export function bodyFields(body: string, media: string | null): Record<string, string> {
	switch (media) {
		case 'text':
			return { body_text: toText(body) };
		case 'html':
			return { body_html: toHtml(body) };
		case 'full': {
			const rendered = markdown.render(body);
			return { body, body_text: plain(rendered), body_html: sanitized(rendered) };
		}
		default:
			return { body };
	}
}
