/**
 * The git objects a repository's network stores, read through the object store (deltas resolved),
 * for tests that hand them to the machine's git.
 */
import type { App } from '../../src/app';
import type { ObjectRow } from '../../src/api/git/store';

/** Every object of the repository's fork network, in the order stored. */
export function storedObjects(app: App, repoId: number): ObjectRow[] {
	const git = app.stores.git;
	const network = git.network(repoId);
	return git.objectIds(network).map((sha) => git.readIn(network, sha)!);
}

/** How many objects the repository's fork network stores. */
export function storedObjectCount(app: App, repoId: number): number {
	return app.stores.git.objectCount(app.stores.git.network(repoId));
}
