// npm run bench:web: the web interface's server time per page on the demo data. Seeds a fresh data
// folder (`gitstead admin seed-demo`), gives the site administrator rosa-admin a password, starts
// `build/gitstead.cjs serve` on it, signs in through /login, then walks every page reachable by
// links from the dashboard, explore, gists, notifications, settings, a repository's settings (with a
// webhook made through its form), site admin and a few searches (the issue and pull request forms
// among them: new issue, compare with its pull request form, a few diff lines' inline comment forms)
// (signed in, and anonymously from / and /explore), and requests each page ROUNDS times, one
// request at a time. Server time is the access log's `ms` (from the request's headers to the
// response's end) of each answer, matched by X-GitHub-Request-Id. Prints p50, p99 and max per page
// route (GitHub's path template), the slowest pages, and the issue's target (p99 ≤ 50 ms).
//
// Layout: the server is pinned to CPU 0 and this process to CPU 1 (taskset, when available).
// Environment: BENCH_ROUNDS (default 10), BENCH_MAX_PAGES (default 3000), BENCH_KEEP=1 keeps the data folder.
import { execFileSync, spawn } from 'node:child_process';
import { cpus, tmpdir } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const bundle = join(root, 'build/gitstead.cjs');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const MAX_PAGES = Number(process.env.BENCH_MAX_PAGES ?? 3000);
/** A demo repository whose settings the walk starts from (rosa-admin owns its organization). */
const SETTINGS_REPO = '/northwind-eng/storefront';
const TARGET_MS = 50;
const PASSWORD = 'bench password 1';

const haveTaskset = (() => {
	try {
		execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
		return cpus().length > 1;
	} catch {
		return false;
	}
})();
if (haveTaskset) execFileSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });

/** Server time (ms) and route of each answer, by request id, read from the access log. */
const served = new Map();

