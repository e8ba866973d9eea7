/**
 * GET /rate_limit: every resource's window for the caller,
 * plus the deprecated `rate` (= core). Not counted; 404 when rate limiting is off, as GitHub
 * Enterprise Server answers.
 */
import { RATE_RESOURCES } from '../../config';
import { notFound } from '../../model/errors';
import { ok } from '../../http/reply';
import { route } from '../../http/route';
import { epochSeconds } from '../../time';

export const rateLimitRoutes = [
	route({
		method: 'GET',
		path: '/rate_limit',
		docs: 'rate-limit/rate-limit#get-rate-limit-status-for-the-authenticated-user',
		permissions: [],
		access: 'public',
		resource: 'none',
		rateLimit: null,
		handler(ctx) {
			const limiter = ctx.app.rateLimiter;
			if (!limiter.enabled) throw notFound('Rate limiting is not enabled.');
			const now = epochSeconds(ctx.now);
			const resources: Record<string, { limit: number; used: number; remaining: number; reset: number }> = {};
			for (const resource of RATE_RESOURCES) {
				// source_import is gone from the next API version.
				if (resource === 'source_import' && ctx.apiVersion !== '2022-11-28') continue;
				const window = limiter.peek(ctx.principal.rateKey, resource, now);
				resources[resource] = {
					limit: window.limit,
					used: window.used,
					remaining: Math.max(0, window.limit - window.used),
					reset: window.reset,
				};
			}
			return ok({ resources, rate: resources.core });
		},
	}),
];
