/**
 * Actions secrets and variables (GitHub's actions/secrets and actions/variables operations) of a
 * repository, an environment or an organization: GitHub's naming rules and limits, each scope's
 * key pair (made on first use), secrets stored only as the sealed box the client sent (checked to
 * open with the scope's private key before anything is written), organization visibility with
 * selected repositories. Every change records an audit-style domain event (repo., environment. or
 * org. create/update/remove_actions_secret|variable, as GitHub's audit log names them); GitHub
 * sends no webhook for secrets or variables.
 */
import type { App } from '../../app';
import { record } from '../../events/log';
import { conflict, invalidField, unprocessable } from '../../model/errors';
import type { EnvironmentRow } from '../deployments/store';
import type { RepositoryRow } from '../repos/store';
import type { AccountRow } from '../users/store';
import { BASE64, newKeyPair, opensSealedBox } from './sealed';
import type { SecretKeyRow, SecretKind, SecretRow, SecretScope, Visibility } from './store';

/** A scope with the records its events name. */
export type Place =
	| { kind: 'repository'; repo: RepositoryRow }
	| { kind: 'environment'; repo: RepositoryRow; environment: EnvironmentRow }
	| { kind: 'organization'; org: AccountRow };

/** The store's scope of a place. */
export function scopeOf(place: Place): SecretScope {
	if (place.kind === 'repository') return { repoId: place.repo.id };
	if (place.kind === 'environment') return { environmentId: place.environment.id };
	return { orgId: place.org.id };
}

/** GitHub's limits: secrets and variables per repository, environment and organization. */
export const LIMITS: Record<SecretKind, Record<Place['kind'], number>> = {
	secret: { repository: 100, environment: 100, organization: 1000 },
	variable: { repository: 500, environment: 100, organization: 1000 },
};
/** Largest value: 48 KB (a secret's encrypted value as sent, a variable's value). */
export const MAX_VALUE_BYTES = 48 * 1024;

const RESOURCE: Record<SecretKind, string> = { secret: 'Secret', variable: 'Variable' };

/**
 * A secret or variable name as GitHub keeps it (upper case), after GitHub's rules: letters, digits
 * and underscores, not starting with a digit nor with GITHUB_.
 * @throws HttpError 422 naming the rule broken
 */
export function checkName(kind: SecretKind, name: string): string {
	const what = kind === 'secret' ? 'Secret' : 'Variable';
	if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
		throw invalidField(
			RESOURCE[kind],
			'name',
			`${what} names can only contain alphanumeric characters ([a-z], [A-Z], [0-9]) or underscores (_), and must start with a letter or an underscore.`,
		);
	}
	const upper = name.toUpperCase();
	if (upper.startsWith('GITHUB_')) throw invalidField(RESOURCE[kind], 'name', `${what} names must not start with GITHUB_.`);
	return upper;
}

/**
 * The scope's key pair, made on its first use (the public key is asked before any secret is set).
 * @param now ISO timestamp
 */
export function scopeKey(app: App, place: Place, now: string): SecretKeyRow {
	const scope = scopeOf(place);
	return app.stores.secrets.key(scope) ?? app.transaction(() => app.stores.secrets.insertKey(scope, newKeyPair(), now));
}

/**
 * Checks a secret's value before it is stored (a route's prepare step: the check is asynchronous):
 * base64, at most 48 KB, sealed to the scope's current key, and opening with its private key.
 * @throws HttpError 422 with GitHub's messages
 */
export async function checkSealedValue(app: App, place: Place, value: { encrypted_value: string; key_id: string }): Promise<void> {
	if (!BASE64.test(value.encrypted_value)) {
		throw unprocessable(
			`Invalid request.\n\n${value.encrypted_value.slice(0, 100)} does not match /${BASE64.source.replace(/\//g, '\\/')}/.`,
		);
	}
	if (value.encrypted_value.length > MAX_VALUE_BYTES) throw unprocessable(`Secrets can be at most ${MAX_VALUE_BYTES / 1024} KB.`);
	const key = requireCurrentKey(app, place, value.key_id);
	if (!(await opensSealedBox(value.encrypted_value, key.public_key, key.private_key))) {
		throw unprocessable('Bad request - validation failed due to an improperly encrypted secret');
	}
}

