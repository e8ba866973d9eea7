/**
 * `gitstead admin import-external-groups ORG FILE [--json]`: imports external groups into an
 * organization (Gitstead has no identity provider). FILE holds a JSON array of
 * `{group_id?, group_name, members: [{member_login, member_name?, member_email?}]}`; a group is found
 * by group_id, else by name, else created; its members become exactly those listed, and the teams
 * linked to it are re-synced (src/api/external-groups/service.ts), all in one transaction.
 */
import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import type { App } from '../app';
import { importExternalGroups, importFile } from '../api/external-groups/service';
import { isoSeconds } from '../time';
import { CliError, type Output } from './output';

/** The command's declaration (an AdminCommand of src/cli/admin.ts). */
export const importExternalGroupsCommand = {
	options: {},
	positionals: ['ORG', 'FILE'],
	/** @throws CliError for an unknown organization or an unreadable or malformed file; DomainError 422 from the import */
	run(app: App, _values: Record<string, string | boolean | undefined>, [login, file]: string[], out: Output): void {
		const org = app.stores.accounts.organization(login);
		if (!org) throw new CliError(`unknown organization "${login}"`);
		let parsed: unknown;
		try {
			parsed = JSON.parse(readFileSync(file, 'utf8'));
		} catch (error) {
			throw new CliError(`cannot read ${file} as JSON: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
		}
		const checked = v.safeParse(importFile, parsed);
		if (!checked.success) {
			const issue = checked.issues[0];
			const where = issue.path?.map((item) => String(item.key)).join('.') ?? '';
			throw new CliError(
				`${file}: ${where ? `${where}: ` : ''}${issue.message} (expected an array of {group_id?, group_name, members: [{member_login, member_name?, member_email?}]})`,
			);
		}
		const groups = importExternalGroups(app, org, checked.output, isoSeconds(app.clock()));
		const synced = groups.flatMap((group) => group.teams.map((team) => `${team.team} (+${team.added.length} −${team.removed.length})`));
		out.result(
			{ organization: org.login, groups },
			`imported ${groups.length} external groups into ${org.login} (${groups.filter((group) => group.created).length} new)` +
				(synced.length ? `; re-synced teams ${synced.join(', ')}` : ''),
		);
	},
};
