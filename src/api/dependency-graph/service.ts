/**
 * The dependency graph: storing
 * snapshots, deciding which dependencies count, and diffing the dependencies of two commits.
 *
 * Which dependencies count, per manifest file (by precedence): among the latest snapshot of
 * each (job.correlator, detector.name), the snapshots that list the manifest; when they come from
 * several detectors, the detector of the snapshot whose correlator sorts first alphabetically is
 * used; the resolved dependencies of that detector's snapshots are merged. Every snapshot Gitstead
 * receives is a user submission (the first rank): Gitstead runs no dependency-graph jobs,
 * automatic submissions or static analysis of its own, the ranks that would follow.
 */
import type { App } from '../../app';
import { badRequest, forbidden, invalidField, notFound } from '../../model/errors';
import type { RepositoryRow } from '../../model/rows';
import { parsePackageUrl } from './purl';
import { refreshAlerts, vulnerabilitiesFor, type GraphDependency } from '../dependabot/service';
import { switchOn } from '../code-security/switches';
import { mergeBase, resolveCommit } from '../git/service';
import type { NewSnapshot, PackageRow, SnapshotRow } from './store';

type Scalar = string | number | boolean | null;

/** A snapshot as submitted (validated by the route's schema). */
export interface SnapshotInput {
	version: number;
	job: { id: string; correlator: string; html_url?: string };
	sha: string;
	ref: string;
	detector: { name: string; version: string; url: string };
	metadata?: Record<string, Scalar>;
	manifests?: Record<
		string,
		{
			name: string;
			file?: { source_location?: string };
			metadata?: Record<string, Scalar>;
			resolved?: Record<
				string,
				{
					package_url?: string;
					metadata?: Record<string, Scalar>;
					relationship?: 'direct' | 'indirect';
					scope?: 'runtime' | 'development';
					dependencies?: string[];
				}
			>;
		}
	>;
	scanned: string;
}

/** A dependency that counts: its manifest path and package. */
export type Dependency = Omit<PackageRow, 'snapshot_id'>;

/**
 * Stores a snapshot and, when it was taken on the default branch, refreshes the repository's
 * dependabot alerts from the dependencies that now count — in the caller's transaction (the
 * dependabot_alert events it causes name the submitter as their sender).
 * @param now ISO timestamp
 * @param actorId who submits it (a user or an app's bot account)
 * @throws DomainError 422 naming the first resolved dependency whose package_url is not a package-url
 */
export function submitSnapshot(app: App, repo: RepositoryRow, input: SnapshotInput, now: string, actorId: number | null): SnapshotRow {
	const manifests: NewSnapshot['manifests'] = [];
	for (const [key, manifest] of Object.entries(input.manifests ?? {})) {
		const packages: NewSnapshot['manifests'][number]['packages'] = [];
		for (const [dependencyKey, dependency] of Object.entries(manifest.resolved ?? {})) {
			// A dependency without a package-url names no package: there is nothing to record.
			if (dependency.package_url === undefined) continue;
			const parsed = parsePackageUrl(dependency.package_url);
			if (!parsed) {
				throw invalidField(
					'Snapshot',
					`manifests.${key}.resolved.${dependencyKey}.package_url`,
					`"${dependency.package_url}" is not a package-url`,
				);
			}
			packages.push({
				package_url: dependency.package_url,
				...parsed,
				relationship: dependency.relationship ?? null,
				scope: dependency.scope ?? null,
				metadata: JSON.stringify(dependency.metadata ?? {}),
				dependencies: JSON.stringify(dependency.dependencies ?? []),
			});
		}
		const path = (manifest.file?.source_location ?? manifest.name).replace(/^\/+/, '');
		manifests.push({ key, name: manifest.name, path, metadata: JSON.stringify(manifest.metadata ?? {}), packages });
	}
	const snapshot = app.stores.dependencyGraph.insert(
		{
			repo_id: repo.id,
			version: input.version,
			job_id: input.job.id,
			job_correlator: input.job.correlator,
			job_html_url: input.job.html_url ?? null,
			sha: input.sha.toLowerCase(),
			ref: input.ref,
			detector_name: input.detector.name,
			detector_version: input.detector.version,
			detector_url: input.detector.url,
			metadata: JSON.stringify(input.metadata ?? {}),
			scanned: input.scanned,
			manifests,
		},
		now,
	);
	if (input.ref === `refs/heads/${repo.default_branch}`) refreshRepositoryAlerts(app, repo, now, actorId);
	return snapshot;
}

