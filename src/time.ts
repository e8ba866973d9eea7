/** Time helpers. The app clock returns epoch milliseconds; tests inject their own. */

export type Clock = () => number;
export const systemClock: Clock = () => Date.now();

/**
 * Epoch milliseconds → 'YYYY-MM-DDTHH:MM:SSZ' (the API's timestamp format). Called several times
 * per write: the milliseconds are cut off by position (toISOString always ends in '.sssZ'), and the
 * last second's text is reused.
 * @throws RangeError for an invalid time (as toISOString does)
 */
export function isoSeconds(ms: number): string {
	const second = Math.floor(ms / 1000);
	if (second === lastSecond) return lastIso; // NaN never equals: an invalid time still throws
	const iso = new Date(ms).toISOString();
	lastSecond = second;
	lastIso = `${iso.slice(0, -5)}Z`;
	return lastIso;
}
/** The second isoSeconds formatted last, and its text: a request's several calls format it once. */
let lastSecond = Number.NaN;
let lastIso = '';

/** Epoch milliseconds → epoch seconds. */
export function epochSeconds(ms: number): number {
	return Math.floor(ms / 1000);
}
