/**
 * Code security configurations of an organization (GitHub's code-security/configurations
 * operations) and the deprecated POST /orgs/{org}/{security_product}/{enablement}, with the
 * permissions of the permission matrix (organization_administration read for reads, write for
 * changes). Organization owners and the organization's app manage them; members are refused (403)
 * and everyone else sees no organization settings (404).
 *
 * Lists page with GitHub's cursors: `before` and `after` are configuration (or repository) ids,
 * `per_page` at most 100; the Link header names the next page with `after`.
 */
import * as v from 'valibot';
import { conflict, invalidField, notFound } from '../../model/errors';
import { accepted, created, noContent, ok, type Reply } from '../../http/reply';
import { idParam, route, type Context, type ResourceGuard, type RouteDeclaration } from '../../http/route';
import { isoSeconds } from '../../time';
import { simpleRepository } from '../../model/render';
import { configuration } from './render';
import {
	ADVANCED_SECURITY,
	applySwitches,
	ATTACH_SCOPES,
	attachConfiguration,
	changesOf,
	checkSettings,
	scopeRepositories,
	SECURITY_PRODUCTS,
	setDefault,
	settingsOf,
	SETTING_DEFAULTS,
	TRISTATE,
	type SecurityProduct,
	type Settings,
} from './service';
import type { ConfigurationRow } from './store';

const O = '/orgs/{org}/code-security/configurations';
/** Owners and the app; members 403; outsiders see no settings (404). */
const OWNERS = { org: 'owner', conceal: 'outsiders' } as const satisfies ResourceGuard;

const tristate = v.optional(v.picklist(TRISTATE, 'must be enabled, disabled or not_set'));
const settingsFields = {
	advanced_security: v.optional(v.picklist(ADVANCED_SECURITY, 'must be enabled, disabled, code_security or secret_protection')),
	code_security: tristate,
	secret_protection: tristate,
	dependency_graph: tristate,
	dependency_graph_autosubmit_action: tristate,
	dependency_graph_autosubmit_action_options: v.optional(v.object({ labeled_runners: v.optional(v.boolean()) })),
	dependabot_alerts: tristate,
	dependabot_security_updates: tristate,
	dependabot_delegated_alert_dismissal: tristate,
	code_scanning_options: v.optional(v.nullable(v.object({ allow_advanced: v.optional(v.nullable(v.boolean())) }))),
	code_scanning_default_setup: tristate,
	code_scanning_default_setup_options: v.optional(
		v.nullable(
			v.object({
				runner_type: v.optional(v.picklist(['standard', 'labeled', 'not_set'], 'must be standard, labeled or not_set')),
				runner_label: v.optional(v.nullable(v.string())),
			}),
		),
	),
	code_scanning_delegated_alert_dismissal: tristate,
	secret_scanning: tristate,
	secret_scanning_push_protection: tristate,
	secret_scanning_delegated_bypass: tristate,
	secret_scanning_delegated_bypass_options: v.optional(
		v.object({
			reviewers: v.optional(
				v.array(
					v.object({
						reviewer_id: v.pipe(v.number(), v.integer()),
						reviewer_type: v.picklist(['TEAM', 'ROLE'], 'must be TEAM or ROLE'),
						mode: v.optional(v.picklist(['ALWAYS', 'EXEMPT'], 'must be ALWAYS or EXEMPT')),
					}),
				),
			),
		}),
	),
	secret_scanning_validity_checks: tristate,
	secret_scanning_non_provider_patterns: tristate,
	secret_scanning_generic_secrets: tristate,
	secret_scanning_delegated_alert_dismissal: tristate,
	secret_scanning_extended_metadata: tristate,
	private_vulnerability_reporting: tristate,
	enforcement: v.optional(v.picklist(['enforced', 'unenforced'], 'must be enforced or unenforced')),
};
const name = v.pipe(
	v.string(),
	v.trim(),
	v.minLength(1, 'name must not be empty'),
	v.maxLength(255, 'name is too long (maximum is 255 characters)'),
);
const description = v.pipe(v.string(), v.maxLength(255, 'description is too long (maximum is 255 characters)'));
const createBody = v.object({ name, description: v.optional(description), ...settingsFields });
const updateBody = v.object({ name: v.optional(name), description: v.optional(description), ...settingsFields });
type SettingsInput = Partial<v.InferOutput<typeof updateBody>>;

