/**
 * valibot issues → GitHub's 422 "Validation Failed" with errors[] items
 * `{resource, field, code, message}` (reference §1.4).
 */
import * as v from 'valibot';
import { isoSeconds } from '../time';
import { validationFailed, type HttpError, type ValidationItem } from './errors';

type AnySchema = v.GenericSchema;

/**
 * An ISO 8601 timestamp parameter (`since` and the like), output as the API's
 * 'YYYY-MM-DDTHH:MM:SSZ' so it compares with stored timestamps as text.
 */
export const timestampParam = (field: string) =>
	v.pipe(v.string(), v.isoTimestamp(`${field} must be an ISO 8601 timestamp`), v.transform((text) => isoSeconds(Date.parse(text))));

/**
 * Parses `input` with `schema`.
 * @param resource GitHub resource name for errors[] items, e.g. 'Team'
 * @throws HttpError 422 listing every issue
 */
export function validate<S extends AnySchema>(schema: S, input: unknown, resource: string): v.InferOutput<S> {
	const result = v.safeParse(schema, input);
	if (result.success) return result.output;
	throw toValidationError(result.issues, resource);
}

export function toValidationError(issues: readonly v.BaseIssue<unknown>[], resource: string): HttpError {
	const items: ValidationItem[] = issues.map((issue) => {
		const field = v.getDotPath(issue) ?? '';
		const missing = issue.input === undefined && issue.kind === 'schema';
		return {
			resource,
			field,
			code: missing ? 'missing_field' : 'invalid',
			message: missing ? `${field} is required` : `${field ? `${field}: ` : ''}${issue.message}`,
		};
	});
	return validationFailed(items);
}
