/**
 * Dependency submission and dependency review:
 * - POST /repos/{owner}/{repo}/dependency-graph/snapshots (rate-limit category dependency_snapshots)
 * - GET /repos/{owner}/{repo}/dependency-graph/compare/{basehead}
 */
import * as v from 'valibot';
import { created, ok } from '../../http/reply';
import { route } from '../../http/route';
import { isoSeconds } from '../../time';
import { reviewDependencies, submitSnapshot, type DependencyChange } from './service';

const MAX_METADATA_KEYS = 8;
const metadata = v.pipe(
	v.record(
		v.string(),
		v.nullable(v.union([v.string(), v.number(), v.boolean()], 'metadata values must be strings, numbers, booleans or null')),
	),
	v.check((value) => Object.keys(value).length <= MAX_METADATA_KEYS, `metadata has at most ${MAX_METADATA_KEYS} keys`),
);
const dependency = v.strictObject({
	package_url: v.optional(v.pipe(v.string(), v.regex(/^pkg/, 'package_url must be a package-url (pkg:...)'))),
	metadata: v.optional(metadata),
	relationship: v.optional(v.picklist(['direct', 'indirect'], 'relationship must be direct or indirect')),
	scope: v.optional(v.picklist(['runtime', 'development'], 'scope must be runtime or development')),
	dependencies: v.optional(v.array(v.string())),
});
const snapshotBody = v.strictObject({
	version: v.pipe(v.number('version must be an integer'), v.integer('version must be an integer')),
	job: v.strictObject({ id: v.string(), correlator: v.string(), html_url: v.optional(v.string()) }),
	// The seed: "commit SHA, at most 40 characters" (not exactly 40 hexadecimal digits).
	sha: v.pipe(v.string(), v.minLength(1, 'sha cannot be empty'), v.maxLength(40, 'sha is at most 40 characters')),
	ref: v.pipe(v.string(), v.regex(/^refs\//, 'ref must be a full reference name, like refs/heads/main')),
	detector: v.strictObject({ name: v.string(), version: v.string(), url: v.string() }),
	metadata: v.optional(metadata),
	manifests: v.optional(
		v.record(
			v.string(),
			v.strictObject({
				name: v.string(),
				file: v.optional(v.strictObject({ source_location: v.optional(v.string()) })),
				metadata: v.optional(metadata),
				resolved: v.optional(v.record(v.string(), dependency)),
			}),
		),
	),
	scanned: v.pipe(v.string(), v.isoTimestamp('scanned must be an ISO 8601 timestamp')),
});

/** One DependencyChange row. */
function change({ type: changeType, dependency, vulnerabilities }: DependencyChange) {
	const meta = JSON.parse(dependency.metadata) as Record<string, unknown>;
	return {
		change_type: changeType,
		manifest: dependency.manifest_path,
		ecosystem: dependency.ecosystem,
		name: dependency.name,
		version: dependency.version ?? '',
		package_url: dependency.package_url,
		// Gitstead has no package database: license and source come from the submitted metadata when given.
		license: typeof meta.license === 'string' ? meta.license : null,
		source_repository_url: typeof meta.source_repository_url === 'string' ? meta.source_repository_url : null,
		vulnerabilities,
		scope: dependency.scope ?? 'unknown',
	};
}

export const dependencyGraphRoutes = [
	route({
		method: 'POST',
		path: '/repos/{owner}/{repo}/dependency-graph/snapshots',
		resource: { repo: 'push' },
		docs: 'dependency-graph/dependency-submission#create-a-snapshot-of-dependencies-for-a-repository',
		access: 'authenticated',
		permissions: [{ contents: 'write' }],
		rateLimit: 'dependency_snapshots',
		errorResource: 'Snapshot',
		body: snapshotBody,
		handler(ctx) {
			const access = ctx.repo;
			const snapshot = submitSnapshot(ctx.app, access.repo, ctx.body, isoSeconds(ctx.now), ctx.principal.actorId);
			return created({
				id: snapshot.id,
				created_at: snapshot.created_at,
				result: 'SUCCESS',
				message: 'Dependency results for the repo have been successfully updated.',
			});
		},
	}),
	route({
		method: 'GET',
		path: '/repos/{owner}/{repo}/dependency-graph/compare/{basehead}',
		resource: { repo: 'read' },
		docs: 'dependency-graph/dependency-review#get-a-diff-of-the-dependencies-between-commits',
		access: 'public',
		permissions: [{ contents: 'read' }],
		errorResource: 'DependencyReview',
		query: v.object({ name: v.optional(v.string()) }),
		// Not paginated: the 200 answer is an array of every DependencyChange in one answer, as on GitHub.
		handler(ctx) {
			return ok(reviewDependencies(ctx.app, ctx.repo.repo, ctx.params.basehead, ctx.query.name).map(change));
		},
	}),
];
