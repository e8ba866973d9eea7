/**
 * Authentication: the Authorization header → the principal a request acts as
 * (https://docs.github.com/en/rest/authentication/authenticating-to-the-rest-api).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { type DomainError, forbidden, REFUSALS, unauthenticated } from '../model/errors';
import { levelMeets, type GrantedPermissions, type Level } from './permissions';
import { type AppKeys, looksLikeJwt, verifyAppJwt } from './jwt';
import { expandScopes } from './scopes';
import type { TokenStore } from './token-store';
import { hashToken, tokenKindOf, type TokenKind } from './tokens';

/** The user a request acts for. */
export interface Actor {
	id: number;
	login: string;
	siteAdmin: boolean;
}

/** What a request can authenticate as: a stored token's kind, an app (JWT), or nobody. */
export type PrincipalKind = TokenKind | 'app';

export interface Principal {
	/** 'session': a signed-in browser of the web interface (src/auth/sessions.ts), never an API caller. */
	kind: PrincipalKind | 'anonymous' | 'session';
	tokenId: number | null;
	/** The acting user; null for anonymous requests, installation tokens and app JWTs. */
	user: Actor | null;
	/** Who acts, for records and webhook senders: the user, or the app's bot account. */
	actorId: number | null;
	/** App tokens: the installation they act through. */
	installationId: number | null;
	/** App JWTs: the app. */
	appId: number | null;
	/** Installation tokens limited to some repositories; null: every repository of the account. */
	repositoryIds: ReadonlySet<number> | null;
	/** Classic/OAuth: the token's scopes as stored (X-OAuth-Scopes). */
	scopeList: string[];
	/** Classic/OAuth: the scopes with every implied scope added. */
	scopes: ReadonlySet<string>;
	/** Fine-grained and app tokens: permission key → level. */
	permissions: GrantedPermissions;
	/** Fine-grained and app tokens: the only account (organization or user) the token reaches. */
	resourceOwnerId: number | null;
	/** Rate-limit principal: 'user:ID', 'installation:TOKENID' or 'ip:ADDRESS'. */
	rateKey: string;
}

/**
 * The request a state change is made in, for the audit log (src/events/audit.ts): set by the
 * pipeline for the span of a handler (app.acting), null outside requests (command line, jobs).
 */
export interface Acting {
	principal: Principal;
	/** The client's address (trusted-proxy aware). */
	ip: string;
	userAgent: string | null;
	/** X-GitHub-Request-Id of the answer. */
	requestId: string;
}

const EMPTY_SCOPES: ReadonlySet<string> = new Set();

export function anonymous(ip: string): Principal {
	return {
		kind: 'anonymous',
		tokenId: null,
		user: null,
		actorId: null,
		installationId: null,
		appId: null,
		repositoryIds: null,
		scopeList: [],
		scopes: EMPTY_SCOPES,
		permissions: {},
		resourceOwnerId: null,
		rateKey: `ip:${ip}`,
	};
}

/**
 * The one account (organization or user) a fine-grained, user-to-server or installation token is
 * bound to: its resource owner (`--org`; a fine-grained token without one, its user's own account).
 * Null for principals bound to no account: classic and OAuth tokens, anonymous callers, app JWTs.
 */
export function boundAccountId(principal: Principal): number | null {
	if (principal.kind === 'fine-grained' || principal.kind === 'user-to-server' || principal.kind === 'installation') {
		return principal.resourceOwnerId ?? principal.user?.id ?? 0; // 0: no account at all
	}
	return null;
}

/**
 * Whether the principal may act on an account (an organization or a user) at all: classic and
 * OAuth tokens reach every account their user does; fine-grained, user-to-server and installation
 * tokens only the account they are bound to (boundAccountId). Anonymous callers and app JWTs act
 * on no account. Roles are checked separately (docs/api/auth.md).
 */
export function reachesAccount(principal: Principal, accountId: number): boolean {
	if (principal.kind === 'anonymous' || principal.kind === 'app') return false;
	const bound = boundAccountId(principal);
	return bound === null || bound === accountId;
}

