/**
 * `gitstead admin backup`, `restore` and `check` over real processes (the built bundle): an online
 * backup taken while a writer keeps writing holds every write acknowledged before it started, and
 * restores into a fresh folder a server then serves; restore is refused while a server holds the
 * folder, and for a damaged, altered or newer archive, with nothing changed; check finds corrupt
 * pages, missing blobs and broken foreign keys.
 */
import { createHash } from 'node:crypto';
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	openSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	unlinkSync,
	writeFileSync,
	writeSync,
	closeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import * as tar from 'tar';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { restoreDataFolder } from '../src/cli/backup';
import { checkDataFolder } from '../src/cli/check';
import { defaultConfig, resolveConfig } from '../src/config';
import { SCHEMA_VERSION } from '../src/db/migrations';
import { bundleCommand, run, runAsync, serve, type Served } from './helpers/cli';

const test = suite('backup');
const gitstead = bundleCommand();

let work: string;
let dataDir: string;
let server: Served;
let token: string;
/** The backup taken under load, and the titles acknowledged before it started. */
let archive: string;
let acknowledgedBefore: string[] = [];
const assetBytes = Buffer.from('release asset bytes\n'.repeat(50));

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

async function api(address: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
	return fetch(`${address}/api/v3${path}`, {
		method,
		headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
		body:
			body === undefined
				? undefined
				: typeof body === 'string' || Buffer.isBuffer(body)
					? (body as string | Uint8Array<ArrayBuffer>)
					: JSON.stringify(body),
	});
}

/** Every file of a folder with its SHA-256: to prove a refused restore changed nothing. */
function snapshot(folder: string): Record<string, string> {
	const files: Record<string, string> = {};
	const walk = (dir: string) => {
		for (const entry of readdirSync(dir, { withFileTypes: true })) {
			const path = join(dir, entry.name);
			if (entry.isDirectory()) walk(path);
			else files[path.slice(folder.length)] = sha256(path);
		}
	};
	walk(folder);
	return files;
}

/** The siblings restore leaves beside a data folder (staging or moved-aside folders). */
const siblings = (folder: string) => readdirSync(dirname(folder)).filter((name) => name.startsWith(`${basename(folder)}.`));

test.before(async () => {
	work = mkdtempSync(join(tmpdir(), 'gitstead-backup-'));
	dataDir = join(work, 'data');
	server = await serve(gitstead, ['--data-dir', dataDir]);
	token = /(ghp_\w+)/.exec(server.stdout())![1];
	assert.is((await api(server.address, 'POST', '/user/repos', { name: 'load', auto_init: true })).status, 201);
	const release = (await (
		await api(server.address, 'POST', '/repos/admin/load/releases', { tag_name: 'v1', target_commitish: 'main' })
	).json()) as { upload_url: string };
	const uploaded = await fetch(release.upload_url.replace('{?name,label}', '?name=tool.bin'), {
		method: 'POST',
		headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/octet-stream' },
		body: assetBytes,
	});
	assert.is(uploaded.status, 201, '~> an asset is uploaded to the blob folder');
});

test.after(async () => {
	await server?.stop();
	rmSync(work, { recursive: true, force: true });
});

test('backup while a writer writes: every write acknowledged before it started is in the archive; writes continue meanwhile', async () => {
	const acknowledged: { title: string; at: number }[] = [];
	let writing = true;
	const writer = (async () => {
		for (let i = 0; writing; i++) {
			const title = `write ${i}`;
			const res = await api(server.address, 'POST', '/repos/admin/load/issues', { title });
			if (res.status === 201) acknowledged.push({ title, at: Date.now() });
		}
	})();
	while (acknowledged.length < 100) await new Promise((done) => setTimeout(done, 10));
	archive = join(work, 'under-load.tar.gz');
	const started = Date.now();
	const backup = await runAsync(gitstead, ['admin', 'backup', archive, '--json', '--data-dir', dataDir]);
	const ended = Date.now();
	// A few more writes after the backup, which it may or may not hold.
	const after = acknowledged.length;
	while (acknowledged.length < after + 20) await new Promise((done) => setTimeout(done, 10));
	writing = false;
	await writer;
	assert.is(backup.code, 0, `~> the backup succeeds: ${backup.stderr}`);
	const summary = JSON.parse(backup.stdout) as Record<string, any>;
	assert.is(summary.file, archive, '~> --json names the archive');
	assert.is(summary.bytes, statSync(archive).size, '~> and its size');
	assert.is(summary.sha256, sha256(archive), '~> and its SHA-256');
	assert.is(summary.schema_version, SCHEMA_VERSION, '~> and the schema version');
	assert.is(summary.blobs, 1, '~> the release asset is in it');
	assert.ok(summary.counts.issues >= 100 && summary.counts.repositories === 1 && summary.counts.users === 1, '~> with the counts');
	assert.type(summary.duration_ms, 'number');
	acknowledgedBefore = acknowledged.filter((write) => write.at < started).map((write) => write.title);
	const during = acknowledged.filter((write) => write.at >= started && write.at <= ended).length;
	assert.ok(during > 0, `~> the server kept acknowledging writes during the backup (${during} in ${ended - started} ms)`);
	assert.not.ok(existsSync(`${archive}.tmp`), '~> no partial file is left');

	// The archive: manifest.json first, with checksums of what follows.
	const entries: string[] = [];
	await tar.t({ file: archive, onReadEntry: (entry) => void entries.push(entry.path) });
	assert.is(entries[0], 'manifest.json', '~> the manifest comes first');
	assert.is(entries[1], 'gitstead.db', '~> then the database');
	assert.ok(entries[2].startsWith('blobs/release-assets/'), '~> then the blobs');
});

