/**
 * Organization migrations (https://docs.github.com/en/rest/migrations/orgs): starting an export, the background
 * task that writes the archive (a real .tar.gz of JSON documents in the blob folder), signed
 * archive URLs, archive deletion and expiry, repository locks.
 *
 * Archive layout (after GitHub's migration archives): schema.json, organizations_000001.json
 * (with members), users_000001.json, teams_000001.json (unless exclude_metadata),
 * repositories_000001.json (unless org_metadata_only). Gitstead keeps no git data for
 * repositories, so none is exported (schema.json says so).
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as Tar from 'tar';
import type { App } from '../../app';
import { version } from '../../build-info';
import { forbidden, invalidField, PermanentTaskError, unprocessable } from '../../model/errors';
import { epochSeconds, isoSeconds } from '../../time';
import { orgFull } from '../orgs/render';
import { repository } from '../../model/render';
import type { RepositoryRow, AccountRow } from '../../model/rows';
import { teamUrl } from '../../model/render';
import { publicUser } from '../users/render';
import type { MigrationRow } from './store';

/** tar, loaded at its first use: its module body is not run by a start. */
let tarLibrary: typeof Tar | undefined;
const tar = () => (tarLibrary ??= require('tar') as typeof Tar);

/** Background task kind that writes a migration's archive. */
export const EXPORT_TASK = 'export-migration';
/** Archives are deleted automatically after seven days (https://docs.github.com/en/rest/migrations/orgs). */
export const ARCHIVE_DAYS = 7;
/** Signed archive URLs are good for five minutes. */
export const ARCHIVE_URL_SECONDS = 300;
/** Settings key of the secret that signs archive URLs. */
export const SIGNING_SECRET = 'archive_signing_secret';

export interface StartInput {
	repositories: string[];
	lock_repositories?: boolean;
	exclude_metadata?: boolean;
	exclude_git_data?: boolean;
	exclude_attachments?: boolean;
	exclude_releases?: boolean;
	exclude_owner_projects?: boolean;
	org_metadata_only?: boolean;
	exclude?: string[];
}

/** Folder of migration archives, or null when no blob storage is configured. */
export function archiveFolder(app: App): string | null {
	return app.config.blobDir === null ? null : join(app.config.blobDir, 'migrations');
}

/** @throws DomainError 403 when a migration holds the repository locked. */
export function assertUnlocked(app: App, repo: RepositoryRow): void {
	if (app.stores.migrations.isLocked(repo.id)) throw forbidden('Repository is locked for migration; unlock it to change it.');
}

/**
 * Records a pending migration and queues its export, in one transaction.
 * @param now ISO timestamp
 * @throws DomainError 422 without blob storage, for repositories the organization does not own, or
 * for repositories given with org_metadata_only.
 */
export function startMigration(app: App, org: AccountRow, input: StartInput, now: string): MigrationRow {
	if (archiveFolder(app) === null) {
		throw unprocessable(
			'A blob storage provider must be configured before migrations can be started (config storage.blob_dir is empty).',
		);
	}
	const metadataOnly = input.org_metadata_only === true;
	if (metadataOnly && input.repositories.length > 0) {
		throw invalidField('Migration', 'repositories', 'with org_metadata_only the repositories list must be empty');
	}
	if (!metadataOnly && input.repositories.length === 0) {
		throw invalidField('Migration', 'repositories', 'name at least one repository, or set org_metadata_only', 'missing_field');
	}
	const repoIds = [
		...new Set(
			input.repositories.map((name) => {
				const [owner, repoName] = name.includes('/') ? name.split('/', 2) : [org.login, name];
				const repo =
					owner.toLowerCase() === org.login.toLowerCase() ? app.stores.repos.byOwnerAndName(org.id, repoName) : undefined;
				if (!repo) throw invalidField('Migration', 'repositories', `${name} is not a repository of ${org.login}`);
				return repo.id;
			}),
		),
	];
	const flag = (value: boolean | undefined) => (value && !metadataOnly ? 1 : 0);
	return app.transaction(() => {
		const migration = app.stores.migrations.insert(
			{
				org_id: org.id,
				guid: randomUUID(),
				lock_repositories: flag(input.lock_repositories),
				exclude_metadata: flag(input.exclude_metadata),
				exclude_git_data: flag(input.exclude_git_data),
				exclude_attachments: flag(input.exclude_attachments),
				exclude_releases: flag(input.exclude_releases),
				exclude_owner_projects: flag(input.exclude_owner_projects),
				org_metadata_only: metadataOnly ? 1 : 0,
				exclude: JSON.stringify(input.exclude ?? []),
			},
			repoIds,
			now,
		);
		app.tasks.enqueue(EXPORT_TASK, { migrationId: migration.id });
		return migration;
	});
}

