/**
 * The domain's errors: what a service, store or guard refuses, in GitHub's words, without knowing
 * which front end asked. As fastify's lib/errors.js does, each kind has a code, the HTTP status
 * GitHub answers it with, and a default message; the factories below make them.
 *
 * Exactly two places turn them into answers: the REST pipeline (src/http/pipeline.ts, GitHub's
 * error body `{message, errors?, documentation_url, status}`, with the route's documentation page)
 * and GraphQL's error translation (src/api/graphql/errors.ts: NOT_FOUND, FORBIDDEN, UNPROCESSABLE).
 * The git transport answers the 401 of Unauthenticated with its own challenge, so git asks for
 * credentials. What only HTTP knows (content negotiation, body parsing, rate limits, redirects) is
 * src/http/errors.ts's HttpError.
 *
 * GitHub's error bodies: https://docs.github.com/rest/using-the-rest-api/troubleshooting-the-rest-api
 */

/** The kinds of refusal, with the status GitHub answers each with and its default message (GitHub's wording). */
export const ERRORS = {
	/** 400: the request is malformed in a way no schema catches (a cursor, a basehead). */
	BadRequest: { status: 400, message: 'Bad Request' },
	/** 401: no credentials where they are needed, or credentials that authenticate no one ("Bad credentials"). */
	Unauthenticated: { status: 401, message: 'Requires authentication' },
	/** 403: the caller sees the resource but may not do this (a role, a policy, a locked issue). */
	Forbidden: { status: 403, message: 'Forbidden' },
	/** 404: the resource does not exist, or the caller may not know that it does. */
	NotFound: { status: 404, message: 'Not Found' },
	/** 405: a pull request cannot be merged now (conflicts, a draft, required reviews or checks, the method). */
	NotMergeable: { status: 405, message: 'Pull Request is not mergeable' },
	/** 409: the resource is not in the state the request assumes (a stale sha, an empty repository). */
	Conflict: { status: 409, message: 'Conflict' },
	/** 410: the feature is turned off for the resource (issues disabled). */
	Gone: { status: 410, message: 'Gone' },
	/** 422 with errors[]: fields of the input that are missing, invalid or taken. */
	ValidationFailed: { status: 422, message: 'Validation Failed' },
	/** 422 with a sentence and no errors[]: a domain rule refuses the change. */
	Unprocessable: { status: 422, message: 'Unprocessable Entity' },
	/** 422: a branch protection rule refuses a reference change ("Cannot force-push to this branch"). */
	ProtectedBranch: { status: 422, message: 'Protected branch update failed' },
	/** 422: active repository rules refuse a change ("Repository rule violations found"). */
	RuleViolation: { status: 422, message: 'Repository rule violations found' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;

/** Codes of a 422 errors[] item, as GitHub documents them (`too_large`: a blob over the API's limit). */
export type ValidationCode = 'missing' | 'missing_field' | 'invalid' | 'already_exists' | 'unprocessable' | 'custom' | 'too_large';

/** One item of errors[]: which field of which resource, and why. */
export interface ValidationItem {
	resource: string;
	field: string;
	code: ValidationCode;
	message?: string;
	value?: unknown;
}

/** GitHub's sentences for refusals that several places give (authentication, token reach), so they and the tests agree. */
export const REFUSALS = {
	requiresAuthentication: ERRORS.Unauthenticated.message,
	badCredentials: 'Bad credentials',
	byPersonalAccessToken: 'Resource not accessible by personal access token',
	byIntegration: 'Resource not accessible by integration',
	/** A suspended user's token (GitHub Enterprise Server). */
	suspended: 'Sorry. Your account was suspended.',
} as const;

/** A refusal of the domain: a code of ERRORS, its status, a message, and for some errors[] or extra fields. */
export class DomainError extends Error {
	readonly code: ErrorCode;
	/** The HTTP status GitHub answers it with (ERRORS[code].status). */
	readonly status: number;
	/** errors[] of a 422 (or of GitHub's 403 for a blob too large). */
	readonly errors?: ValidationItem[];
	/** Extra fields of GitHub's answer (e.g. a blocked gist's `block` object); never secrets. */
	readonly extra?: Record<string, unknown>;

	constructor(
		code: ErrorCode,
		message: string = ERRORS[code].message,
		options: { errors?: ValidationItem[]; extra?: Record<string, unknown> } = {},
	) {
		// A refusal is an answer, not a fault: skip the stack trace V8 would capture (its cost shows
		// on hot 404/403 paths).
		const limit = Error.stackTraceLimit;
		Error.stackTraceLimit = 0;
		super(message);
		Error.stackTraceLimit = limit;
		this.code = code;
		this.status = ERRORS[code].status;
		this.errors = options.errors;
		this.extra = options.extra;
	}
}

/** 400 with GitHub's sentence for the malformed part. */
export const badRequest = (message: string) => new DomainError('BadRequest', message);
/** 401 "Requires authentication" (no credentials), or GitHub's sentence for bad ones ("Bad credentials", a JWT's claim). */
export const unauthenticated = (message: string = ERRORS.Unauthenticated.message) => new DomainError('Unauthenticated', message);
/** 403 with the sentence naming what the caller lacks. */
export const forbidden = (message: string) => new DomainError('Forbidden', message);
/** 404 "Not Found", or GitHub's own sentence ("Branch not found"). */
export const notFound = (message: string = ERRORS.NotFound.message) => new DomainError('NotFound', message);
/** 405 for a merge GitHub refuses ("Pull Request is not mergeable", "Pull Request is still a draft", …). */
export const notMergeable = (message: string = ERRORS.NotMergeable.message) => new DomainError('NotMergeable', message);
/** 409 with the sentence naming the state the request did not expect. */
export const conflict = (message: string) => new DomainError('Conflict', message);
/** 410 for a feature the resource has turned off. */
export const gone = (message: string) => new DomainError('Gone', message);

/** 422 "Validation Failed" with errors[] items. */
export function validationFailed(items: ValidationItem[], message: string = ERRORS.ValidationFailed.message): DomainError {
	return new DomainError('ValidationFailed', message, { errors: items });
}

/** 422 "Validation Failed" for one field: `invalidField(resource, field, message)`. */
export function invalidField(resource: string, field: string, message: string, code: ValidationCode = 'invalid'): DomainError {
	return validationFailed([{ resource, field, code, message }]);
}

/** 422 with a message and no errors[] (GitHub's answers for rule violations). */
export function unprocessable(message: string): DomainError {
	return new DomainError('Unprocessable', message);
}

/** 422: branch protection refuses a reference change, with GitHub's sentence for the rule. */
export function protectedBranch(message: string): DomainError {
	return new DomainError('ProtectedBranch', message);
}

/**
 * Thrown by a background task's handler (src/jobs/tasks.ts) when retrying cannot help: the task's
 * preconditions no longer hold (its subject is gone, its payload is malformed). Not an answer to a
 * request: the task queue drops the task instead of retrying it.
 */
export class PermanentTaskError extends Error {}