test('backup refuses to overwrite a file without --force', () => {
	const refused = run(gitstead, ['admin', 'backup', archive, '--data-dir', dataDir]);
	assert.is(refused.code, 1, '~> exit code 1');
	assert.match(refused.stderr, /already exists; pass --force/, '~> says why');
	// (The archive holds at least what it held: the writes acknowledged before it started are in both.)
	const forced = run(gitstead, ['admin', 'backup', archive, '--force', '--data-dir', dataDir]);
	assert.is(forced.code, 0, '~> --force overwrites');
	assert.match(
		forced.stdout,
		/^backed up .* to .*under-load\.tar\.gz \(\d+ bytes, schema version \d+, 1 repositories, 1 blob, \d+ ms\)\nsha256 [0-9a-f]{64}\n$/,
		'~> readable lines',
	);
});

test('restore into a fresh folder; a server started on it holds every acknowledged write and the asset', async () => {
	const target = join(work, 'restored');
	const restored = run(gitstead, ['admin', 'restore', archive, '--json', '--data-dir', target]);
	assert.is(restored.code, 0, `~> restore succeeds: ${restored.stderr}`);
	const summary = JSON.parse(restored.stdout) as Record<string, any>;
	assert.is(summary.data_dir, target);
	assert.is(summary.previous_data, null, '~> there was no previous data');
	assert.equal(siblings(target), [], '~> nothing is left beside the folder');
	const second = await serve(gitstead, ['--data-dir', target]);
	try {
		const titles = new Set<string>();
		for (let page = 1; ; page++) {
			const res = await api(second.address, 'GET', `/repos/admin/load/issues?state=all&per_page=100&page=${page}`);
			assert.is(res.status, 200, '~> the restored server answers with the old token');
			const issues = (await res.json()) as { title: string }[];
			for (const issue of issues) titles.add(issue.title);
			if (issues.length < 100) break;
		}
		const lost = acknowledgedBefore.filter((title) => !titles.has(title));
		assert.equal(lost, [], `~> all ${acknowledgedBefore.length} writes acknowledged before the backup started are there`);
		const release = (await (await api(second.address, 'GET', '/repos/admin/load/releases/tags/v1')).json()) as {
			assets: { id: number }[];
		};
		const download = await api(second.address, 'GET', `/repos/admin/load/releases/assets/${release.assets[0].id}`, undefined, {
			Accept: 'application/octet-stream',
		});
		assert.is(download.status, 200);
		assert.ok(Buffer.from(await download.arrayBuffer()).equals(assetBytes), '~> the release asset has its bytes');
	} finally {
		await second.stop();
	}

	// Restoring again over existing data keeps the old data aside and says where.
	const again = run(gitstead, ['admin', 'restore', archive, '--data-dir', target]);
	assert.is(again.code, 0, again.stderr);
	const aside = siblings(target);
	assert.is(aside.length, 1, '~> the previous data is kept beside the folder');
	assert.match(aside[0], /^restored\.before-restore-/);
	assert.ok(again.stdout.includes(`the previous data is in ${join(work, aside[0])}`), '~> and the output says where');
	assert.ok(existsSync(join(work, aside[0], 'gitstead.db')), '~> with its database');
});

