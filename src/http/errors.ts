/**
 * HttpError and its factories: every error answer has GitHub's body shape
 * `{message, documentation_url, status}` with status as a string ("404"); 422 adds
 * `errors: [{resource, field, code, message?}]` (reference §1.4).
 */

/** Codes of a 422 errors[] item, as GitHub documents them. */
export type ValidationCode = 'missing' | 'missing_field' | 'invalid' | 'already_exists' | 'unprocessable' | 'custom';

export interface ValidationItem {
	resource: string;
	field: string;
	code: ValidationCode;
	message?: string;
	value?: unknown;
}

/** Messages used in more than one place, so tests and handlers agree on them. */
export const MESSAGES = {
	notFound: 'Not Found',
	requiresAuthentication: 'Requires authentication',
	badCredentials: 'Bad credentials',
	validationFailed: 'Validation Failed',
	problemsParsingJson: 'Problems parsing JSON',
	bodyNotObject: 'Body should be a JSON object',
	bodyTooLarge: 'Request body is too large',
	serverError: 'Server Error',
	byPersonalAccessToken: 'Resource not accessible by personal access token',
	byIntegration: 'Resource not accessible by integration',
	/** A suspended user's token (GitHub Enterprise Server). */
	suspended: 'Sorry. Your account was suspended.',
} as const;

/** Default documentation_url when a route names none. */
export const DOCS_BASE = 'https://docs.github.com/enterprise-server@3.19/rest';

export class HttpError extends Error {
	readonly status: number;
	readonly errors?: ValidationItem[];
	readonly headers?: Record<string, string>;
	/** Overrides the route's documentation_url. */
	readonly documentation?: string;
	/** Extra body fields (e.g. GitHub's `block` object); never secrets. */
	readonly extra?: Record<string, unknown>;

	constructor(
		status: number,
		message: string,
		options: {
			errors?: ValidationItem[];
			headers?: Record<string, string>;
			documentation?: string;
			extra?: Record<string, unknown>;
		} = {},
	) {
		// An HttpError is an answer, not a fault: skip the stack trace V8 would capture (its cost
		// shows on hot 404/403 paths).
		const limit = Error.stackTraceLimit;
		Error.stackTraceLimit = 0;
		super(message);
		Error.stackTraceLimit = limit;
		this.status = status;
		this.errors = options.errors;
		this.headers = options.headers;
		this.documentation = options.documentation;
		this.extra = options.extra;
	}

	/**
	 * The response body; `documentation_url` is the route's page unless the error names one.
	 * @param shape 'simple': GitHub's validation-error-simple, errors[] as sentences
	 */
	body(documentationUrl: string, shape?: 'simple'): Record<string, unknown> {
		const body: Record<string, unknown> = { message: this.message };
		if (this.errors) body.errors = shape === 'simple' ? this.errors.map(sentence) : this.errors;
		if (this.extra) Object.assign(body, this.extra);
		body.documentation_url = this.documentation ?? documentationUrl;
		body.status = String(this.status);
		return body;
	}
}

/** A validation item as one sentence (validation-error-simple) that names its field: `field: message` (or code). */
function sentence(item: ValidationItem): string {
	const text = item.message ?? item.code;
	return text.startsWith(item.field) ? text : `${item.field}: ${text}`;
}

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = (message: string = MESSAGES.requiresAuthentication) => new HttpError(401, message);
export const forbidden = (message: string) => new HttpError(403, message);
export const notFound = (message: string = MESSAGES.notFound) => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);

/** 422 "Validation Failed" with errors[] items. */
export function validationFailed(items: ValidationItem[], message: string = MESSAGES.validationFailed): HttpError {
	return new HttpError(422, message, { errors: items });
}

/** 422 for one field: `invalid(resource, field, message)`. */
export function invalidField(resource: string, field: string, message: string, code: ValidationCode = 'invalid'): HttpError {
	return validationFailed([{ resource, field, code, message }]);
}

/** 422 with a message and no errors[] (GitHub's "unprocessable" answers for rule violations). */
export function unprocessable(message: string): HttpError {
	return new HttpError(422, message);
}
