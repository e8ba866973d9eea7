/**
 * Domain events of roles, recorded through the event log in the transaction of the change: GitHub
 * sends no webhook for them and shows them in no feed; the organization's audit log derives
 * `role.create`, `role.update`, `role.destroy` (custom repository roles) and
 * `org.assign_role` / `org.unassign_role` (organization roles) from them (src/events/audit.ts).
 */
import type { App } from '../../app';
import { record } from '../../events/log';
import type { TeamRow, AccountRow } from '../../model/rows';

/**
 * Records a role change of `org`.
 * @param action created | updated | deleted (a custom repository role), assigned | unassigned (an
 *   organization role given to or taken from a member or a team; role null: all of them)
 */
export function roleEvent(
	app: App,
	action: 'created' | 'updated' | 'deleted' | 'assigned' | 'unassigned',
	org: AccountRow,
	subject: { role: string | null; user?: AccountRow; team?: TeamRow },
	actorId: number | null,
): void {
	const custom = action === 'created' || action === 'updated' || action === 'deleted';
	record(app, {
		event: custom ? 'custom_repository_role' : 'organization_role',
		action,
		actorId,
		org,
		// Not delivered (no hook subscribes to these names); read by the audit log for its fields.
		audit: {
			...(subject.role !== null ? { role: subject.role } : {}),
			...(subject.user ? { user: { id: subject.user.id, login: subject.user.login } } : {}),
			...(subject.team ? { team: subject.team.slug } : {}),
		},
	});
}
