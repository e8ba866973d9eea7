/**
 * markdown-it 14.1.0 (with linkify-it 5) without its superlinear cases. A few of its rules scan
 * from every position to the end of a paragraph, or rebuild a paragraph's token list for every
 * link, so one 64 KiB body could take seconds to render (8,192 "<http://": 0.7 s; 64 KiB of
 * "|www.": 2.7 s). boundMarkdown replaces those rules with versions that give the same HTML for
 * ordinary Markdown in time linear in the length of the source (and, for links without a scheme,
 * proportional to the source's length × MAX_FUZZY_RUN).
 *
 * The replaced rules follow markdown-it's sources (MIT license): lib/rules_inline/linkify.mjs,
 * lib/rules_inline/html_inline.mjs, lib/rules_core/linkify.mjs.
 */
import type MarkdownIt from 'markdown-it';

type InlineRule = Parameters<MarkdownIt['inline']['ruler']['at']>[1];
type CoreRule = Parameters<MarkdownIt['core']['ruler']['at']>[1];
/** markdown-it's inline parser state. */
type StateInline = Parameters<InlineRule>[0];
/** markdown-it's core state (the block tokens of a whole document). */
type StateCore = Parameters<CoreRule>[0];
type Token = StateCore['tokens'][number];
/** linkLevel (> 0 inside a link's text, where nothing is linkified) is missing from markdown-it's typings. */
type Linking = StateInline & { linkLevel: number };

