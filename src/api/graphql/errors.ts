/**
 * GraphQL's side of the error catalogue (src/model/errors.ts): GitHub's GraphQL errors carry a
 * `type` (NOT_FOUND, FORBIDDEN, UNPROCESSABLE, …) where REST has a status. This is the one place
 * that turns a refusal into one; anything else a resolver throws is a fault, answered as
 * "Something went wrong" with the request id.
 */
import { GraphQLError } from 'graphql';
import { HttpError } from '../../http/errors';
import { DomainError, type ErrorCode } from '../../model/errors';

/** An error with GitHub's GraphQL `type` (NOT_FOUND, FORBIDDEN, UNPROCESSABLE, …). */
export class TypedError extends Error {
	constructor(
		readonly type: string,
		message: string,
	) {
		super(message);
	}
}

/** The GraphQL type of each domain refusal. */
const TYPES: Record<ErrorCode, 'NOT_FOUND' | 'FORBIDDEN' | 'UNPROCESSABLE'> = {
	BadRequest: 'UNPROCESSABLE',
	Unauthenticated: 'FORBIDDEN',
	Forbidden: 'FORBIDDEN',
	NotFound: 'NOT_FOUND',
	NotMergeable: 'UNPROCESSABLE',
	Conflict: 'UNPROCESSABLE',
	Gone: 'UNPROCESSABLE',
	ValidationFailed: 'UNPROCESSABLE',
	Unprocessable: 'UNPROCESSABLE',
	ProtectedBranch: 'UNPROCESSABLE',
	RuleViolation: 'UNPROCESSABLE',
};

/**
 * The type of a refusal that the HTTP pipeline gave (an HttpError of the REST twin's route policy
 * or body parsing, its rate limit): 403 FORBIDDEN, 404 NOT_FOUND, 400, 409 and 422 UNPROCESSABLE; null for
 * the rest, which keep their message.
 */
function httpType(error: HttpError): 'NOT_FOUND' | 'FORBIDDEN' | 'UNPROCESSABLE' | null {
	if (error.status === 404) return 'NOT_FOUND';
	if (error.status === 403) return 'FORBIDDEN';
	if (error.status === 422 || error.status === 400 || error.status === 409) return 'UNPROCESSABLE';
	return null;
}

/**
 * A refusal of a REST twin as GitHub's GraphQL error: NOT_FOUND worded `notFound` (default "Could
 * not resolve to a node."), FORBIDDEN with the refusal's message, UNPROCESSABLE with the message
 * and its errors[] ("Validation Failed: name already_exists"). Anything else is returned as it is.
 */
export function translate(error: unknown, notFound?: string): unknown {
	const type = error instanceof DomainError ? TYPES[error.code] : error instanceof HttpError ? httpType(error) : null;
	if (type === null) return error;
	const refusal = error as DomainError | HttpError;
	if (type === 'NOT_FOUND') return new TypedError('NOT_FOUND', notFound ?? 'Could not resolve to a node.');
	if (type === 'FORBIDDEN') return new TypedError('FORBIDDEN', refusal.message);
	const details = refusal.errors?.map((item) => item.message ?? `${item.field} ${item.code}`).join(', ');
	return new TypedError('UNPROCESSABLE', details ? `${refusal.message}: ${details}` : refusal.message);
}

/** Whether `error` says the caller may not see the resource (404, 401, 403): a "does it exist" check answers false. */
export function isHidden(error: unknown): boolean {
	if (error instanceof DomainError) return error.code === 'NotFound' || error.code === 'Forbidden' || error.code === 'Unauthenticated';
	return error instanceof HttpError && (error.status === 404 || error.status === 403);
}

/** The `type` of an error in the answer: a TypedError's own, a refusal's; undefined for faults. */
export function typeOf(error: unknown): string | undefined {
	if (error instanceof TypedError) return error.type;
	if (error instanceof DomainError) return TYPES[error.code];
	if (error instanceof HttpError) return error.status === 404 ? 'NOT_FOUND' : error.status === 403 ? 'FORBIDDEN' : 'UNPROCESSABLE';
	return undefined;
}

/** A fault, not a refusal: its message is not shown (the answer says "Something went wrong") and it is logged. */
export function isFault(error: unknown): boolean {
	return !(error instanceof TypedError || error instanceof DomainError || error instanceof HttpError || error instanceof GraphQLError);
}
