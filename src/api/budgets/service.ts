/**
 * Billing budget rules (https://docs.github.com/en/rest/billing/budgets):
 * - budget_type and budget_product_sku agree: BundlePricing ↔ ai_credits, ProductPricing a product,
 *   SkuPricing one SKU;
 * - user, multi_user_customer and multi_user_cost_center scopes only for ai_credits or
 *   premium_requests, and with prevent_further_usage true (which must stay true on update);
 * - a user scope names its user (400 otherwise) and takes no alerting;
 * - the entity a scope names exists (the organization, a repository, …);
 * - alert recipients are users.
 */
import { randomUUID } from 'node:crypto';
import type { App } from '../../app';
import { badRequest, validationFailed, type ValidationItem } from '../../model/errors';
import type { AccountRow } from '../../model/rows';
import { AI_CREDITS, impliedType, PER_USER_SCOPES, PER_USER_SKUS, PRODUCTS, SKUS, type BudgetType } from './catalog';
import type { BudgetOwner, BudgetRow, BudgetValues } from './store';

/** A budget as a request describes it; every field optional (create fills defaults, update merges). */
export interface BudgetInput {
	budget_amount?: number;
	prevent_further_usage?: boolean;
	budget_alerting?: { will_alert?: boolean; alert_recipients?: string[] };
	budget_scope?: string;
	budget_entity_name?: string;
	budget_type?: BudgetType;
	budget_product_sku?: string;
	user?: string;
}

/** The owner of the budgets and what its scopes may name. */
export interface BudgetContext {
	owner: BudgetOwner;
	/** Organizations the budgets may name: the organization itself, or an enterprise's organizations. */
	organizations: AccountRow[];
	/** Scopes allowed on create (and on update unless `updateScopes` says otherwise). */
	scopes: readonly string[];
	/** Scopes allowed on update, where they differ from create's (an organization's update also takes enterprise and cost_center). */
	updateScopes?: readonly string[];
}

const item = (field: string, message: string): ValidationItem => ({ resource: 'Budget', field, code: 'invalid', message });

/**
 * The values to store for a new budget (`existing` undefined) or an update.
 * @throws DomainError 400 for a user-scope budget without a user; 422 listing every other problem.
 */