const isLetter = (code: number) => (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
const isSchemeChar = (code: number) =>
	isLetter(code) || (code >= 0x30 && code <= 0x39) || code === 0x2b /* + */ || code === 0x2d /* - */ || code === 0x2e; /* . */

/** True for the characters no link contains: linkify-it's Z (separators) and Cc (controls). */
function isSeparator(code: number): boolean {
	if (code <= 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
	return (
		code === 0xa0 ||
		code === 0x1680 ||
		(code >= 0x2000 && code <= 0x200a) ||
		code === 0x2028 ||
		code === 0x2029 ||
		code === 0x202f ||
		code === 0x205f ||
		code === 0x3000
	);
}

/** Longest run of scheme characters worth handing to linkify-it: its schemes (http, https, ftp, mailto) are shorter. */
const MAX_SCHEME = 32;

/**
 * The inline `linkify` rule with one change. At every "://" the original finds the scheme before
 * it with /(?:^|[^a-z0-9.+-])([a-z][a-z0-9.+-]*)$/i over all the text pending since the last
 * token; the expression is tried from every position of that text, so a paragraph of many "://"
 * that never become links ("<http://" or "a:// " repeated) takes time quadratic in its length.
 * Here the scheme is the run of scheme characters at the end of the pending text, read backwards
 * and at most MAX_SCHEME long: the same answer (a longer run is never one of linkify-it's schemes)
 * in constant time.
 */
function linkifyInline(state: StateInline, silent: boolean): boolean {
	if (!state.md.options.linkify || (state as Linking).linkLevel > 0) return false;
	const pos = state.pos;
	if (pos + 3 > state.posMax) return false;
	if (state.src.charCodeAt(pos) !== 0x3a /* : */ || state.src.charCodeAt(pos + 1) !== 0x2f || state.src.charCodeAt(pos + 2) !== 0x2f) {
		return false;
	}
	// The pending text ends with the source's characters before pos (every rule that consumes
	// source characters without pushing a token appends them to it). They are read from the
	// source: reading the pending text itself, a string built one piece at a time, would make V8
	// flatten it again at every "://".
	const src = state.src;
	const limit = Math.max(pos - state.pending.length, pos - MAX_SCHEME - 1);
	let start = pos;
	while (start > limit && isSchemeChar(src.charCodeAt(start - 1))) start--;
	if (pos - start > MAX_SCHEME) return false;
	if (start === pos || !isLetter(src.charCodeAt(start))) return false;
	const proto = src.slice(start, pos);
	const link = state.md.linkify.matchAtStart(state.src.slice(pos - proto.length));
	if (!link) return false;
	let url = link.url;
	// An invalid link that linkify-it still reports: refusing it avoids an endless loop.
	if (url.length <= proto.length) return false;
	// No '*' at the end of a link (it would conflict with emphasis).
	url = url.replace(/\*+$/, '');
	const fullUrl = state.md.normalizeLink(url);
	if (!state.md.validateLink(fullUrl)) return false;
	if (!silent) {
		state.pending = state.pending.slice(0, -proto.length);
		const open = state.push('link_open', 'a', 1);
		open.attrs = [['href', fullUrl]];
		open.markup = 'linkify';
		open.info = 'auto';
		const text = state.push('text', '', 0);
		text.content = state.md.normalizeLinkText(url);
		const close = state.push('link_close', 'a', -1);
		close.markup = 'linkify';
		close.info = 'auto';
	}
	state.pos += url.length - proto.length;
	return true;
}

// An opening or closing tag, markdown-it's expression (lib/common/html_re.mjs): its scan ends at
// the tag's '>' or at the first character a tag cannot contain.
const OPEN_CLOSE_TAG = new RegExp(
	'^(?:<[A-Za-z][A-Za-z0-9\\-]*(?:\\s+[a-zA-Z_:][a-zA-Z0-9:._-]*(?:\\s*=\\s*(?:[^"\'=<>`\\x00-\\x20]+|\'[^\']*\'|"[^"]*"))?)*\\s*\\/?>' +
		'|<\\/[A-Za-z][A-Za-z0-9\\-]*\\s*>)',
);

/** Per inline state (its source never changes): positions found once, ascending. */
const positions = new WeakMap<StateInline, Map<string, number[]>>();

/** The positions of `key` in the state's source, computed by `find` the first time. */
function positionsOf(state: StateInline, key: string, find: (src: string) => number[]): number[] {
	let byKey = positions.get(state);
	if (!byKey) positions.set(state, (byKey = new Map()));
	let list = byKey.get(key);
	if (!list) byKey.set(key, (list = find(state.src)));
	return list;
}

/** The first of the ascending `list` at or after `from`, or -1 (a binary search). */
function firstFrom(list: number[], from: number): number {
	let low = 0;
	let high = list.length;
	while (low < high) {
		const mid = (low + high) >>> 1;
		if (list[mid] < from) low = mid + 1;
		else high = mid;
	}
	return low < list.length ? list[low] : -1;
}

/** The end (exclusive) of a construct at pos closed by the first `close` from pos + skip on; -1 when it is never closed. */
function closedAt(state: StateInline, pos: number, close: string, skip: number): number {
	const list = positionsOf(state, close, (src) => {
		const found = [];
		for (let at = src.indexOf(close); at !== -1; at = src.indexOf(close, at + 1)) found.push(at);
		return found;
	});
	const at = firstFrom(list, pos + skip);
	return at === -1 ? -1 : at + close.length;
}

/**
 * The end (exclusive) of the comment "<!--" at pos as markdown-it's expression
 * /<!--(?:[^-]|-[^-]|--[^>])*-->/ finds it, or -1. Its body takes any run of dashes followed by
 * another character, except a run of 3n + 2 dashes followed by '>': the comment ends at the first
 * such run (a "-->" after 3n dashes), and is no comment when there is none.
 */
function commentEnd(state: StateInline, pos: number): number {
	const src = state.src;
	const body = pos + 4;
	let after = body;
	while (src.charCodeAt(after) === 0x2d /* - */) after++;
	if (after >= src.length) return -1;
	if (src.charCodeAt(after) === 0x3e /* > */ && (after - body) % 3 === 2) return after + 1;
	const ends = positionsOf(state, 'comment ends', (text) => {
		const found = [];
		for (let i = 0, dashes = 0; i < text.length; i++) {
			const code = text.charCodeAt(i);
			if (code === 0x3e && dashes % 3 === 2) found.push(i);
			dashes = code === 0x2d ? dashes + 1 : 0;
		}
		return found;
	});
	const end = firstFrom(ends, after + 1);
	return end === -1 ? -1 : end + 1;
}

/**
 * The inline `html_inline` rule without its quadratic cases. The original matches one regular
 * expression against the rest of the paragraph at every '<': a comment, processing instruction,
 * declaration or CDATA section that is never closed is scanned to the end each time (8,192
 * "<!--" without "-->" took a second). Here those four find their end in a list of the positions
 * where one can end, made once per paragraph (the same ends as markdown-it's expression); tags
 * keep markdown-it's expression, which stops at the tag's end.
 */
function htmlInline(state: StateInline, silent: boolean): boolean {
	if (!state.md.options.html) return false;
	const pos = state.pos;
	const src = state.src;
	if (src.charCodeAt(pos) !== 0x3c /* < */ || pos + 2 >= state.posMax) return false;
	const second = src.charCodeAt(pos + 1);
	let end = -1;
	if (src.startsWith('<!--', pos)) {
		if (src.startsWith('<!-->', pos)) end = pos + 5;
		else if (src.startsWith('<!--->', pos)) end = pos + 6;
		else end = commentEnd(state, pos);
	} else if (src.startsWith('<![CDATA[', pos)) {
		end = closedAt(state, pos, ']]>', 9);
	} else if (second === 0x21 /* ! */) {
		if (isLetter(src.charCodeAt(pos + 2))) end = closedAt(state, pos, '>', 3);
	} else if (second === 0x3f /* ? */) {
		end = closedAt(state, pos, '?>', 2);
	} else if (second === 0x2f /* / */ || isLetter(second)) {
		const match = OPEN_CLOSE_TAG.exec(src.slice(pos));
		if (match) end = pos + match[0].length;
	}
	if (end === -1) return false;
	if (!silent) {
		const token = state.push('html_inline', '', 0);
		token.content = src.slice(pos, end);
		if (/^<a[>\s]/i.test(token.content)) (state as Linking).linkLevel++;
		if (/^<\/a\s*>/i.test(token.content)) (state as Linking).linkLevel--;
	}
	state.pos = end;
	return true;
}

/**
 * Longest run without separators in which links without a scheme (www.example.com, e-mail
 * addresses) are looked for. linkify-it finds them with regular expressions that, from every
 * position of such a run, may scan to its end: a 64 KiB run of "|www." took 2.7 s. Links contain no
 * separators, so looking only at runs of at most this length costs at most the text's length ×
 * MAX_FUZZY_RUN; longer runs keep only the links with a scheme (found by linkifyInline).
 */
export const MAX_FUZZY_RUN = 512;

/** [start, end) pieces of `text` without its separator-free runs longer than MAX_FUZZY_RUN; null when it has none. */
function shortRunPieces(text: string): Array<[number, number]> | null {
	let pieces: Array<[number, number]> | null = null;
	let pieceStart = 0;
	let runStart = 0;
	for (let i = 0; i <= text.length; i++) {
		if (i < text.length && !isSeparator(text.charCodeAt(i))) continue;
		if (i - runStart > MAX_FUZZY_RUN) {
			pieces ??= [];
			if (runStart > pieceStart) pieces.push([pieceStart, runStart]);
			pieceStart = i;
		}
		runStart = i + 1;
	}
	if (pieces && text.length > pieceStart) pieces.push([pieceStart, text.length]);
	return pieces;
}

/** Makes linkify-it's test and match (called by the core linkify rule) leave out runs longer than MAX_FUZZY_RUN. */
function boundLinkifyIt(linkify: MarkdownIt['linkify']): void {
	const test = linkify.test.bind(linkify);
	const match = linkify.match.bind(linkify);
	linkify.test = (text: string): boolean => {
		const pieces = shortRunPieces(text);
		return pieces ? pieces.some(([start, end]) => test(text.slice(start, end))) : test(text);
	};
	linkify.match = (text: string) => {
		const pieces = shortRunPieces(text);
		if (!pieces) return match(text);
		const found = [];
		for (const [start, end] of pieces) {
			for (const link of match(text.slice(start, end)) ?? []) {
				link.index += start;
				link.lastIndex += start;
				found.push(link);
			}
		}
		return found.length ? found : null;
	};
}

/**
 * The core `linkify` rule (links in text tokens, e.g. www.example.com) with one change: the
 * original rebuilds a paragraph's whole token list for every text token that holds a link, which
 * is quadratic in a paragraph of thousands of links ("x.com*" repeated took 0.5 s). Here the
 * replacements are collected and the list is built once.
 */
function linkifyCore(state: StateCore): void {
	if (!state.md.options.linkify) return;
	for (const block of state.tokens) {
		if (block.type !== 'inline' || !block.children || !state.md.linkify.pretest(block.content)) continue;
		const tokens = block.children;
		const replaced = new Map<number, Token[]>();
		let htmlLinkLevel = 0;
		// From the end, as the original: a link's content is skipped from its link_close back to its link_open.
		for (let i = tokens.length - 1; i >= 0; i--) {
			const current = tokens[i];
			if (current.type === 'link_close') {
				i--;
				while (tokens[i].level !== current.level && tokens[i].type !== 'link_open') i--;
				continue;
			}
			if (current.type === 'html_inline') {
				if (/^<a[>\s]/i.test(current.content) && htmlLinkLevel > 0) htmlLinkLevel--;
				if (/^<\/a\s*>/i.test(current.content)) htmlLinkLevel++;
			}
			if (htmlLinkLevel > 0) continue;
			if (current.type !== 'text' || !state.md.linkify.test(current.content)) continue;
			const text = current.content;
			let links = state.md.linkify.match(text) ?? [];
			// No escape sequence at the start: "http\://example.com/" must not link "//example.com/".
			if (links.length > 0 && links[0].index === 0 && i > 0 && tokens[i - 1].type === 'text_special') links = links.slice(1);
			const nodes: Token[] = [];
			let level = current.level;
			let lastPos = 0;
			for (const link of links) {
				const fullUrl = state.md.normalizeLink(link.url);
				if (!state.md.validateLink(fullUrl)) continue;
				let urlText = link.text;
				// linkify-it reports bare host names ("example.com"): normalized as http:// links, shown without it.
				if (!link.schema) urlText = state.md.normalizeLinkText(`http://${urlText}`).replace(/^http:\/\//, '');
				else if (link.schema === 'mailto:' && !/^mailto:/i.test(urlText)) {
					urlText = state.md.normalizeLinkText(`mailto:${urlText}`).replace(/^mailto:/, '');
				} else urlText = state.md.normalizeLinkText(urlText);
				if (link.index > lastPos) {
					const before = new state.Token('text', '', 0);
					before.content = text.slice(lastPos, link.index);
					before.level = level;
					nodes.push(before);
				}
				const open = new state.Token('link_open', 'a', 1);
				open.attrs = [['href', fullUrl]];
				open.level = level++;
				open.markup = 'linkify';
				open.info = 'auto';
				nodes.push(open);
				const inner = new state.Token('text', '', 0);
				inner.content = urlText;
				inner.level = level;
				nodes.push(inner);
				const close = new state.Token('link_close', 'a', -1);
				close.level = --level;
				close.markup = 'linkify';
				close.info = 'auto';
				nodes.push(close);
				lastPos = link.lastIndex;
			}
			if (lastPos < text.length) {
				const after = new state.Token('text', '', 0);
				after.content = text.slice(lastPos);
				after.level = level;
				nodes.push(after);
			}
			replaced.set(i, nodes);
		}
		if (replaced.size) block.children = tokens.flatMap((token, i) => replaced.get(i) ?? [token]);
	}
}

/**
 * Replaces a markdown-it instance's superlinear rules (see the module comment): the inline
 * `linkify` and `html_inline` rules, the core `linkify` rule, and linkify-it's test and match.
 */
export function boundMarkdown(md: MarkdownIt): void {
	md.inline.ruler.at('linkify', linkifyInline);
	md.inline.ruler.at('html_inline', htmlInline);
	md.core.ruler.at('linkify', linkifyCore);
	boundLinkifyIt(md.linkify);
}
