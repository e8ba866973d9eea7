/**
 * Billing budgets (https://docs.github.com/en/rest/billing/budgets): list, create, get, update,
 * delete, for an organization (/organizations/{org}/settings/billing/budgets) and an enterprise
 * (/enterprises/{enterprise}/settings/billing/budgets). Lists answer {budgets, has_next_page,
 * total_count} with 10 per page by default; create and update answer {message, budget}.
 */
import * as v from 'valibot';
import { forbidden, notFound } from '../../model/errors';
import { ok } from '../../http/reply';
import { route, type Context, type ResourceGuard, type RouteDeclaration } from '../../http/route';
import { isoSeconds } from '../../time';
import { BUDGET_TYPES, ENTERPRISE_SCOPES, ORGANIZATION_FILTER_SCOPES, ORGANIZATION_SCOPES, ORGANIZATION_UPDATE_SCOPES } from './catalog';
import { budget, budgetListItem } from './render';
import { createBudget, updateBudget, type BudgetContext, type BudgetInput } from './service';

const alerting = v.object({ will_alert: v.optional(v.boolean()), alert_recipients: v.optional(v.array(v.string())) });
const fields = {
	budget_amount: v.optional(v.pipe(v.number(), v.integer('budget_amount is a whole number'), v.minValue(0))),
	prevent_further_usage: v.optional(v.boolean()),
	budget_alerting: v.optional(alerting),
	budget_entity_name: v.optional(v.string()),
	budget_type: v.optional(v.picklist(BUDGET_TYPES)),
	budget_product_sku: v.optional(v.pipe(v.string(), v.minLength(1))),
	user: v.optional(v.string()),
};
const organizationCreate = v.object({ ...fields, budget_scope: v.optional(v.picklist(ORGANIZATION_SCOPES)) });
const organizationUpdate = v.object({ ...fields, budget_scope: v.optional(v.picklist(ORGANIZATION_UPDATE_SCOPES)) });
/** Enterprise create: the required fields, budget_alerting with both of its fields. */
const enterpriseCreate = v.object({
	...fields,
	budget_amount: v.pipe(v.number(), v.integer('budget_amount is a whole number'), v.minValue(0)),
	prevent_further_usage: v.boolean(),
	budget_alerting: v.object({ will_alert: v.boolean(), alert_recipients: v.array(v.string()) }),
	budget_scope: v.picklist(ENTERPRISE_SCOPES),
	budget_type: v.picklist(BUDGET_TYPES),
});
const enterpriseUpdate = v.object({ ...fields, budget_scope: v.optional(v.picklist(ENTERPRISE_SCOPES)) });

interface Level {
	collection: string;
	docs: string;
	filterScopes: readonly string[];
	/** The resource the budgets belong to, and who may read and who may change them at all. */
	guard: { read: ResourceGuard; write: ResourceGuard };
	/** The caller's budget context in the loaded owner; write: create/update/delete. @throws DomainError 403 */
	context(ctx: Context, write: 'read' | 'write' | 'delete'): BudgetContext;
	bodies: { create: v.GenericSchema<unknown, Record<string, unknown>>; update: v.GenericSchema<unknown, Record<string, unknown>> };
	permissions: { read: RouteDeclaration['permissions']; write: RouteDeclaration['permissions'] };
	scopes?: { read: string[]; write: string[] };
	tokens?: RouteDeclaration['tokens'];
}

const organization: Level = {
	collection: '/organizations/{org}/settings/billing/budgets',
	docs: 'billing/budgets',
	filterScopes: ORGANIZATION_FILTER_SCOPES,
	// Organization admins (billing managers are not a role Gitstead has).
	guard: { read: { org: 'owner' }, write: { org: 'owner' } },
	context(ctx) {
		const access = ctx.org;
		return {
			owner: { kind: 'organization', id: access.org.id },
			organizations: [access.org],
			scopes: ORGANIZATION_SCOPES,
			updateScopes: ORGANIZATION_UPDATE_SCOPES,
		};
	},
	bodies: { create: organizationCreate, update: organizationUpdate },
	permissions: { read: [{ organization_administration: 'read' }], write: [{ organization_administration: 'write' }] },
};

const enterprise: Level = {
	collection: '/enterprises/{enterprise}/settings/billing/budgets',
	docs: 'billing/budgets',
	filterScopes: ENTERPRISE_SCOPES,
	// Owners and billing managers; organization admins of the enterprise change their organizations' budgets.
	guard: { read: { enterprise: 'billing' }, write: { enterprise: 'organization_admin' } },
	context(ctx, action) {
		const access = ctx.enterprise;
		const all = ctx.app.stores.enterprises.organizations(access.enterprise.id);
		const owner = { kind: 'enterprise' as const, id: access.enterprise.id };
		if (access.role === 'owner' || access.role === 'billing_manager') return { owner, organizations: all, scopes: ENTERPRISE_SCOPES };
		// Organization admins of the enterprise may create and update budgets of their organizations
		// (an active admin: a pending invitation to be one grants nothing yet).
		const administered = all.filter((org) => {
			const membership = ctx.app.stores.memberships.get(org.id, access.userId!);
			return membership?.role === 'admin' && membership.state === 'active';
		});
		if (action === 'write') return { owner, organizations: administered, scopes: ['organization', 'repository'] };
		throw forbidden(
			`You must be an enterprise owner or billing manager of ${access.enterprise.slug} to ${action === 'read' ? 'read' : 'manage'} its budgets.`,
		);
	},
	bodies: { create: enterpriseCreate, update: enterpriseUpdate },
	permissions: { read: [], write: [] },
	scopes: {
		read: ['manage_billing:enterprise', 'read:enterprise', 'admin:enterprise'],
		write: ['manage_billing:enterprise', 'admin:enterprise', 'admin:org'],
	},
	// The spec: enterprise budget endpoints take neither fine-grained nor app tokens.
	tokens: ['classic', 'oauth'],
};

