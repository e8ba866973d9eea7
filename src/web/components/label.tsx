/**
 * Labels as GitHub shows them: a pill in the label's own colour, its text black or white,
 * whichever reads better on it (WCAG contrast).
 *
 * The Content-Security-Policy forbids inline `style` attributes, so colours never go in the markup.
 * Each page collects the colours it shows (ctx.styles); src/web/index.ts writes them as one
 * `<style>` element in the page's head, allowed by its SHA-256 in that answer's policy
 * (`style-src 'self' 'sha256-…'`). Only six-digit hex colours (what the labels API stores) become
 * rules, with class names derived from them, so no user text ever reaches the stylesheet.
 */
import type { WebContext } from '../context';

/** WCAG relative luminance of an sRGB channel (0–255). */
function channel(value: number): number {
	const c = value / 255;
	return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** WCAG relative luminance of a six-digit hex colour. */
export function luminance(hex: string): number {
	const n = Number.parseInt(hex, 16);
	return 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
}

/** The text colour (black or white) with the higher contrast on `hex` (≥ 4.58:1 whatever the colour). */
export function textColorOn(hex: string): '#000000' | '#ffffff' {
	const l = luminance(hex);
	const onBlack = (l + 0.05) / 0.05;
	const onWhite = 1.05 / (l + 0.05);
	return onBlack >= onWhite ? '#000000' : '#ffffff';
}

/**
 * The class of a label colour, its rule recorded for the page's style block.
 * @returns '' for a colour that is not six hex digits (the label is shown neutral)
 */
export function colorClass(ctx: WebContext, color: string): string {
	const hex = color.toLowerCase();
	if (!/^[0-9a-f]{6}$/.test(hex)) return '';
	const name = `gs-lc-${hex}`;
	if (!ctx.styles.has(name))
		ctx.styles.set(name, `.${name}{background-color:#${hex};color:${textColorOn(hex)};border-color:transparent}`);
	return name;
}

/** A label: its name on its colour, the description as the title. */
export function Label({ ctx, name, color, description }: { ctx: WebContext; name: string; color: string; description?: string | null }) {
	const tint = colorClass(ctx, color);
	return (
		<span class={`gs-label mr-1${tint ? ` ${tint}` : ''}`} title={description ?? undefined}>
			{name}
		</span>
	);
}

/** The `<style>` element of a page's label colours ('' when there are none). */
export function styleBlock(styles: ReadonlyMap<string, string>): string {
	if (styles.size === 0) return '';
	return [...styles.values()].join('');
}
