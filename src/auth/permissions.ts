/**
 * Fine-grained permissions (fine-grained PATs and app tokens): GitHub's permission keys, levels
 * read < write < admin, and the category name GitHub's permission pages give each key ("Members",
 * "Commit statuses", …). docs/api/auth.md's permission-key table lists them.
 */

export type Level = 'read' | 'write' | 'admin';
export const LEVELS: readonly Level[] = ['read', 'write', 'admin'];
const RANK: Record<Level, number> = { read: 1, write: 2, admin: 3 };

export interface PermissionKeyInfo {
	/** The category name and target, e.g. "Members" organization. */
	category: string;
	target: 'repository' | 'organization' | 'user' | 'enterprise';
	/** Classic/OAuth scopes accepted in place of each level; the first is the usual one. */
	scopes: Record<Level, string[]>;
}

const orgScopes = {
	read: ['read:org', 'write:org', 'admin:org'],
	write: ['write:org', 'admin:org'],
	admin: ['admin:org'],
};
const repoScopes = { read: ['repo'], write: ['repo'], admin: ['repo'] };
const enterpriseScopes = {
	read: ['read:enterprise', 'admin:enterprise'],
	write: ['admin:enterprise'],
	admin: ['admin:enterprise'],
};

/** GitHub's permission keys Gitstead knows, with their category names. */
export const PERMISSION_KEYS = {
	// Repository permissions
	administration: { category: 'Administration', target: 'repository', scopes: repoScopes },
	metadata: { category: 'Metadata', target: 'repository', scopes: { read: [], write: [], admin: [] } },
	contents: { category: 'Contents', target: 'repository', scopes: repoScopes },
	deployments: {
		category: 'Deployments',
		target: 'repository',
		scopes: { read: ['repo', 'repo_deployment'], write: ['repo_deployment', 'repo'], admin: ['repo'] },
	},
	actions: { category: 'Actions', target: 'repository', scopes: repoScopes },
	// GitHub's "Commit statuses": classic tokens need repo:status (or repo, which implies it).
	statuses: {
		category: 'Commit statuses',
		target: 'repository',
		scopes: { read: ['repo:status', 'repo'], write: ['repo:status', 'repo'], admin: ['repo:status', 'repo'] },
	},
	checks: { category: 'Checks', target: 'repository', scopes: repoScopes },
	// GitHub's "Workflows": changing files under .github/workflows (git pushes, the contents API);
	// only write exists on GitHub; classic tokens need the workflow scope.
	workflows: { category: 'Workflows', target: 'repository', scopes: { read: ['workflow'], write: ['workflow'], admin: ['workflow'] } },
	issues: { category: 'Issues', target: 'repository', scopes: repoScopes },
	pull_requests: { category: 'Pull requests', target: 'repository', scopes: repoScopes },
	vulnerability_alerts: {
		category: 'Depbot alerts',
		target: 'repository',
		scopes: { read: ['security_events', 'repo'], write: ['security_events', 'repo'], admin: ['security_events', 'repo'] },
	},
	// GitHub's "Webhooks" repository permission; read:repo_hook reads and pings, write:repo_hook
	// also writes, admin:repo_hook also deletes (each implying the ones below it).
	repository_hooks: {
		category: 'Webhooks',
		target: 'repository',
		scopes: { read: ['read:repo_hook', 'repo'], write: ['write:repo_hook', 'repo'], admin: ['admin:repo_hook', 'repo'] },
	},
	// Actions secrets, variables and environments of a repository; classic tokens need repo.
	secrets: { category: 'Secrets', target: 'repository', scopes: repoScopes },
	actions_variables: { category: 'Variables', target: 'repository', scopes: repoScopes },
	environments: { category: 'Environments', target: 'repository', scopes: repoScopes },
	// Organization permissions
	organization_administration: { category: 'Administration', target: 'organization', scopes: { ...orgScopes, write: ['admin:org'] } },
	members: { category: 'Members', target: 'organization', scopes: orgScopes },
	organization_custom_properties: {
		category: 'Custom properties',
		target: 'organization',
		scopes: { read: ['read:org', 'write:org', 'admin:org'], write: ['admin:org'], admin: ['admin:org'] },
	},
	organization_self_hosted_runners: {
		category: 'Self-hosted runners',
		target: 'organization',
		scopes: { read: ['admin:org'], write: ['admin:org'], admin: ['admin:org'] },
	},
	// GitHub's "Webhooks" organization permission; classic tokens need admin:org_hook for every level.
	organization_hooks: {
		category: 'Webhooks',
		target: 'organization',
		scopes: { read: ['admin:org_hook'], write: ['admin:org_hook'], admin: ['admin:org_hook'] },
	},
	// Actions secrets and variables of an organization; classic tokens need admin:org.
	organization_secrets: {
		category: 'Secrets',
		target: 'organization',
		scopes: { read: ['admin:org'], write: ['admin:org'], admin: ['admin:org'] },
	},
	organization_actions_variables: {
		category: 'Variables',
		target: 'organization',
		scopes: { read: ['admin:org'], write: ['admin:org'], admin: ['admin:org'] },
	},
	organization_dependabot_dismissal_requests: {
		category: 'Organization dismissal requests for depbot',
		target: 'organization',
		scopes: { read: ['security_events', 'repo'], write: ['security_events', 'repo'], admin: ['security_events', 'repo'] },
	},
	// User permissions
	gists: { category: 'Gists', target: 'user', scopes: { read: [], write: ['gist'], admin: ['gist'] } },
	// Reading stars needs no scope; starring a public repository needs public_repo (GitHub's scope
	// docs: "also required for starring public repositories"), a private one repo.
	starring: {
		category: 'Starring',
		target: 'user',
		scopes: { read: [], write: ['public_repo', 'repo'], admin: ['public_repo', 'repo'] },
	},
	// Reading the repositories a user watches needs no scope; watching and unwatching take
	// notifications ("watch and unwatch access to a repository") or repo.
	watching: {
		category: 'Watching',
		target: 'user',
		scopes: { read: [], write: ['notifications', 'repo'], admin: ['notifications', 'repo'] },
	},
	// The user's profile (PATCH /user): GitHub's "Profile" user permission, write only; classic tokens need the user scope.
	profile: { category: 'Profile', target: 'user', scopes: { read: ['user'], write: ['user'], admin: ['user'] } },
	// The user's email addresses (/user/emails, /user/public_emails, /user/email/visibility): GitHub's
	// "Email addresses" user permission; classic tokens read them with user:email (or user) and change them with user.
	emails: {
		category: 'Email addresses',
		target: 'user',
		scopes: { read: ['user:email', 'user'], write: ['user'], admin: ['user'] },
	},
	// The user's keys: SSH authentication keys (classic read/write/admin:public_key), GPG keys
	// (read/write/admin:gpg_key) and SSH signing keys (read/write/admin:ssh_signing_key).
	git_ssh_keys: {
		category: 'Git SSH keys',
		target: 'user',
		scopes: {
			read: ['read:public_key', 'write:public_key', 'admin:public_key'],
			write: ['write:public_key', 'admin:public_key'],
			admin: ['admin:public_key'],
		},
	},
	gpg_keys: {
		category: 'GPG keys',
		target: 'user',
		scopes: {
			read: ['read:gpg_key', 'write:gpg_key', 'admin:gpg_key'],
			write: ['write:gpg_key', 'admin:gpg_key'],
			admin: ['admin:gpg_key'],
		},
	},
	ssh_signing_keys: {
		category: 'SSH signing keys',
		target: 'user',
		scopes: {
			read: ['read:ssh_signing_key', 'write:ssh_signing_key', 'admin:ssh_signing_key'],
			write: ['write:ssh_signing_key', 'admin:ssh_signing_key'],
			admin: ['admin:ssh_signing_key'],
		},
	},
	// Enterprise permissions
	enterprise_custom_properties_for_organizations: {
		category: 'Enterprise custom properties for organizations',
		target: 'enterprise',
		scopes: enterpriseScopes,
	},
	enterprise_organization_installations: {
		category: 'Enterprise organization installations',
		target: 'enterprise',
		scopes: enterpriseScopes,
	},
} satisfies Record<string, PermissionKeyInfo>;

