/**
 * Dependabot alerts and dismissal requests (GitHub's dependabot/* alert and alert-dismissal-request
 * operations). Every route answers at GitHub's `/dependabot/` path and at the `/depbot/` spelling.
 *
 * Alerts: read by callers with write (push) access to the repository — organization lists by
 * owners — with Dependabot alerts (vulnerability_alerts) read; dismissed and reopened with
 * Dependabot alerts write. Classic and OAuth tokens: security_events or repo (public_repo for
 * public repositories only; private repositories need repo).
 * Dismissal requests: the repository needs delegated alert dismissal (403 otherwise); created by
 * callers with push access, reviewed by reviewers (repository admins, organization owners, apps),
 * cancelled by the requester or a reviewer; the organization list is for owners, with the
 * organization_dependabot_dismissal_requests permission. Classic and OAuth tokens: security_events.
 */
import * as v from 'valibot';
import { forbidden } from '../../model/errors';
import { created, noContent, ok, paged } from '../../http/reply';
import { route, type Context, type RouteDeclaration } from '../../http/route';
import { isoSeconds } from '../../time';
import type { RepoAccess } from '../../auth/access/types';
import { atLeast } from '../../model/repo-permissions';
import { switchOn } from '../code-security/switches';
import { ECOSYSTEMS } from './advisories';
import { AlertRenderer, dismissalRequest } from './render';
import {
	ALERT_STATES,
	cancelDismissalRequest,
	createDismissalRequest,
	DISMISSED_REASONS,
	latestRequest,
	loadAlert,
	MAX_DISMISSED_COMMENT,
	MAX_REVIEW_MESSAGE,
	ORG_REQUEST_STATUSES,
	RELATIONSHIPS,
	REPO_REQUEST_STATUSES,
	requireDelegatedDismissal,
	responsesByRequest,
	reviewDismissalRequest,
	SEVERITIES,
	statusFilter,
	TIME_PERIODS,
	updateAlert,
	type TimePeriod,
} from './service';
import type { AlertFilter, AlertOrder, RequestFilter } from './store';

const REPO_ALERTS = '/repos/{owner}/{repo}/dependabot/alerts';
const REPO_REQUESTS = '/repos/{owner}/{repo}/dismissal-requests/dependabot';
const ALERT_SCOPES = ['security_events', 'repo', 'public_repo'];

type Policy = Pick<RouteDeclaration, 'permissions' | 'access' | 'scopes'>;
const ALERTS_READ: Policy = { permissions: [{ vulnerability_alerts: 'read' }], scopes: ALERT_SCOPES, access: 'authenticated' };
const ALERTS_WRITE: Policy = { permissions: [{ vulnerability_alerts: 'write' }], scopes: ALERT_SCOPES, access: 'authenticated' };
const REQUESTS_READ: Policy = { permissions: [{ vulnerability_alerts: 'read' }], scopes: ['security_events'], access: 'authenticated' };
const REQUESTS_WRITE: Policy = { permissions: [{ vulnerability_alerts: 'write' }], scopes: ['security_events'], access: 'authenticated' };
const ORG_REQUESTS_READ: Policy = {
	permissions: [{ organization_dependabot_dismissal_requests: 'read' }],
	scopes: ['security_events'],
	access: 'authenticated',
};

/** The declaration at its GitHub path and at the `/depbot/` spelling. */
function bothSpellings(declaration: RouteDeclaration): RouteDeclaration[] {
	return [declaration, { ...declaration, path: declaration.path.replace(/\/dependabot(?=\/|$)/, '/depbot') }];
}

const split = (text: string | undefined) =>
	(text ?? '')
		.split(',')
		.map((part) => part.trim())
		.filter(Boolean);
/** An optional comma-separated list of allowed values. */
const commaList = (allowed: readonly string[]) =>
	v.optional(
		v.pipe(
			v.string(),
			v.check(
				(text) => split(text).every((value) => allowed.includes(value)),
				`must be a comma-separated list of: ${allowed.join(', ')}`,
			),
		),
	);
