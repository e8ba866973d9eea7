/**
 * Request schemas of Markdown bodies (issues, issue comments, gist comments), with GitHub's limit:
 * a longer body is refused before anything is written, with GitHub's 422 item
 * `{"resource":"IssueComment","code":"custom","field":"body","message":"body is too long (maximum is 65536 characters)"}`
 * (the route's resource).
 */
import * as v from 'valibot';
import { maxCharacters } from '../../http/validation';

/** GitHub's limit on issue, issue comment and gist comment bodies, in characters (code points). */
export const MAX_BODY = 65536;

/** A comment body: a string, not blank, at most MAX_BODY characters. */
export const commentBodyField = v.pipe(
	v.string('body must be a string'),
	v.minLength(1, "body can't be blank"),
	maxCharacters('body', MAX_BODY),
);

/** An issue body: a string of at most MAX_BODY characters, or null. */
export const issueBodyField = v.nullable(v.pipe(v.string('body must be a string'), maxCharacters('body', MAX_BODY)));
