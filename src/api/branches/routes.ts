/**
 * GitHub's branches API (repos/branches, repos/branch-protection): list and get branches, rename
 * one, and the protection of a branch with each of its parts (required status checks and their
 * contexts, admin enforcement, required pull request reviews, required signatures, push
 * restrictions and their users, teams and apps). Reading branches needs Contents (read) — public
 * repositories anonymously too; protection needs Administration and the admin role. A branch whose
 * name holds '/' is given with it escaped (feature%2Fx), as Octokit sends it.
 */
import * as v from 'valibot';
import { forbidden, notFound } from '../../model/errors';
import { HttpError } from '../../http/errors';
import { noContent, ok, paged, created } from '../../http/reply';
import { route, type Context, type RouteDeclaration } from '../../http/route';
import { isoSeconds } from '../../time';
import { atLeast } from '../../model/repo-permissions';
import { levelMeets } from '../../auth/permissions';
import { notAccessible } from '../../auth/principal';
import { parseCommit } from '../git/objects';
import type { RepoView } from '../git/render';
import { AuthorLookup, fullCommit } from '../commits/render';
import * as render from './render';
import {
	BRANCH_NOT_PROTECTED,
	removeProtection,
	renameBranch,
	replaceProtection,
	resolveActors,
	requireBranch,
	requireProtection,
	reviewSettings,
	saveProtection,
	statusChecks,
} from './service';
import { BRANCHES_READ, PROTECTION_READ, PROTECTION_WRITE } from './access';
import type { ActorIds, ProtectionSettings, StatusChecksSettings } from './store';

const BASE = '/repos/{owner}/{repo}/branches';
const ONE = `${BASE}/{branch}`;
const PROTECTION = `${ONE}/protection`;

const READ = BRANCHES_READ;
const ADMIN_READ = { ...PROTECTION_READ, errorResource: 'Branch' };
const ADMIN_WRITE = { ...PROTECTION_WRITE, errorResource: 'Branch' };

const names = v.array(v.string());
const actorNames = v.object({ users: v.optional(names), teams: v.optional(names), apps: v.optional(names) });
const checkItem = v.object({ context: v.string(), app_id: v.optional(v.nullable(v.number())) });
const statusChecksBody = v.object({ strict: v.optional(v.boolean()), contexts: v.optional(names), checks: v.optional(v.array(checkItem)) });
const reviewsBody = v.object({
	dismissal_restrictions: v.optional(actorNames),
	dismiss_stale_reviews: v.optional(v.boolean()),
	require_code_owner_reviews: v.optional(v.boolean()),
	required_approving_review_count: v.optional(
		v.pipe(
			v.number(),
			v.integer(),
			v.minValue(0, 'required_approving_review_count must be between 0 and 6'),
			v.maxValue(6, 'required_approving_review_count must be between 0 and 6'),
		),
	),
	require_last_push_approval: v.optional(v.boolean()),
	bypass_pull_request_allowances: v.optional(actorNames),
});
const flag = v.optional(v.nullable(v.boolean()));
const protectionBody = v.object({
	required_status_checks: v.nullable(
		v.object({ strict: v.boolean(), contexts: v.optional(names), checks: v.optional(v.array(checkItem)) }),
	),
	enforce_admins: v.nullable(v.boolean()),
	required_pull_request_reviews: v.nullable(reviewsBody),
	restrictions: v.nullable(v.object({ users: names, teams: names, apps: v.optional(names) })),
	required_linear_history: flag,
	allow_force_pushes: flag,
	allow_deletions: flag,
	block_creations: flag,
	required_conversation_resolution: flag,
	lock_branch: flag,
	allow_fork_syncing: flag,
});

function view(ctx: Context): RepoView {
	return { repo: ctx.repo.repo, owner: ctx.repo.owner };
}

/** Saves a change to one part of an existing protection. */
function editProtection(ctx: Context, change: (settings: ProtectionSettings) => ProtectionSettings): ProtectionSettings {
	const row = requireProtection(ctx.app, ctx.repo.repo.id, ctx.params.branch);
	const settings = change(structuredClone(row.settings));
	return saveProtection(ctx.app, view(ctx), ctx.params.branch, settings, isoSeconds(ctx.now), ctx.principal.actorId).settings;
}

