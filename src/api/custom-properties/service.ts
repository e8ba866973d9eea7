/**
 * Custom property definition rules (https://docs.github.com/en/rest/orgs/custom-properties): value
 * types, allowed values (ordered, at most 200, required for the select types),
 * default values valid for the type and among the allowed values, who may edit values, and the
 * batch update that replaces whole definitions, all or nothing.
 */
import type { App } from '../../app';
import { validationFailed, type ValidationItem } from '../../model/errors';
import { recordDefinition, recordDefinitionDeleted } from './events';
import type { DefinitionRow, DefinitionValues, Owner } from './store';

export const VALUE_TYPES = ['string', 'single_select', 'multi_select', 'true_false', 'url'] as const;
export const ORG_EDITORS = ['org_actors', 'org_and_repo_actors'] as const;
export const ENTERPRISE_EDITORS = ['enterprise_actors', 'enterprise_and_org_actors'] as const;
export const MAX_ALLOWED_VALUES = 200;
/** Longest property name and allowed value, in characters (GitHub's limit). */
export const MAX_NAME_LENGTH = 75;
export const MAX_VALUE_LENGTH = 75;
export const MAX_DESCRIPTION_LENGTH = 255;
/** Definitions in one batch request. */
export const MAX_BATCH = 100;

/** A definition as a request gives it (after schema validation). */
export interface DefinitionInput {
	property_name: string;
	value_type: (typeof VALUE_TYPES)[number];
	required?: boolean;
	default_value?: string | string[] | null;
	description?: string | null;
	allowed_values?: string[] | null;
	values_editable_by?: string | null;
	require_explicit_values?: boolean;
}

const NAME = /^[A-Za-z0-9_-]+$/;

/**
 * Checks a definition against the rules and returns the values to store (omitted optional fields
 * take their defaults: the request replaces the whole definition).
 * @param field prefix of errors[].field, e.g. 'properties[2]' in a batch
 * @returns the values, or the list of problems
 */
export function checkDefinition(
	owner: Owner,
	input: DefinitionInput,
	field = '',
): { values: DefinitionValues; problems: [] } | { values: null; problems: ValidationItem[] } {
	const problems: ValidationItem[] = [];
	const at = (name: string) => (field ? `${field}.${name}` : name);
	const problem = (name: string, message: string) =>
		problems.push({ resource: 'CustomProperty', field: at(name), code: 'invalid', message });

	const name = input.property_name;
	if (!NAME.test(name) || name.length > MAX_NAME_LENGTH) {
		problem(
			'property_name',
			`"${name}" is not a valid property name: use letters, digits, '_' and '-', at most ${MAX_NAME_LENGTH} characters`,
		);
	}
	const select = input.value_type === 'single_select' || input.value_type === 'multi_select';
	const allowed = input.allowed_values ?? null;
	if (select) {
		if (!allowed || allowed.length === 0) problem('allowed_values', `a ${input.value_type} property needs allowed_values`);
	} else if (allowed && allowed.length > 0) {
		problem('allowed_values', `allowed_values applies only to single_select and multi_select properties, not ${input.value_type}`);
	}
	if (allowed) {
		if (allowed.length > MAX_ALLOWED_VALUES)
			problem('allowed_values', `at most ${MAX_ALLOWED_VALUES} allowed values, got ${allowed.length}`);
		const seen = new Set<string>();
		for (const value of allowed) {
			if (value.length === 0 || value.length > MAX_VALUE_LENGTH) {
				problem('allowed_values', `allowed values must have 1 to ${MAX_VALUE_LENGTH} characters, got "${value.slice(0, 80)}"`);
			}
			if (seen.has(value)) problem('allowed_values', `"${value}" is listed twice`);
			seen.add(value);
		}
	}

	const fallback = input.default_value ?? null;
	if (fallback !== null) {
		const message = defaultProblem(input.value_type, fallback, allowed ?? []);
		if (message) problem('default_value', message);
	} else if (input.required) {
		problem('default_value', 'a required property needs a default_value');
	}

	if (input.description && input.description.length > MAX_DESCRIPTION_LENGTH) {
		problem('description', `at most ${MAX_DESCRIPTION_LENGTH} characters`);
	}

	let editors: string | null;
	if (owner.kind === 'organization') {
		editors = input.values_editable_by ?? 'org_actors';
		if (!(ORG_EDITORS as readonly string[]).includes(editors)) {
			problem('values_editable_by', `must be one of ${ORG_EDITORS.join(', ')} for organization properties`);
		}
	} else {
		editors = input.values_editable_by ?? null;
		if (editors !== null && !(ENTERPRISE_EDITORS as readonly string[]).includes(editors)) {
			problem('values_editable_by', `must be one of ${ENTERPRISE_EDITORS.join(', ')} or null for enterprise properties`);
		}
	}
	if (problems.length) return { values: null, problems };
	return {
		values: {
			property_name: name,
			value_type: input.value_type,
			required: input.required ? 1 : 0,
			default_value: fallback === null ? null : JSON.stringify(fallback),
			description: input.description ?? null,
			allowed_values: allowed?.length ? JSON.stringify(allowed) : null,
			values_editable_by: editors,
			require_explicit_values: owner.kind === 'organization' && input.require_explicit_values ? 1 : 0,
		},
		problems: [],
	};
}