function startServer(dataDir) {
	const args = [bundle, 'serve', '--port', '0', '--data-dir', dataDir];
	const child = haveTaskset
		? spawn('taskset', ['-c', '0', process.execPath, ...args], { stdio: ['ignore', 'ignore', 'pipe'] })
		: spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
	let pending = '';
	let address = null;
	const waiters = [];
	child.stderr.setEncoding('utf8');
	child.stderr.on('data', (chunk) => {
		pending += chunk;
		const lines = pending.split('\n');
		pending = lines.pop();
		for (const line of lines) {
			const listen = /listen=(http:\/\/\S+)/.exec(line);
			if (listen && !address) {
				address = listen[1];
				for (const done of waiters.splice(0)) done(address);
			}
			const id = /request_id=(\S+)/.exec(line);
			const ms = / ms=([\d.]+)/.exec(line);
			const route = / route=(\S+)/.exec(line);
			if (id && ms) served.set(id[1], { ms: Number(ms[1]), route: route?.[1] ?? '?' });
		}
	});
	return {
		child,
		address: () => (address ? Promise.resolve(address) : new Promise((done) => waiters.push(done))),
	};
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/** One GET or POST over a kept-alive connection: status, headers, body text. */
function fetchPage(origin, path, { cookie, method = 'GET', form } = {}) {
	return new Promise((resolveFetch, reject) => {
		const body = form ? new URLSearchParams(form).toString() : undefined;
		const req = request(
			`${origin}${path}`,
			{
				method,
				agent,
				headers: {
					Accept: 'text/html,application/xhtml+xml',
					...(cookie ? { Cookie: cookie } : {}),
					...(body ? { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': Buffer.byteLength(body) } : {}),
				},
			},
			(res) => {
				let text = '';
				res.setEncoding('utf8');
				res.on('data', (chunk) => (text += chunk));
				res.on('end', () => resolveFetch({ status: res.statusCode, headers: res.headers, text }));
			},
		);
		req.on('error', reject);
		req.end(body);
	});
}

async function signIn(origin, login) {
	const form = await fetchPage(origin, '/login');
	const csrfCookie = String(form.headers['set-cookie']?.[0] ?? '').split(';')[0];
	const token = /name="authenticity_token" value="([^"]+)"/.exec(form.text)[1];
	const res = await fetchPage(origin, '/login', {
		method: 'POST',
		cookie: csrfCookie,
		form: { authenticity_token: token, login, password: PASSWORD, return_to: '/' },
	});
	const session = (res.headers['set-cookie'] ?? []).find((c) => c.startsWith('gitstead_session='));
	if (res.status !== 303 || !session) throw new Error(`sign-in failed: ${res.status}`);
	return session.split(';')[0];
}

/** A few diff lines' inline comment forms (`/pull/N/files?path=…&line=…`): every line links one, so they are sampled, not crawled. */
const lineForms = new Set();
const LINE_FORMS = 5;

/** Links a page offers to other pages of this site (no assets, avatars, raw bytes, downloads or sign-out). */
function links(html) {
	const out = [];
	for (const match of html.matchAll(/href="(\/[^"#]*)/g)) {
		const href = match[1].replaceAll('&amp;', '&');
		if (/^\/(_assets|avatars|api|logout|login|openapi\.json|session)(\/|$|\?)/.test(href)) continue;
		if (/\/(raw|releases\/download)\//.test(href)) continue;
		if (/\/pull\/\d+\/files\?/.test(href)) {
			if (lineForms.size < LINE_FORMS && ![...lineForms].some((seen) => seen.split('?')[0] === href.split('?')[0]))
				lineForms.add(href);
			continue;
		}
		out.push(href);
	}
	return out;
}

/** Request ids of the walk's answers, in order: the first answer of each route is its cold one. */
const walked = [];

/** Every page reachable from `starts`, breadth first, up to MAX_PAGES (pages answering 200 only). */
async function crawl(origin, cookie, starts) {
	const seen = new Set(starts);
	const queue = [...starts];
	const pages = [];
	while (queue.length && pages.length < MAX_PAGES) {
		const path = queue.shift();
		const res = await fetchPage(origin, path, { cookie });
		walked.push(res.headers['x-github-request-id']);
		if (res.status !== 200 || !String(res.headers['content-type']).startsWith('text/html')) continue;
		pages.push(path);
		for (const next of links(res.text)) {
			if (seen.has(next)) continue;
			seen.add(next);
			queue.push(next);
		}
	}
	return pages;
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function measure(origin, cookie, pages, label, samples) {
	for (let round = 0; round < ROUNDS; round++) {
		for (const path of pages) {
			const res = await fetchPage(origin, path, { cookie });
			const id = res.headers['x-github-request-id'];
			samples.push({ label, path, id, status: res.status });
		}
	}
}

async function main() {
	const dir = mkdtempSync(join(tmpdir(), 'gitstead-bench-web-'));
	const data = join(dir, 'data');
	const cli = (args, input) =>
		execFileSync(process.execPath, [bundle, 'admin', ...args, '--data-dir', data], { input, stdio: ['pipe', 'pipe', 'inherit'] });
	const seededAt = Date.now();
	cli(['seed-demo', '--json']);
	cli(['set-password', 'rosa-admin'], `${PASSWORD}\n`);
	console.log(`seeded the demo data in ${Date.now() - seededAt} ms (${dir})`);
	const server = startServer(data);
	try {
		const origin = await server.address();
		const cookie = await signIn(origin, 'rosa-admin');
		// A repository webhook made through its settings form, so the hook's page and a delivery (its ping) are walked too.
		const hookForm = await fetchPage(origin, `${SETTINGS_REPO}/settings/hooks/new`, { cookie });
		const csrf = /name="authenticity_token" value="([^"]+)"/.exec(hookForm.text)?.[1];
		const made = await fetchPage(origin, `${SETTINGS_REPO}/settings/hooks`, {
			method: 'POST',
			cookie,
			form: {
				authenticity_token: csrf,
				url: 'https://hooks.northwind.example/storefront',
				content_type: 'json',
				events_mode: 'all',
				active: '1',
			},
		});
		if (made.status !== 303) throw new Error(`creating the webhook failed: ${made.status}`);
		await new Promise((done) => setTimeout(done, 500));
		const signedInPages = await crawl(origin, cookie, [
			'/',
			'/explore',
			'/gist',
			'/notifications',
			'/notifications?all=1',
			'/settings/profile',
			'/settings/tokens',
			'/settings/sessions',
			'/stafftools',
			`${SETTINGS_REPO}/settings`,
			`${SETTINGS_REPO}/settings/access`,
			`${SETTINGS_REPO}/settings/branches`,
			`${SETTINGS_REPO}/settings/hooks`,
			'/search?q=checkout',
			'/search?q=bug&type=issues',
			'/search?q=is:open&type=pullrequests',
			'/search?q=n&type=users',
		]);
		// The write flows' forms: new issue and compare are linked from the lists; a few inline comment forms of diff lines.
		for (const path of lineForms) {
			const res = await fetchPage(origin, path, { cookie });
			walked.push(res.headers['x-github-request-id']);
			if (res.status === 200) signedInPages.push(path);
		}
		const anonymousPages = await crawl(origin, undefined, ['/', '/explore', '/gist']);
		console.log(`walking ${signedInPages.length} pages signed in and ${anonymousPages.length} anonymously, ${ROUNDS} rounds each`);
		const samples = [];
		await measure(origin, cookie, signedInPages, 'signed in', samples);
		await measure(origin, undefined, anonymousPages, 'anonymous', samples);
		// Let the last access-log lines arrive.
		await new Promise((done) => setTimeout(done, 300));
		const byRoute = new Map();
		const byPage = new Map();
		let missing = 0;
		for (const sample of samples) {
			const entry = served.get(sample.id);
			if (!entry) {
				missing++;
				continue;
			}
			const key = `${entry.route.replace(/^web:/, '')} (${sample.label})`;
			if (!byRoute.has(key)) byRoute.set(key, { ms: [], pages: new Set() });
			byRoute.get(key).ms.push(entry.ms);
			byRoute.get(key).pages.add(sample.path);
			const pageKey = `${sample.label} ${sample.path}`;
			if (!byPage.has(pageKey)) byPage.set(pageKey, []);
			byPage.get(pageKey).push(entry.ms);
		}
		// The first answer of each route since the server started (modules and assets loaded on first use).
		const cold = new Map();
		for (const id of walked) {
			const entry = served.get(id);
			if (entry && !cold.has(entry.route)) cold.set(entry.route, entry.ms);
		}
		const rows = [...byRoute].map(([route, { ms, pages }]) => {
			const sorted = ms.sort((a, b) => a - b);
			return {
				route,
				pages: pages.size,
				samples: sorted.length,
				p50: percentile(sorted, 50),
				p99: percentile(sorted, 99),
				max: sorted[sorted.length - 1],
				first: cold.get(`web:${route.replace(/ \((signed in|anonymous)\)$/, '')}`),
			};
		});
		rows.sort((a, b) => b.p99 - a.p99);
		const width = Math.max(...rows.map((r) => r.route.length), 10);
		const num = (n, w = 7) => (n === undefined ? '-' : n.toFixed(1)).padStart(w);
		console.log(`\n${'page route'.padEnd(width)}  pages  samples   p50 ms   p99 ms   max ms  first ms`);
		for (const r of rows) {
			const flag = r.p99 > TARGET_MS ? '  > target' : '';
			console.log(
				`${r.route.padEnd(width)}  ${String(r.pages).padStart(5)}  ${String(r.samples).padStart(7)}  ${num(r.p50)}  ${num(r.p99)}  ${num(r.max)}  ${num(r.first, 8)}${flag}`,
			);
		}
		console.log('(first ms: the first answer of that route after the server started, during the walk)');
		const all = rows.flatMap((r) => byRoute.get(r.route).ms).sort((a, b) => a - b);
		const pagesP99 = [...byPage].map(([page, ms]) => [
			page,
			percentile(
				ms.sort((a, b) => a - b),
				99,
			),
			percentile(ms, 50),
		]);
		pagesP99.sort((a, b) => b[1] - a[1]);
		console.log('\nslowest pages (p99 over their rounds, p50):');
		for (const [page, p99, p50] of pagesP99.slice(0, 10))
			console.log(`  ${p99.toFixed(1).padStart(7)} ms  ${p50.toFixed(1).padStart(7)} ms  ${page}`);
		const over = pagesP99.filter(([, p99]) => p99 > TARGET_MS).length;
		console.log(
			`\nall ${all.length} answers: p50 ${percentile(all, 50).toFixed(1)} ms, p99 ${percentile(all, 99).toFixed(1)} ms, max ${all[all.length - 1].toFixed(1)} ms; ` +
				`${over} of ${pagesP99.length} pages over the ${TARGET_MS} ms p99 target${missing ? ` (${missing} answers without a log line)` : ''}`,
		);
	} finally {
		server.child.kill('SIGTERM');
		agent.destroy();
		if (process.env.BENCH_KEEP !== '1') rmSync(dir, { recursive: true, force: true });
	}
}

await main();