/**
 * Brings a repository's dependabot alerts in line with its current dependencies.
 * @param now ISO timestamp
 * @param actorId who caused the refresh (the dependabot_alert events' sender; null: the command line)
 */
export function refreshRepositoryAlerts(app: App, repo: RepositoryRow, now: string, actorId: number | null = null): void {
	refreshAlerts(app, repo, currentDependencies(app, repo).map(toGraphDependency), now, actorId);
}

/**
 * Refreshes the alerts of every repository with submitted dependencies (after advisories were
 * imported), in one transaction. @param now ISO timestamp @returns the number of repositories
 * @param actorId who imported the advisories (null: the command line, `gitstead admin import-advisories`)
 */
export function refreshAllAlerts(app: App, now: string, actorId: number | null = null): number {
	return app.transaction(() => {
		let count = 0;
		for (const id of app.stores.dependencyGraph.repositories()) {
			const repo = app.stores.repos.byId(id);
			if (!repo) continue;
			refreshRepositoryAlerts(app, repo, now, actorId);
			count++;
		}
		return count;
	});
}

function toGraphDependency(dependency: Dependency): GraphDependency {
	return {
		manifest: dependency.manifest_path,
		package_url: dependency.package_url,
		ecosystem: dependency.ecosystem,
		name: dependency.name,
		version: dependency.version,
		scope: dependency.scope,
		relationship: dependency.relationship,
	};
}

/**
 * The dependencies that count among some snapshots, at most one per (correlator, detector), by
 * the precedence of the module comment. Sorted by manifest path, then package-url.
 */
export function countingDependencies(app: App, snapshots: SnapshotRow[]): Dependency[] {
	if (snapshots.length === 0) return [];
	const byId = new Map(snapshots.map((s) => [s.id, s]));
	const rows = app.stores.dependencyGraph.packages(snapshots.map((s) => s.id));
	const manifests = app.stores.dependencyGraph.manifests(snapshots.map((s) => s.id));
	// manifest path → the snapshots listing it (a manifest without packages still claims its path).
	const claims = new Map<string, SnapshotRow[]>();
	for (const { snapshot_id, path } of manifests) {
		const list = claims.get(path) ?? [];
		if (!list.some((s) => s.id === snapshot_id)) list.push(byId.get(snapshot_id)!);
		claims.set(path, list);
	}
	const chosen = new Map<string, Set<number>>();
	for (const [path, list] of claims) {
		const first = [...list].sort((a, b) =>
			a.job_correlator < b.job_correlator ? -1 : a.job_correlator > b.job_correlator ? 1 : a.id - b.id,
		)[0];
		chosen.set(path, new Set(list.filter((s) => s.detector_name === first.detector_name).map((s) => s.id)));
	}
	const result = new Map<string, Dependency>();
	for (const { snapshot_id, ...dependency } of rows) {
		if (!chosen.get(dependency.manifest_path)?.has(snapshot_id)) continue;
		const key = `${dependency.manifest_path}\n${dependency.package_url}`;
		if (!result.has(key)) result.set(key, dependency);
	}
	return [...result.values()].sort((a, b) =>
		a.manifest_path === b.manifest_path ? (a.package_url < b.package_url ? -1 : 1) : a.manifest_path < b.manifest_path ? -1 : 1,
	);
}

