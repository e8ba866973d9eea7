/**
 * CustomPropertyDefinition: organization definitions carry
 * require_explicit_values; both carry url and source_type.
 */
import type { Urls } from '../../model/urls';
import type { DefinitionRow } from './store';

/** @param base API path of the schema collection, e.g. /orgs/acme/properties/schema */
export function definition(urls: Urls, base: string, row: DefinitionRow) {
	const shape = {
		property_name: row.property_name,
		url: urls.api(`${base}/${encodeURIComponent(row.property_name)}`),
		source_type: row.org_id !== null ? 'organization' : 'enterprise',
		value_type: row.value_type,
		required: row.required === 1,
		default_value: row.default_value === null ? null : (JSON.parse(row.default_value) as string | string[]),
		description: row.description,
		allowed_values: row.allowed_values === null ? null : (JSON.parse(row.allowed_values) as string[]),
		values_editable_by: row.values_editable_by,
	};
	return row.org_id !== null ? { ...shape, require_explicit_values: row.require_explicit_values === 1 } : shape;
}
