/**
 * A TLS terminator in front of a test server, for clients that speak only HTTPS to an enterprise
 * host (gh): a self-signed certificate for localhost made by `openssl req -x509` at test time, and
 * a node https server that forwards every request to the plain-HTTP server as it came. And a
 * runner for the gh CLI against it (GH_HOST, GH_ENTERPRISE_TOKEN, SSL_CERT_FILE).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TlsFront {
	/** localhost:PORT, the host gh is given. */
	host: string;
	/** The PEM file of the self-signed certificate (SSL_CERT_FILE). */
	certFile: string;
	close(): Promise<void>;
}

/**
 * Starts an https proxy on an ephemeral port in front of http://127.0.0.1:`targetPort`. With
 * `forwarded`, it adds X-Forwarded-Proto/Host/For as a reverse proxy does, so a server trusting
 * 127.0.0.1 (`[server] trusted_proxies`) writes https://localhost:PORT into the URLs it returns.
 */
export async function tlsFront(targetPort: number, options: { forwarded?: boolean } = {}): Promise<TlsFront> {
	const dir = mkdtempSync(join(tmpdir(), 'gitstead-tls-'));
	const key = join(dir, 'key.pem');
	const certFile = join(dir, 'cert.pem');
	execFileSync(
		'openssl',
		[
			'req',
			'-x509',
			'-newkey',
			'rsa:2048',
			'-nodes',
			'-keyout',
			key,
			'-out',
			certFile,
			'-days',
			'1',
			'-subj',
			'/CN=localhost',
			'-addext',
			'subjectAltName=DNS:localhost,IP:127.0.0.1',
		],
		{ stdio: 'ignore' },
	);
	const server: Server = createServer({ key: readFileSync(key), cert: readFileSync(certFile) }, (req, res) => {
		const headers = { ...req.headers };
		if (options.forwarded) {
			headers['x-forwarded-proto'] = 'https';
			headers['x-forwarded-host'] = req.headers.host ?? '';
			headers['x-forwarded-for'] = req.socket.remoteAddress ?? '127.0.0.1';
		}
		const upstream = httpRequest({ host: '127.0.0.1', port: targetPort, method: req.method, path: req.url, headers }, (answer) => {
			res.writeHead(answer.statusCode ?? 502, answer.headers);
			answer.pipe(res);
		});
		upstream.on('error', () => {
			res.writeHead(502);
			res.end();
		});
		req.pipe(upstream);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const port = (server.address() as AddressInfo).port;
	return {
		host: `localhost:${port}`,
		certFile,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => {
					rmSync(dir, { recursive: true, force: true });
					resolve();
				});
			}),
	};
}

/** The gh binary on PATH, or null. */
export function findGh(): string | null {
	try {
		return execFileSync('which', ['gh'], { encoding: 'utf8' }).trim() || null;
	} catch {
		return null;
	}
}

export interface GhResult {
	code: number;
	stdout: string;
	stderr: string;
}

/**
 * Runs gh against the TLS front with `token` (GH_ENTERPRISE_TOKEN), a fresh config folder, no
 * prompts, no update check. `debug` sets GH_DEBUG=api (gh prints every request on stderr).
 */
export function runGh(
	front: TlsFront,
	token: string,
	args: string[],
	options: { debug?: boolean; input?: string } = {},
): Promise<GhResult> {
	const home = mkdtempSync(join(tmpdir(), 'gitstead-gh-'));
	const env: Record<string, string> = {
		PATH: process.env.PATH ?? '/usr/bin:/bin',
		HOME: home,
		GH_CONFIG_DIR: join(home, 'config'),
		GH_HOST: front.host,
		GH_ENTERPRISE_TOKEN: token,
		SSL_CERT_FILE: front.certFile,
		GH_NO_UPDATE_NOTIFIER: '1',
		GH_PROMPT_DISABLED: '1',
		NO_COLOR: '1',
		GH_PAGER: 'cat',
		PAGER: 'cat',
		TERM: 'dumb',
	};
	if (options.debug) env.GH_DEBUG = 'api';
	return new Promise((resolve, reject) => {
		const child = spawn('gh', args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (d) => (stdout += d));
		child.stderr.on('data', (d) => (stderr += d));
		child.on('error', reject);
		child.on('close', (code) => {
			rmSync(home, { recursive: true, force: true });
			resolve({ code: code ?? -1, stdout, stderr });
		});
		child.stdin.end(options.input ?? '');
	});
}

/**
 * The GraphQL requests in gh's GH_DEBUG=api output, in order. gh prints a request body either as
 * "GraphQL query:\n<document>\nGraphQL variables: <json>" or as a pretty-printed JSON object
 * {"query": …} after the request line to …/api/graphql.
 */
export function capturedQueries(stderr: string): Array<{ query: string; variables: unknown }> {
	const out: Array<{ query: string; variables: unknown }> = [];
	const pattern =
		/GraphQL query:\n([\s\S]*?)\nGraphQL variables: ([^\n]*)\n|\* Request to https:\/\/[^\n]*\/api\/graphql\n(?:[<>][^\n]*\n)*\n(\{\n[\s\S]*?\n\})\n/g;
	for (let m = pattern.exec(stderr); m !== null; m = pattern.exec(stderr)) {
		try {
			if (m[1] !== undefined) {
				out.push({ query: m[1], variables: JSON.parse(m[2]) as unknown });
				continue;
			}
			const body = JSON.parse(m[3]) as { query: string; variables?: unknown };
			if (typeof body.query === 'string') out.push({ query: body.query, variables: body.variables ?? null });
		} catch {
			// not a JSON body
		}
	}
	return out;
}