/** The repository's current dependencies: the latest snapshots submitted for its default branch. */
export function currentDependencies(app: App, repo: RepositoryRow): Dependency[] {
	return countingDependencies(app, app.stores.dependencyGraph.latestForRef(repo.id, `refs/heads/${repo.default_branch}`));
}

/**
 * The dependencies of a commit: for each (correlator, detector), the snapshot submitted for the
 * commit itself, else the latest one submitted for one of its ancestors.
 */
export function dependenciesAt(app: App, repo: RepositoryRow, sha: string): Dependency[] {
	const snapshots = app.stores.dependencyGraph.forCommits(repo.id, app.stores.git.ancestors(repo.id, sha));
	const picked = new Map<string, SnapshotRow>();
	for (const snapshot of snapshots) {
		const key = `${snapshot.job_correlator}\n${snapshot.detector_name}`;
		const current = picked.get(key);
		// forCommits is in id order: a later snapshot replaces an earlier one unless that one is for the commit itself.
		if (!current || current.sha !== sha || snapshot.sha === sha) picked.set(key, snapshot);
	}
	return countingDependencies(app, [...picked.values()]);
}

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

/** One line of a dependency review: a dependency added or removed, with its known vulnerabilities. */
export interface DependencyChange {
	type: 'added' | 'removed';
	dependency: Dependency;
	vulnerabilities: ReturnType<typeof vulnerabilitiesFor>[number];
}

/**
 * Dependency review (GET …/dependency-graph/compare/{basehead}): the dependencies the head adds and
 * removes against the merge base of `basehead` ("{base}...{head}", each a branch, tag or SHA), per
 * manifest like a diff (removals before additions, then by package name), optionally of one
 * manifest (`manifest`, a path; leading slashes ignored).
 * @throws DomainError 403 where dependency review is not supported (requireReviewable), 400 for a
 *   basehead without "...", 404 for an unknown commit or no common ancestor
 */
export function reviewDependencies(app: App, repo: RepositoryRow, basehead: string, manifest?: string): DependencyChange[] {
	requireReviewable(app, repo);
	const parts = basehead.split('...');
	if (parts.length !== 2 || !parts[0] || !parts[1]) throw badRequest('Invalid basehead: expected {base}...{head}, like main...feature');
	const [base, head] = parts.map((rev) => {
		const sha = resolveCommit(app, repo, rev);
		if (!sha) throw notFound(`No commit found for "${rev}"`);
		return sha;
	});
	const common = mergeBase(app, repo.id, base, head);
	if (!common) throw notFound(`No common ancestor between ${parts[0]} and ${parts[1]}.`);
	const path = manifest?.replace(/^\/+/, '');
	const only = (list: Dependency[]) => (path === undefined ? list : list.filter((d) => d.manifest_path === path));
	const before = only(dependenciesAt(app, repo, common));
	const after = only(dependenciesAt(app, repo, head));
	const key = (d: Dependency) => `${d.manifest_path}\n${d.package_url}`;
	const beforeKeys = new Set(before.map(key));
	const afterKeys = new Set(after.map(key));
	const changes: Array<Omit<DependencyChange, 'vulnerabilities'>> = [
		...before.filter((d) => !afterKeys.has(key(d))).map((dependency) => ({ type: 'removed' as const, dependency })),
		...after.filter((d) => !beforeKeys.has(key(d))).map((dependency) => ({ type: 'added' as const, dependency })),
	];
	const order = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
	changes.sort(
		(a, b) =>
			order(a.dependency.manifest_path, b.dependency.manifest_path) ||
			(a.type === b.type ? 0 : a.type === 'removed' ? -1 : 1) ||
			order(a.dependency.name, b.dependency.name),
	);
	const vulnerabilities = vulnerabilitiesFor(
		app,
		changes.map((c) => c.dependency),
	);
	return changes.map((c, i) => ({ ...c, vulnerabilities: vulnerabilities[i] }));
}