test('restore in place, entry by entry, into a folder that cannot be renamed (a mount point)', async () => {
	const target = join(work, 'mounted');
	mkdirSync(join(target, 'blobs'), { recursive: true });
	writeFileSync(join(target, 'gitstead.db'), 'the old database');
	writeFileSync(join(target, 'blobs', 'old-file'), 'old blob');
	const config = defaultConfig();
	config.storage.data_dir = target;
	const summary = await restoreDataFolder(resolveConfig(config), archive, { inPlace: true });
	assert.match(summary.previous_data ?? '', /mounted\/\.before-restore-/, '~> the previous data is kept inside the folder');
	assert.is(readFileSync(join(summary.previous_data!, 'gitstead.db'), 'utf8'), 'the old database', '~> with its database');
	assert.ok(existsSync(join(summary.previous_data!, 'blobs', 'old-file')), '~> and its blobs');
	assert.equal(siblings(target), [], '~> nothing is put beside the folder');
	const db = new Database(join(target, 'gitstead.db'), { readonly: true });
	assert.is(db.pragma('integrity_check', { simple: true }), 'ok', '~> the restored database is in place');
	db.close();
	assert.equal(readdirSync(join(target, 'blobs', 'release-assets')).length, 1, '~> with its blob');
	assert.equal(
		readdirSync(target).filter((name) => name.startsWith('.restore-')),
		[],
		'~> no staging folder is left',
	);
});

test('restore is refused while a server holds the folder, naming it; nothing changes', () => {
	const before = snapshot(join(dataDir, 'blobs'));
	const refused = run(gitstead, ['admin', 'restore', archive, '--data-dir', dataDir]);
	assert.is(refused.code, 1, '~> exit code 1');
	assert.match(
		refused.stderr,
		new RegExp(
			`in use by another Gitstead server \\(pid ${server.child.pid} on host .*listening on ${server.address.replace(/\./g, '\\.')}\\)`,
		),
		'~> names the server',
	);
	assert.equal(siblings(dataDir), [], '~> nothing was extracted or moved');
	assert.equal(snapshot(join(dataDir, 'blobs')), before, '~> the blobs are untouched');
});

/** Repacks the archive after `alter` changes its extracted files. */
async function tampered(name: string, alter: (folder: string) => void): Promise<string> {
	const folder = mkdtempSync(join(work, 'tamper-'));
	await tar.x({ file: archive, cwd: folder });
	alter(folder);
	const file = join(work, name);
	const blobs = readdirSync(join(folder, 'blobs', 'release-assets')).map((blob) => `blobs/release-assets/${blob}`);
	await tar.c({ gzip: true, file, cwd: folder, portable: true }, ['manifest.json', 'gitstead.db', ...blobs]);
	rmSync(folder, { recursive: true });
	return file;
}

test('restore refuses an altered, damaged, foreign or newer archive; nothing changes', async () => {
	const target = join(work, 'restored');
	const before = snapshot(target);
	const beforeSiblings = siblings(target);
	// Each refusal of the command, over the CLI once (exit code and message), the rest in-process.
	let cli = true;
	const refuse = async (file: string, message: RegExp, what: string) => {
		if (cli) {
			const result = run(gitstead, ['admin', 'restore', file, '--data-dir', target]);
			assert.is(result.code, 1, `~> ${what}: exit code 1`);
			assert.match(result.stderr, message, `~> ${what}: says why`);
			cli = false;
		} else {
			const config = defaultConfig();
			config.storage.data_dir = target;
			const error = await restoreDataFolder(resolveConfig(config), file).then(
				() => null,
				(caught: Error) => caught,
			);
			assert.match(error?.message ?? 'no error', message, `~> ${what}: refused, saying why`);
		}
		assert.equal(snapshot(target), before, `~> ${what}: the data folder is unchanged`);
		assert.equal(siblings(target), beforeSiblings, `~> ${what}: nothing is left beside it`);
	};
	const flipped = await tampered('flipped.tar.gz', (folder) => {
		const fd = openSync(join(folder, 'gitstead.db'), 'r+');
		writeSync(fd, Buffer.from([0x42]), 0, 1, 5000);
		closeSync(fd);
	});
	await refuse(flipped, /damaged or was altered: gitstead\.db does not match its manifest checksum/, 'a changed database');
	const blobGone = await tampered('blob-gone.tar.gz', (folder) => {
		const dir = join(folder, 'blobs', 'release-assets');
		writeFileSync(join(dir, readdirSync(dir)[0]), 'other bytes');
	});
	await refuse(blobGone, /blobs\/release-assets\/.* does not match its manifest checksum/, 'a changed blob');
	const newer = await tampered('newer.tar.gz', (folder) => {
		const manifest = JSON.parse(readFileSync(join(folder, 'manifest.json'), 'utf8'));
		manifest.schema_version = SCHEMA_VERSION + 1;
		writeFileSync(join(folder, 'manifest.json'), JSON.stringify(manifest));
	});
	await refuse(newer, new RegExp(`holds schema version ${SCHEMA_VERSION + 1}, newer than this Gitstead`), 'a newer schema');
	const truncated = join(work, 'truncated.tar.gz');
	writeFileSync(truncated, readFileSync(archive).subarray(0, 2000));
	await refuse(truncated, /is not a readable backup archive|is damaged|no readable manifest/, 'a truncated archive');
	const foreign = join(work, 'foreign.tar.gz');
	const other = mkdtempSync(join(work, 'foreign-'));
	writeFileSync(join(other, 'hello.txt'), 'hi');
	await tar.c({ gzip: true, file: foreign, cwd: other }, ['hello.txt']);
	await refuse(foreign, /is not a Gitstead backup/, 'another archive');
});

