/**
 * Repository labels' use cases (GitHub's labels API, part of its Issues API, and GraphQL's
 * createLabel; an issue transfer's createLabelsIfMissing): create, edit and delete a label, each
 * checking GitHub's rules (names unique per repository, case-insensitively) and recording the
 * `label` event (webhook `created`, `edited` with the previous values, `deleted`). The caller's
 * triage access is the route's (or field's) guard. The label store: src/api/labels/store.ts.
 * https://docs.github.com/rest/issues/labels
 */
import * as v from 'valibot';
import type { RepoAccess } from '../../auth/access/types';
import { record } from '../../events/log';
import { inOrganization, sender } from '../../events/payloads';
import type { Caller } from '../../auth/caller';
import { invalidField, notFound } from '../../model/errors';
import { label, repository, repositoryPaths } from '../../model/render';
import type { LabelRow } from '../../model/rows';

const name = v.pipe(
	v.string(),
	v.transform((s) => s.trim()),
	v.minLength(1, "name can't be blank"),
	v.maxLength(50, 'name is longer than 50 characters'),
);
const color = v.pipe(
	v.string(),
	v.transform((s) => s.replace(/^#/, '')),
	v.regex(/^[0-9a-fA-F]{6}$/, 'color must be six hexadecimal digits, like f29513'),
);
const description = v.nullable(v.pipe(v.string(), v.maxLength(100, 'description is longer than 100 characters')));

/** A new label (POST …/labels, GraphQL createLabel): name, color (six hex digits, a leading '#' dropped), description. */
export const createLabelBody = v.object({ name, color: v.optional(color), description: v.optional(description) });
/** A label edit (PATCH …/labels/{name}): absent fields stay. */
export const updateLabelBody = v.object({ new_name: v.optional(name), color: v.optional(color), description: v.optional(description) });

/** A new label: its color is required here (POST …/labels defaults it to GitHub's grey). */
export type NewLabel = Omit<v.InferOutput<typeof createLabelBody>, 'color'> & { color: string };
export type LabelPatch = v.InferOutput<typeof updateLabelBody>;

/** The API URL of the repository a label belongs to (labels' `url` is under it). */
export const labelsBase = (caller: Pick<Caller, 'app'>, access: RepoAccess) =>
	repositoryPaths(caller.app.urls, access.owner.login, access.repo.name).api;

/** The label webhook (created, edited with the previous values, deleted), through the event log. */
function recordLabel(
	caller: Caller,
	access: RepoAccess,
	action: 'created' | 'edited' | 'deleted',
	row: LabelRow,
	changes?: Record<string, { from: unknown }>,
): void {
	const { app } = caller;
	const object = label(labelsBase(caller, access), row);
	record(app, {
		event: 'label',
		action,
		actorId: caller.principal.actorId,
		repo: access.repo,
		webhook: () => ({
			label: object,
			...(changes && Object.keys(changes).length ? { changes } : {}),
			repository: repository(app.urls, access.repo, access.owner, null),
			...(access.owner.type === 'Organization' ? inOrganization(app, access.owner) : {}),
			...sender(app, caller.principal.actorId),
		}),
	});
}

/** @throws DomainError 422 `already_exists` when another label of the repository has the name (any case) */
function unique(caller: Caller, access: RepoAccess, wanted: string, self: number | null): void {
	const existing = caller.app.stores.labels.byName(access.repo.id, wanted);
	if (existing && existing.id !== self) throw invalidField('Label', 'name', `label "${wanted}" already exists`, 'already_exists');
}

/** The label `name` of the repository. @throws DomainError 404 */
export function loadLabel(caller: Pick<Caller, 'app'>, access: RepoAccess, name: string): LabelRow {
	const row = caller.app.stores.labels.byName(access.repo.id, name);
	if (!row) throw notFound();
	return row;
}

/**
 * Creates a label in the repository and records its `label` `created` event.
 * @throws DomainError 422 when the name is taken
 */
export function createLabel(caller: Caller, access: RepoAccess, input: NewLabel): LabelRow {
	return caller.app.transaction(() => {
		unique(caller, access, input.name, null);
		const row = caller.app.stores.labels.insert({
			repo_id: access.repo.id,
			name: input.name,
			color: input.color,
			description: input.description ?? null,
			is_default: 0,
		});
		recordLabel(caller, access, 'created', row);
		return row;
	});
}

/**
 * Renames or recolors a label, or changes its description, and records `label` `edited` with the
 * previous values of what changed.
 * @throws DomainError 422 when the new name is taken
 */
export function updateLabel(caller: Caller, access: RepoAccess, current: LabelRow, patch: LabelPatch): LabelRow {
	return caller.app.transaction(() => {
		if (patch.new_name !== undefined) unique(caller, access, patch.new_name, current.id);
		const row = caller.app.stores.labels.update({
			id: current.id,
			name: patch.new_name ?? current.name,
			color: patch.color ?? current.color,
			description: patch.description !== undefined ? patch.description : current.description,
		});
		const changes: Record<string, { from: unknown }> = {};
		for (const key of ['name', 'color', 'description'] as const) if (row[key] !== current[key]) changes[key] = { from: current[key] };
		recordLabel(caller, access, 'edited', row, changes);
		return row;
	});
}

/** Deletes a label (issues lose it) and records `label` `deleted`. */
export function deleteLabel(caller: Caller, access: RepoAccess, row: LabelRow): void {
	caller.app.transaction(() => {
		caller.app.stores.labels.remove(row.id);
		recordLabel(caller, access, 'deleted', row);
	});
}
