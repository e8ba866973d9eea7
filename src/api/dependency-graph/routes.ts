/**
 * Dependency submission and dependency review:
 * - POST /repos/{owner}/{repo}/dependency-graph/snapshots (rate-limit category dependency_snapshots)
 * - GET /repos/{owner}/{repo}/dependency-graph/compare/{basehead}
 */
import type { App } from '../../app';
import { switchOn } from '../code-security/switches';
import * as v from 'valibot';
import { badRequest, forbidden, notFound } from '../../model/errors';
import { created, ok } from '../../http/reply';
import { route } from '../../http/route';
import { isoSeconds } from '../../time';
import { mergeBase, resolveCommit } from '../git/service';
import type { RepositoryRow } from '../../model/rows';
import { vulnerabilitiesFor } from '../dependabot/service';
import { dependenciesAt, submitSnapshot, type Dependency } from './service';

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

/**
 * Dependency review reads public repositories, and private ones with advanced security, where the
 * dependency graph is on (src/api/code-security/switches.ts); never forks.
 * @throws DomainError 403 with GitHub's explanation
 */
function requireReviewable(app: App, repo: RepositoryRow): void {
	if (repo.fork_parent_id !== null) throw forbidden('Dependency review is not supported on forks.');
	if ((repo.visibility !== 'public' && repo.advanced_security !== 1) || !switchOn(app, repo.id, 'dependency_graph')) {
		throw forbidden(
			'Dependency review is not supported on this repository. Please ensure that Dependency graph is enabled along with ' +
				'Advanced Security on private repositories (security_and_analysis.advanced_security).',
		);
	}
}

/** One DependencyChange row. */
function change(changeType: 'added' | 'removed', dependency: Dependency, vulnerabilities: ReturnType<typeof vulnerabilitiesFor>[number]) {
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
			const { repo } = ctx.repo;
			requireReviewable(ctx.app, repo);
			const parts = ctx.params.basehead.split('...');
			if (parts.length !== 2 || !parts[0] || !parts[1])
				throw badRequest('Invalid basehead: expected {base}...{head}, like main...feature');
			const [base, head] = parts.map((rev) => {
				const sha = resolveCommit(ctx.app, repo, rev);
				if (!sha) throw notFound(`No commit found for "${rev}"`);
				return sha;
			});
			const common = mergeBase(ctx.app, repo.id, base, head);
			if (!common) throw notFound(`No common ancestor between ${parts[0]} and ${parts[1]}.`);
			const manifest = ctx.query.name?.replace(/^\/+/, '');
			const only = (list: Dependency[]) => (manifest === undefined ? list : list.filter((d) => d.manifest_path === manifest));
			const before = only(dependenciesAt(ctx.app, repo, common));
			const after = only(dependenciesAt(ctx.app, repo, head));
			const key = (d: Dependency) => `${d.manifest_path}\n${d.package_url}`;
			const beforeKeys = new Set(before.map(key));
			const afterKeys = new Set(after.map(key));
			const changes: Array<['added' | 'removed', Dependency]> = [
				...before.filter((d) => !afterKeys.has(key(d))).map((d) => ['removed', d] as ['removed', Dependency]),
				...after.filter((d) => !beforeKeys.has(key(d))).map((d) => ['added', d] as ['added', Dependency]),
			];
			// Per manifest, like a diff: removals before additions, then by package name.
			changes.sort(([typeA, a], [typeB, b]) =>
				a.manifest_path !== b.manifest_path
					? a.manifest_path < b.manifest_path
						? -1
						: 1
					: typeA !== typeB
						? typeA === 'removed'
							? -1
							: 1
						: a.name < b.name
							? -1
							: a.name > b.name
								? 1
								: 0,
			);
			const vulnerabilities = vulnerabilitiesFor(
				ctx.app,
				changes.map(([, d]) => d),
			);
			return ok(changes.map(([type, d], i) => change(type, d, vulnerabilities[i])));
		},
	}),
];