export type PermissionKey = keyof typeof PERMISSION_KEYS;

/** Permissions that must all be held (one line of X-Accepted-GitHub-Permissions). */
export type PermissionSet = Partial<Record<PermissionKey, Level>>;

/** Alternative permission sets; holding any one suffices. Empty: no permission needed. */
export type PermissionPolicy = PermissionSet[];

/** Permissions a fine-grained or app token holds. metadata:read is implied for every such token. */
export type GrantedPermissions = Partial<Record<PermissionKey, Level>>;

export function isPermissionKey(key: string): key is PermissionKey {
	return Object.hasOwn(PERMISSION_KEYS, key);
}

export function isLevel(level: string): level is Level {
	return level === 'read' || level === 'write' || level === 'admin';
}

/** True when `granted` meets `needed` (write implies read, admin implies write). */
export function levelMeets(granted: Level | undefined, needed: Level): boolean {
	return granted !== undefined && RANK[granted] >= RANK[needed];
}

/** True when the token's permissions satisfy one alternative of the policy. */
export function permissionsSatisfy(granted: GrantedPermissions, policy: PermissionPolicy): boolean {
	if (policy.length === 0) return true;
	return policy.some((set) =>
		Object.entries(set).every(([key, level]) =>
			key === 'metadata' && level === 'read' ? true : levelMeets(granted[key as PermissionKey], level as Level),
		),
	);
}

/** X-Accepted-GitHub-Permissions: `members=read` pairs joined by ',', alternatives by '; '. */
export function formatAcceptedPermissions(policy: PermissionPolicy): string {
	return policy
		.map((set) =>
			Object.entries(set)
				.map(([key, level]) => `${key}=${level}`)
				.join(','),
		)
		.join('; ');
}

/**
 * Parses `key:level,key:level` (the CLI's --permissions).
 * @throws Error naming the first unknown key or level.
 */
export function parsePermissions(text: string): GrantedPermissions {
	const out: GrantedPermissions = {};
	for (const part of text
		.split(',')
		.map((x) => x.trim())
		.filter(Boolean)) {
		const [key, level] = part.split(/[:=]/);
		if (!key || !isPermissionKey(key)) {
			throw new Error(`unknown permission "${key}"; known: ${Object.keys(PERMISSION_KEYS).join(', ')}`);
		}
		if (!level || !isLevel(level)) throw new Error(`permission ${key} needs a level read, write or admin, got "${level ?? ''}"`);
		out[key] = level;
	}
	return out;
}

/**
 * Classic/OAuth scopes accepted by a route with this policy: for the first alternative, the scopes
 * of its first key that needs any (metadata needs none). Empty: any token will do.
 */
export function scopesForPolicy(policy: PermissionPolicy): string[] {
	for (const set of policy.slice(0, 1)) {
		for (const [key, level] of Object.entries(set)) {
			const scopes = PERMISSION_KEYS[key as PermissionKey].scopes[level as Level];
			if (scopes.length) return scopes;
		}
	}
	return [];
}
