/**
 * Domain events of custom property definitions (GitHub's `custom_property` webhook: created,
 * updated, deleted), recorded through the event log inside the transaction of the change by
 * src/api/custom-properties/service.ts. Only an organization's definitions (properties of its
 * repositories) are reported: GitHub documents no webhook for the organization properties an
 * enterprise defines. Activity feeds show none of them.
 *
 * Payloads (GitHub's webhook docs; @octokit/openapi-webhooks, webhook-custom-property-*):
 * - created, updated: { definition (the custom-property record, as the REST API renders it),
 *   organization, enterprise?, sender };
 * - deleted: { definition: { property_name }, organization, enterprise?, sender }.
 */
import type { App } from '../../app';
import { record } from '../../events/log';
import { inOrganization, sender } from '../../events/payloads';
import type { AccountRow } from '../../model/rows';
import { definition } from './render';
import type { DefinitionRow } from './store';

/**
 * custom_property created / updated: an organization's definition was made or replaced.
 * @param row the definition as written
 * @param actorId who changed it (the sender)
 */
export function recordDefinition(
	app: App,
	org: AccountRow,
	action: 'created' | 'updated',
	row: DefinitionRow,
	actorId: number | null,
): void {
	record(app, {
		event: 'custom_property',
		action,
		actorId,
		org,
		webhook: () => ({
			definition: definition(app.urls, `/orgs/${org.login}/properties/schema`, row),
			...inOrganization(app, org),
			...sender(app, actorId),
		}),
	});
}

/** custom_property deleted: an organization's definition was removed. */
export function recordDefinitionDeleted(app: App, org: AccountRow, propertyName: string, actorId: number | null): void {
	record(app, {
		event: 'custom_property',
		action: 'deleted',
		actorId,
		org,
		webhook: () => ({ definition: { property_name: propertyName }, ...inOrganization(app, org), ...sender(app, actorId) }),
	});
}