/** GitHub's 403 for a token used beyond what it may reach: "Resource not accessible by personal access token" / "… by integration". */
export function notAccessible(principal: Principal): DomainError {
	const byApp = principal.kind === 'installation' || principal.kind === 'user-to-server' || principal.kind === 'app';
	return forbidden(byApp ? REFUSALS.byIntegration : REFUSALS.byPersonalAccessToken);
}

/**
 * Requires that the principal reaches the account (see reachesAccount).
 * @throws DomainError 403 "Resource not accessible by personal access token" / "… by integration".
 */
export function requireReach(principal: Principal, accountId: number): void {
	if (!reachesAccount(principal, accountId)) throw notAccessible(principal);
}

/**
 * The token in `Authorization: Bearer|token <token>` or in Basic credentials: the password, or the
 * user name when the password is empty or `x-oauth-basic` (GitHub accepts a token either way; git
 * clients such as Renovate's send it as the user name).
 */
export function tokenFromHeader(headers: IncomingHttpHeaders): string | null {
	const header = headers.authorization;
	if (!header) return null;
	const space = header.indexOf(' ');
	if (space < 0) return header.trim() || null; // a bare token, as some scripts send
	const scheme = header.slice(0, space).toLowerCase();
	const value = header.slice(space + 1).trim();
	if (scheme === 'bearer' || scheme === 'token') return value;
	if (scheme === 'basic') {
		const decoded = Buffer.from(value, 'base64').toString('utf8');
		const colon = decoded.indexOf(':');
		if (colon < 0) return decoded;
		const password = decoded.slice(colon + 1);
		return password === '' || password === 'x-oauth-basic' ? decoded.slice(0, colon) || null : password;
	}
	return value;
}

/**
 * The principal of a token.
 * @param now epoch seconds
 * @throws DomainError Unauthenticated (401) "Bad credentials" for a malformed, unknown, revoked or expired token.
 */
function principalOfToken(token: string, tokens: TokenStore, now: number): { principal: Principal; expiresAt: number | null } {
	const kind = tokenKindOf(token);
	if (!kind) throw unauthenticated(REFUSALS.badCredentials);
	const row = tokens.findByHash(hashToken(token));
	if (!row || row.kind !== kind || row.revoked_at !== null || (row.expires_at !== null && row.expires_at <= now)) {
		throw unauthenticated(REFUSALS.badCredentials);
	}
	// A suspended user's tokens stop working (GitHub Enterprise Server's answer).
	if (row.suspended === 1) throw forbidden(REFUSALS.suspended);
	const scopeList = row.scopes ? row.scopes.split(',') : [];
	const user = row.user_id !== null && row.login !== null ? { id: row.user_id, login: row.login, siteAdmin: row.site_admin === 1 } : null;
	const own = JSON.parse(row.permissions) as GrantedPermissions;
	const installed = row.installation_permissions === null ? null : (JSON.parse(row.installation_permissions) as GrantedPermissions);
	const principal: Principal = {
		kind,
		tokenId: row.id,
		user,
		actorId: user?.id ?? row.bot_id,
		installationId: row.installation_id,
		appId: null,
		repositoryIds: repositoriesOf(row),
		scopeList,
		scopes: kind === 'classic' || kind === 'oauth' ? expandScopes(scopeList) : EMPTY_SCOPES,
		// App tokens never exceed their installation: the token's own set narrows it.
		permissions: installed === null ? own : Object.keys(own).length ? narrow(own, installed) : installed,
		resourceOwnerId: row.installation_account_id ?? row.resource_owner_id,
		rateKey: user ? `user:${user.id}` : `installation:${row.installation_id ?? row.id}`,
	};
	return { principal, expiresAt: row.expires_at };
}

/**
 * The repositories a token reaches, or null for every repository of its account: its own selection
 * (repository_ids) intersected with its installation's where the installation is limited to
 * selected repositories (installation_repositories; an installation with none listed reaches none).
 */
