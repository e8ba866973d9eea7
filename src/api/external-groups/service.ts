/**
 * External groups (GitHub's "External groups" REST API, teams/external-groups): Gitstead has no
 * identity provider, so groups are imported per organization (`gitstead admin
 * import-external-groups`). A team linked to a group has the group's members who are active members
 * of the organization as its members (others are skipped); every change goes through the team
 * membership service (addTeamMember / removeTeamMember: membership added / removed events), and
 * re-importing a group re-syncs the teams linked to it.
 */
import * as v from 'valibot';
import type { App } from '../../app';
import { invalidField, unprocessable } from '../../model/errors';
import { record } from '../../events/log';
import { deleteForksWithoutAccess } from '../repos/service';
import { addTeamMember, removeTeamMember } from '../teams/service';
import type { TeamRow, AccountRow } from '../../model/rows';
import type { ExternalGroupRow } from './store';

/** One group of an import file: `{group_id?, group_name, members: [{member_login, member_name?, member_email?}]}`. */
export const importedGroup = v.object({
	group_id: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
	group_name: v.pipe(v.string(), v.trim(), v.minLength(1, 'group_name must not be empty'), v.maxLength(255)),
	members: v.array(
		v.object({
			member_login: v.pipe(v.string(), v.trim(), v.minLength(1, 'member_login must not be empty'), v.maxLength(255)),
			member_name: v.optional(v.nullable(v.string())),
			member_email: v.optional(v.nullable(v.string())),
		}),
	),
});
export type ImportedGroup = v.InferOutput<typeof importedGroup>;

/** The import file: an array of groups. */
export const importFile = v.array(importedGroup);

/** Records an external-group change (no webhook, no feed; the audit log derives external_group.*). */
function groupEvent(
	app: App,
	action: 'provisioned' | 'updated' | 'linked' | 'unlinked',
	org: AccountRow,
	group: ExternalGroupRow,
	team: TeamRow | null,
	actorId: number | null,
): void {
	record(app, {
		event: 'external_group',
		action,
		actorId,
		org,
		audit: { group_id: group.id, group_name: group.name, ...(team ? { team: team.slug } : {}) },
	});
}

/**
 * Makes a linked team's members the group's members who are active members of its organization:
 * adds the missing ones, removes the others (direct memberships, pending ones too).
 * @param now ISO timestamp
 * @returns logins added and removed
 */
export function syncTeam(app: App, org: AccountRow, team: TeamRow, group: ExternalGroupRow, actorId: number | null, now: string) {
	const { stores } = app;
	const wanted = new Map<number, AccountRow>();
	for (const member of stores.externalGroups.members(group.id)) {
		const user = stores.accounts.user(member.login);
		if (user && stores.memberships.get(org.id, user.id)?.state === 'active') wanted.set(user.id, user);
	}
	const added: string[] = [];
	const removed: string[] = [];
	for (const userId of stores.externalGroups.teamMemberIds(team.id)) {
		if (wanted.has(userId)) continue;
		const user = stores.accounts.byId(userId)!;
		if (removeTeamMember(app, org, team, user, actorId)) removed.push(user.login);
	}
	for (const user of wanted.values()) {
		if (addTeamMember(app, org, team, user, null, actorId, now)) added.push(user.login);
	}
	if (removed.length) deleteForksWithoutAccess(app, org, actorId);
	return { added, removed };
}

/**
 * Imports groups into an organization, in one transaction: a group is found by `group_id` (of this
 * organization) or else by name, created when neither matches; its members become exactly the ones
 * listed (by login; name and email kept as given); the teams linked to it are re-synced.
 * @param now ISO timestamp
 * @throws DomainError 422 for a group_id that is not one of the organization's groups, a name taken by
 *   another group, or a group or login listed twice.
 */
export function importExternalGroups(app: App, org: AccountRow, groups: ImportedGroup[], now: string) {
	return app.transaction(() => {
		const { externalGroups } = app.stores;
		const seen = new Set<number>();
		const out: Array<{
			group_id: number;
			group_name: string;
			created: boolean;
			members: number;
			teams: Array<{ team: string; added: string[]; removed: string[] }>;
		}> = [];
		for (const input of groups) {
			let group =
				input.group_id !== undefined ? externalGroups.byId(input.group_id) : externalGroups.byName(org.id, input.group_name);
			if (input.group_id !== undefined && group?.org_id !== org.id) {
				throw invalidField('ExternalGroup', 'group_id', `${org.login} has no external group ${input.group_id}`);
			}
			const named = externalGroups.byName(org.id, input.group_name);
			if (named && group && named.id !== group.id) {
				throw invalidField(
					'ExternalGroup',
					'group_name',
					`another group of ${org.login} is named "${input.group_name}"`,
					'already_exists',
				);
			}
			const logins = input.members.map((m) => m.member_login.toLowerCase());
			if (new Set(logins).size !== logins.length) throw unprocessable(`The group "${input.group_name}" lists a member twice.`);
			const created = !group;
			if (!group) group = externalGroups.byId(externalGroups.insert(org.id, input.group_name, now))!;
			if (seen.has(group.id)) throw unprocessable(`The group "${input.group_name}" is listed twice.`);
			seen.add(group.id);
			if (group.name !== input.group_name) externalGroups.rename(group.id, input.group_name, now);
			else externalGroups.touch(group.id, now);
			const keep = new Set(logins);
			for (const member of externalGroups.members(group.id))
				if (!keep.has(member.login.toLowerCase())) externalGroups.removeMember(member.id);
			for (const m of input.members) {
				externalGroups.upsertMember(group.id, {
					login: m.member_login,
					name: m.member_name ?? null,
					email: m.member_email ?? null,
				});
			}
			group = externalGroups.byId(group.id)!;
			groupEvent(app, created ? 'provisioned' : 'updated', org, group, null, null);
			const teams = externalGroups.teams(group.id).map((linked) => {
				const team = app.stores.teams.byId(linked.id)!;
				return { team: team.slug, ...syncTeam(app, org, team, group!, null, now) };
			});
			out.push({ group_id: group.id, group_name: group.name, created, members: input.members.length, teams });
		}
		return out;
	});
}

/**
 * Links a team to a group (replacing a previous link) and syncs its members.
 * @param now ISO timestamp
 * @throws DomainError 422 when the group is not one of the organization's
 */
export function linkTeam(app: App, org: AccountRow, team: TeamRow, groupId: number, actorId: number | null, now: string): ExternalGroupRow {
	const group = app.stores.externalGroups.byId(groupId);
	if (!group || group.org_id !== org.id) throw invalidField('ExternalGroup', 'group_id', `${org.login} has no external group ${groupId}`);
	app.stores.externalGroups.link(team.id, group.id, now);
	groupEvent(app, 'linked', org, group, team, actorId);
	syncTeam(app, org, team, group, actorId, now);
	return group;
}

/** Unlinks a team from its group; its members stay, as on GitHub. @returns false when it was not linked */
export function unlinkTeam(app: App, org: AccountRow, team: TeamRow, actorId: number | null): boolean {
	const groupId = app.stores.externalGroups.linkOf(team.id);
	if (groupId === null) return false;
	const group = app.stores.externalGroups.byId(groupId)!;
	app.stores.externalGroups.unlink(team.id);
	groupEvent(app, 'unlinked', org, group, team, actorId);
	return true;
}
