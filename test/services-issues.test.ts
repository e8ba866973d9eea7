/**
 * The issue and comment services without an HTTP server: an app over a temporary data folder
 * (src/compose.ts, as the test server opens it), plain Caller objects, and the domain's refusals
 * as DomainErrors. Covers the author-or-triage rule, the open/closed state machine, labels,
 * assignees, locks and comments, and that each service records its own events.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { App } from '../src/app';
import { NOW, refusal, serviceApp } from './helpers/services';
import type { Caller } from '../src/auth/caller';
import type { AccountRow, RepositoryRow } from '../src/model/rows';
import type { RepoPermission } from '../src/model/repo-permissions';
import { createUser } from '../src/api/users/service';
import { createRepository } from '../src/api/repos/service';
import { issueScope } from '../src/api/issues/service';
import {
	addAssignees,
	createIssue,
	removeAssignees,
	removeIssueLabel,
	setIssueLabels,
	setIssueLock,
	updateIssue,
} from '../src/api/issues/workflows';
import { createIssueComment, deleteIssueComment, updateIssueComment } from '../src/api/issue-comments/service';
import { isoSeconds } from '../src/time';

const test = suite('services: issues');
let app: App;
let close: () => void;
let owner: AccountRow;
let author: AccountRow;
let stranger: AccountRow;
let repo: RepositoryRow;

const caller = (account: AccountRow): Caller => ({
	app,
	now: NOW,
	media: null,
	principal: { actorId: account.id } as Caller['principal'],
});
const scopeFor = (permission: RepoPermission | null) => issueScope(app, { repo, owner, permission });

/** The domain error `fn` throws (fails when it throws none or another kind). */
/** The events recorded for the repository, oldest first: "event.action". */
function events(): string[] {
	return (
		app.db.prepare('SELECT event, action FROM events WHERE repo_id = ? ORDER BY id').all(repo.id) as Array<{
			event: string;
			action: string;
		}>
	).map((row) => `${row.event}.${row.action}`);
}

test.before(() => {
	({ app, close } = serviceApp('services'));
	owner = createUser(app, { login: 'octo' });
	author = createUser(app, { login: 'writer' });
	stranger = createUser(app, { login: 'stranger' });
	repo = createRepository(app, owner, { name: 'demo' }, { collaboratorId: null, now: isoSeconds(NOW), actorId: owner.id });
});

test.after(() => close());

test('createIssue opens an issue and records issues.opened; labels and assignees only with push access', () => {
	const before = events().length;
	const issue = createIssue(caller(owner), scopeFor('admin'), { title: 'Bug', body: 'It breaks', labels: ['bug'], assignees: ['octo'] });
	assert.is(issue.state, 'open');
	assert.equal(
		app.stores.labels
			.forIssues([issue.id])
			.get(issue.id)
			?.map((l) => l.name),
		['bug'],
	);
	assert.equal(app.stores.issues.assignees([issue.id]).get(issue.id), [owner.id]);
	assert.equal(events().slice(before), ['issues.opened']);
	// A reader opens issues, but what needs push access is dropped, as on GitHub.
	const plain = createIssue(caller(author), scopeFor('pull'), { title: 'Question', labels: ['question'], assignees: ['octo'] });
	assert.equal(app.stores.labels.forIssues([plain.id]).get(plain.id) ?? [], []);
	assert.equal(app.stores.issues.assignees([plain.id]).get(plain.id) ?? [], []);
});

test('the row an issue insert returns is the stored row: same columns, order and values (no RETURNING)', () => {
	for (const body of ['With a body', null]) {
		for (const pullRequest of [false, true]) {
			const row = app.stores.issues.insert(
				{ repo_id: repo.id, title: 'Row', body, user_id: author.id, pull_request: pullRequest },
				isoSeconds(NOW),
			);
			const stored = app.db.prepare('SELECT * FROM issues WHERE id = ?').get(row.id) as Record<string, unknown>;
			assert.equal(Object.keys(row), Object.keys(stored), "~> the columns in the table's order");
			assert.equal(row, stored);
		}
	}
});