const cursor = v.optional(v.pipe(v.string(), v.regex(/^\d+$/, 'must be a cursor from a Link header')));
const perPage = v.optional(v.pipe(v.string(), v.regex(/^\d+$/, 'must be a number')));
const listQuery = v.object({
	target_type: v.optional(v.picklist(['global', 'all'], 'must be global or all'), 'all'),
	per_page: perPage,
	before: cursor,
	after: cursor,
});
const REPOSITORY_STATUSES = [
	'all',
	'attached',
	'attaching',
	'detached',
	'removed',
	'enforced',
	'failed',
	'updating',
	'removed_by_enterprise',
];
const repositoriesQuery = v.object({
	per_page: perPage,
	before: cursor,
	after: cursor,
	status: v.optional(
		v.pipe(
			v.string(),
			v.check(
				(text) => text.split(',').every((s) => REPOSITORY_STATUSES.includes(s.trim())),
				`must be a comma-separated list of: ${REPOSITORY_STATUSES.join(', ')}`,
			),
		),
		'all',
	),
});
const detachBody = v.object({
	selected_repository_ids: v.pipe(
		v.array(v.pipe(v.number(), v.integer())),
		v.minLength(1, 'selected_repository_ids must name at least one repository'),
		v.maxLength(250, 'selected_repository_ids names at most 250 repositories'),
	),
});
const attachBody = v.object({
	scope: v.picklist(ATTACH_SCOPES, `must be one of ${ATTACH_SCOPES.join(', ')}`),
	selected_repository_ids: v.optional(v.array(v.pipe(v.number(), v.integer()))),
});
const defaultsBody = v.object({
	default_for_new_repos: v.optional(
		v.picklist(['all', 'none', 'private_and_internal', 'public'], 'must be all, none, private_and_internal or public'),
	),
});
const enablementBody = v.object({ query_suite: v.optional(v.picklist(['default', 'extended'], 'must be default or extended')) });

/** The settings `input` gives over `base` (option objects merged over the base's). */
function merged(base: Settings, input: SettingsInput): Settings {
	const next = { ...base } as Record<string, unknown>;
	for (const key of Object.keys(SETTING_DEFAULTS) as Array<keyof Settings>) {
		const value = (input as Record<string, unknown>)[key];
		if (value === undefined) continue;
		if (key === 'dependency_graph_autosubmit_action_options') {
			next[key] = { labeled_runners: (value as { labeled_runners?: boolean }).labeled_runners ?? false };
		} else if (key === 'code_scanning_default_setup_options') {
			next[key] = value === null ? null : { runner_type: 'not_set', runner_label: null, ...(value as object) };
		} else if (key === 'secret_scanning_delegated_bypass_options') {
			const reviewers = (value as { reviewers?: Array<Record<string, unknown>> }).reviewers ?? [];
			next[key] = { reviewers: reviewers.map((r) => ({ mode: 'ALWAYS', ...r })) };
		} else next[key] = value;
	}
	return next as unknown as Settings;
}

/** The organization's configuration {configuration_id}, or a GitHub-provided one. @throws DomainError 404 */
function loadConfiguration(ctx: Context): ConfigurationRow {
	const id = idParam(ctx.params.configuration_id);
	const row = id === null ? undefined : ctx.app.stores.codeSecurity.byId(id);
	if (!row || (row.org_id !== null && row.org_id !== ctx.org.org.id)) throw notFound();
	return row;
}