const hasValues = (value: string | string[] | undefined) => (Array.isArray(value) ? value.flatMap(split) : split(value));

const alertsQuery = v.object({
	state: commaList(ALERT_STATES),
	severity: commaList(SEVERITIES),
	ecosystem: commaList(ECOSYSTEMS),
	package: v.optional(v.string()),
	manifest: v.optional(v.string()),
	scope: v.optional(v.picklist(['development', 'runtime'], 'must be development or runtime')),
	relationship: commaList(RELATIONSHIPS),
	classification: commaList(['malware', 'general']),
	has: v.optional(
		v.pipe(
			v.union([v.string(), v.array(v.string())]),
			v.check((value) => hasValues(value).every((item) => item === 'patch'), 'must be patch'),
		),
	),
	// Accepted; Gitstead keeps EPSS as imported but does not filter or sort by it.
	epss_percentage: v.optional(v.string()),
	sort: v.optional(v.picklist(['created', 'updated', 'epss_percentage'], 'must be created, updated or epss_percentage'), 'created'),
	direction: v.optional(v.picklist(['asc', 'desc'], 'must be asc or desc'), 'desc'),
});
type AlertsQuery = v.InferOutput<typeof alertsQuery>;

const dismissedReason = v.picklist(DISMISSED_REASONS, `must be one of ${DISMISSED_REASONS.join(', ')}`);
const dismissedComment = v.optional(
	v.pipe(v.string(), v.maxLength(MAX_DISMISSED_COMMENT, `must be at most ${MAX_DISMISSED_COMMENT} characters`)),
);

const updateBody = v.object({
	state: v.picklist(['dismissed', 'open'], 'must be dismissed or open'),
	dismissed_reason: v.optional(dismissedReason),
	dismissed_comment: dismissedComment,
});

const timePeriod = (fallback: TimePeriod) =>
	v.optional(v.picklist(Object.keys(TIME_PERIODS) as TimePeriod[], 'must be hour, day, week or month'), fallback);
const orgRequestsQuery = v.object({
	repository_name: v.optional(v.string()),
	reviewer: v.optional(v.string()),
	requester: v.optional(v.string()),
	time_period: timePeriod('day'),
	request_status: v.optional(v.picklist(ORG_REQUEST_STATUSES, `must be one of ${ORG_REQUEST_STATUSES.join(', ')}`), 'all'),
});
const repoRequestsQuery = v.object({
	reviewer: v.optional(v.string()),
	requester: v.optional(v.string()),
	time_period: timePeriod('month'),
	request_status: v.optional(v.picklist(REPO_REQUEST_STATUSES, `must be one of ${REPO_REQUEST_STATUSES.join(', ')}`), 'all'),
});

const createBody = v.object({
	dismissed_reason: dismissedReason,
	dismissed_comment: dismissedComment,
});
const reviewBody = v.object({
	status: v.picklist(['approve', 'deny'], 'must be approve or deny'),
	message: v.pipe(v.string(), v.maxLength(MAX_REVIEW_MESSAGE, `must be at most ${MAX_REVIEW_MESSAGE} characters`)),
});

/**
 * Alerts and dismissal requests are for callers with write access (GitHub: write, maintain, admin,
 * security managers); dismissing or reviewing does not change the repository's content.
 */
const ALERT_REPOSITORY = { repo: 'push', writable: false, securityManagers: true } as const;

/**
 * Dependabot alerts are read and changed only where the repository's `dependabot_alerts` switch is
 * on (a code security configuration or POST /orgs/{org}/dependabot_alerts/disable_all turns it off).
 * @throws DomainError 403, GitHub's "Dependabot alerts are disabled for this repository."
 */