export function resolveBudget(app: App, context: BudgetContext, input: BudgetInput, existing?: BudgetRow): BudgetValues {
	const problems: ValidationItem[] = [];
	const scope = input.budget_scope ?? existing?.budget_scope ?? 'organization';
	const sku = input.budget_product_sku ?? existing?.budget_product_sku;
	if (sku === undefined) {
		throw validationFailed([
			{ resource: 'Budget', field: 'budget_product_sku', code: 'missing_field', message: 'budget_product_sku is required' },
		]);
	}
	const type = input.budget_type ?? (input.budget_product_sku !== undefined ? impliedType(sku) : existing?.budget_type) ?? null;
	if (type === null)
		problems.push(
			item('budget_product_sku', `"${sku}" is neither a product (${Object.keys(PRODUCTS).join(', ')}), a SKU nor ${AI_CREDITS}`),
		);

	const allowed = existing ? (context.updateScopes ?? context.scopes) : context.scopes;
	if (input.budget_scope !== undefined && !allowed.includes(scope)) {
		problems.push(item('budget_scope', `must be one of ${allowed.join(', ')}`));
	}
	if (type === 'BundlePricing' && sku !== AI_CREDITS)
		problems.push(item('budget_product_sku', `BundlePricing covers ${AI_CREDITS}; set budget_product_sku to "${AI_CREDITS}"`));
	if (type === 'ProductPricing' && !(sku in PRODUCTS) && sku !== AI_CREDITS) {
		problems.push(item('budget_product_sku', `ProductPricing covers a product: one of ${Object.keys(PRODUCTS).join(', ')}`));
	}
	if (type === 'SkuPricing' && !SKUS.includes(sku))
		problems.push(item('budget_product_sku', `SkuPricing covers one SKU such as actions_linux; "${sku}" is not a SKU`));
	if (type !== 'BundlePricing' && type !== null && sku === AI_CREDITS)
		problems.push(item('budget_type', `${AI_CREDITS} budgets use BundlePricing`));

	const perUser = PER_USER_SCOPES.includes(scope);
	if (perUser && !PER_USER_SKUS.includes(sku)) {
		problems.push(item('budget_scope', `the ${scope} scope is only for ${PER_USER_SKUS.join(' or ')} budgets`));
	}
	const prevent = input.prevent_further_usage ?? (existing ? existing.prevent_further_usage === 1 : false);
	if (perUser && !prevent) {
		problems.push(
			item('prevent_further_usage', existing ? `must remain true for ${scope} budgets` : `must be true for ${scope} budgets`),
		);
	}

	let userLogin: string | null = null;
	if (scope === 'user') {
		const login = input.user ?? existing?.user_login ?? undefined;
		// A user-scope budget without its user is a 400 about budget_entity_name.
		if (!login) throw badRequest('budget_entity_name is a missing required field: a user scope budget needs `user`.');
		const user = app.stores.accounts.user(login);
		if (!user) problems.push(item('user', `unknown user "${login}"`));
		else userLogin = user.login;
	}

	const amount = input.budget_amount ?? existing?.budget_amount ?? 0;

	let willAlert = input.budget_alerting?.will_alert ?? (existing ? existing.will_alert === 1 : false);
	let recipients = input.budget_alerting?.alert_recipients ?? (existing ? (JSON.parse(existing.alert_recipients) as string[]) : []);
	if (scope === 'user') {
		// Alerting is always off for user budgets: refused on create, ignored on update.
		if (!existing && input.budget_alerting?.will_alert)
			problems.push(item('budget_alerting', 'alerting is always disabled for user scope budgets'));
		willAlert = false;
		recipients = [];
	}
	const unknown = recipients.filter((login) => !app.stores.accounts.user(login));
	if (unknown.length) problems.push(item('budget_alerting.alert_recipients', `unknown users: ${unknown.join(', ')}`));

	const entity = resolveEntity(
		app,
		context,
		scope,
		input.budget_entity_name ?? (input.budget_scope === undefined ? existing?.budget_entity_name : undefined),
		problems,
	);
	if (problems.length) throw validationFailed(problems);
	return {
		budget_type: type!,
		budget_product_sku: sku,
		budget_scope: scope,
		budget_entity_name: entity,
		user_login: userLogin,
		budget_amount: amount,
		prevent_further_usage: prevent ? 1 : 0,
		will_alert: willAlert ? 1 : 0,
		alert_recipients: JSON.stringify(recipients),
	};
}

/** The entity a scope names, checked: an organization, a repository, a cost center. */
function resolveEntity(app: App, context: BudgetContext, scope: string, given: string | undefined, problems: ValidationItem[]): string {
	const name = given ?? '';
	const orgs = context.organizations;
	switch (scope) {
		case 'organization': {
			if (context.owner.kind === 'organization') return orgs[0].login;
			const org = orgs.find((o) => o.login.toLowerCase() === name.toLowerCase());
			if (!org)
				problems.push(
					item(
						'budget_entity_name',
						name ? `${name} is not an organization of this enterprise` : 'an organization budget names its organization',
					),
				);
			return org?.login ?? name;
		}
		case 'repository': {
			// "repo" inside the organization, or "org/repo" (required at the enterprise level).
			const [first, second] = name.includes('/') ? name.split('/', 2) : [orgs.length === 1 ? orgs[0].login : '', name];
			const org = orgs.find((o) => o.login.toLowerCase() === first.toLowerCase());
			const repo = org && second ? app.stores.repos.byOwnerAndName(org.id, second) : undefined;
			if (!org || !repo)
				problems.push(
					item('budget_entity_name', name ? `${name} is not a repository here` : 'a repository budget names its repository'),
				);
			return org && repo ? `${org.login}/${repo.name}` : name;
		}
		case 'cost_center':
		case 'multi_user_cost_center':
			if (!name) problems.push(item('budget_entity_name', `a ${scope} budget names its cost center`));
			return name;
		default:
			return name;
	}
}

/** Creates a budget. @param now ISO timestamp */
export function createBudget(app: App, context: BudgetContext, input: BudgetInput, now: string): BudgetRow {
	const values = resolveBudget(app, context, input);
	return app.transaction(() => app.stores.budgets.insert(context.owner, randomUUID(), values, now));
}

/** Updates a budget; omitted fields keep their values. @param now ISO timestamp */
export function updateBudget(app: App, context: BudgetContext, existing: BudgetRow, input: BudgetInput, now: string): BudgetRow {
	const values = resolveBudget(app, context, input, existing);
	return app.transaction(() => app.stores.budgets.update(context.owner, existing.id, values, now));
}
