/**
 * Probot itself (npm probot, the usual GitHub App framework) against a real Gitstead server: a stock
 * app configured as Probot documents for GitHub Enterprise Server (APP_ID, PRIVATE_KEY,
 * WEBHOOK_SECRET, GHE_HOST, GHE_PROTOCOL) answers `issues.opened` with a comment through
 * `context.octokit`. Gitstead delivers the event to the app's webhook (made by `gitstead admin
 * create-app --webhook-url --webhook-secret-file`, the secret read from standard input), Probot checks
 * the signature, gets an installation token with its JWT and comments as the app's bot.
 */
import { execFileSync } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { installApp } from '../src/api/apps/service';
import { isoSeconds } from '../src/time';
import { startServer, TestClock, type TestServer } from './helpers/server';

/** The real time. */
class LiveClock extends TestClock {
	override readonly read = () => Date.now();
}

/**
 * What this test uses of Probot. Its own types are not imported: they widen node:http's
 * IncomingMessage for the whole compilation (a `body` property), which the server's types rule out.
 */
interface ProbotModule {
	createProbot(options: { env: Record<string, string> }): unknown;
	createNodeMiddleware(
		appFn: (app: { on(event: string, handler: (context: ProbotContext) => Promise<void>): void }) => void,
		options: { probot: unknown },
	): Promise<(req: IncomingMessage, res: ServerResponse, next: () => void) => Promise<boolean>>;
}
interface ProbotContext {
	payload: { issue: { title: string } };
	issue<T extends object>(params: T): T & { owner: string; repo: string; issue_number: number };
	octokit: {
		rest: { issues: { createComment(params: { owner: string; repo: string; issue_number: number; body: string }): Promise<unknown> } };
	};
}
/** The package's name in a variable: the compiler does not resolve (nor type) the import. */
const PROBOT = 'probot';

const test = suite('probot');
let s: TestServer;
let receiver: Server;
let dir: string;
let olivia: string;
const SECRET = 'a webhook secret from standard input';

test.before(async () => {
	dir = mkdtempSync(join(tmpdir(), 'gitstead-probot-'));
	// Probot signs its JWTs with the real time: the server's clock is the real one here.
	s = await startServer({
		clock: new LiveClock(),
		dataDir: dir,
		configure: (c) => {
			c.webhooks.allowed_hosts = ['127.0.0.1'];
		},
	});
	s.user('olivia');
	olivia = s.fullToken('olivia');
	s.org('acme', 'olivia');
	await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'app' } });
});
test.after(async () => {
	receiver?.closeAllConnections();
	await new Promise<void>((done) => (receiver ? receiver.close(() => done()) : done()));
	await s?.close(true);
	rmSync(dir, { recursive: true, force: true });
});

test('a stock Probot app answers issues.opened with a comment through context.octokit', async () => {
	const { createNodeMiddleware, createProbot } = (await import(PROBOT)) as ProbotModule;
	// The Probot app's own server, on an ephemeral port: its webhook path is /api/github/webhooks.
	receiver = createServer();
	await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
	const port = (receiver.address() as AddressInfo).port;

	// The app, registered as an administrator would: private key to a file, webhook secret on standard input.
	const keyFile = join(dir, 'triage.pem');
	// The command reads the server's configuration: its data folder, and loopback allowed for webhooks.
	const configFile = join(dir, 'gitstead.toml');
	writeFileSync(configFile, `[storage]\ndata_dir = ${JSON.stringify(dir)}\n\n[webhooks]\nallowed_hosts = ["127.0.0.1"]\n`);
	const out = execFileSync(
		process.execPath,
		[
			'-r',
			'tsx/cjs',
			'src/main.ts',
			'admin',
			'create-app',
			'Triage',
			'--owner',
			'acme',
			'--permissions',
			'issues:write,metadata:read',
			'--events',
			'issues',
			'--private-key-file',
			keyFile,
			'--webhook-url',
			`http://127.0.0.1:${port}/api/github/webhooks`,
			'--webhook-secret-file',
			'-',
			'--json',
			'--config',
			configFile,
		],
		{ input: `${SECRET}\n`, encoding: 'utf8', cwd: join(__dirname, '..') },
	);
	const created = JSON.parse(out);
	assert.is(created.webhook.secret, '********');
	const target = s.app.stores.apps.byId(created.id)!;
	installApp(s.app, target, s.app.stores.accounts.byLogin('acme')!, null, isoSeconds(s.clock.now));

	const host = new URL(s.origin).host;
	const probot = createProbot({
		env: {
			APP_ID: String(created.id),
			PRIVATE_KEY: readFileSync(keyFile, 'utf8'),
			WEBHOOK_SECRET: SECRET,
			GHE_HOST: host,
			GHE_PROTOCOL: 'http',
			LOG_LEVEL: 'warn',
		},
	});
	const seen: string[] = [];
	const middleware = await createNodeMiddleware(
		(app) => {
			app.on('issues.opened', async (context) => {
				seen.push(context.payload.issue.title);
				await context.octokit.rest.issues.createComment(context.issue({ body: 'Thanks for opening this issue!' }));
			});
		},
		{ probot },
	);
	receiver.on('request', (req, res) => {
		void middleware(req, res, () => {
			res.writeHead(404);
			res.end();
		});
	});

	const issue = await s.request('POST', '/repos/acme/app/issues', { token: olivia, body: { title: 'It broke' } });
	assert.is(issue.status, 201);
	await s.app.webhooks.deliverDue();
	let comments: Array<{ body: string; user: { login: string; type: string } }> = [];
	for (let i = 0; i < 100 && comments.length === 0; i++) {
		await new Promise((resolve) => setTimeout(resolve, 50));
		comments = (await s.get('/repos/acme/app/issues/1/comments', olivia)).body;
	}
	assert.equal(seen, ['It broke']);
	assert.is(comments.length, 1, 'the app commented');
	assert.is(comments[0].body, 'Thanks for opening this issue!');
	assert.is(comments[0].user.login, 'triage[bot]');
	assert.is(comments[0].user.type, 'Bot');
	const [delivery] = (await s.get('/app/hook/deliveries', appJwt(created.id, readFileSync(keyFile, 'utf8')))).body.filter(
		(d: { event: string }) => d.event === 'issues',
	);
	assert.is(delivery.status_code, 200, 'Probot accepted the signed delivery');
});

/** A JWT of an app. */
function appJwt(id: number, key: string): string {
	const { createSign } = require('node:crypto') as typeof import('node:crypto');
	const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
	const now = Math.floor(Date.now() / 1000);
	const body = `${encode({ alg: 'RS256', typ: 'JWT' })}.${encode({ iat: now - 60, exp: now + 540, iss: id })}`;
	return `${body}.${createSign('RSA-SHA256').update(body).sign(key).toString('base64url')}`;
}

test.run();