function requireAlerts(ctx: Context, access: RepoAccess): void {
	if (!switchOn(ctx.app, access.repo.id, 'dependabot_alerts')) throw forbidden('Dependabot alerts are disabled for this repository.');
}

/** A dismissal reviewer: repository admin (organization owners are), or an app acting on the repository. */
function isReviewer(access: RepoAccess): boolean {
	return atLeast(access.permission, 'admin');
}

/** Who acts: the user, or an app's bot account. */
function actorOf(ctx: Context): number {
	if (ctx.principal.actorId === null) throw forbidden('This operation needs a user or an app installation.');
	return ctx.principal.actorId;
}

function alertFilter(query: AlertsQuery, scope: { repoId: number | null; orgId: number | null; repoIds: number[] | null }): AlertFilter {
	const list = (text: string | undefined) => {
		const values = split(text);
		return values.length ? values : null;
	};
	return {
		...scope,
		states: list(query.state),
		severities: list(query.severity),
		ecosystems: list(query.ecosystem),
		packages: list(query.package),
		manifests: list(query.manifest),
		scope: query.scope ?? null,
		relationships: list(query.relationship),
		classifications: list(query.classification),
		hasPatch: hasValues(query.has).includes('patch'),
	};
}

/** created and epss_percentage (not kept) sort by creation; updated by last change. */
function alertOrder(query: AlertsQuery): AlertOrder {
	return `${query.sort === 'updated' ? 'updated' : 'created'}_${query.direction}` as AlertOrder;
}

/** Repository ids an installation token is limited to, or null. */
function tokenRepositories(ctx: Context): number[] | null {
	return ctx.principal.repositoryIds ? [...ctx.principal.repositoryIds] : null;
}

/** A page of dismissal requests, rendered; logins that name nobody match nothing. */
function requestPage(
	ctx: Context,
	scope: Pick<RequestFilter, 'repoId' | 'orgId' | 'repoIds' | 'repoName'>,
	query: { time_period: TimePeriod; request_status: string; requester?: string; reviewer?: string },
) {
	const { accounts, dependabot } = ctx.app.stores;
	const { requester, reviewer } = query;
	const filter = {
		...scope,
		since: isoSeconds(ctx.now - TIME_PERIODS[query.time_period]),
		statuses: statusFilter(query.request_status),
		now: isoSeconds(ctx.now),
	};
	const requesterAccount = requester ? accounts.byLogin(requester) : undefined;
	const reviewerAccount = reviewer ? accounts.byLogin(reviewer) : undefined;
	if ((requester && !requesterAccount) || (reviewer && !reviewerAccount)) return paged([], 0);
	const { rows, total } = dependabot.listRequests(
		{ ...filter, requesterId: requesterAccount?.id ?? null, reviewerId: reviewerAccount?.id ?? null },
		{ limit: ctx.page.perPage, offset: ctx.page.offset },
	);
	const responses = responsesByRequest(ctx.app, rows);
	return paged(
		rows.map((row) => dismissalRequest(ctx.app.urls, row, responses.get(row.id))),
		total,
	);
}

