/** Time helpers. The app clock returns epoch milliseconds; tests inject their own. */

export type Clock = () => number;
export const systemClock: Clock = () => Date.now();

/**
 * Epoch milliseconds → 'YYYY-MM-DDTHH:MM:SSZ' (the API's timestamp format). Called several times
 * per write: the milliseconds are cut off by position (toISOString always ends in '.sssZ').
 * @throws RangeError for an invalid time (as toISOString does)
 */
export function isoSeconds(ms: number): string {
	const iso = new Date(ms).toISOString();
	return `${iso.slice(0, -5)}Z`;
}

/** Epoch milliseconds → epoch seconds. */
export function epochSeconds(ms: number): number {
	return Math.floor(ms / 1000);
}
