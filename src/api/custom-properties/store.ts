/**
 * Prepared statements for custom property definitions of an organization (repository properties)
 * or of an enterprise (organization properties). An owner is { org_id } or { enterprise_id }.
 */
import type { DB } from '../../db/open';

export interface DefinitionRow {
	id: number;
	org_id: number | null;
	enterprise_id: number | null;
	property_name: string;
	value_type: 'string' | 'single_select' | 'multi_select' | 'true_false' | 'url';
	required: number;
	default_value: string | null;
	description: string | null;
	allowed_values: string | null;
	values_editable_by: string | null;
	require_explicit_values: number;
	created_at: string;
	updated_at: string;
}

/** A definition as written: JSON columns already encoded. */
export type DefinitionValues = Omit<DefinitionRow, 'id' | 'org_id' | 'enterprise_id' | 'created_at' | 'updated_at'>;

export type Owner = { kind: 'organization'; id: number } | { kind: 'enterprise'; id: number };

export type CustomPropertyStore = ReturnType<typeof createCustomPropertyStore>;

export function createCustomPropertyStore(db: DB) {
	const listOrg = db.prepare('SELECT * FROM custom_property_definitions WHERE org_id = ? ORDER BY id');
	const listEnterprise = db.prepare('SELECT * FROM custom_property_definitions WHERE enterprise_id = ? ORDER BY id');
	const getOrg = db.prepare('SELECT * FROM custom_property_definitions WHERE org_id = ? AND property_name = ?');
	const getEnterprise = db.prepare('SELECT * FROM custom_property_definitions WHERE enterprise_id = ? AND property_name = ?');
	const upsertOrg = db.prepare(`
		INSERT INTO custom_property_definitions (org_id, property_name, value_type, required, default_value, description,
			allowed_values, values_editable_by, require_explicit_values, created_at, updated_at)
		VALUES (@owner, @property_name, @value_type, @required, @default_value, @description, @allowed_values,
			@values_editable_by, @require_explicit_values, @now, @now)
		ON CONFLICT (org_id, property_name) DO UPDATE SET property_name = excluded.property_name, value_type = excluded.value_type,
			required = excluded.required, default_value = excluded.default_value, description = excluded.description,
			allowed_values = excluded.allowed_values, values_editable_by = excluded.values_editable_by,
			require_explicit_values = excluded.require_explicit_values, updated_at = excluded.updated_at`);
	const upsertEnterprise = db.prepare(`
		INSERT INTO custom_property_definitions (enterprise_id, property_name, value_type, required, default_value, description,
			allowed_values, values_editable_by, require_explicit_values, created_at, updated_at)
		VALUES (@owner, @property_name, @value_type, @required, @default_value, @description, @allowed_values,
			@values_editable_by, 0, @now, @now)
		ON CONFLICT (enterprise_id, property_name) DO UPDATE SET property_name = excluded.property_name, value_type = excluded.value_type,
			required = excluded.required, default_value = excluded.default_value, description = excluded.description,
			allowed_values = excluded.allowed_values, values_editable_by = excluded.values_editable_by, updated_at = excluded.updated_at`);
	const removeOrg = db.prepare('DELETE FROM custom_property_definitions WHERE org_id = ? AND property_name = ?');
	const removeEnterprise = db.prepare('DELETE FROM custom_property_definitions WHERE enterprise_id = ? AND property_name = ?');

	const org = (owner: Owner) => owner.kind === 'organization';
	return {
		list: (owner: Owner) => (org(owner) ? listOrg : listEnterprise).all(owner.id) as DefinitionRow[],
		get: (owner: Owner, name: string) => (org(owner) ? getOrg : getEnterprise).get(owner.id, name) as DefinitionRow | undefined,
		/** Creates or replaces a definition. @param now ISO timestamp */
		upsert(owner: Owner, values: DefinitionValues, now: string): DefinitionRow {
			(org(owner) ? upsertOrg : upsertEnterprise).run({ ...values, owner: owner.id, now });
			return (org(owner) ? getOrg : getEnterprise).get(owner.id, values.property_name) as DefinitionRow;
		},
		remove: (owner: Owner, name: string) => (org(owner) ? removeOrg : removeEnterprise).run(owner.id, name).changes > 0,
	};
}
