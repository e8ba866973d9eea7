/**
 * valibot issues → GitHub's 422 "Validation Failed" with errors[] items
 * `{resource, field, code, message}` (https://docs.github.com/en/rest/using-the-rest-api/troubleshooting-the-rest-api).
 */
import * as v from 'valibot';
import { isoSeconds } from '../time';
import { type DomainError, validationFailed, type ValidationItem } from '../model/errors';

type AnySchema = v.GenericSchema;

/**
 * An ISO 8601 timestamp parameter (`since` and the like), output as the API's
 * 'YYYY-MM-DDTHH:MM:SSZ' so it compares with stored timestamps as text.
 */
export const timestampParam = (field: string) =>
	v.pipe(
		v.string(),
		v.isoTimestamp(`${field} must be an ISO 8601 timestamp`),
		v.transform((text) => isoSeconds(Date.parse(text))),
	);

/** Requirements whose failures are GitHub's `custom` errors: their message is the whole errors[] message. */
const customRequirements = new WeakSet<object>();

/** Unicode characters (code points) in `text`, as GitHub counts a text's length; stops counting past `max`. */
function characters(text: string, max: number): number {
	if (text.length <= max) return text.length;
	let count = 0;
	for (let i = 0; i < text.length && count <= max; i++, count++) {
		const code = text.charCodeAt(i);
		if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
			const next = text.charCodeAt(i + 1);
			if (next >= 0xdc00 && next <= 0xdfff) i++;
		}
	}
	return count;
}

/**
 * At most `max` characters (Unicode code points, as GitHub counts them), else GitHub's 422 item
 * `{resource, field, code: "custom", message: "<field> is too long (maximum is <max> characters)"}`.
 */
export function maxCharacters(field: string, max: number) {
	const requirement = (text: string) => characters(text, max) <= max;
	customRequirements.add(requirement);
	return v.check(requirement, `${field} is too long (maximum is ${max} characters)`);
}

/**
 * Parses `input` with `schema`.
 * @param resource GitHub resource name for errors[] items, e.g. 'Team'
 * @throws DomainError 422 "Validation Failed" listing every issue
 */
export function validate<S extends AnySchema>(schema: S, input: unknown, resource: string): v.InferOutput<S> {
	const result = v.safeParse(schema, input);
	if (result.success) return result.output;
	throw toValidationError(result.issues, resource);
}

export function toValidationError(issues: readonly v.BaseIssue<unknown>[], resource: string): DomainError {
	const items: ValidationItem[] = issues.map((issue) => {
		const field = v.getDotPath(issue) ?? '';
		const missing = issue.input === undefined && issue.kind === 'schema';
		if (issue.type === 'check' && customRequirements.has(issue.requirement as object)) {
			return { resource, field, code: 'custom', message: issue.message };
		}
		return {
			resource,
			field,
			code: missing ? 'missing_field' : 'invalid',
			message: missing ? `${field} is required` : `${field ? `${field}: ` : ''}${issue.message}`,
		};
	});
	return validationFailed(items);
}