/**
 * The scope's key pair when `keyId` names it.
 * @throws HttpError 422 when the scope has no key yet or another one
 */
export function requireCurrentKey(app: App, place: Place, keyId: string): SecretKeyRow {
	const key = app.stores.secrets.key(scopeOf(place));
	if (!key || key.key_id !== keyId) throw unprocessable('Bad request - the key_id is not the current public key of this scope.');
	return key;
}

/** Records the audit-style event of a change (no webhook: GitHub sends none for secrets and variables). */
function recordChange(
	app: App,
	place: Place,
	kind: SecretKind,
	verb: 'create' | 'update' | 'remove',
	name: string,
	actorId: number | null,
	extra: Record<string, unknown> = {},
): void {
	const action = `${verb}_actions_${kind}`;
	if (place.kind === 'organization') record(app, { event: 'org', action, actorId, org: place.org, audit: { name, ...extra } });
	else if (place.kind === 'environment')
		record(app, {
			event: 'environment',
			action,
			actorId,
			repo: place.repo,
			audit: { name, environment: place.environment.name, ...extra },
		});
	else record(app, { event: 'repo', action, actorId, repo: place.repo, audit: { name, ...extra } });
}

/**
 * The repositories of an organization with these ids (a selection).
 * @throws HttpError 422 naming the ids that are not repositories of the organization
 */
export function organizationRepositoryIds(app: App, org: AccountRow, ids: number[]): number[] {
	const unique = [...new Set(ids)];
	const foreign = unique.filter((id) => app.stores.repos.byId(id)?.owner_id !== org.id);
	if (foreign.length) throw invalidField('Secret', 'selected_repository_ids', `not repositories of ${org.login}: ${foreign.join(', ')}`);
	return unique;
}

export interface SecretInput {
	kind: SecretKind;
	name: string;
	/** The sealed box (secrets, already checked) or the value (variables). */
	value: string;
	keyId: string | null;
	/** Organization ones. */
	visibility?: Visibility;
	selectedRepositoryIds?: number[];
}

/**
 * Creates or replaces a secret (PUT) or creates a variable (POST; an existing name is 409 there,
 * see createOnly).
 * @param now ISO timestamp
 * @returns the row and whether it is new
 * @throws HttpError 422 (name, limits, repositories, visibility), 409 for an existing variable
 */
export function saveSecret(
	app: App,
	place: Place,
	input: SecretInput,
	options: { createOnly: boolean },
	actorId: number | null,
	now: string,
): { row: SecretRow; created: boolean } {
	const name = checkName(input.kind, input.name);
	if (Buffer.byteLength(input.value) > MAX_VALUE_BYTES)
		throw invalidField(RESOURCE[input.kind], 'value', `at most ${MAX_VALUE_BYTES / 1024} KB`);
	const scope = scopeOf(place);
	const store = app.stores.secrets;
	let visibility: Visibility | null = null;
	let selected: number[] | null = null;
	if (place.kind === 'organization') {
		visibility = input.visibility ?? 'private';
		if (input.selectedRepositoryIds !== undefined) {
			if (visibility !== 'selected')
				throw invalidField(
					RESOURCE[input.kind],
					'selected_repository_ids',
					"selected_repository_ids may only be given with visibility 'selected'",
				);
			selected = organizationRepositoryIds(app, place.org, input.selectedRepositoryIds);
		}
	} else if (input.visibility !== undefined || input.selectedRepositoryIds !== undefined) {
		throw invalidField(RESOURCE[input.kind], 'visibility', 'only organization secrets and variables have a visibility');
	}
	return app.transaction(() => {
		const existing = store.byName(input.kind, scope, name);
		if (existing && options.createOnly) throw conflict(`${RESOURCE[input.kind]} already exists.`);
		if (!existing && store.count(input.kind, scope) >= LIMITS[input.kind][place.kind]) {
			throw unprocessable(
				`You can store at most ${LIMITS[input.kind][place.kind]} ${input.kind}s in this ${place.kind === 'organization' ? 'organization' : place.kind}.`,
			);
		}
		const values = { name, value: input.value, keyId: input.keyId, visibility };
		const row = existing ? store.update(existing.id, values, now) : store.insert(input.kind, scope, values, now);
		if (visibility !== 'selected') store.replaceSelected(row.id, []);
		else if (selected) store.replaceSelected(row.id, selected);
		recordChange(app, place, input.kind, existing ? 'update' : 'create', name, actorId, visibility ? { visibility } : {});
		return { row, created: !existing };
	});
}

