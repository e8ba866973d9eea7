/**
 * What `gitstead admin seed-demo` prints: progress lines on a terminal (standard error, only when
 * it is a TTY), then how to sign in — each persona's login, role and token (shown once) with curl
 * and gh examples against the configured server URL — or, with --json, one object
 * `{"already_seeded","api_url","personas":[{"login","role","token"}],"counts":{…},"elapsed_ms","api_requests"}`.
 */
import type { App } from '../../app';
import type { Output } from '../output';
import { seedDemo } from './seed';

/** Seeds the demo (./seed.ts) and prints the outcome. @throws CliError / Error as seedDemo does */
export async function runSeedDemo(app: App, force: boolean, out: Output): Promise<void> {
	const tty = process.stderr.isTTY === true;
	const result = await seedDemo(app, { force, progress: tty ? (line) => process.stderr.write(`seed-demo: ${line}…\n`) : undefined });
	const api = app.urls.apiBase;
	const json = {
		already_seeded: result.alreadySeeded,
		api_url: api,
		personas: result.personas,
		counts: result.counts,
		elapsed_ms: result.ms,
		api_requests: result.requests,
	};
	if (result.alreadySeeded) {
		out.result(json, `the data folder ${app.config.storage.data_dir} is already seeded (it holds the demo enterprise); nothing to do`);
		return;
	}
	const width = Math.max(...result.personas.map((p) => p.login.length));
	const developer = result.personas[2] ?? result.personas[0];
	const host = new URL(api).host;
	const lines = [
		`Seeded the Northwind Traders demo into ${app.config.storage.data_dir} in ${(result.ms / 1000).toFixed(1)} s (${result.requests} API requests):`,
		`  ${Object.entries(result.counts)
			.map(([kind, n]) => `${kind.replace(/_/g, ' ')} ${n}`)
			.join(', ')}`,
		'',
		'Sign in as one of these personas (classic tokens with every scope; shown only this once, store them now):',
		...result.personas.map((p) => `  ${p.login.padEnd(width)}  ${p.token}  ${p.role}`),
		'',
		`Start the server on this folder (gitstead serve --data-dir ${app.config.storage.data_dir}; npm start serves ./data), then for example:`,
		`  curl -H "Authorization: Bearer ${developer.token}" ${api}/user/repos`,
		`  curl -H "Authorization: Bearer ${developer.token}" ${api}/repos/northwind-eng/storefront/issues`,
		`  GH_HOST=${host} GH_ENTERPRISE_TOKEN=${developer.token} gh issue list -R ${host}/northwind-eng/storefront`,
		'  (gh speaks HTTPS to enterprise hosts: serve behind a TLS proxy and set server.external_url)',
	];
	out.result(json, lines.join('\n'));
}
