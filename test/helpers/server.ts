/**
 * Test harness: a Gitstead server on an ephemeral port over a temporary data folder, a fetch-based
 * client, and fixture helpers that go through the same service code as `gitstead admin`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { App } from '../../src/app';
import { closeApp, openApp } from '../../src/compose';
import { createEnterprise } from '../../src/api/enterprises/service';
import { addMember } from '../../src/api/members/service';
import { createOrganization } from '../../src/api/orgs/service';
import { createUser } from '../../src/api/users/service';
import type { AccountRow, AppRow } from '../../src/model/rows';
import { PERMISSION_KEYS, type GrantedPermissions } from '../../src/auth/permissions';
import { createApp, installApp } from '../../src/api/apps/service';
import { ALL_TOP_LEVEL_SCOPES } from '../../src/auth/scopes';
import { INSTALLATION_TOKEN_SECONDS, type TokenKind } from '../../src/auth/tokens';
import { defaultConfig, resolveConfig, type Config } from '../../src/config';
import { silentLogger } from '../../src/log';
import { listen, type RunningServer } from '../../src/server';
import { epochSeconds, isoSeconds } from '../../src/time';

export interface Response<T = any> {
	status: number;
	headers: Headers;
	body: T;
	text: string;
}

export interface RequestOptions {
	token?: string;
	body?: unknown;
	/** Raw body text (sent as is). */
	raw?: string;
	headers?: Record<string, string>;
}

/** A clock tests can move: epoch milliseconds. */
export class TestClock {
	constructor(public now = Date.UTC(2026, 10, 22, 12, 0, 0)) {}
	readonly read = () => this.now;
	advance(ms: number): void {
		this.now += ms;
	}
}

export interface TestServer {
	app: App;
	/** e.g. http://127.0.0.1:41234 */
	origin: string;
	/** origin + /api/v3 */
	api: string;
	clock: TestClock;
	dataDir: string;
	request<T = any>(method: string, path: string, options?: RequestOptions): Promise<Response<T>>;
	get<T = any>(path: string, token?: string, headers?: Record<string, string>): Promise<Response<T>>;
	user(login: string, options?: { siteAdmin?: boolean }): AccountRow;
	org(login: string, owner: string, options?: { enterprise?: string }): AccountRow;
	enterprise(slug: string, owner: string, options?: { allowOutsideCollaborators?: boolean }): void;
	member(org: string, login: string, role?: 'admin' | 'member'): void;
	token(login: string, options?: { kind?: TokenKind; scopes?: string[]; permissions?: GrantedPermissions; org?: string }): string;
	/** A classic token with every scope. */
	fullToken(login: string): string;
	/** Stops the server; keeps the data folder when `keepData` (for restart tests). */
	close(keepData?: boolean): Promise<void>;
}

export interface StartOptions {
	configure?(config: Config): void;
	clock?: TestClock;
	dataDir?: string;
}

/** Starts a server. Call close() in the suite's after hook. */
export async function startServer(options: StartOptions = {}): Promise<TestServer> {
	const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'gitstead-test-'));
	const config = defaultConfig();
	config.server.port = 0;
	config.storage.data_dir = dataDir;
	options.configure?.(config);
	const clock = options.clock ?? new TestClock();
	const app = openApp(resolveConfig(config), { clock: clock.read, log: silentLogger, groupCommit: true });
	let running: RunningServer;
	try {
		running = await listen(app, '127.0.0.1', 0);
	} catch (error) {
		closeApp(app);
		throw error;
	}
	const origin = running.address;
	const api = `${origin}/api/v3`;

	const request = async (method: string, path: string, opts: RequestOptions = {}): Promise<Response> => {
		const headers: Record<string, string> = { ...opts.headers };
		if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
		let body: string | undefined = opts.raw;
		if (opts.body !== undefined) {
			body = JSON.stringify(opts.body);
			headers['Content-Type'] ??= 'application/json';
		}
		const url = path.startsWith('http') ? path : `${api}${path}`;
		const res = await fetch(url, { method, headers, body, redirect: 'manual' });
		const text = await res.text();
		let parsed: unknown;
		if (text && (res.headers.get('content-type') ?? '').includes('json')) parsed = JSON.parse(text);
		return { status: res.status, headers: res.headers, body: parsed, text };
	};

	const now = () => isoSeconds(clock.now);
	const everything = Object.fromEntries(Object.keys(PERMISSION_KEYS).map((key) => [key, 'admin'])) as GrantedPermissions;
	let testApp: AppRow | undefined;
	const testInstallation = (account: AccountRow) => {
		testApp ??= createApp(app, { name: 'test-app', owner: account, permissions: everything }, now()).app;
		return app.stores.apps.installationOn(testApp.id, account.id) ?? installApp(app, testApp, account, null, now());
	};
	const server: TestServer = {
		app,
		origin,
		api,
		clock,
		dataDir,
		request,
		get: (path, token, headers) => request('GET', path, { token, headers }),
		user: (login, opts = {}) => createUser(app, { login, siteAdmin: opts.siteAdmin }),
		org(login, owner, opts = {}) {
			const enterprise = opts.enterprise ? app.stores.enterprises.bySlug(opts.enterprise) : undefined;
			return createOrganization(app, { login, ownerId: app.stores.accounts.user(owner)!.id, enterpriseId: enterprise?.id });
		},
		enterprise(slug, owner, opts = {}) {
			createEnterprise(app, {
				slug,
				ownerId: app.stores.accounts.user(owner)!.id,
				allowOutsideCollaborators: opts.allowOutsideCollaborators,
			});
		},
		member(org, login, role = 'member') {
			addMember(app, app.stores.accounts.organization(org)!, app.stores.accounts.user(login)!, role, now());
		},
		token(login, opts = {}) {
			const kind = opts.kind ?? 'classic';
			const user = app.stores.accounts.user(login)!;
			const owner = opts.org ? app.stores.accounts.byLogin(opts.org)! : kind === 'fine-grained' ? user : null;
			// App tokens act through an installation of the test app, which may do everything.
			const installation = kind === 'installation' || kind === 'user-to-server' ? testInstallation(owner!) : null;
			return app.tokens.create({
				kind,
				userId: kind === 'installation' ? null : user.id,
				createdById: user.id,
				scopes: opts.scopes ?? [],
				permissions: opts.permissions ?? {},
				resourceOwnerId: owner?.id ?? null,
				installationId: installation?.id ?? null,
				now: epochSeconds(clock.now),
				expiresAt: kind === 'installation' ? epochSeconds(clock.now) + INSTALLATION_TOKEN_SECONDS : null,
			}).token;
		},
		fullToken: (login) => server.token(login, { scopes: [...ALL_TOP_LEVEL_SCOPES] }),
		async close(keepData = false) {
			await running.close();
			closeApp(app);
			if (!keepData && !options.dataDir) rmSync(dataDir, { recursive: true, force: true });
		},
	};
	return server;
}
