/**
 * Prepared statements for billing budgets of an organization ({org_id}) or enterprise ({enterprise_id}).
 */
import type { DB } from '../../db/open';
import type { BudgetType } from './catalog';

export interface BudgetRow {
	id: string;
	org_id: number | null;
	enterprise_id: number | null;
	budget_type: BudgetType;
	budget_product_sku: string;
	budget_scope: string;
	budget_entity_name: string;
	user_login: string | null;
	budget_amount: number;
	prevent_further_usage: number;
	will_alert: number;
	alert_recipients: string;
	created_at: string;
	updated_at: string;
}

export type BudgetOwner = { kind: 'organization'; id: number } | { kind: 'enterprise'; id: number };
export type BudgetValues = Omit<BudgetRow, 'id' | 'org_id' | 'enterprise_id' | 'created_at' | 'updated_at'>;

export type BudgetStore = ReturnType<typeof createBudgetStore>;

export function createBudgetStore(db: DB) {
	const column = (owner: BudgetOwner) => (owner.kind === 'organization' ? 'org_id' : 'enterprise_id');
	const statements = (col: 'org_id' | 'enterprise_id') => ({
		list: db.prepare(`
			SELECT * FROM budgets WHERE ${col} = @owner AND (@scope IS NULL OR budget_scope = @scope)
			ORDER BY created_at, rowid LIMIT @limit OFFSET @offset`),
		count: db.prepare(`SELECT count(*) FROM budgets WHERE ${col} = @owner AND (@scope IS NULL OR budget_scope = @scope)`).pluck(),
		get: db.prepare(`SELECT * FROM budgets WHERE ${col} = ? AND id = ?`),
		forUser: db.prepare(`
			SELECT * FROM budgets WHERE ${col} = ? AND (user_login = ? COLLATE NOCASE OR budget_scope = 'multi_user_customer')
			ORDER BY budget_scope = 'user' DESC, created_at LIMIT 1`),
		insert: db.prepare(`
			INSERT INTO budgets (id, ${col}, budget_type, budget_product_sku, budget_scope, budget_entity_name, user_login, budget_amount,
				prevent_further_usage, will_alert, alert_recipients, created_at, updated_at)
			VALUES (@id, @owner, @budget_type, @budget_product_sku, @budget_scope, @budget_entity_name, @user_login, @budget_amount,
				@prevent_further_usage, @will_alert, @alert_recipients, @now, @now)`),
		update: db.prepare(`
			UPDATE budgets SET budget_type = @budget_type, budget_product_sku = @budget_product_sku, budget_scope = @budget_scope,
				budget_entity_name = @budget_entity_name, user_login = @user_login, budget_amount = @budget_amount,
				prevent_further_usage = @prevent_further_usage, will_alert = @will_alert, alert_recipients = @alert_recipients, updated_at = @now
			WHERE ${col} = @owner AND id = @id`),
		remove: db.prepare(`DELETE FROM budgets WHERE ${col} = ? AND id = ?`),
	});
	const byColumn = { org_id: statements('org_id'), enterprise_id: statements('enterprise_id') };

	return {
		list(owner: BudgetOwner, filter: { scope: string | null; limit: number; offset: number }) {
			const s = byColumn[column(owner)];
			const params = { owner: owner.id, ...filter };
			return { rows: s.list.all(params) as BudgetRow[], total: s.count.get(params) as number };
		},
		get: (owner: BudgetOwner, id: string) => byColumn[column(owner)].get.get(owner.id, id) as BudgetRow | undefined,
		/** The budget that applies to a user: their own user-scope budget, else a multi-user one. */
		forUser: (owner: BudgetOwner, login: string) => byColumn[column(owner)].forUser.get(owner.id, login) as BudgetRow | undefined,
		/** @param now ISO timestamp */
		insert(owner: BudgetOwner, id: string, values: BudgetValues, now: string): BudgetRow {
			byColumn[column(owner)].insert.run({ ...values, id, owner: owner.id, now });
			return byColumn[column(owner)].get.get(owner.id, id) as BudgetRow;
		},
		/** @param now ISO timestamp */
		update(owner: BudgetOwner, id: string, values: BudgetValues, now: string): BudgetRow {
			byColumn[column(owner)].update.run({ ...values, id, owner: owner.id, now });
			return byColumn[column(owner)].get.get(owner.id, id) as BudgetRow;
		},
		remove: (owner: BudgetOwner, id: string) => byColumn[column(owner)].remove.run(owner.id, id).changes > 0,
	};
}
