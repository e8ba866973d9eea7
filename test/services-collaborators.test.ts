/**
 * The collaborator services without an HTTP server: removing a collaborator unassigns them from the
 * repository's issues and pull requests, as GitHub does, whichever front end removes them (REST's
 * DELETE …/collaborators/{username}, the web settings page), each change recorded as `unassigned`.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { App } from '../src/app';
import { callerAs, NOW, serviceApp } from './helpers/services';
import type { Caller } from '../src/auth/caller';
import type { AccountRow, RepositoryRow } from '../src/model/rows';
import { createUser } from '../src/api/users/service';
import { createRepository } from '../src/api/repos/service';
import { acceptInvitation, addCollaborator, removeCollaborator } from '../src/api/collaborators/service';
import { issueScope } from '../src/api/issues/service';
import { createIssue } from '../src/api/issues/workflows';
import { isoSeconds } from '../src/time';

const test = suite('services: collaborators');
let app: App;
let close: () => void;
let owner: AccountRow;
let ivy: AccountRow;
let repo: RepositoryRow;

const caller = (): Caller => callerAs(app, owner);

test.before(() => {
	({ app, close } = serviceApp('collaborators'));
	owner = createUser(app, { login: 'octo' });
	ivy = createUser(app, { login: 'ivy' });
	repo = createRepository(app, owner, { name: 'demo' }, { collaboratorId: null, now: isoSeconds(NOW), actorId: owner.id });
});

test.after(() => close());

test('removeCollaborator unassigns them from every issue of the repository, recording unassigned', () => {
	const added = addCollaborator(app, repo, owner, ivy, 'push', owner.id, NOW);
	assert.ok(added.invitation);
	acceptInvitation(app, added.invitation.id, ivy, NOW);
	const scope = issueScope(app, { repo, owner, permission: 'admin' });
	const first = createIssue(caller(), scope, { title: 'One', assignees: ['ivy', 'octo'] });
	const second = createIssue(caller(), scope, { title: 'Two', assignees: ['ivy'] });
	const untouched = createIssue(caller(), scope, { title: 'Three', assignees: ['octo'] });
	const assignees = (id: number) =>
		(app.stores.issues.assignees([id]).get(id) ?? []).map((userId) => app.stores.accounts.byId(userId)!.login).sort();
	assert.equal(assignees(first.id), ['ivy', 'octo']);

	assert.ok(removeCollaborator(app, repo, owner, ivy, owner.id));
	assert.equal(assignees(first.id), ['octo']);
	assert.equal(assignees(second.id), []);
	assert.equal(assignees(untouched.id), ['octo']);
	const unassigned = app.db
		.prepare("SELECT COUNT(*) AS n FROM events WHERE repo_id = ? AND event = 'issues' AND action = 'unassigned'")
		.get(repo.id) as { n: number };
	assert.is(unassigned.n, 2);
	// Removing again changes nothing.
	assert.not.ok(removeCollaborator(app, repo, owner, ivy, owner.id));
});

test.run();