const declarations: RouteDeclaration[] = [
	// ---------------------------------------------------------------- alerts
	route({
		...ALERTS_READ,
		method: 'GET',
		path: REPO_ALERTS,
		resource: ALERT_REPOSITORY,
		docs: 'dependabot/alerts#list-dependabot-alerts-for-a-repository',
		errorResource: 'DependabotAlert',
		// GitHub documents these 422 answers as validation-error-simple (errors[] are sentences).
		errorShape: 'simple',
		query: alertsQuery,
		pagination: true,
		handler(ctx) {
			const access = ctx.repo;
			requireAlerts(ctx, access);
			const { rows, total } = ctx.app.stores.dependabot.listAlerts(
				alertFilter(ctx.query, { repoId: access.repo.id, orgId: null, repoIds: null }),
				alertOrder(ctx.query),
				{ limit: ctx.page.perPage, offset: ctx.page.offset },
			);
			const renderer = new AlertRenderer(ctx.app, ctx.apiVersion, isoSeconds(ctx.now));
			return paged(renderer.alerts(rows), total);
		},
	}),
	route({
		...ALERTS_READ,
		method: 'GET',
		path: `${REPO_ALERTS}/{alert_number}`,
		resource: ALERT_REPOSITORY,
		docs: 'dependabot/alerts#get-a-dependabot-alert',
		handler(ctx) {
			const access = ctx.repo;
			requireAlerts(ctx, access);
			const alert = loadAlert(ctx.app, access.repo, ctx.params.alert_number);
			return ok(new AlertRenderer(ctx.app, ctx.apiVersion, isoSeconds(ctx.now)).alert(alert));
		},
	}),
	route({
		...ALERTS_WRITE,
		method: 'PATCH',
		path: `${REPO_ALERTS}/{alert_number}`,
		resource: ALERT_REPOSITORY,
		docs: 'dependabot/alerts#update-a-dependabot-alert',
		errorResource: 'DependabotAlert',
		// GitHub documents these 422 answers as validation-error-simple (errors[] are sentences).
		errorShape: 'simple',
		body: updateBody,
		handler(ctx) {
			const access = ctx.repo;
			requireAlerts(ctx, access);
			const alert = loadAlert(ctx.app, access.repo, ctx.params.alert_number);
			if (ctx.body.state === 'dismissed' && access.repo.delegated_alert_dismissal === 1 && !isReviewer(access)) {
				const requests = `/repos/${access.owner.login}/${access.repo.name}/dismissal-requests/dependabot/${alert.number}`;
				throw forbidden(
					'Delegated alert dismissal is enabled for this repository: only dismissal reviewers (repository administrators and ' +
						`organization owners) dismiss alerts directly; request a dismissal with POST ${requests}.`,
				);
			}
			const now = isoSeconds(ctx.now);
			const updated = updateAlert(ctx.app, access.repo, alert, ctx.body, actorOf(ctx), now);
			return ok(new AlertRenderer(ctx.app, ctx.apiVersion, now).alert(updated));
		},
	}),
	route({
		...ALERTS_READ,
		method: 'GET',
		path: '/orgs/{org}/dependabot/alerts',
		resource: { org: 'owner', securityManagers: true },
		docs: 'dependabot/alerts#list-dependabot-alerts-for-an-organization',
		errorResource: 'DependabotAlert',
		// GitHub documents these 422 answers as validation-error-simple (errors[] are sentences).
		errorShape: 'simple',
		query: alertsQuery,
		pagination: true,
		handler(ctx) {
			const access = ctx.org;
			const { rows, total } = ctx.app.stores.dependabot.listAlerts(
				alertFilter(ctx.query, { repoId: null, orgId: access.org.id, repoIds: tokenRepositories(ctx) }),
				alertOrder(ctx.query),
				{ limit: ctx.page.perPage, offset: ctx.page.offset },
			);
			const renderer = new AlertRenderer(ctx.app, ctx.apiVersion, isoSeconds(ctx.now));
			return paged(renderer.alerts(rows, true), total);
		},
	}),

	// ---------------------------------------------------------------- dismissal requests
	route({
		...ORG_REQUESTS_READ,
		method: 'GET',
		path: '/orgs/{org}/dismissal-requests/dependabot',
		resource: { org: 'owner', securityManagers: true },
		docs: 'dependabot/alert-dismissal-requests#list-dismissal-requests-for-dependabot-alerts-for-an-organization',
		errorResource: 'DismissalRequest',
		query: orgRequestsQuery,
		pagination: true,
		handler(ctx) {
			const access = ctx.org;
			const scope = {
				repoId: null,
				orgId: access.org.id,
				repoIds: tokenRepositories(ctx),
				repoName: ctx.query.repository_name || null,
			};
			return requestPage(ctx, scope, ctx.query);
		},
	}),
	route({
		...REQUESTS_READ,
		method: 'GET',
		path: REPO_REQUESTS,
		resource: ALERT_REPOSITORY,
		docs: 'dependabot/alert-dismissal-requests#list-dismissal-requests-for-dependabot-alerts-for-a-repository',
		errorResource: 'DismissalRequest',
		query: repoRequestsQuery,
		pagination: true,
		handler(ctx) {
			const access = ctx.repo;
			requireAlerts(ctx, access);
			requireDelegatedDismissal(access.repo);
			return requestPage(ctx, { repoId: access.repo.id, orgId: null, repoIds: null, repoName: null }, ctx.query);
		},
	}),
	route({
		...REQUESTS_READ,
		method: 'GET',
		path: `${REPO_REQUESTS}/{alert_number}`,
		resource: ALERT_REPOSITORY,
		docs: 'dependabot/alert-dismissal-requests#get-a-dismissal-request-for-a-dependabot-alert-for-a-repository',
		handler(ctx) {
			const access = ctx.repo;
			requireAlerts(ctx, access);
			requireDelegatedDismissal(access.repo);
			const alert = loadAlert(ctx.app, access.repo, ctx.params.alert_number);
			const request = latestRequest(ctx.app, alert, isoSeconds(ctx.now));
			return ok(dismissalRequest(ctx.app.urls, request, responsesByRequest(ctx.app, [request]).get(request.id)));
		},
	}),
	route({
		...REQUESTS_WRITE,
		method: 'POST',
		path: `${REPO_REQUESTS}/{alert_number}`,
		resource: ALERT_REPOSITORY,
		docs: 'dependabot/alert-dismissal-requests#create-a-dismissal-request-for-a-dependabot-alert-for-a-repository',
		errorResource: 'DismissalRequest',
		body: createBody,
		handler(ctx) {
			const access = ctx.repo;
			requireAlerts(ctx, access);
			requireDelegatedDismissal(access.repo);
			const alert = loadAlert(ctx.app, access.repo, ctx.params.alert_number);
			const request = createDismissalRequest(ctx.app, alert, actorOf(ctx), ctx.body, ctx.now);
			const body = dismissalRequest(ctx.app.urls, request);
			return created(body, body.url);
		},
	}),
	route({
		...REQUESTS_WRITE,
		method: 'PATCH',
		path: `${REPO_REQUESTS}/{alert_number}`,
		resource: ALERT_REPOSITORY,
		docs: 'dependabot/alert-dismissal-requests#review-a-dismissal-request-for-a-dependabot-alert-for-a-repository',
		errorResource: 'DismissalRequest',
		body: reviewBody,
		handler(ctx) {
			const access = ctx.repo;
			requireAlerts(ctx, access);
			requireDelegatedDismissal(access.repo);
			const alert = loadAlert(ctx.app, access.repo, ctx.params.alert_number);
			const id = reviewDismissalRequest(ctx.app, access.repo, alert, actorOf(ctx), isReviewer(access), ctx.body, isoSeconds(ctx.now));
			return ok({ dismissal_review_id: id });
		},
	}),
	route({
		...REQUESTS_WRITE,
		method: 'DELETE',
		path: `${REPO_REQUESTS}/{alert_number}`,
		resource: ALERT_REPOSITORY,
		docs: 'dependabot/alert-dismissal-requests#cancel-a-dismissal-request-for-a-dependabot-alert-for-a-repository',
		handler(ctx) {
			const access = ctx.repo;
			requireAlerts(ctx, access);
			requireDelegatedDismissal(access.repo);
			const alert = loadAlert(ctx.app, access.repo, ctx.params.alert_number);
			cancelDismissalRequest(ctx.app, alert, ctx.principal.actorId, isReviewer(access), isoSeconds(ctx.now));
			return noContent();
		},
	}),
];

export const dependabotRoutes: RouteDeclaration[] = declarations.flatMap(bothSpellings);
