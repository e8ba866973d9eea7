/**
 * Setup steps the REST tests share: a request that must succeed, a file written and a branch
 * created through the API, and the payloads a hook was sent. Each test file binds them to its
 * server, repository and default token in one line.
 */
import * as assert from 'uvu/assert';
import type { TestServer } from './server';

/**
 * A request the setup needs to succeed.
 * @returns its JSON body @throws an assertion naming the request, its status and its answer otherwise
 */
export async function mustSucceed(s: TestServer, method: string, path: string, body: unknown, token: string | undefined): Promise<any> {
	const res = await s.request(method, path, { token, body });
	assert.ok(res.status >= 200 && res.status < 300, `~> setup ${method} ${path}: ${res.status} ${res.text}`);
	return res.body;
}

/**
 * Writes `text` to `path` on `branch` of `repo` (/repos/{owner}/{repo}) with the contents API,
 * creating or updating the file. @returns the new commit's sha
 */
export async function writeFile(s: TestServer, repo: string, branch: string, path: string, text: string, token: string): Promise<string> {
	const existing = await s.request('GET', `${repo}/contents/${path}?ref=${branch}`, { token });
	const body: Record<string, unknown> = { message: `Write ${path}`, content: Buffer.from(text).toString('base64'), branch };
	if (existing.status === 200) body.sha = existing.body.sha;
	return (await mustSucceed(s, 'PUT', `${repo}/contents/${path}`, body, token)).commit.sha;
}

/** Creates the branch `name` of `repo` at the head of `from`. @returns that commit's sha */
export async function createBranch(s: TestServer, repo: string, name: string, from: string, token: string): Promise<string> {
	const sha = (await mustSucceed(s, 'GET', `${repo}/git/ref/heads/${from}`, undefined, token)).object.sha;
	await mustSucceed(s, 'POST', `${repo}/git/refs`, { ref: `refs/heads/${name}`, sha }, token);
	return sha;
}

/** The payloads of `event` the hook `hookId` was sent, oldest first, each with its action. */
export function hookDeliveries(s: TestServer, hookId: number, event: string): any[] {
	const { rows } = s.app.stores.webhooks.deliveries({ hookId, status: null, limit: 1000, offset: 0 });
	return rows
		.filter((row) => row.event === event)
		.reverse()
		.map((row) => ({ action: row.action, ...JSON.parse(row.payload) }));
}

/** The event log's id now: events recorded later have larger ids. */
export const eventMark = (s: TestServer): number => s.app.stores.events.latestId();

/**
 * Events recorded after `mark`, oldest first, as `event.action by login` (`event by login` for an
 * event without an action when `bareEvents`).
 */
export function eventsSince(s: TestServer, mark: number, options: { bareEvents?: boolean } = {}): string[] {
	const rows = s.app.db
		.prepare('SELECT e.event, e.action, a.login FROM events e LEFT JOIN accounts a ON a.id = e.actor_id WHERE e.id > ? ORDER BY e.id')
		.all(mark) as Array<{ event: string; action: string | null; login: string | null }>;
	return rows.map((row) => `${options.bareEvents && row.action === null ? row.event : `${row.event}.${row.action}`} by ${row.login}`);
}

/**
 * Captures the webhook payloads events build, whether or not a hook listens (s.app.webhooks.emit
 * wrapped until stop()).
 */
export function captureWebhooks(s: TestServer) {
	const webhooks = s.app.webhooks;
	const emit = webhooks.emit;
	const seen: Array<{ event: string; action: string | null; payload: any }> = [];
	webhooks.emit = (event, action, build) => {
		seen.push({ event, action, payload: build() });
		emit.call(webhooks, event, action, build);
	};
	return { seen, stop: () => void (webhooks.emit = emit) };
}

/**
 * The repositories the starring and watching tests share: olivia owns the organization acme
 * (default repository permission none) with the public acme/app and the private acme/vault; mike is
 * a member of acme; nora, nobody to acme, owns the public nora/notes. @returns their full tokens
 */
export async function acmeAndNotes(s: TestServer): Promise<{ olivia: string; mike: string; nora: string }> {
	for (const login of ['olivia', 'mike', 'nora']) s.user(login);
	s.org('acme', 'olivia');
	s.member('acme', 'mike');
	const tokens = { olivia: s.fullToken('olivia'), mike: s.fullToken('mike'), nora: s.fullToken('nora') };
	await mustSucceed(s, 'PATCH', '/orgs/acme', { default_repository_permission: 'none' }, tokens.olivia);
	await mustSucceed(s, 'POST', '/orgs/acme/repos', { name: 'app' }, tokens.olivia);
	await mustSucceed(s, 'POST', '/orgs/acme/repos', { name: 'vault', private: true }, tokens.olivia);
	await mustSucceed(s, 'POST', '/user/repos', { name: 'notes' }, tokens.nora);
	return tokens;
}
