/**
 * A repository's Dependabot switches by their own routes (GitHub's repos API): vulnerability
 * alerts (`GET/PUT/DELETE /repos/{owner}/{repo}/vulnerability-alerts`, the `dependabot_alerts`
 * switch) and automated security fixes (`GET/PUT/DELETE …/automated-security-fixes`, the
 * `dependabot_security_updates` switch). GitHub answers the alerts check 204 when enabled and 404
 * when not; turning security fixes on turns alerts on too, turning alerts off turns fixes off.
 * Repository administrators only.
 * https://docs.github.com/rest/repos/repos#check-if-vulnerability-alerts-are-enabled-for-a-repository
 */
import { notFound } from '../../model/errors';
import { noContent, ok } from '../../http/reply';
import { route, type Context, type RouteDeclaration } from '../../http/route';
import { applySwitches } from './service';
import { switchOn } from './switches';

/** Sets the switches in one transaction (the security_and_analysis event is recorded when one moves). */
function set(ctx: Context, change: { dependabot_alerts?: boolean; dependabot_security_updates?: boolean }) {
	const repo = ctx.repo.repo;
	ctx.app.transaction(() => applySwitches(ctx.app, repo, change, ctx.principal.actorId));
}

const ADMIN = { repo: 'admin' } as const;

export const repositorySecurityRoutes: RouteDeclaration[] = [
	route({
		method: 'GET',
		path: '/repos/{owner}/{repo}/vulnerability-alerts',
		docs: 'repos/repos#check-if-vulnerability-alerts-are-enabled-for-a-repository',
		permissions: [{ administration: 'read' }],
		access: 'authenticated',
		resource: ADMIN,
		handler(ctx) {
			if (!switchOn(ctx.app, ctx.repo.repo.id, 'dependabot_alerts')) throw notFound();
			return noContent();
		},
	}),
	route({
		method: 'PUT',
		path: '/repos/{owner}/{repo}/vulnerability-alerts',
		docs: 'repos/repos#enable-vulnerability-alerts',
		permissions: [{ administration: 'write' }],
		access: 'authenticated',
		resource: ADMIN,
		handler(ctx) {
			set(ctx, { dependabot_alerts: true });
			return noContent();
		},
	}),
	route({
		method: 'DELETE',
		path: '/repos/{owner}/{repo}/vulnerability-alerts',
		docs: 'repos/repos#disable-vulnerability-alerts',
		permissions: [{ administration: 'write' }],
		access: 'authenticated',
		resource: ADMIN,
		handler(ctx) {
			set(ctx, { dependabot_alerts: false, dependabot_security_updates: false });
			return noContent();
		},
	}),
	route({
		method: 'GET',
		path: '/repos/{owner}/{repo}/automated-security-fixes',
		docs: 'repos/repos#check-if-dependabot-security-updates-are-enabled-for-a-repository',
		permissions: [{ administration: 'read' }],
		access: 'authenticated',
		resource: ADMIN,
		handler(ctx) {
			// Gitstead never pauses security updates (GitHub pauses them for inactive repositories).
			return ok({ enabled: switchOn(ctx.app, ctx.repo.repo.id, 'dependabot_security_updates'), paused: false });
		},
	}),
	route({
		method: 'PUT',
		path: '/repos/{owner}/{repo}/automated-security-fixes',
		docs: 'repos/repos#enable-dependabot-security-updates',
		permissions: [{ administration: 'write' }],
		access: 'authenticated',
		resource: ADMIN,
		handler(ctx) {
			set(ctx, { dependabot_alerts: true, dependabot_security_updates: true });
			return noContent();
		},
	}),
	route({
		method: 'DELETE',
		path: '/repos/{owner}/{repo}/automated-security-fixes',
		docs: 'repos/repos#disable-dependabot-security-updates',
		permissions: [{ administration: 'write' }],
		access: 'authenticated',
		resource: ADMIN,
		handler(ctx) {
			set(ctx, { dependabot_security_updates: false });
			return noContent();
		},
	}),
];
