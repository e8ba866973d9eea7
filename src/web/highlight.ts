/**
 * Syntax highlighting of file views with highlight.js (its common languages), loaded on the first
 * file shown so the server starts without it: the bundle embeds highlight.js as text
 * (scripts/bundle.mjs defines GITSTEAD_HIGHLIGHT_JS) and compiles it then; running from source it
 * is required from node_modules. Files over HIGHLIGHT_LIMIT bytes or lines are shown plain. The
 * output is highlight.js's escaped HTML, split into lines with each line's open spans closed and
 * reopened, so every line stands alone in the table.
 */
import { runInThisContext } from 'node:vm';
import type { HLJSApi } from 'highlight.js';

declare const GITSTEAD_HIGHLIGHT_JS: string | undefined;

/** Largest file highlighted (bytes and lines); larger ones are shown without colors. */
export const HIGHLIGHT_LIMIT = { bytes: 256 * 1024, lines: 10_000 };

let hljs: HLJSApi | undefined;

/** highlight.js, compiled on first use: from the bundle's embedded text, else node_modules. */
function engine(): HLJSApi {
	if (hljs) return hljs;
	if (typeof GITSTEAD_HIGHLIGHT_JS === 'string') {
		const module = { exports: {} as { default?: HLJSApi } & HLJSApi };
		const load = runInThisContext(`(function (module, exports, require) {${GITSTEAD_HIGHLIGHT_JS}\n})`, {
			filename: 'highlight.js (embedded)',
		}) as (module: unknown, exports: unknown, require: NodeJS.Require) => void;
		load(module, module.exports, require);
		hljs = module.exports.default ?? module.exports;
	} else hljs = require('highlight.js/lib/common') as HLJSApi;
	return hljs;
}

/** File names highlight.js does not guess from their extension. */
const BY_NAME: Record<string, string> = {
	dockerfile: 'dockerfile',
	makefile: 'makefile',
	gemfile: 'ruby',
	rakefile: 'ruby',
	'cmakelists.txt': 'cmake',
};

/** The highlight.js language of a file name, or null. */
export function languageFor(fileName: string): string | null {
	const lower = fileName.toLowerCase();
	const named = BY_NAME[lower];
	if (named) return engine().getLanguage(named) ? named : null;
	const dot = lower.lastIndexOf('.');
	if (dot < 0) return null;
	const ext = lower.slice(dot + 1);
	return engine().getLanguage(ext) ? ext : null;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);

/**
 * The lines of a text file as HTML (escaped; highlighted when the language is known and the file
 * is within HIGHLIGHT_LIMIT).
 */
export function highlightLines(fileName: string, text: string): { lines: string[]; highlighted: boolean } {
	const lines = text.split('\n');
	if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
	const language = text.length <= HIGHLIGHT_LIMIT.bytes && lines.length <= HIGHLIGHT_LIMIT.lines ? languageFor(fileName) : null;
	if (!language) return { lines: lines.map(escapeHtml), highlighted: false };
	const html = engine().highlight(text, { language, ignoreIllegals: true }).value;
	return { lines: splitHtmlLines(html, lines.length), highlighted: true };
}

/** Splits highlight.js output into lines, closing each line's open spans and reopening them on the next. */
function splitHtmlLines(html: string, count: number): string[] {
	const out: string[] = [];
	const open: string[] = [];
	for (const line of html.split('\n')) {
		let text = open.join('') + line;
		for (const tag of line.matchAll(/<span[^>]*>|<\/span>/g)) {
			if (tag[0] === '</span>') open.pop();
			else open.push(tag[0]);
		}
		text += '</span>'.repeat(open.length);
		out.push(text);
	}
	return out.slice(0, Math.max(count, 1));
}
