/**
 * Creating enterprises (`gitstead admin create-enterprise`).
 */
import type { App } from '../../app';
import { invalidField } from '../../model/errors';
import { isoSeconds } from '../../time';
import { createDefaultGroup } from '../runner-groups/service';
import { assertLogin } from '../users/service';
import type { EnterpriseRow } from '../../model/rows';

/**
 * Creates an enterprise owned by `ownerId`.
 * @throws DomainError 422 for an invalid or taken slug.
 */
export function createEnterprise(
	app: App,
	input: { slug: string; name?: string | null; ownerId: number; allowOutsideCollaborators?: boolean },
): EnterpriseRow {
	assertLogin(input.slug, 'Enterprise', 'slug');
	return app.transaction(() => {
		if (app.stores.enterprises.bySlug(input.slug)) {
			throw invalidField('Enterprise', 'slug', `an enterprise with slug "${input.slug}" already exists`, 'already_exists');
		}
		const now = isoSeconds(app.clock());
		const id = app.stores.enterprises.insert({
			slug: input.slug.toLowerCase(),
			name: input.name || input.slug,
			allowOutsideCollaborators: input.allowOutsideCollaborators ?? true,
			now,
		});
		app.stores.enterprises.setRole(id, input.ownerId, 'owner', now);
		// Every enterprise has its default runner group from the start.
		createDefaultGroup(app, { enterprise: id }, now);
		return app.stores.enterprises.byId(id)!;
	});
}
