/**
 * GitHub-flavored Markdown for comment and issue bodies (body_html, body_text): markdown-it with
 * GFM's tables, strikethrough, autolinks, hard line breaks as in comments, and task lists; raw HTML
 * is allowed in the source and then sanitized with sanitize-html to GitHub's kind of allowlist.
 *
 * Bodies are rendered once (renderBody) and the stores keep the result next to the source: when
 * written, or, for issues, on the first read that shows the rendering (src/api/issues/service.ts
 * withRenderedBodies); bodyFields only picks the stored fields for the media type. Rendering
 * a body of GitHub's maximum size (65,536 characters) takes time linear in its length, whatever
 * it contains, and its HTML is bounded (MAX_HTML).
 */
import type MarkdownIt from 'markdown-it';
import type sanitizeHtml from 'sanitize-html';
import { boundMarkdown } from './bounded';

// Task lists ("- [ ] todo", "- [x] done"): GitHub renders a disabled checkbox in the list item.
const taskLists = (state: Parameters<Parameters<MarkdownIt['core']['ruler']['after']>[2]>[0]) => {
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
};

const ALLOWED: sanitizeHtml.IOptions = {
	allowedTags: [
		'h1',
		'h2',
		'h3',
		'h4',
		'h5',
		'h6',
		'p',
		'br',
		'hr',
		'b',
		'i',
		'strong',
		'em',
		'a',
		'pre',
		'code',
		'img',
		'tt',
		'div',
		'span',
		'ins',
		'del',
		's',
		'sup',
		'sub',
		'ul',
		'ol',
		'li',
		'table',
		'thead',
		'tbody',
		'tfoot',
		'tr',
		'td',
		'th',
		'blockquote',
		'dl',
		'dt',
		'dd',
		'kbd',
		'q',
		'samp',
		'var',
		'ruby',
		'rt',
		'rp',
		'summary',
		'details',
		'input',
		'picture',
		'source',
		'caption',
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

const ENTITIES: Record<string, string> = {
	'&amp;': '&',
	'&lt;': '<',
	'&gt;': '>',
	'&quot;': '"',
	'&#39;': "'",
	'&#x27;': "'",
	'&nbsp;': ' ',
};

/** Sanitized HTML of rendered Markdown. */
/** sanitize-html (with its HTML parser), loaded when a body with raw HTML is first rendered rather than at start. */
let sanitizer: typeof sanitizeHtml | null = null;
const sanitized = (rendered: string) => (sanitizer ??= require('sanitize-html') as typeof sanitizeHtml)(rendered, ALLOWED).trim();

/**
 * sanitize-html's rule for href and src (its naughtyHref with our options): a scheme outside
 * allowedSchemes, or a protocol-relative URL, loses the attribute.
 */
function allowedUrl(url: string): boolean {
	const bare = url.replace(/[\x00-\x20]+/g, '');
	const scheme = /^([a-zA-Z][a-zA-Z0-9.\-+]*):/.exec(bare);
	if (!scheme) return !/^[/\\]{2}/.test(bare);
	return (ALLOWED.allowedSchemes as string[]).includes(scheme[1].toLowerCase());
}

/**
 * Renderer rules that make markdown-it write, for a source without raw HTML, exactly what
 * sanitize-html makes of its usual output: paragraphs get dir="auto"; table cells lose their
 * style and ordered lists their start (attributes outside the allowlist); links and images lose an
 * href or src of a scheme outside it; text keeps its double quotes unescaped (sanitize-html
 * escapes them in attributes only); void elements, the task-list checkbox too, close with " />".
 */
function safeRenderer(md: MarkdownIt): void {
	const rules = md.renderer.rules;
	const escape = md.utils.escapeHtml;
	const text = (content: string) => escape(content).replace(/&quot;/g, '"');
	rules.text = (tokens, i) => text(tokens[i].content);
	rules.code_inline = (tokens, i) => `<code>${text(tokens[i].content)}</code>`;
	rules.code_block = (tokens, i) => `<pre><code>${text(tokens[i].content)}</code></pre>\n`;
	rules.fence = (tokens, i) => {
		const token = tokens[i];
		const language = token.info ? md.utils.unescapeAll(token.info).trim().split(/\s+/g)[0] : '';
		const attribute = language ? ` class="${escape(`language-${language}`)}"` : '';
		return `<pre><code${attribute}>${text(token.content)}</code></pre>\n`;
	};
	rules.paragraph_open = (tokens, i) => (tokens[i].hidden ? '' : '<p dir="auto">');
	/** A renderer rule's signature (tokens, index, options, env, renderer). */
	type Rule = NonNullable<typeof rules.text>;
	const drop =
		(name: string): Rule =>
		(tokens, i, options, _env, self) => {
			const token = tokens[i];
			if (token.attrs) token.attrs = token.attrs.filter(([key]) => key !== name);
			return self.renderToken(tokens, i, options);
		};
	rules.th_open = drop('style');
	rules.td_open = drop('style');
	rules.ordered_list_open = drop('start');
	const url =
		(attribute: string): Rule =>
		(tokens, i, options, env, self) => {
			const token = tokens[i];
			const value = token.attrGet(attribute);
			if (value !== null && !allowedUrl(value)) token.attrs = token.attrs!.filter(([key]) => key !== attribute);
			return attribute === 'src' ? imageRule(tokens, i, options, env, self) : self.renderToken(tokens, i, options);
		};
	const imageRule = rules.image!;
	rules.link_open = url('href');
	rules.image = url('src');
	// The only raw HTML here is the task-list checkbox (no source `<` reaches this renderer).
	rules.html_inline = (tokens, i) => tokens[i].content.replace(/> $/, ' /> ');
}

/**
 * A pair of renderers: `markdown` (raw HTML allowed, then sanitized) and `direct` (for sources
 * without raw HTML: the same parser, with renderer rules that write what sanitize-html would make
 * of markdown-it's output (see safeRenderer), so such a body needs no sanitizing pass, the
 * costliest part of rendering; test/markdown.test.ts checks the two agree).
 * @param breaks a single newline is a hard line break (GitHub's comments and `gfm` mode) or not
 *   (documents: `markdown` mode of POST /markdown)
 */
function createRenderers(breaks: boolean): { markdown: MarkdownIt; direct: MarkdownIt } {
	// Loaded here, at the first rendering: building markdown-it's entity tables is not start-up work.
	const MarkdownItClass = require('markdown-it') as typeof MarkdownIt;
	const markdown = new MarkdownItClass({ html: true, linkify: true, breaks, typographer: false });
	const direct = new MarkdownItClass({ html: false, linkify: true, breaks, typographer: false, xhtmlOut: true });
	boundMarkdown(markdown);
	boundMarkdown(direct);
	markdown.core.ruler.after('inline', 'task-lists', taskLists);
	direct.core.ruler.after('inline', 'task-lists', taskLists);
	safeRenderer(direct);
	return { markdown, direct };
}

type Renderers = ReturnType<typeof createRenderers>;
/** Comment bodies: newlines are line breaks. Built on first use (not while the server starts). */
let commentRenderers: Renderers | undefined;
const comments = (): Renderers => (commentRenderers ??= createRenderers(true));
/** Documents (POST /markdown in `markdown` mode): newlines within a paragraph are spaces. */
let documentRenderers: Renderers | undefined;
const documents = (): Renderers => (documentRenderers ??= createRenderers(false));

/** For test/markdown.test.ts: the sanitized rendering of any source, as bodies with raw HTML get it. */
export const sanitizedRendering = (source: string): string => sanitized(comments().markdown.render(source));

/**
 * Plain text of sanitized HTML: the tags dropped, entities decoded. The input comes out of
 * sanitize-html, so it holds only allowlisted tags with escaped attribute values (no `>` inside a
 * tag, no script or style content): dropping every `<…>` leaves exactly its text.
 */
function plain(html: string): string {
	return html
		.replace(/<br\s*\/?>/g, '\n')
		.replace(/<\/(p|li|h\d|tr|blockquote|pre)>/g, '\n')
		.replace(/<[^>]*>/g, '')
		.replace(/&(amp|lt|gt|quot|#39|#x27|nbsp);/g, (entity) => ENTITIES[entity])
		.replace(/\n{3,}/g, '\n\n')
		.trim();
}

/**
 * Most characters of HTML a body may render to (8 × GitHub's 65,536-character body limit). A few
 * short constructs expand a lot — a table row of one character gets every column of the header
 * (markdown-it fills up to 65,536 cells), a task-list item of eight characters becomes a hundred —
 * so a maximal body could render to megabytes, which every read of it would then send. Ordinary
 * Markdown stays well below (a 64 KiB table of short cells renders to about 360,000 characters).
 */
export const MAX_HTML = 8 * 65536;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * What a body whose HTML would exceed MAX_HTML is stored as: its source, escaped, in one paragraph
 * (at most 6 characters per character of source, so within MAX_HTML for a body of GitHub's
 * maximum size), and as text the source itself.
 */
function fallback(source: string): RenderedBody {
	const escaped = source.replace(/[&<>"']/g, (c) => ESCAPES[c]).replace(/\r?\n/g, '<br>\n');
	return { html: `<p dir="auto">${escaped}</p>`, text: source.trim() };
}

/** A body rendered for the text, html and full media types. */
export interface RenderedBody {
	/** body_html: sanitized HTML */
	html: string;
	/** body_text: the rendered text without markup */
	text: string;
}

/**
 * Renders a Markdown body once, for storing next to it (stores call this when a body is created or
 * changed). Time is linear in the length of `source`; the HTML is at most MAX_HTML characters
 * (larger renderings fall back to the escaped source in one paragraph).
 */
export function renderBody(source: string): RenderedBody {
	return renderWith(comments(), source);
}

/**
 * Renders Markdown for POST /markdown and /markdown/raw (GitHub's markdown API), with the bounds
 * of renderBody: `gfm` as comments are (newlines are line breaks), `markdown` as documents are.
 * @returns sanitized HTML
 */
export function renderMarkdown(source: string, mode: 'markdown' | 'gfm'): string {
	return renderWith(mode === 'gfm' ? comments() : documents(), source).html;
}

function renderWith({ markdown, direct }: { markdown: MarkdownIt; direct: MarkdownIt }, source: string): RenderedBody {
	// No `<`: no raw HTML, so the direct renderer writes the sanitized HTML itself.
	if (!source.includes('<')) {
		const html = direct.render(source).trim();
		return html.length > MAX_HTML ? fallback(source) : { html, text: plain(html) };
	}
	const rendered = markdown.render(source);
	// Sanitizing takes time in proportion to the rendering's length and shortens it only by what it
	// drops (the source's own disallowed markup, the style of aligned table cells): a rendering four
	// times too long is not worth sanitizing.
	if (rendered.length > 4 * MAX_HTML) return fallback(source);
	const html = sanitized(rendered);
	if (html.length > MAX_HTML) return fallback(source);
	return { html, text: plain(html) };
}

/** The rendered columns of a nullable body (an issue may have none). */
export function renderNullableBody(source: string | null): { body_html: string | null; body_text: string | null } {
	if (source === null) return { body_html: null, body_text: null };
	const { html, text } = renderBody(source);
	return { body_html: html, body_text: text };
}

/** A stored body with its renderings (columns body, body_html, body_text; null when there is no body). */
export interface StoredBody {
	body: string | null;
	body_html: string | null;
	body_text: string | null;
}

/**
 * The body fields for the requested media type (GitHub's raw, text, html and full media types), from the stored
 * columns — nothing is rendered here: raw (default) → body; text → body_text; html → body_html;
 * full → all three. A missing body is a null `body`; body_text and body_html, strings in GitHub's
 * description (never null), are then left out.
 */
export function bodyFields(row: StoredBody, media: string | null): Record<string, string | null> {
	const text: Record<string, string> = row.body_text === null ? {} : { body_text: row.body_text };
	const html: Record<string, string> = row.body_html === null ? {} : { body_html: row.body_html };
	switch (media) {
		case 'text':
			return text;
		case 'html':
			return html;
		case 'full':
			return { body: row.body, ...text, ...html };
		default:
			return { body: row.body };
	}
}