function defaultProblem(type: DefinitionInput['value_type'], value: string | string[], allowed: string[]): string | null {
	if (type === 'multi_select') {
		if (!Array.isArray(value)) return 'the default of a multi_select property is an array of allowed values';
		const missing = value.filter((x) => !allowed.includes(x));
		if (missing.length) return `${missing.map((x) => `"${x}"`).join(', ')} not among allowed_values`;
		if (new Set(value).size !== value.length) return 'a default value is listed twice';
		return null;
	}
	if (Array.isArray(value)) return `the default of a ${type} property is a single string`;
	switch (type) {
		case 'single_select':
			return allowed.includes(value) ? null : `"${value}" is not among allowed_values`;
		case 'true_false':
			return value === 'true' || value === 'false' ? null : 'the default of a true_false property is "true" or "false"';
		case 'url':
			return isHttpUrl(value) ? null : `"${value}" is not an http(s) URL`;
		default:
			return value.length <= MAX_VALUE_LENGTH ? null : `at most ${MAX_VALUE_LENGTH} characters`;
	}
}

function isHttpUrl(text: string): boolean {
	try {
		const url = new URL(text);
		return url.protocol === 'http:' || url.protocol === 'https:';
	} catch {
		return false;
	}
}

/**
 * Creates or replaces definitions, all or nothing, in one transaction. An organization's definitions
 * record custom_property created or updated, one event each, in the request's order.
 * @param now ISO timestamp
 * @param actorId who changes them (the events' sender)
 * @throws DomainError 422 listing every problem of every definition; nothing is written then.
 */
export function saveDefinitions(
	app: App,
	owner: Owner,
	inputs: DefinitionInput[],
	now: string,
	batch: boolean,
	actorId: number | null,
): DefinitionRow[] {
	const problems: ValidationItem[] = [];
	const values: DefinitionValues[] = [];
	const names = new Set<string>();
	inputs.forEach((input, index) => {
		const field = batch ? `properties[${index}]` : '';
		const checked = checkDefinition(owner, input, field);
		if (checked.values) values.push(checked.values);
		else problems.push(...checked.problems);
		const key = input.property_name.toLowerCase();
		if (names.has(key)) {
			problems.push({
				resource: 'CustomProperty',
				field: `${field}.property_name`,
				code: 'invalid',
				message: `"${input.property_name}" appears twice in the request`,
			});
		}
		names.add(key);
	});
	if (problems.length) throw validationFailed(problems);
	return app.transaction(() =>
		values.map((value) => {
			const existed = app.stores.customProperties.get(owner, value.property_name) !== undefined;
			const row = app.stores.customProperties.upsert(owner, value, now);
			if (owner.kind === 'organization')
				recordDefinition(app, app.stores.accounts.byId(owner.id)!, existed ? 'updated' : 'created', row, actorId);
			return row;
		}),
	);
}

/**
 * Deletes a definition; an organization's records custom_property deleted.
 * @param actorId who deletes it (the event's sender)
 * @returns false when there was no such definition (nothing recorded)
 */
export function removeDefinition(app: App, owner: Owner, propertyName: string, actorId: number | null): boolean {
	return app.transaction(() => {
		const row = app.stores.customProperties.get(owner, propertyName);
		if (!row || !app.stores.customProperties.remove(owner, propertyName)) return false;
		if (owner.kind === 'organization') recordDefinitionDeleted(app, app.stores.accounts.byId(owner.id)!, row.property_name, actorId);
		return true;
	});
}
