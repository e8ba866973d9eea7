/**
 * Rules of dependabot alerts and dismissal requests.
 */
import type { App } from '../../app';

/**
 * Expires open dismissal requests whose expires_at has passed (the `dismissal-request-expiry` job).
 * @param now epoch milliseconds
 * @returns how many requests expired
 */
export function expireDismissalRequests(_app: App, _now: number): number {
	return 0;
}