test('check: healthy exits 0; a corrupt page, a missing blob, a broken foreign key are listed and exit 1', () => {
	const healthy = run(gitstead, ['admin', 'check', '--data-dir', dataDir]);
	assert.is(healthy.code, 0, `~> a serving folder is healthy: ${healthy.stdout}${healthy.stderr}`);
	assert.match(healthy.stdout, /healthy \(schema version \d+\)/);

	// A copy of the restored folder (its server is stopped) to damage.
	const damaged = join(work, 'damaged');
	mkdirSync(join(damaged, 'blobs', 'release-assets'), { recursive: true });
	copyFileSync(join(work, 'restored', 'gitstead.db'), join(damaged, 'gitstead.db'));
	const side = new Database(join(damaged, 'gitstead.db'));
	side.pragma('foreign_keys = OFF');
	side.prepare(
		"INSERT INTO issue_comments (issue_id, repo_id, user_id, body, created_at, updated_at) SELECT 999999, repo_id, user_id, 'orphan', created_at, updated_at FROM issues LIMIT 1",
	).run();
	side.close();
	// The asset's blob is missing (the folder is empty), and an unknown file lies there.
	writeFileSync(join(damaged, 'blobs', 'release-assets', 'left-over'), 'x');
	const report = run(gitstead, ['admin', 'check', '--json', '--data-dir', damaged]);
	assert.is(report.code, 1, '~> exit code 1');
	const parsed = JSON.parse(report.stdout) as { ok: boolean; findings: { check: string; severity: string; message: string }[] };
	assert.is(parsed.ok, false);
	const has = (check: string, severity: string, pattern: RegExp) =>
		parsed.findings.some((f) => f.check === check && f.severity === severity && pattern.test(f.message));
	assert.ok(has('foreign_keys', 'error', /issue_comments row \d+ refers to a missing issues row/), '~> the broken foreign key');
	assert.ok(has('blobs', 'error', /release asset \d+: its blob .* is missing/), '~> the missing blob');
	assert.ok(has('blobs', 'warning', /left-over is named by no row/), '~> the orphan file, as a warning');
	const lines = run(gitstead, ['admin', 'check', '--data-dir', damaged]);
	assert.is(lines.code, 1);
	assert.match(lines.stdout, /^error\tforeign_keys\t/m, '~> one finding a line');

	// A corrupt page.
	const corrupt = join(work, 'corrupt');
	mkdirSync(corrupt);
	copyFileSync(join(work, 'restored', 'gitstead.db'), join(corrupt, 'gitstead.db'));
	const size = statSync(join(corrupt, 'gitstead.db')).size;
	const fd = openSync(join(corrupt, 'gitstead.db'), 'r+');
	const pageSize = 4096;
	// Overwrite the middle of the file, page by page, with noise (keeping the header intact).
	for (let offset = pageSize * 2; offset < size - pageSize; offset += pageSize * 3)
		writeSync(fd, Buffer.alloc(64, 0x5a), 0, 64, offset + 100);
	closeSync(fd);
	const config = defaultConfig();
	config.storage.data_dir = corrupt;
	const broken = checkDataFolder(resolveConfig(config));
	assert.is(broken.ok, false, '~> a corrupt file is not ok');
	assert.ok(
		broken.findings.some((finding) => finding.check === 'integrity' && finding.severity === 'error'),
		'~> with integrity findings',
	);
	unlinkSync(join(corrupt, 'gitstead.db'));
});

test.run();