function enabled(ctx: Context): void {
	if (!ctx.app.config.billing.budgets_enabled) throw notFound();
}

function loadBudget(ctx: Context, context: BudgetContext) {
	const row = ctx.app.stores.budgets.get(context.owner, ctx.params.budget_id);
	if (!row) throw notFound(`Budget with ID ${ctx.params.budget_id} not found.`);
	// An organization admin at the enterprise level sees only the budgets of their organizations.
	if (context.owner.kind === 'enterprise' && context.scopes.length === 2) {
		const mine = context.organizations.some((org) => row.budget_entity_name.toLowerCase().split('/')[0] === org.login.toLowerCase());
		if (!mine || !['organization', 'repository'].includes(row.budget_scope))
			throw forbidden('This budget is not one of your organizations.');
	}
	return row;
}

function levelRoutes(level: Level): RouteDeclaration[] {
	const one = `${level.collection}/{budget_id}`;
	const common = { docs: level.docs, access: 'authenticated' as const, tokens: level.tokens, errorResource: 'Budget' };
	return [
		route({
			...common,
			method: 'GET',
			resource: level.guard.read,
			path: level.collection,
			permissions: level.permissions.read,
			scopes: level.scopes?.read,
			query: v.object({ scope: v.optional(v.picklist(level.filterScopes)), user: v.optional(v.string()) }),
			pagination: { perPage: 10, maxPerPage: 100 },
			handler(ctx) {
				enabled(ctx);
				const context = level.context(ctx, 'read');
				const { rows, total } = ctx.app.stores.budgets.list(context.owner, {
					scope: ctx.query.scope ?? null,
					limit: ctx.page.perPage,
					offset: ctx.page.offset,
				});
				// The array first among the keys Octokit's paginator keeps (https://docs.github.com/en/rest/using-the-rest-api/using-pagination-in-the-rest-api).
				const body: Record<string, unknown> = {
					budgets: rows.map(budgetListItem),
					has_next_page: ctx.page.offset + rows.length < total,
					total_count: total,
				};
				if (ctx.query.user) {
					const effective = ctx.app.stores.budgets.forUser(context.owner, ctx.query.user);
					body.user = ctx.query.user;
					if (effective) body.effective_budget = { id: effective.id, budget_amount: effective.budget_amount, consumed_amount: 0 };
				}
				return { status: 200, body, total };
			},
		}),
		route({
			...common,
			method: 'POST',
			resource: level.guard.write,
			path: level.collection,
			permissions: level.permissions.write,
			scopes: level.scopes?.write,
			body: level.bodies.create,
			handler(ctx) {
				enabled(ctx);
				const row = createBudget(ctx.app, level.context(ctx, 'write'), ctx.body as BudgetInput, isoSeconds(ctx.now));
				return ok({ message: 'Budget successfully created.', budget: budget(row) });
			},
		}),
		route({
			...common,
			method: 'GET',
			resource: level.guard.read,
			path: one,
			permissions: level.permissions.read,
			scopes: level.scopes?.read,
			handler(ctx) {
				enabled(ctx);
				return ok(budget(loadBudget(ctx, level.context(ctx, 'read'))));
			},
		}),
		route({
			...common,
			method: 'PATCH',
			resource: level.guard.write,
			path: one,
			permissions: level.permissions.write,
			scopes: level.scopes?.write,
			body: level.bodies.update,
			handler(ctx) {
				enabled(ctx);
				const context = level.context(ctx, 'write');
				const row = updateBudget(ctx.app, context, loadBudget(ctx, context), ctx.body as BudgetInput, isoSeconds(ctx.now));
				return ok({
					message: 'Budget successfully updated.',
					budget: { ...budget(row), ...(row.user_login ? { consumed_amount: 0 } : {}) },
				});
			},
		}),
		route({
			...common,
			method: 'DELETE',
			resource: level.guard.write,
			path: one,
			permissions: level.permissions.write,
			scopes: level.scopes?.write,
			handler(ctx) {
				enabled(ctx);
				const context = level.context(ctx, 'delete');
				const row = loadBudget(ctx, context);
				ctx.app.stores.budgets.remove(context.owner, row.id);
				// GitHub's schema names the key `id`, its example `budget_id`: both are sent.
				return ok({ message: 'Budget successfully deleted.', id: row.id, budget_id: row.id });
			},
		}),
	];
}

export const budgetRoutes = [...levelRoutes(organization), ...levelRoutes(enterprise)];
