/**
 * What the service tests share: an application over a temporary data folder, without an HTTP
 * server, on a fixed clock; plain Caller objects; the DomainError a call refuses with.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { App } from '../../src/app';
import { closeApp, openApp } from '../../src/compose';
import { defaultConfig, resolveConfig } from '../../src/config';
import { silentLogger } from '../../src/log';
import type { Caller } from '../../src/auth/caller';
import { DomainError } from '../../src/model/errors';

/** The fixed clock of the service tests (epoch milliseconds). */
export const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

/** An application over a new temporary data folder; `close()` closes it and removes the folder. */
export function serviceApp(name: string): { app: App; close(): void } {
	const dataDir = mkdtempSync(join(tmpdir(), `gitstead-${name}-`));
	const config = defaultConfig();
	config.storage.data_dir = dataDir;
	const app = openApp(resolveConfig(config), { clock: () => NOW, log: silentLogger });
	return {
		app,
		close() {
			closeApp(app);
			rmSync(dataDir, { recursive: true, force: true });
		},
	};
}

/** A caller acting as `account` at NOW, with raw bodies (as event payloads carry them). */
export function callerAs(app: App, account: { id: number }): Caller {
	return { app, now: NOW, media: null, principal: { actorId: account.id } as Caller['principal'] };
}

/** The DomainError `fn` throws; fails when it throws nothing or another error. */
export function refusal(fn: () => unknown): DomainError {
	try {
		fn();
	} catch (error) {
		if (error instanceof DomainError) return error;
		throw error;
	}
	throw new Error('expected a DomainError');
}
