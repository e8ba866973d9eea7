/**
 * A webhook receiver on loopback for the hook suites: it records every request (path, headers,
 * raw body) and answers 200, or the status codes queued in `answers`. Hooks reach it only when the
 * test server's config lists 127.0.0.1 in webhooks.allowed_hosts.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
	path: string;
	headers: IncomingHttpHeaders;
	/** The raw body, exactly as signed. */
	body: string;
	/** X-GitHub-Event. */
	event: string;
	/** The JSON payload (decoded from the form field `payload` for form hooks). */
	payload: any;
}

export class Receiver {
	readonly received: Received[] = [];
	/** Status codes served in turn, then 200. */
	answers: number[] = [];
	private server!: Server;
	/** http://127.0.0.1:<port> */
	origin = '';

	async start(): Promise<void> {
		this.server = createServer((req, res) => {
			let body = '';
			req.setEncoding('utf8');
			req.on('data', (chunk) => (body += chunk));
			req.on('end', () => {
				const form = String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded');
				const payload = JSON.parse(form ? new URLSearchParams(body).get('payload')! : body);
				this.received.push({
					path: req.url ?? '',
					headers: req.headers,
					body,
					event: String(req.headers['x-github-event']),
					payload,
				});
				const status = this.answers.shift() ?? 200;
				res.writeHead(status, { 'Content-Type': 'text/plain' });
				res.end(status < 300 ? 'ok' : 'nope');
			});
		});
		await new Promise<void>((done) => this.server.listen(0, '127.0.0.1', done));
		this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
	}

	/** A hook URL on this receiver; its path tells hooks apart. */
	url(path: string): string {
		return `${this.origin}${path}`;
	}

	stop(): Promise<void> {
		this.server.closeAllConnections();
		return new Promise((done) => this.server.close(() => done()));
	}

	/**
	 * Waits until what was received satisfies `condition` (deliveries go out after the write commits).
	 * @throws Error after `ms` milliseconds
	 */
	async waitFor(condition: (received: Received[]) => boolean, ms = 10_000): Promise<void> {
		const deadline = Date.now() + ms;
		while (!condition(this.received)) {
			if (Date.now() > deadline) throw new Error('the expected deliveries did not arrive');
			await new Promise((resolve) => setTimeout(resolve, 20));
		}
	}

	/** Everything received since the last call, in arrival order. */
	take(): Received[] {
		return this.received.splice(0);
	}

	/** What arrived at one hook URL path (taking everything received). */
	takeAt(path: string): Received[] {
		return this.take().filter((r) => r.path === path);
	}
}

/** `sha256=…` / `sha1=…` of a body with a secret, as X-Hub-Signature-256 / X-Hub-Signature carry. */
export function signature(algorithm: 'sha256' | 'sha1', secret: string, body: string): string {
	return `${algorithm}=${createHmac(algorithm, secret).update(body).digest('hex')}`;
}