/**
 * Changes a variable (PATCH): its name, value, and for an organization's, visibility and selection.
 * @param now ISO timestamp
 * @throws HttpError 422 (name, value, repositories), 409 when the new name is taken
 */
export function updateVariable(
	app: App,
	place: Place,
	row: SecretRow,
	patch: { name?: string; value?: string; visibility?: Visibility; selected_repository_ids?: number[] },
	actorId: number | null,
	now: string,
): SecretRow {
	const name = patch.name === undefined ? row.name : checkName('variable', patch.name);
	const value = patch.value ?? row.value;
	if (Buffer.byteLength(value) > MAX_VALUE_BYTES) throw invalidField('Variable', 'value', `at most ${MAX_VALUE_BYTES / 1024} KB`);
	if (place.kind !== 'organization' && (patch.visibility !== undefined || patch.selected_repository_ids !== undefined)) {
		throw invalidField('Variable', 'visibility', 'only organization secrets and variables have a visibility');
	}
	const visibility = place.kind === 'organization' ? (patch.visibility ?? row.visibility) : null;
	let selected: number[] | null = null;
	if (patch.selected_repository_ids !== undefined && place.kind === 'organization') {
		if (visibility !== 'selected')
			throw invalidField(
				'Variable',
				'selected_repository_ids',
				"selected_repository_ids may only be given with visibility 'selected'",
			);
		selected = organizationRepositoryIds(app, place.org, patch.selected_repository_ids);
	}
	const store = app.stores.secrets;
	return app.transaction(() => {
		if (name !== row.name && store.byName('variable', scopeOf(place), name)) throw conflict('Variable already exists.');
		const updated = store.update(row.id, { name, value, keyId: null, visibility }, now);
		if (visibility !== 'selected') store.replaceSelected(row.id, []);
		else if (selected) store.replaceSelected(row.id, selected);
		recordChange(app, place, 'variable', 'update', name, actorId, visibility ? { visibility } : {});
		return updated;
	});
}

/** Deletes a secret or variable. */
export function deleteSecret(app: App, place: Place, row: SecretRow, actorId: number | null): void {
	app.transaction(() => {
		app.stores.secrets.remove(row.id);
		recordChange(app, place, row.kind, 'remove', row.name, actorId);
	});
}

/**
 * Changes the repositories an organization secret or variable with visibility 'selected' is given
 * to: all of them (`set`), or one added or removed.
 * @throws HttpError 409 when its visibility is not 'selected', 422 for repositories of another owner
 */
export function changeSelection(
	app: App,
	org: AccountRow,
	row: SecretRow,
	change: { set: number[] } | { add: number } | { remove: number },
	actorId: number | null,
	now: string,
): void {
	if (row.visibility !== 'selected') {
		throw conflict(`The visibility of the ${row.kind} must be 'selected' to choose the repositories that can use it.`);
	}
	const store = app.stores.secrets;
	app.transaction(() => {
		if ('set' in change) store.replaceSelected(row.id, organizationRepositoryIds(app, org, change.set));
		else if ('add' in change) store.addSelected(row.id, change.add);
		else store.removeSelected(row.id, change.remove);
		store.update(row.id, { name: row.name, value: row.value, keyId: row.key_id, visibility: row.visibility }, now);
		recordChange(app, { kind: 'organization', org }, row.kind, 'update', row.name, actorId, { visibility: 'selected' });
	});
}