/** The protection's required status checks. @throws DomainError 404 "Required status checks not enabled" */
function requireChecks(ctx: Context): StatusChecksSettings {
	const checks = requireProtection(ctx.app, ctx.repo.repo.id, ctx.params.branch).settings.required_status_checks;
	if (!checks) throw notFound('Required status checks not enabled');
	return checks;
}

/** The protection's push restrictions. @throws DomainError 404 "Push restrictions not enabled" */
function requireRestrictions(ctx: Context): ActorIds {
	const restrictions = requireProtection(ctx.app, ctx.repo.repo.id, ctx.params.branch).settings.restrictions;
	if (!restrictions) throw notFound('Push restrictions not enabled');
	return restrictions;
}

const contextsBody = v.object({ contexts: names });

/** The routes of the required status checks' contexts (GET, POST add, PUT set, DELETE remove). */
function contextRoutes(): RouteDeclaration[] {
	const path = `${PROTECTION}/required_status_checks/contexts`;
	const write = (method: 'POST' | 'PUT' | 'DELETE', docs: string, apply: (current: string[], given: string[]) => string[]) =>
		route({
			...ADMIN_WRITE,
			method,
			path,
			docs: `branches/branch-protection#${docs}`,
			body: contextsBody,
			handler(ctx) {
				requireChecks(ctx);
				const settings = editProtection(ctx, (s) => {
					const checks = s.required_status_checks!;
					const kept = new Map(checks.checks.map((c) => [c.context, c.app_id]));
					const contexts = [...new Set(apply(checks.contexts, ctx.body.contexts))];
					s.required_status_checks = {
						strict: checks.strict,
						contexts,
						checks: contexts.map((context) => ({ context, app_id: kept.get(context) ?? null })),
					};
					return s;
				});
				return ok(settings.required_status_checks!.contexts);
			},
		});
	return [
		route({
			...ADMIN_READ,
			method: 'GET',
			path,
			docs: 'branches/branch-protection#get-all-status-check-contexts',
			handler: (ctx) => ok(requireChecks(ctx).contexts),
		}),
		write('POST', 'add-status-check-contexts', (current, given) => [...current, ...given]),
		write('PUT', 'set-status-check-contexts', (_current, given) => given),
		write('DELETE', 'remove-status-check-contexts', (current, given) => current.filter((c) => !given.includes(c))),
	];
}

const KIND_DOCS = { users: 'user', teams: 'team', apps: 'app' } as const;

/** The routes of one kind of push restriction (users, teams or apps): GET, POST add, PUT set, DELETE remove. */
function restrictionRoutes(kind: 'users' | 'teams' | 'apps'): RouteDeclaration[] {
	const path = `${PROTECTION}/restrictions/${kind}`;
	const one = KIND_DOCS[kind];
	const listed = (ctx: Context, ids: ActorIds) => render.actors(ctx.app, { users: [], teams: [], apps: [], [kind]: ids[kind] })[kind];
	const write = (method: 'POST' | 'PUT' | 'DELETE', docs: string, apply: (current: number[], given: number[]) => number[]) =>
		route({
			...ADMIN_WRITE,
			method,
			path,
			docs: `branches/branch-protection#${docs}`,
			body: v.object({ [kind]: names }),
			handler(ctx) {
				requireRestrictions(ctx);
				const given = resolveActors(ctx.app, view(ctx), { [kind]: (ctx.body as Record<string, string[]>)[kind] }, kind)[kind];
				const settings = editProtection(ctx, (s) => {
					const restrictions = s.restrictions!;
					restrictions[kind] = [...new Set(apply(restrictions[kind], given))];
					return s;
				});
				return ok(listed(ctx, settings.restrictions!));
			},
		});
	return [
		route({
			...ADMIN_READ,
			method: 'GET',
			path,
			docs: `branches/branch-protection#get-${kind === 'apps' ? 'apps' : kind}-with-access-to-the-protected-branch`,
			handler: (ctx) => ok(listed(ctx, requireRestrictions(ctx))),
		}),
		write('POST', `add-${one}-access-restrictions`, (current, given) => [...current, ...given]),
		write('PUT', `set-${one}-access-restrictions`, (_current, given) => given),
		write('DELETE', `remove-${one}-access-restrictions`, (current, given) => current.filter((id) => !given.includes(id))),
	];
}