/** The organization's own configuration (GitHub-provided ones cannot be changed). @throws DomainError 404, 409 */
function ownConfiguration(ctx: Context): ConfigurationRow {
	const row = loadConfiguration(ctx);
	if (row.org_id === null) throw conflict('GitHub-provided configurations cannot be changed or deleted.');
	return row;
}

/** Delegated-bypass reviewers must be teams of the organization. @throws DomainError 422 */
function checkReviewers(ctx: Context, settings: Settings): void {
	for (const reviewer of settings.secret_scanning_delegated_bypass_options.reviewers) {
		if (reviewer.reviewer_type !== 'TEAM') continue;
		const team = ctx.app.stores.teams.byId(reviewer.reviewer_id);
		if (!team || team.org_id !== ctx.org.org.id) {
			throw invalidField(
				'CodeSecurityConfiguration',
				'secret_scanning_delegated_bypass_options',
				`team ${reviewer.reviewer_id} is not a team of ${ctx.org.org.login}`,
			);
		}
	}
}

/** A name taken by another configuration of the organization or by a GitHub-provided one. @throws DomainError 422 */
function checkName(ctx: Context, text: string, self: number | null): void {
	const taken = ctx.app.stores.codeSecurity.byName(ctx.org.org.id, text) ?? ctx.app.stores.codeSecurity.byName(0, text);
	if (taken && taken.id !== self)
		throw invalidField('CodeSecurityConfiguration', 'name', 'Name has already been taken', 'already_exists');
}

/** per_page (default 30, at most 100) and the id cursors of a cursor-paged list. */
function cursorOf(query: { per_page?: string; before?: string; after?: string }) {
	return {
		limit: Math.min(Math.max(Number(query.per_page ?? 30) || 30, 1), 100),
		cursor: { after: query.after ? Number(query.after) : null, before: query.before ? Number(query.before) : null },
	};
}

/** A cursor page: the Link header names the next page (after the last id) when the page is full. */
function cursorPage(ctx: Context, items: unknown[], lastId: number | undefined, limit: number): Reply {
	const reply: Reply = { status: 200, body: items };
	if (items.length === limit && lastId !== undefined) {
		const url = new URL(ctx.app.urls.api(ctx.req.url?.replace(/^\/api\/v3/, '').split('?')[0] ?? ''));
		url.searchParams.set('per_page', String(limit));
		url.searchParams.set('after', String(lastId));
		reply.headers = { Link: `<${url.toString()}>; rel="next"` };
	}
	return reply;
}