/** The documents of an archive, by file name. */
export function archiveDocuments(app: App, migration: MigrationRow): Record<string, unknown> {
	const { stores, urls } = app;
	const org = stores.accounts.byId(migration.org_id)!;
	const members = stores.memberships.members({ orgId: org.id, role: 'all', publicOnly: false, limit: 1_000_000, offset: 0 }).rows;
	const users = new Map<number, AccountRow>(members.map((u) => [u.id, u]));
	const documents: Record<string, unknown> = {
		'schema.json': {
			version: '1.0.1',
			exported_by: `Gitstead ${version}`,
			guid: migration.guid,
			created_at: migration.created_at,
			git_data_included: false,
		},
	};
	documents['organizations_000001.json'] = [
		{
			...orgFull(urls, org, stores.accounts.counts(org.id), { member: true, admin: true }, stores.accounts.seats(org.id)),
			members: members.map((user) => ({
				user: urls.api(`/users/${user.login}`),
				role: stores.memberships.get(org.id, user.id)!.role,
				state: 'active',
			})),
		},
	];
	if (!migration.exclude_metadata) {
		const teams = stores.teams.order(org.id).map(([id]) => stores.teams.byId(id)!);
		documents['teams_000001.json'] = teams.map((team) => {
			const teamMembers = stores.teams
				.members({ teamId: team.id, role: 'all', limit: 1_000_000, offset: 0 })
				.rows.filter((m) => m.inherited === 0);
			for (const member of teamMembers) users.set(member.id, member);
			const parent = team.parent_id !== null ? stores.teams.byId(team.parent_id) : undefined;
			return {
				url: teamUrl(urls, team),
				organization: urls.api(`/orgs/${org.login}`),
				name: team.name,
				slug: team.slug,
				description: team.description,
				privacy: team.privacy,
				parent: parent ? teamUrl(urls, parent) : null,
				permissions: stores.teams
					.lineageRepositories(team.id)
					.filter((repo) => repo.owner_id === org.id)
					.map((repo) => ({ repository: urls.api(`/repos/${org.login}/${repo.name}`), access: repo.granted })),
				members: teamMembers.map((member) => ({ user: urls.api(`/users/${member.login}`), role: member.member_role })),
				created_at: team.created_at,
			};
		});
	}
	if (!migration.org_metadata_only) {
		documents['repositories_000001.json'] = stores.migrations.repositories(migration.id).map((repo) => {
			const record: Record<string, unknown> = { ...repository(urls, repo, org, null) };
			if (!migration.exclude_metadata) {
				const collaborators = stores.repos.collaborators(repo.id);
				for (const c of collaborators) users.set(c.id, c);
				record.collaborators = collaborators.map((c) => ({ user: urls.api(`/users/${c.login}`), permission: c.permission }));
			}
			return record;
		});
	}
	documents['users_000001.json'] = [...users.values()]
		.sort((a, b) => a.id - b.id)
		.map((user) => publicUser(urls, user, stores.accounts.counts(user.id)));
	return documents;
}

/**
 * Background task: pending → exporting → exported (archive written) or failed. Payload {migrationId}.
 * The archive is written beside its final name and renamed, so a crash never leaves half an archive.
 */
export async function runExportTask(app: App, payload: unknown): Promise<void> {
	const { migrationId } = payload as { migrationId: number };
	const migration = app.stores.migrations.byId(migrationId);
	if (!migration) throw new PermanentTaskError(`migration ${migrationId} no longer exists`);
	const folder = archiveFolder(app);
	const fail = (reason: string) => {
		app.transaction(() => app.stores.migrations.setState(migration.id, 'failed', reason, isoSeconds(app.clock())));
		return new PermanentTaskError(reason);
	};
	if (!folder) throw fail('no blob storage is configured');
	app.transaction(() => app.stores.migrations.setState(migration.id, 'exporting', null, isoSeconds(app.clock())));
	let work: string | null = null;
	try {
		mkdirSync(folder, { recursive: true });
		work = mkdtempSync(join(folder, `.${migration.guid}-`));
		const documents = archiveDocuments(app, migration);
		for (const [name, content] of Object.entries(documents)) writeFileSync(join(work, name), `${JSON.stringify(content, null, 2)}\n`);
		const name = `${migration.guid}.tar.gz`;
		const partial = join(folder, `${name}.partial`);
		await tar().c({ gzip: true, file: partial, cwd: work, portable: true }, Object.keys(documents));
		renameSync(partial, join(folder, name));
		app.transaction(() => app.stores.migrations.setArchive(migration.id, name, isoSeconds(app.clock())));
	} catch (error) {
		throw fail(`export failed: ${(error as Error).message}`);
	} finally {
		if (work) rmSync(work, { recursive: true, force: true });
	}
}

/** Path of a migration's archive file, or null when there is none. */
export function archivePath(app: App, migration: MigrationRow): string | null {
	const folder = archiveFolder(app);
	if (!folder || !migration.archive_path) return null;
	const path = join(folder, migration.archive_path);
	return existsSync(path) ? path : null;
}

function signature(app: App, guid: string, expires: number): string {
	const secret = app.settings.ensure(SIGNING_SECRET, () => randomUUID() + randomUUID());
	return createHmac('sha256', secret).update(`${guid}:${expires}`).digest('hex');
}

/** A URL for the archive, served by Gitstead, good for ARCHIVE_URL_SECONDS. */
export function signedArchiveUrl(app: App, migration: MigrationRow): string {
	const expires = epochSeconds(app.clock()) + ARCHIVE_URL_SECONDS;
	return app.urls.api(`/migration-archives/${migration.guid}?expires=${expires}&signature=${signature(app, migration.guid, expires)}`);
}

/** True when the signature matches and has not expired. @param now epoch seconds */
export function validArchiveSignature(app: App, guid: string, expires: number, given: string, now: number): boolean {
	if (!Number.isSafeInteger(expires) || expires < now) return false;
	const expected = Buffer.from(signature(app, guid, expires));
	const actual = Buffer.from(given);
	return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** Deletes the archive file and records the deletion. @param now ISO timestamp */
export function deleteArchive(app: App, migration: MigrationRow, now: string): void {
	const path = archivePath(app, migration);
	app.transaction(() => app.stores.migrations.deleteArchive(migration.id, now));
	if (path) rmSync(path, { force: true });
}

/** Job: deletes archives older than ARCHIVE_DAYS. @returns archives deleted */
export function expireArchives(app: App): number {
	const before = isoSeconds(app.clock() - ARCHIVE_DAYS * 86_400_000);
	const expired = app.stores.migrations.archivesBefore(before);
	for (const migration of expired) deleteArchive(app, migration, isoSeconds(app.clock()));
	return expired.length;
}