test('updateIssue: the author or a triager may change it; others are refused with 403', () => {
	const issue = createIssue(caller(author), scopeFor('pull'), { title: 'Mine' });
	const edited = updateIssue(caller(author), scopeFor('pull'), issue, { title: 'Mine, edited' });
	assert.is(edited.title, 'Mine, edited');
	const error = refusal(() => updateIssue(caller(stranger), scopeFor('pull'), edited, { title: 'Theirs' }));
	assert.is(error.status, 403);
	assert.is(app.stores.issues.byId(issue.id)!.title, 'Mine, edited');
	const triaged = updateIssue(caller(owner), scopeFor('triage'), edited, { title: 'Triaged' });
	assert.is(triaged.title, 'Triaged');
});

test('updateIssue state machine: close (completed by default, never reopened), reopen (reason reopened)', () => {
	const scope = scopeFor('admin');
	const issue = createIssue(caller(owner), scope, { title: 'States' });
	const before = events().length;
	assert.is(refusal(() => updateIssue(caller(owner), scope, issue, { state: 'closed', state_reason: 'reopened' })).status, 422);
	const closed = updateIssue(caller(owner), scope, issue, { state: 'closed' });
	assert.is(closed.state, 'closed');
	assert.is(closed.state_reason, 'completed');
	assert.is(closed.closed_by_id, owner.id);
	assert.is(refusal(() => updateIssue(caller(owner), scope, closed, { state: 'open', state_reason: 'not_planned' })).status, 422);
	const reopened = updateIssue(caller(owner), scope, closed, { state: 'open' });
	assert.is(reopened.state, 'open');
	assert.is(reopened.state_reason, 'reopened');
	assert.is(reopened.closed_at, null);
	const notPlanned = updateIssue(caller(owner), scope, reopened, { state: 'closed', state_reason: 'not_planned' });
	assert.is(notPlanned.state_reason, 'not_planned');
	assert.equal(events().slice(before), ['issues.closed', 'issues.reopened', 'issues.closed']);
});

test('labels, assignees and locks record what changed', () => {
	const scope = scopeFor('admin');
	const issue = createIssue(caller(owner), scope, { title: 'Triage me' });
	const before = events().length;
	assert.equal(
		setIssueLabels(caller(owner), scope, issue, ['a', { name: 'b' }], 'attach').map((l) => l.name),
		['a', 'b'],
	);
	assert.equal(
		removeIssueLabel(caller(owner), scope, issue, 'a').map((l) => l.name),
		['b'],
	);
	assert.is(refusal(() => removeIssueLabel(caller(owner), scope, issue, 'a')).status, 404);
	assert.equal(setIssueLabels(caller(owner), scope, issue, [], 'replace'), []);
	addAssignees(caller(owner), scope, issue, ['octo']);
	assert.is(refusal(() => addAssignees(caller(owner), scope, issue, ['stranger'])).status, 422);
	removeAssignees(caller(owner), scope, issue, ['octo', 'nobody']);
	const locked = setIssueLock(caller(owner), scope, issue, true, 'resolved');
	assert.is(locked.locked, 1);
	setIssueLock(caller(owner), scope, locked, false);
	assert.equal(events().slice(before), [
		'issues.labeled',
		'issues.labeled',
		'issues.unlabeled',
		'issues.unlabeled',
		'issues.assigned',
		'issues.unassigned',
		'issues.locked',
		'issues.unlocked',
	]);
});

test('comments: a locked conversation takes comments only with push access; authors or writers edit', () => {
	const issue = createIssue(caller(author), scopeFor('pull'), { title: 'Talk' });
	const before = events().length;
	const comment = createIssueComment(caller(author), scopeFor('pull'), issue, 'first');
	assert.is(refusal(() => updateIssueComment(caller(stranger), scopeFor('pull'), comment, 'hijack')).status, 403);
	const edited = updateIssueComment(caller(author), scopeFor('pull'), comment, 'first, edited');
	assert.is(edited.body, 'first, edited');
	// An unchanged body records nothing.
	updateIssueComment(caller(author), scopeFor('pull'), edited, 'first, edited');
	const locked = setIssueLock(caller(owner), scopeFor('admin'), issue, true);
	assert.is(refusal(() => createIssueComment(caller(author), scopeFor('pull'), locked, 'more')).status, 403);
	createIssueComment(caller(owner), scopeFor('admin'), locked, 'maintainer note');
	deleteIssueComment(caller(owner), scopeFor('admin'), edited);
	assert.equal(events().slice(before), [
		'issue_comment.created',
		'issue_comment.edited',
		'issues.locked',
		'issue_comment.created',
		'issue_comment.deleted',
	]);
});

test.run();
