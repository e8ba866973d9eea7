/**
 * What a budget may cover: products (ProductPricing), single SKUs (SkuPricing) and the AI credit
 * bundle (BundlePricing ↔ ai_credits). Names follow GitHub's billing usage reports.
 */

/** Product → its SKUs. */
export const PRODUCTS: Record<string, string[]> = {
	actions: ['actions_linux', 'actions_linux_arm', 'actions_macos', 'actions_windows', 'actions_storage'],
	packages: ['packages_storage', 'packages_data_transfer'],
	codespaces: ['codespaces_compute', 'codespaces_storage', 'codespaces_prebuild_storage'],
	copilot: ['copilot_business', 'copilot_enterprise'],
	premium_requests: ['copilot_premium_request'],
	git_lfs: ['git_lfs_storage', 'git_lfs_bandwidth'],
	advanced_security: ['ghas_code_security', 'ghas_secret_protection'],
};

export const SKUS: string[] = Object.values(PRODUCTS).flat();

/** The one SKU of BundlePricing: every AI credit SKU. */
export const AI_CREDITS = 'ai_credits';

/** Scopes that budget per user, allowed only for AI credits and premium requests. */
export const PER_USER_SCOPES = ['user', 'multi_user_customer', 'multi_user_cost_center'];
export const PER_USER_SKUS = [AI_CREDITS, 'premium_requests'];

export const BUDGET_TYPES = ['BundlePricing', 'ProductPricing', 'SkuPricing'] as const;
export type BudgetType = (typeof BUDGET_TYPES)[number];

/** Scopes by level (the organization list filter also takes enterprise and cost_center; https://docs.github.com/en/rest/billing/budgets). */
export const ENTERPRISE_SCOPES = [
	'enterprise',
	'organization',
	'repository',
	'cost_center',
	'multi_user_customer',
	'multi_user_cost_center',
	'user',
] as const;
export const ORGANIZATION_SCOPES = ['organization', 'repository', 'multi_user_customer', 'user'] as const;
export const ORGANIZATION_FILTER_SCOPES = [
	'enterprise',
	'organization',
	'repository',
	'cost_center',
	'multi_user_customer',
	'user',
] as const;
/** Scopes an organization budget update takes: the budget_scope enum includes enterprise and cost_center too. */
export const ORGANIZATION_UPDATE_SCOPES = ORGANIZATION_FILTER_SCOPES;

/** The budget type a SKU implies (used when an organization create omits budget_type). */
export function impliedType(sku: string): BudgetType | null {
	if (sku === AI_CREDITS) return 'BundlePricing';
	if (sku in PRODUCTS) return 'ProductPricing';
	if (SKUS.includes(sku)) return 'SkuPricing';
	return null;
}
