/**
 * A user's public keys at the web origin, outside /api/v3, as GitHub serves them: `/{login}.keys`
 * (the SSH authentication keys, one "<type> <base64>" line each, what `ssh-import-id` and
 * authorized_keys tooling fetch) and `/{login}.gpg` (the armored GPG public keys, one after the
 * other). Public, text/plain; an unknown login (or an organization) answers 404.
 */
import type { App } from '../../app';

/** The answer of a key path, or null when `path` is none (the next handler answers). */
export function serveUserKeys(app: App, path: string): { status: number; headers: Record<string, string>; body: string } | null {
	const match = /^\/([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))\.(keys|gpg)$/.exec(path);
	if (!match) return null;
	const user = app.stores.accounts.user(match[1]);
	const headers = { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache' };
	if (!user) return { status: 404, headers, body: 'Not Found\n' };
	let body = '';
	if (match[2] === 'keys') {
		for (let offset = 0; ; offset += 100) {
			const { rows } = app.stores.keys.ofUser(user.id, 'authentication', 100, offset);
			for (const row of rows) body += `${row.key}\n`;
			if (rows.length < 100) break;
		}
	} else {
		for (let offset = 0; ; offset += 100) {
			const { rows } = app.stores.keys.gpgOfUser(user.id, 100, offset);
			for (const row of rows) if (row.raw_key) body += row.raw_key.endsWith('\n') ? row.raw_key : `${row.raw_key}\n`;
			if (rows.length < 100) break;
		}
	}
	return { status: 200, headers, body };
}
