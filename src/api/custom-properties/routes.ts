/**
 * Custom property definitions (https://docs.github.com/en/rest/orgs/custom-properties and the
 * enterprise's organization custom properties): list, batch create-or-replace, get, create or
 * replace one, delete — for an organization (/orgs/{org}/properties/schema) and for an enterprise
 * (/enterprises/{enterprise}/org-properties/schema).
 */
import * as v from 'valibot';
import { notFound } from '../../model/errors';
import { noContent, ok } from '../../http/reply';
import { route, type Context, type ResourceGuard, type RouteDeclaration } from '../../http/route';
import { isoSeconds } from '../../time';
import { definition } from './render';
import { MAX_BATCH, removeDefinition, saveDefinitions, VALUE_TYPES, type DefinitionInput } from './service';
import type { Owner } from './store';

const definitionFields = {
	value_type: v.picklist(VALUE_TYPES),
	required: v.optional(v.boolean()),
	default_value: v.optional(v.nullable(v.union([v.string(), v.array(v.string())]))),
	description: v.optional(v.nullable(v.string())),
	allowed_values: v.optional(v.nullable(v.array(v.string()))),
	values_editable_by: v.optional(v.nullable(v.string())),
	require_explicit_values: v.optional(v.boolean()),
};
const oneBody = v.object(definitionFields);
const batchBody = v.object({
	properties: v.pipe(
		v.array(
			v.object({
				property_name: v.pipe(v.string(), v.minLength(1)),
				// Accepted and ignored: the server sets them.
				url: v.optional(v.string()),
				source_type: v.optional(v.picklist(['organization', 'enterprise'])),
				...definitionFields,
			}),
		),
		v.minLength(1, 'properties must list at least one definition'),
		v.maxLength(MAX_BATCH, `properties may list at most ${MAX_BATCH} definitions`),
	),
});

interface Level {
	/** Path of the schema collection. */
	collection: string;
	docs: string;
	/** Who may read and who may change the definitions. */
	guard: { read: ResourceGuard; write: ResourceGuard };
	/** The owner the guard loaded, and the base path of its definitions' URLs. */
	owner(ctx: Context): { owner: Owner; base: string };
	permission: { read: RouteDeclaration['permissions']; write: RouteDeclaration['permissions'] };
	tokens?: RouteDeclaration['tokens'];
}

const organization: Level = {
	collection: '/orgs/{org}/properties/schema',
	docs: 'orgs/custom-properties',
	guard: { read: { org: 'member' }, write: { org: 'owner' } },
	owner(ctx) {
		const access = ctx.org;
		return { owner: { kind: 'organization', id: access.org.id }, base: `/orgs/${access.org.login}/properties/schema` };
	},
	permission: { read: [{ organization_custom_properties: 'read' }], write: [{ organization_custom_properties: 'admin' }] },
};

const enterprise: Level = {
	collection: '/enterprises/{enterprise}/org-properties/schema',
	docs: 'enterprise-admin/custom-properties-for-orgs',
	guard: { read: { enterprise: 'admin' }, write: { enterprise: 'admin' } },
	owner(ctx) {
		const access = ctx.enterprise;
		return {
			owner: { kind: 'enterprise', id: access.enterprise.id },
			base: `/enterprises/${access.enterprise.slug}/org-properties/schema`,
		};
	},
	permission: {
		read: [{ enterprise_custom_properties_for_organizations: 'read' }],
		write: [{ enterprise_custom_properties_for_organizations: 'admin' }],
	},
	// Installation tokens act for no enterprise administrator.
	tokens: ['classic', 'oauth', 'fine-grained', 'user-to-server'],
};

function levelRoutes(level: Level): RouteDeclaration[] {
	const one = `${level.collection}/{custom_property_name}`;
	// The declaration every route of the level shares, for reading and for changing definitions.
	const shared = { docs: level.docs, tokens: level.tokens, access: 'authenticated' as const };
	const read = { ...shared, permissions: level.permission.read, resource: level.guard.read };
	const write = { ...shared, permissions: level.permission.write, resource: level.guard.write };
	return [
		route({
			method: 'GET',
			path: level.collection,
			...read,
			handler(ctx) {
				const { owner, base } = level.owner(ctx);
				return ok(ctx.app.stores.customProperties.list(owner).map((row) => definition(ctx.app.urls, base, row)));
			},
		}),
		route({
			method: 'PATCH',
			path: level.collection,
			...write,
			errorResource: 'CustomProperty',
			body: batchBody,
			handler(ctx) {
				const { owner, base } = level.owner(ctx);
				const rows = saveDefinitions(
					ctx.app,
					owner,
					ctx.body.properties as DefinitionInput[],
					isoSeconds(ctx.now),
					true,
					ctx.principal.actorId,
				);
				return ok(rows.map((row) => definition(ctx.app.urls, base, row)));
			},
		}),
		route({
			method: 'GET',
			path: one,
			...read,
			handler(ctx) {
				const { owner, base } = level.owner(ctx);
				const row = ctx.app.stores.customProperties.get(owner, ctx.params.custom_property_name);
				if (!row) throw notFound();
				return ok(definition(ctx.app.urls, base, row));
			},
		}),
		route({
			method: 'PUT',
			path: one,
			...write,
			errorResource: 'CustomProperty',
			body: oneBody,
			handler(ctx) {
				const { owner, base } = level.owner(ctx);
				const input = { ...ctx.body, property_name: ctx.params.custom_property_name } as DefinitionInput;
				const [row] = saveDefinitions(ctx.app, owner, [input], isoSeconds(ctx.now), false, ctx.principal.actorId);
				return ok(definition(ctx.app.urls, base, row));
			},
		}),
		route({
			method: 'DELETE',
			path: one,
			...write,
			handler(ctx) {
				const { owner } = level.owner(ctx);
				if (!removeDefinition(ctx.app, owner, ctx.params.custom_property_name, ctx.principal.actorId)) throw notFound();
				return noContent();
			},
		}),
	];
}

export const customPropertyRoutes = [...levelRoutes(organization), ...levelRoutes(enterprise)];
