/**
 * Budget shapes: the single-record form with
 * budget_product_sku, the list form with budget_product_skus.
 */
import type { BudgetRow } from './store';

function alerting(row: BudgetRow) {
	return { will_alert: row.will_alert === 1, alert_recipients: JSON.parse(row.alert_recipients) as string[] };
}

/** Single-record form (get, create, update). */
export function budget(row: BudgetRow) {
	return {
		id: row.id,
		budget_type: row.budget_type,
		budget_product_sku: row.budget_product_sku,
		budget_scope: row.budget_scope,
		budget_entity_name: row.budget_entity_name,
		...(row.user_login !== null ? { user: row.user_login } : {}),
		budget_amount: row.budget_amount,
		prevent_further_usage: row.prevent_further_usage === 1,
		budget_alerting: alerting(row),
	};
}

/**
 * List form: budget_product_skus, and GitHub's budget_product_sku (its description's
 * `budget` requires it in list items too). consumed_amount is reported for per-user budgets;
 * Gitstead meters no usage, so it is 0.
 */
export function budgetListItem(row: BudgetRow) {
	return {
		id: row.id,
		budget_type: row.budget_type,
		budget_product_sku: row.budget_product_sku,
		budget_product_skus: [row.budget_product_sku],
		budget_scope: row.budget_scope,
		budget_entity_name: row.budget_entity_name,
		...(row.user_login !== null ? { user: row.user_login, consumed_amount: 0 } : {}),
		budget_amount: row.budget_amount,
		prevent_further_usage: row.prevent_further_usage === 1,
		budget_alerting: alerting(row),
	};
}
