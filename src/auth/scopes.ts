/**
 * OAuth scopes of classic personal access tokens and OAuth app tokens, with GitHub's hierarchy
 * (a scope implies the scopes below it: `repo` implies `public_repo`, `admin:org` implies
 * `write:org` and `read:org`). `site_admin` is GitHub Enterprise Server's scope for the
 * site-administrator API (/admin/...).
 */

/** scope → the scope that implies it (its parent), or null for a top-level scope. */
const PARENT: Record<string, string | null> = {
	repo: null,
	'repo:status': 'repo',
	repo_deployment: 'repo',
	public_repo: 'repo',
	'repo:invite': 'repo',
	security_events: 'repo',
	'admin:repo_hook': null,
	'write:repo_hook': 'admin:repo_hook',
	'read:repo_hook': 'write:repo_hook',
	'admin:org': null,
	'write:org': 'admin:org',
	'read:org': 'write:org',
	'admin:public_key': null,
	'write:public_key': 'admin:public_key',
	'read:public_key': 'write:public_key',
	'admin:org_hook': null,
	gist: null,
	notifications: null,
	user: null,
	'read:user': 'user',
	'user:email': 'user',
	'user:follow': 'user',
	project: null,
	'read:project': 'project',
	delete_repo: null,
	'write:packages': null,
	'read:packages': 'write:packages',
	'delete:packages': null,
	'admin:gpg_key': null,
	'write:gpg_key': 'admin:gpg_key',
	'read:gpg_key': 'write:gpg_key',
	'admin:ssh_signing_key': null,
	'write:ssh_signing_key': 'admin:ssh_signing_key',
	'read:ssh_signing_key': 'write:ssh_signing_key',
	workflow: null,
	'admin:enterprise': null,
	'manage_runners:enterprise': 'admin:enterprise',
	'manage_billing:enterprise': 'admin:enterprise',
	'read:enterprise': 'admin:enterprise',
	audit_log: null,
	'read:audit_log': 'audit_log',
	site_admin: null,
};

/** Every scope name Gitstead accepts. */
export const SCOPES: readonly string[] = Object.keys(PARENT);

/** Scopes of the token printed at first start: every top-level scope. */
export const ALL_TOP_LEVEL_SCOPES: readonly string[] = SCOPES.filter((scope) => PARENT[scope] === null);

/**
 * Validates and normalizes a scope list: known names only, duplicates and scopes implied by
 * another listed scope dropped, sorted.
 * @throws Error naming the first unknown scope.
 */
export function normalizeScopes(scopes: Iterable<string>): string[] {
	const set = new Set<string>();
	for (const raw of scopes) {
		const scope = raw.trim();
		if (!scope) continue;
		if (!Object.hasOwn(PARENT, scope)) throw new Error(`unknown scope "${scope}"; known scopes: ${SCOPES.join(', ')}`);
		set.add(scope);
	}
	return [...set].filter((scope) => !ancestors(scope).some((parent) => set.has(parent))).sort();
}

function ancestors(scope: string): string[] {
	const out: string[] = [];
	for (let parent = PARENT[scope]; parent; parent = PARENT[parent]) out.push(parent);
	return out;
}

/** scope → every scope it implies (itself included), computed once. */
const CLOSURE = new Map<string, string[]>(
	SCOPES.map((scope) => [scope, SCOPES.filter((child) => child === scope || ancestors(child).includes(scope))]),
);

/** The token's scopes with every implied scope added, for O(1) checks. */
export function expandScopes(scopes: Iterable<string>): Set<string> {
	const out = new Set<string>();
	for (const scope of scopes) for (const implied of CLOSURE.get(scope) ?? [scope]) out.add(implied);
	return out;
}
