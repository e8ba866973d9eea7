/**
 * Domain events of repository invitations, recorded through the event log inside the transaction of
 * the change. GitHub has no webhook and no feed entry for a new invitation: it tells the invitee
 * with a notification (reason `invitation`, subject type RepositoryInvitation, subject.url null,
 * title "Invitation to join {owner}/{repo} from {inviter}"), which is what this event carries. The
 * collaborator changes themselves (member added, edited, removed; the MemberEvent feed entry) are
 * in src/events/catalog.ts (`events.member`).
 */
import type { App } from '../../app';
import { record } from '../../events/log';
import type { RepositoryRow, AccountRow } from '../../model/rows';
import type { InvitationRow } from './store';

/** Event name of a new repository invitation in the log (no webhook carries it). */
export const INVITATION_EVENT = 'repository_invitation';

/**
 * repository_invitation created: notifies the invitee (reason invitation), who may not read the
 * repository yet (the recipient rule lets an invitation through: src/events/recipients.ts).
 */
export function recordInvitation(app: App, repo: RepositoryRow, owner: AccountRow, row: InvitationRow, actorId: number | null): void {
	const inviter = row.inviter_id === null ? undefined : app.stores.accounts.byId(row.inviter_id);
	record(app, {
		event: INVITATION_EVENT,
		action: 'created',
		actorId,
		repo,
		notification: {
			subject: {
				type: 'RepositoryInvitation',
				id: row.id,
				title: `Invitation to join ${owner.login}/${repo.name}${inviter ? ` from ${inviter.login}` : ''}`,
				path: null,
				latestCommentPath: null,
			},
			broadcast: false,
			involved: [{ userId: row.invitee_id, reason: 'invitation' }],
		},
	});
}