export const codeSecurityRoutes: RouteDeclaration[] = [
	route({
		method: 'GET',
		path: O,
		docs: 'code-security/configurations#get-code-security-configurations-for-an-organization',
		permissions: 'matrix',
		access: 'authenticated',
		resource: OWNERS,
		query: listQuery,
		handler(ctx) {
			const { limit, cursor } = cursorOf(ctx.query);
			const rows = ctx.app.stores.codeSecurity.list(ctx.org.org.id, ctx.query.target_type === 'global', cursor, limit);
			return cursorPage(
				ctx,
				rows.map((row) => configuration(ctx.app.urls, ctx.org.org, row)),
				rows.at(-1)?.id,
				limit,
			);
		},
	}),
	route({
		method: 'POST',
		path: O,
		docs: 'code-security/configurations#create-a-code-security-configuration',
		permissions: 'matrix',
		access: 'authenticated',
		resource: OWNERS,
		errorResource: 'CodeSecurityConfiguration',
		body: createBody,
		handler(ctx) {
			const { name: text, description: about, ...input } = ctx.body;
			checkName(ctx, text, null);
			const settings = merged(SETTING_DEFAULTS, input);
			checkSettings(settings);
			checkReviewers(ctx, settings);
			const store = ctx.app.stores.codeSecurity;
			const id = store.insert(
				{ org_id: ctx.org.org.id, name: text, description: about ?? '', settings: JSON.stringify(settings) },
				isoSeconds(ctx.now),
			);
			const body = configuration(ctx.app.urls, ctx.org.org, store.byId(id)!);
			return created(body, body.url);
		},
	}),
	route({
		method: 'GET',
		path: `${O}/defaults`,
		docs: 'code-security/configurations#get-default-code-security-configurations',
		permissions: 'matrix',
		access: 'authenticated',
		resource: OWNERS,
		handler(ctx) {
			const rows = ctx.app.stores.codeSecurity.defaults(ctx.org.org.id);
			return ok(
				rows.map((row) => ({
					default_for_new_repos: row.default_for_new_repos,
					configuration: configuration(ctx.app.urls, ctx.org.org, row),
				})),
			);
		},
	}),
	route({
		method: 'DELETE',
		path: `${O}/detach`,
		docs: 'code-security/configurations#detach-configurations-from-repositories',
		permissions: 'matrix',
		access: 'authenticated',
		resource: OWNERS,
		errorResource: 'CodeSecurityConfiguration',
		body: detachBody,
		handler(ctx) {
			// The repositories keep their settings: only the attachment goes (GitHub's detach).
			const repos = scopeRepositories(ctx.app, ctx.org.org, 'selected', ctx.body.selected_repository_ids);
			for (const repo of repos) ctx.app.stores.codeSecurity.detach(repo.id);
			return noContent();
		},
	}),
	route({
		method: 'GET',
		path: `${O}/{configuration_id}`,
		docs: 'code-security/configurations#get-a-code-security-configuration',
		permissions: 'matrix',
		access: 'authenticated',
		resource: OWNERS,
		handler(ctx) {
			return ok(configuration(ctx.app.urls, ctx.org.org, loadConfiguration(ctx)));
		},
	}),
	route({
		method: 'PATCH',
		path: `${O}/{configuration_id}`,
		docs: 'code-security/configurations#update-a-code-security-configuration',
		permissions: 'matrix',
		access: 'authenticated',
		resource: OWNERS,
		errorResource: 'CodeSecurityConfiguration',
		body: updateBody,
		handler(ctx) {
			const row = ownConfiguration(ctx);
			const { name: text, description: about, ...input } = ctx.body;
			if (text !== undefined) checkName(ctx, text, row.id);
			const before = settingsOf(row);
			const settings = merged(before, input);
			checkSettings(settings);
			checkReviewers(ctx, settings);
			const next = { id: row.id, name: text ?? row.name, description: about ?? row.description, settings: JSON.stringify(settings) };
			// GitHub answers 204 when the request changes nothing.
			if (next.name === row.name && next.description === row.description && JSON.stringify(settings) === JSON.stringify(before))
				return noContent();
			const store = ctx.app.stores.codeSecurity;
			const now = isoSeconds(ctx.now);
			store.update(next, now);
			const updated = store.byId(row.id)!;
			// The attached repositories take the new settings.
			const change = changesOf(settings);
			for (const repo of store.attachedRepositories(ctx.org.org.id, row.id, { after: null, before: null }, Number.MAX_SAFE_INTEGER)) {
				applySwitches(ctx.app, repo, change, ctx.org.actorId);
			}
			return ok(configuration(ctx.app.urls, ctx.org.org, updated));
		},
	}),
	route({
		method: 'DELETE',
		path: `${O}/{configuration_id}`,
		docs: 'code-security/configurations#delete-a-code-security-configuration',
		permissions: 'matrix',
		access: 'authenticated',
		resource: OWNERS,
		handler(ctx) {
			// Its repositories are detached and keep their settings; it stops being a default.
			ctx.app.stores.codeSecurity.remove(ownConfiguration(ctx).id);
			return noContent();
		},
	}),
	route({
		method: 'POST',
		path: `${O}/{configuration_id}/attach`,
		docs: 'code-security/configurations#attach-a-configuration-to-repositories',
		permissions: 'matrix',
		access: 'authenticated',
		resource: OWNERS,
		errorResource: 'CodeSecurityConfiguration',
		body: attachBody,
		handler(ctx) {
			const row = loadConfiguration(ctx);
			const repos = scopeRepositories(ctx.app, ctx.org.org, ctx.body.scope, ctx.body.selected_repository_ids);
			// GitHub attaches in the background (202); Gitstead has done it when it answers.
			attachConfiguration(ctx.app, row, repos, ctx.org.actorId, isoSeconds(ctx.now));
			return accepted({});
		},
	}),
	route({
		method: 'PUT',
		path: `${O}/{configuration_id}/defaults`,
		docs: 'code-security/configurations#set-a-code-security-configuration-as-a-default-for-an-organization',
		permissions: 'matrix',
		access: 'authenticated',
		resource: OWNERS,
		errorResource: 'CodeSecurityConfiguration',
		body: defaultsBody,
		handler(ctx) {
			const row = loadConfiguration(ctx);
			const value = ctx.body.default_for_new_repos;
			if (value !== undefined) setDefault(ctx.app, ctx.org.org.id, row, value);
			const current = ctx.app.stores.codeSecurity.defaults(ctx.org.org.id).find((d) => d.id === row.id);
			return ok({
				default_for_new_repos: current?.default_for_new_repos ?? 'none',
				configuration: configuration(ctx.app.urls, ctx.org.org, row),
			});
		},
	}),
	route({
		method: 'GET',
		path: `${O}/{configuration_id}/repositories`,
		docs: 'code-security/configurations#get-repositories-associated-with-a-code-security-configuration',
		permissions: 'matrix',
		access: 'authenticated',
		resource: OWNERS,
		query: repositoriesQuery,
		handler(ctx) {
			const row = loadConfiguration(ctx);
			const { limit, cursor } = cursorOf(ctx.query);
			const statuses = ctx.query.status.split(',').map((s) => s.trim());
			// Attachments take effect at once: every repository is `attached` (`enforced` for an enforced configuration).
			const status = settingsOf(row).enforcement === 'enforced' ? 'enforced' : 'attached';
			const wanted = statuses.includes('all') || statuses.includes(status);
			const repos = wanted ? ctx.app.stores.codeSecurity.attachedRepositories(ctx.org.org.id, row.id, cursor, limit) : [];
			const items = repos.map((repo) => ({ status, repository: simpleRepository(ctx.app.urls, repo, ctx.org.org) }));
			return cursorPage(ctx, items, repos.at(-1)?.id, limit);
		},
	}),
	route({
		method: 'POST',
		path: '/orgs/{org}/{security_product}/{enablement}',
		docs: 'orgs/orgs#enable-or-disable-a-security-feature-for-an-organization',
		permissions: 'matrix',
		access: 'authenticated',
		resource: OWNERS,
		body: enablementBody,
		handler(ctx) {
			const product = ctx.params.security_product;
			const enablement = ctx.params.enablement;
			if (!Object.hasOwn(SECURITY_PRODUCTS, product) || (enablement !== 'enable_all' && enablement !== 'disable_all'))
				throw notFound();
			const on = enablement === 'enable_all';
			const name = SECURITY_PRODUCTS[product as SecurityProduct];
			// Enabling a feature enables what it builds on; disabling one disables what builds on it.
			const change: Record<string, boolean> = { [name]: on };
			if (on && (name === 'dependabot_alerts' || name === 'dependabot_security_updates')) change.dependency_graph = true;
			if (on && name === 'dependabot_security_updates') change.dependabot_alerts = true;
			if (on && name === 'secret_scanning_push_protection') change.secret_scanning = true;
			if (!on && name === 'dependency_graph') Object.assign(change, { dependabot_alerts: false, dependabot_security_updates: false });
			if (!on && name === 'dependabot_alerts') change.dependabot_security_updates = false;
			if (!on && name === 'secret_scanning') change.secret_scanning_push_protection = false;
			for (const repo of ctx.app.stores.repos.forOwner(ctx.org.org.id)) applySwitches(ctx.app, repo, change, ctx.org.actorId);
			return noContent();
		},
	}),
];
