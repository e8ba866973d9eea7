/**
 * The web interface's static files, assembled from their packages: GitHub's Primer CSS (the built
 * file of @primer/css, with only its light color theme), our own small stylesheet and
 * script, and the Octicons the pages use (from @primer/octicons). scripts/bundle.mjs runs this at
 * build time and embeds the result in the executable; running from source, src/web/assets.ts
 * calls it on first use.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ICON_NAMES } from './icon-names';

export interface AssetSources {
	/** The stylesheet ('' when the bundle embeds it compressed: cssEncoded). */
	css: string;
	/** The stylesheet compressed at build time (base64 of Brotli and of gzip), in the bundle. */
	cssEncoded?: { br: string; gzip: string };
	js: string;
	/** Icon name → { width, height, path } of its 16px (else smallest) size. */
	icons: Record<string, { width: number; height: number; path: string }>;
}

/** Primer's color themes kept (the others are alternatives a user would pick on GitHub's settings). */
const THEMES = new Set(['light']);

/** Top-level CSS blocks (rules and at-rules), split by brace depth; comments kept with the next block. */
function blocks(css: string): string[] {
	const out: string[] = [];
	let depth = 0;
	let start = 0;
	for (let i = 0; i < css.length; i++) {
		const c = css.charCodeAt(i);
		if (c === 47 && css.charCodeAt(i + 1) === 42) {
			// A comment: skip to its end.
			const end = css.indexOf('*/', i + 2);
			i = end < 0 ? css.length : end + 1;
		} else if (c === 34 || c === 39) {
			const end = css.indexOf(css[i], i + 1);
			i = end < 0 ? css.length : end;
		} else if (c === 123) depth++;
		else if (c === 125) {
			depth--;
			if (depth === 0) {
				out.push(css.slice(start, i + 1));
				start = i + 1;
			}
		} else if (c === 59 && depth === 0) {
			out.push(css.slice(start, i + 1));
			start = i + 1;
		}
	}
	if (start < css.length) out.push(css.slice(start));
	return out;
}

/** Primer's CSS without the color themes other than light, and without its source map comment. */
export function primerCss(css: string): string {
	return blocks(css.replace(/\/\*# sourceMappingURL=[^*]*\*\//, ''))
		.filter((block) => {
			const themes = block.match(/theme=([a-z_]+)/g);
			return !themes || themes.every((theme) => THEMES.has(theme.slice(6)));
		})
		.join('');
}

/** Reads and assembles the assets from the checkout at `root` (its node_modules and src/web). */
export function assetSources(root: string): AssetSources {
	const primer = readFileSync(resolve(root, 'node_modules/@primer/css/dist/primer.css'), 'utf8');
	const site = readFileSync(resolve(root, 'src/web/static/site.css'), 'utf8');
	const highlight = readFileSync(resolve(root, 'node_modules/highlight.js/styles/github.css'), 'utf8');
	const js = readFileSync(resolve(root, 'src/web/static/site.js'), 'utf8');
	const data = JSON.parse(readFileSync(resolve(root, 'node_modules/@primer/octicons/build/data.json'), 'utf8')) as Record<
		string,
		{ heights: Record<string, { width: number; path: string }> }
	>;
	const icons: AssetSources['icons'] = {};
	for (const name of ICON_NAMES) {
		const icon = data[name];
		if (!icon) throw new Error(`no octicon named ${name}`);
		const height = icon.heights['16'] ? '16' : Object.keys(icon.heights).sort((a, b) => Number(a) - Number(b))[0];
		icons[name] = { width: icon.heights[height].width, height: Number(height), path: icon.heights[height].path };
	}
	return { css: `${primerCss(primer)}\n${highlight}\n${site}`, js, icons };
}
