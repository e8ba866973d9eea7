/**
 * The request bodies of creating and updating an issue (GitHub's field rules: a title of 1 to 256
 * characters once trimmed, labels as names or {name}, a milestone number or null), shared by the
 * REST routes and GraphQL's createIssue and updateIssue.
 */
import * as v from 'valibot';
import { issueBodyField } from '../markdown/body';

const MAX_TITLE = 256;

/** An issue's or pull request's title: a string or number, trimmed, 1 to 256 characters (422 otherwise). */
export const issueTitle = v.pipe(
	v.union([v.string(), v.number()], 'title must be a string'),
	v.transform((value) => String(value).trim()),
	v.minLength(1, "title can't be blank"),
	v.maxLength(MAX_TITLE, `title is longer than ${MAX_TITLE} characters`),
);
export const labelInput = v.array(v.union([v.string(), v.object({ name: v.optional(v.string()) })]));
const milestone = v.nullable(v.union([v.string(), v.number()]));

export const createBody = v.object({
	title: issueTitle,
	body: v.optional(issueBodyField),
	assignee: v.optional(v.nullable(v.string())),
	assignees: v.optional(v.array(v.string())),
	labels: v.optional(labelInput),
	milestone: v.optional(milestone),
	type: v.optional(v.nullable(v.string())),
});
export const updateBody = v.object({
	title: v.optional(issueTitle),
	body: v.optional(issueBodyField),
	assignee: v.optional(v.nullable(v.string())),
	assignees: v.optional(v.array(v.string())),
	state: v.optional(v.picklist(['open', 'closed'], 'state must be open or closed')),
	state_reason: v.optional(
		v.nullable(
			v.picklist(
				['completed', 'not_planned', 'duplicate', 'reopened'],
				'state_reason must be completed, not_planned, duplicate or reopened',
			),
		),
	),
	duplicate_issue_id: v.optional(v.nullable(v.number())),
	labels: v.optional(labelInput),
	milestone: v.optional(milestone),
	type: v.optional(v.nullable(v.string())),
});
