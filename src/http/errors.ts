/**
 * HttpError: the answers only HTTP gives (content negotiation, body parsing, rate limits,
 * redirects, 5xx), and the one shape every error answer has: GitHub's body
 * `{message, documentation_url, status}` with status as a string ("404"); 422 adds
 * `errors: [{resource, field, code, message?}]`
 * (https://docs.github.com/rest/using-the-rest-api/troubleshooting-the-rest-api).
 * The domain's refusals are src/model/errors.ts's DomainError; the pipeline answers them through
 * HttpError.from.
 */
import { DomainError, ERRORS, REFUSALS, type ValidationItem } from '../model/errors';

/** Messages used in more than one place, so tests and handlers agree on them. */
export const MESSAGES = {
	...REFUSALS,
	notFound: ERRORS.NotFound.message,
	validationFailed: ERRORS.ValidationFailed.message,
	problemsParsingJson: 'Problems parsing JSON',
	bodyNotObject: 'Body should be a JSON object',
	bodyTooLarge: 'Request body is too large',
	serverError: 'Server Error',
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

	/** The answer to a domain refusal: its status, message, errors[] and extra fields. */
	static from(error: DomainError): HttpError {
		return new HttpError(error.status, error.message, { errors: error.errors, extra: error.extra });
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

/** The error as an HTTP answer: an HttpError as it is, a domain refusal with its status; null for anything else (a fault). */
export function httpErrorOf(error: unknown): HttpError | null {
	if (error instanceof HttpError) return error;
	if (error instanceof DomainError) return HttpError.from(error);
	return null;
}