/** The branches and branch-protection routes, for the route table (src/api/routes.ts). */
export const branchRoutes: RouteDeclaration[] = [
	route({
		...READ,
		method: 'GET',
		path: BASE,
		docs: 'branches/branches#list-branches',
		query: v.object({ protected: v.optional(v.picklist(['true', 'false', '1', '0'])) }),
		pagination: true,
		handler(ctx) {
			const repo = view(ctx);
			const filter = ctx.query.protected === undefined ? null : ctx.query.protected === 'true' || ctx.query.protected === '1';
			const { rows, total } = ctx.app.stores.branches.list(repo.repo.id, filter, ctx.page.perPage, ctx.page.offset);
			return paged(
				rows.map((row) => render.shortBranch(ctx.app, repo, row.name, row.sha, row.protected)),
				total,
			);
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: ONE,
		docs: 'branches/branches#get-a-branch',
		handler(ctx) {
			const repo = view(ctx);
			const renamed = ctx.app.stores.git.ref(repo.repo.id, `refs/heads/${ctx.params.branch}`)
				? undefined
				: ctx.app.stores.branches.renamedTo(repo.repo.id, ctx.params.branch);
			if (renamed !== undefined && ctx.app.stores.git.ref(repo.repo.id, `refs/heads/${renamed}`)) {
				// A renamed branch: GitHub's permanent redirect to its new name.
				const url = render.branchUrl(ctx.app, repo, renamed);
				throw new HttpError(301, 'Moved Permanently', { headers: { Location: url }, extra: { url } });
			}
			const branch = requireBranch(ctx.app, repo.repo.id, ctx.params.branch);
			const data = parseCommit(ctx.app.stores.git.object(repo.repo.id, branch.sha)!.content);
			const protection = ctx.app.stores.branches.protection(repo.repo.id, branch.name);
			const self = render.branchUrl(ctx.app, repo, branch.name);
			return ok({
				name: branch.name,
				commit: fullCommit(ctx.app, repo, branch.sha, data, new AuthorLookup(ctx.app)),
				_links: { self, html: ctx.app.urls.html(`/${repo.owner.login}/${repo.repo.name}/tree/${branch.name}`) },
				protected: protection !== undefined,
				protection: render.protectionSummary(protection?.settings ?? null),
				protection_url: `${self}/protection`,
			});
		},
	}),
	route({
		permissions: [{ contents: 'write' }],
		access: 'authenticated',
		resource: { repo: 'push' },
		scopes: ['repo', 'public_repo'],
		errorResource: 'Branch',
		method: 'POST',
		path: `${ONE}/rename`,
		docs: 'branches/branches#rename-a-branch',
		body: v.object({ new_name: v.pipe(v.string(), v.minLength(1, "new_name can't be blank")) }),
		handler(ctx) {
			const access = ctx.repo;
			// The default branch is the repository's: only its administrators rename it.
			if (access.repo.default_branch === ctx.params.branch) {
				if (!atLeast(access.permission, 'admin')) throw forbidden('You must be an admin to rename the default branch.');
				// Fine-grained and app tokens also need Administration (write) for it.
				const kind = ctx.principal.kind;
				if (
					(kind === 'fine-grained' || kind === 'installation' || kind === 'user-to-server') &&
					!levelMeets(ctx.principal.permissions.administration, 'write')
				) {
					throw notAccessible(ctx.principal);
				}
			}
			const repo = renameBranch(ctx.app, view(ctx), ctx.params.branch, ctx.body.new_name, isoSeconds(ctx.now), ctx.principal.actorId);
			const current = { repo, owner: access.owner };
			const name = ctx.body.new_name.replace(/^refs\/heads\//, '');
			const branch = requireBranch(ctx.app, repo.id, name);
			const data = parseCommit(ctx.app.stores.git.object(repo.id, branch.sha)!.content);
			const protection = ctx.app.stores.branches.protection(repo.id, name);
			const self = render.branchUrl(ctx.app, current, name);
			return created(
				{
					name,
					commit: fullCommit(ctx.app, current, branch.sha, data, new AuthorLookup(ctx.app)),
					_links: { self, html: ctx.app.urls.html(`/${current.owner.login}/${repo.name}/tree/${name}`) },
					protected: protection !== undefined,
					protection: render.protectionSummary(protection?.settings ?? null),
					protection_url: `${self}/protection`,
				},
				self,
			);
		},
	}),

	// ----- protection
	route({
		...ADMIN_READ,
		method: 'GET',
		path: PROTECTION,
		docs: 'branches/branch-protection#get-branch-protection',
		handler(ctx) {
			const row = requireProtection(ctx.app, ctx.repo.repo.id, ctx.params.branch);
			return ok(render.protection(ctx.app, view(ctx), row.branch, row.settings));
		},
	}),
	route({
		...ADMIN_WRITE,
		method: 'PUT',
		path: PROTECTION,
		docs: 'branches/branch-protection#update-branch-protection',
		// GitHub documents these 422 answers as validation-error-simple (errors[] are sentences).
		errorShape: 'simple',
		body: protectionBody,
		handler(ctx) {
			const repo = view(ctx);
			const branch = requireBranch(ctx.app, repo.repo.id, ctx.params.branch).name;
			const row = replaceProtection(ctx.app, repo, branch, ctx.body, {
				now: isoSeconds(ctx.now),
				actorId: ctx.principal.actorId,
			});
			return ok(render.protection(ctx.app, repo, branch, row.settings));
		},
	}),
	route({
		...ADMIN_WRITE,
		method: 'DELETE',
		path: PROTECTION,
		docs: 'branches/branch-protection#delete-branch-protection',
		handler(ctx) {
			requireBranch(ctx.app, ctx.repo.repo.id, ctx.params.branch);
			if (!removeProtection(ctx.app, view(ctx), ctx.params.branch, ctx.principal.actorId)) throw notFound(BRANCH_NOT_PROTECTED);
			return noContent();
		},
	}),

	// ----- admin enforcement
	route({
		...ADMIN_READ,
		method: 'GET',
		path: `${PROTECTION}/enforce_admins`,
		docs: 'branches/branch-protection#get-admin-branch-protection',
		handler(ctx) {
			const row = requireProtection(ctx.app, ctx.repo.repo.id, ctx.params.branch);
			return ok(render.enforceAdmins(ctx.app, view(ctx), row.branch, row.settings.enforce_admins));
		},
	}),
	route({
		...ADMIN_WRITE,
		method: 'POST',
		path: `${PROTECTION}/enforce_admins`,
		docs: 'branches/branch-protection#set-admin-branch-protection',
		handler(ctx) {
			const settings = editProtection(ctx, (s) => ({ ...s, enforce_admins: true }));
			return ok(render.enforceAdmins(ctx.app, view(ctx), ctx.params.branch, settings.enforce_admins));
		},
	}),
	route({
		...ADMIN_WRITE,
		method: 'DELETE',
		path: `${PROTECTION}/enforce_admins`,
		docs: 'branches/branch-protection#delete-admin-branch-protection',
		handler(ctx) {
			editProtection(ctx, (s) => ({ ...s, enforce_admins: false }));
			return noContent();
		},
	}),

	// ----- required pull request reviews
	route({
		...ADMIN_READ,
		method: 'GET',
		path: `${PROTECTION}/required_pull_request_reviews`,
		docs: 'branches/branch-protection#get-pull-request-review-protection',
		handler(ctx) {
			const row = requireProtection(ctx.app, ctx.repo.repo.id, ctx.params.branch);
			if (!row.settings.required_pull_request_reviews) throw notFound('Pull request reviews not enabled');
			return ok(render.reviews(ctx.app, view(ctx), row.branch, row.settings.required_pull_request_reviews));
		},
	}),
	route({
		...ADMIN_WRITE,
		method: 'PATCH',
		path: `${PROTECTION}/required_pull_request_reviews`,
		docs: 'branches/branch-protection#update-pull-request-review-protection',
		body: reviewsBody,
		handler(ctx) {
			const settings = editProtection(ctx, (s) => ({
				...s,
				required_pull_request_reviews: reviewSettings(ctx.app, view(ctx), ctx.body, s.required_pull_request_reviews),
			}));
			return ok(render.reviews(ctx.app, view(ctx), ctx.params.branch, settings.required_pull_request_reviews!));
		},
	}),
	route({
		...ADMIN_WRITE,
		method: 'DELETE',
		path: `${PROTECTION}/required_pull_request_reviews`,
		docs: 'branches/branch-protection#delete-pull-request-review-protection',
		handler(ctx) {
			const row = requireProtection(ctx.app, ctx.repo.repo.id, ctx.params.branch);
			if (!row.settings.required_pull_request_reviews) throw notFound('Pull request reviews not enabled');
			editProtection(ctx, (s) => ({ ...s, required_pull_request_reviews: null }));
			return noContent();
		},
	}),

	// ----- required signatures
	route({
		...ADMIN_READ,
		method: 'GET',
		path: `${PROTECTION}/required_signatures`,
		docs: 'branches/branch-protection#get-commit-signature-protection',
		handler(ctx) {
			const row = requireProtection(ctx.app, ctx.repo.repo.id, ctx.params.branch);
			return ok(render.requiredSignatures(ctx.app, view(ctx), row.branch, row.settings.required_signatures));
		},
	}),
	route({
		...ADMIN_WRITE,
		method: 'POST',
		path: `${PROTECTION}/required_signatures`,
		docs: 'branches/branch-protection#create-commit-signature-protection',
		handler(ctx) {
			const settings = editProtection(ctx, (s) => ({ ...s, required_signatures: true }));
			return ok(render.requiredSignatures(ctx.app, view(ctx), ctx.params.branch, settings.required_signatures));
		},
	}),
	route({
		...ADMIN_WRITE,
		method: 'DELETE',
		path: `${PROTECTION}/required_signatures`,
		docs: 'branches/branch-protection#delete-commit-signature-protection',
		handler(ctx) {
			editProtection(ctx, (s) => ({ ...s, required_signatures: false }));
			return noContent();
		},
	}),

	// ----- required status checks
	route({
		...ADMIN_READ,
		method: 'GET',
		path: `${PROTECTION}/required_status_checks`,
		docs: 'branches/branch-protection#get-status-checks-protection',
		handler: (ctx) => ok(render.statusChecks(ctx.app, view(ctx), ctx.params.branch, requireChecks(ctx))),
	}),
	route({
		...ADMIN_WRITE,
		method: 'PATCH',
		path: `${PROTECTION}/required_status_checks`,
		docs: 'branches/branch-protection#update-status-check-protection',
		body: statusChecksBody,
		handler(ctx) {
			const current = requireChecks(ctx);
			const settings = editProtection(ctx, (s) => ({ ...s, required_status_checks: statusChecks(ctx.body, current) }));
			return ok(render.statusChecks(ctx.app, view(ctx), ctx.params.branch, settings.required_status_checks!));
		},
	}),
	route({
		...ADMIN_WRITE,
		method: 'DELETE',
		path: `${PROTECTION}/required_status_checks`,
		docs: 'branches/branch-protection#remove-status-check-protection',
		handler(ctx) {
			editProtection(ctx, (s) => ({ ...s, required_status_checks: null }));
			return noContent();
		},
	}),
	...contextRoutes(),

	// ----- push restrictions
	route({
		...ADMIN_READ,
		method: 'GET',
		path: `${PROTECTION}/restrictions`,
		docs: 'branches/branch-protection#get-access-restrictions',
		handler: (ctx) => ok(render.restrictions(ctx.app, view(ctx), ctx.params.branch, requireRestrictions(ctx))),
	}),
	route({
		...ADMIN_WRITE,
		method: 'DELETE',
		path: `${PROTECTION}/restrictions`,
		docs: 'branches/branch-protection#delete-access-restrictions',
		handler(ctx) {
			editProtection(ctx, (s) => ({ ...s, restrictions: null }));
			return noContent();
		},
	}),
	...restrictionRoutes('users'),
	...restrictionRoutes('teams'),
	...restrictionRoutes('apps'),
];