function repositoriesOf(row: { repository_ids: string | null; installation_repository_ids: string | null }): ReadonlySet<number> | null {
	const own = row.repository_ids === null ? null : (JSON.parse(row.repository_ids) as number[]);
	const installed = row.installation_repository_ids === null ? null : new Set(JSON.parse(row.installation_repository_ids) as number[]);
	if (installed === null) return own === null ? null : new Set(own);
	return own === null ? installed : new Set(own.filter((id) => installed.has(id)));
}

/** The principal of an app JWT: the app itself, acting through its bot account. */
function principalOfJwt(token: string, apps: AppKeys, now: number): { principal: Principal; expiresAt: number } {
	const { app, expiresAt } = verifyAppJwt(token, apps, now);
	return {
		principal: {
			kind: 'app',
			tokenId: null,
			user: null,
			actorId: app.bot_id,
			installationId: null,
			appId: app.id,
			repositoryIds: null,
			scopeList: [],
			scopes: EMPTY_SCOPES,
			permissions: {},
			resourceOwnerId: null,
			rateKey: `app:${app.id}`,
		},
		expiresAt,
	};
}

/** The permissions of `wanted` that `allowed` grants, each at the lower level. */
export function narrow(wanted: GrantedPermissions, allowed: GrantedPermissions): GrantedPermissions {
	const out: GrantedPermissions = {};
	for (const [key, level] of Object.entries(wanted) as Array<[keyof GrantedPermissions, Level]>) {
		const limit = allowed[key];
		if (!limit) continue;
		out[key] = levelMeets(limit, level) ? level : limit;
	}
	return out;
}

/**
 * Authentication with a memory of recently seen tokens, so a request costs a Map lookup instead
 * of a SHA-256 and a database read. Entries honour the token's expiry; the cache is cleared when
 * tokens change (clear(): revocation, in this process or by `gitstead admin`, noticed through
 * ExternalChanges). Principals are shared between requests and must not be mutated.
 *
 * Token use (last_used_at) is recorded in memory, at most once a minute per token, and written by
 * flushUsage() (the `usage-flush` job), so authenticating never writes on the request path.
 */
export class Authenticator {
	private readonly known = new Map<string, { principal: Principal; expiresAt: number | null }>();
	/** token id → epoch seconds of use not yet written */
	private readonly pendingUse = new Map<number, number>();
	/** token id → epoch seconds last written */
	private readonly writtenUse = new Map<number, number>();
	/** Entries kept at most; the map is emptied when it grows past this. */
	static readonly MAX_ENTRIES = 10_000;

	constructor(
		private readonly tokens: TokenStore,
		private readonly apps: AppKeys,
	) {}

	/**
	 * @param now epoch seconds
	 * @throws DomainError Unauthenticated (401) "Bad credentials"
	 */
	authenticate(headers: IncomingHttpHeaders, ip: string, now: number): Principal {
		const token = tokenFromHeader(headers);
		if (token === null) return anonymous(ip);
		let entry = this.known.get(token);
		if (entry && entry.expiresAt !== null && entry.expiresAt <= now) {
			this.known.delete(token);
			entry = undefined;
		}
		if (!entry) {
			entry = looksLikeJwt(token) ? principalOfJwt(token, this.apps, now) : principalOfToken(token, this.tokens, now);
			if (this.known.size >= Authenticator.MAX_ENTRIES) this.known.clear();
			this.known.set(token, entry);
		}
		const id = entry.principal.tokenId;
		if (id !== null && (this.writtenUse.get(id) ?? 0) <= now - 60) this.pendingUse.set(id, now);
		return entry.principal;
	}

	/** Writes recorded token use (call inside a transaction). @returns tokens written */
	flushUsage(): number {
		for (const [id, at] of this.pendingUse) {
			this.tokens.touch(id, at);
			this.writtenUse.set(id, at);
		}
		const count = this.pendingUse.size;
		this.pendingUse.clear();
		return count;
	}

	clear(): void {
		this.known.clear();
	}
}
