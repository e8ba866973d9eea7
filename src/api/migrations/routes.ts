/**
 * Organization migrations (https://docs.github.com/en/rest/migrations/orgs): list, start,
 * get status, download archive (302 to a signed URL Gitstead serves), delete archive, unlock a
 * repository, list repositories. Organization owners only; fine-grained and app tokens are refused.
 */
import * as v from 'valibot';
import { notFound } from '../../model/errors';
import { created, noContent, ok, paged, redirect } from '../../http/reply';
import { idParam, route, type Context } from '../../http/route';
import { epochSeconds, isoSeconds } from '../../time';
import { repository } from '../../model/render';
import { migration } from './render';
import { archivePath, deleteArchive, signedArchiveUrl, startMigration, validArchiveSignature, type StartInput } from './service';

const POLICY = {
	access: 'authenticated' as const,
	permissions: [],
	scopes: ['admin:org'],
	// The spec: fine-grained tokens and app tokens are not accepted.
	tokens: ['classic', 'oauth'] as Array<'classic' | 'oauth'>,
	resource: { org: 'owner' as const },
	errorResource: 'Migration',
};

const flag = v.optional(v.boolean());
const startBody = v.object({
	repositories: v.array(v.string()),
	lock_repositories: flag,
	exclude_metadata: flag,
	exclude_git_data: flag,
	exclude_attachments: flag,
	exclude_releases: flag,
	exclude_owner_projects: flag,
	org_metadata_only: flag,
	exclude: v.optional(v.array(v.picklist(['repositories']))),
});

/** `exclude=repositories` (or exclude[]=, or comma-separated): leave repositories out of the answer. */
function excludesRepositories(ctx: Context): boolean {
	const raw = [ctx.query.exclude, ctx.query['exclude[]']].flat().filter((x): x is string => typeof x === 'string');
	return raw.some((value) =>
		value
			.split(',')
			.map((x) => x.trim())
			.includes('repositories'),
	);
}

function loadMigration(ctx: Context) {
	const access = ctx.org;
	const id = idParam(ctx.params.migration_id);
	const row = id === null ? undefined : ctx.app.stores.migrations.get(access.org.id, id);
	if (!row) throw notFound();
	return { org: access.org, row };
}

export const migrationRoutes = [
	route({
		...POLICY,
		method: 'GET',
		path: '/orgs/{org}/migrations',
		docs: 'migrations/orgs#list-organization-migrations',
		pagination: true,
		handler(ctx) {
			const access = ctx.org;
			const { rows, total } = ctx.app.stores.migrations.list(access.org.id, ctx.page.perPage, ctx.page.offset);
			const skip = excludesRepositories(ctx);
			const repos = skip ? [] : ctx.app.stores.migrations.repositoriesOf(rows.map((row) => row.id));
			return paged(
				rows.map((row) =>
					migration(ctx.app.urls, row, access.org, skip ? null : repos.filter((repo) => repo.migration_id === row.id)),
				),
				total,
			);
		},
	}),
	route({
		...POLICY,
		method: 'POST',
		path: '/orgs/{org}/migrations',
		docs: 'migrations/orgs#start-an-organization-migration',
		body: startBody,
		handler(ctx) {
			const access = ctx.org;
			const row = startMigration(ctx.app, access.org, ctx.body as StartInput, isoSeconds(ctx.now));
			const skip = (ctx.body.exclude ?? []).includes('repositories');
			return created(migration(ctx.app.urls, row, access.org, skip ? null : ctx.app.stores.migrations.repositories(row.id)));
		},
	}),
	route({
		...POLICY,
		method: 'GET',
		path: '/orgs/{org}/migrations/{migration_id}',
		docs: 'migrations/orgs#get-an-organization-migration-status',
		handler(ctx) {
			const { org, row } = loadMigration(ctx);
			return ok(migration(ctx.app.urls, row, org, excludesRepositories(ctx) ? null : ctx.app.stores.migrations.repositories(row.id)));
		},
	}),
	route({
		...POLICY,
		method: 'GET',
		path: '/orgs/{org}/migrations/{migration_id}/archive',
		docs: 'migrations/orgs#download-an-organization-migration-archive',
		handler(ctx) {
			const { row } = loadMigration(ctx);
			if (row.state !== 'exported' || !archivePath(ctx.app, row)) throw notFound();
			return redirect(signedArchiveUrl(ctx.app, row));
		},
	}),
	route({
		...POLICY,
		method: 'DELETE',
		path: '/orgs/{org}/migrations/{migration_id}/archive',
		docs: 'migrations/orgs#delete-an-organization-migration-archive',
		handler(ctx) {
			const { row } = loadMigration(ctx);
			if (!row.archive_path) throw notFound();
			deleteArchive(ctx.app, row, isoSeconds(ctx.now));
			return noContent();
		},
	}),
	route({
		...POLICY,
		method: 'DELETE',
		path: '/orgs/{org}/migrations/{migration_id}/repos/{repo_name}/lock',
		docs: 'migrations/orgs#unlock-an-organization-repository',
		handler(ctx) {
			const { org, row } = loadMigration(ctx);
			const repo = ctx.app.stores.repos.byOwnerAndName(org.id, ctx.params.repo_name);
			if (!repo || !ctx.app.stores.migrations.unlock(row.id, repo.id)) throw notFound();
			return noContent();
		},
	}),
	route({
		...POLICY,
		method: 'GET',
		path: '/orgs/{org}/migrations/{migration_id}/repositories',
		docs: 'migrations/orgs#list-repositories-in-an-organization-migration',
		pagination: true,
		handler(ctx) {
			const { org, row } = loadMigration(ctx);
			const repos = ctx.app.stores.migrations.repositories(row.id);
			const page = repos.slice(ctx.page.offset, ctx.page.offset + ctx.page.perPage);
			return paged(
				page.map((repo) => repository(ctx.app.urls, repo, org, 'admin')),
				repos.length,
			);
		},
	}),
	route({
		method: 'GET',
		path: '/migration-archives/{guid}',
		docs: 'migrations/orgs#download-an-organization-migration-archive',
		// The signed URL is the credential, as a storage provider's pre-signed URL would be.
		access: 'public',
		resource: 'none',
		permissions: [],
		query: v.object({ expires: v.optional(v.string()), signature: v.optional(v.string()) }),
		handler(ctx) {
			const row = ctx.app.stores.migrations.byGuid(ctx.params.guid);
			const expires = Number(ctx.query.expires ?? 'x');
			if (!row || !validArchiveSignature(ctx.app, row.guid, expires, ctx.query.signature ?? '', epochSeconds(ctx.now))) {
				throw notFound();
			}
			const path = archivePath(ctx.app, row);
			if (!path) throw notFound();
			return { status: 200, file: { path, contentType: 'application/x-gzip', name: `${row.guid}.tar.gz` } };
		},
	}),
];
