/**
 * Git maintenance (`gitstead admin gc`, and the weekly `git-gc` job), network by network:
 *
 * - keeps every object reachable from the references of the network's repositories, from their
 *   pull requests' heads, bases and merge commits, from objects stored within the grace period
 *   (storage.gc_grace_days, git's gc.pruneExpire: 2 weeks; a push or an API write in progress
 *   stores its objects before a reference names them) and from the objects pushes relied on in
 *   that period (git_fresh); and every delta base of what it keeps;
 * - deletes the rest, in small transactions;
 * - deltifies objects stored whole that nothing is a delta of (what the REST API writes): each
 *   against the previous versions of the same path, git's window of 10, chains within
 *   MAX_DEPTH, kept only when smaller;
 * - sets the repositories' sizes, forgets old epochs and fresh marks, and removes incoming pack
 *   files a crash left behind.
 *
 * Safe beside a running server and pushes in flight: it never deletes a young object, rewrites a
 * row only while it is still stored whole, and yields to the event loop between slices of work.
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import type { App } from '../../app';
import { createDelta, indexSource, PACK_BLOB, PACK_COMMIT, PACK_TAG, PACK_TREE } from './pack';
import { incomingFolder } from './receive-pack';
import { MAX_DEPTH, type StoredObject } from './store';

/** What one gc did. */
export interface GcReport {
	networks: number;
	/** Objects kept (reachable, young, or a base of one). */
	kept: number;
	/** Objects deleted. */
	deleted: number;
	/** Objects stored whole that became deltas. */
	deltified: number;
	/** Bytes of object data before and after. */
	bytesBefore: number;
	bytesAfter: number;
	/** Incoming pack files removed. */
	incoming: number;
}

export interface GcOptions {
	/** Epoch seconds. */
	now: number;
	/** Objects younger than this many days are kept (default storage.gc_grace_days). */
	graceDays?: number;
	/** Report what would be deleted, change nothing. */
	dryRun?: boolean;
	/** Progress lines. */
	progress?(line: string): void;
}

/** Candidates a whole object is tried against (git's pack.window). */
const WINDOW = 10;
/** Objects smaller than this stay whole (a delta would not pay). */
const MIN_DELTA_SIZE = 64;
/** Rows deleted or rewritten per transaction. */
const BATCH = 500;
/** Work done between yields to the event loop, in ms. */
const SLICE_MS = 10;

/** git's pack name hash: the last 16 non-space characters of a path, recent ones weighing most. */
function nameHash(name: string): number {
	let hash = 0;
	for (let i = 0; i < name.length; i++) {
		const c = name.charCodeAt(i);
		if (c === 0x20) continue;
		hash = ((hash >>> 2) + (c << 24)) >>> 0;
	}
	return hash;
}

class Slicer {
	private start = performance.now();
	async maybeYield(): Promise<void> {
		if (performance.now() - this.start < SLICE_MS) return;
		await new Promise((resolve) => setImmediate(resolve));
		this.start = performance.now();
	}
}

/**
 * Runs gc over every fork network.
 * @returns what it did (what it would do with dryRun)
 */
export async function gc(app: App, options: GcOptions): Promise<GcReport> {
	const store = app.stores.git;
	const graceDays = options.graceDays ?? app.config.storage.gc_grace_days;
	const since = options.now - Math.round(graceDays * 86_400);
	const report: GcReport = { networks: 0, kept: 0, deleted: 0, deltified: 0, bytesBefore: 0, bytesAfter: 0, incoming: 0 };
	const young = store.youngThreshold(since);
	for (const network of store.networks()) {
		report.networks++;
		await gcNetwork(app, network, young, since, options, report);
	}
	if (!options.dryRun) {
		app.transaction(() => store.pruneMarks(since));
		await app.transaction.durable();
		report.incoming = sweepIncoming(app, options.now);
	}
	return report;
}

/** Removes incoming pack files older than a day (a push that crashed or was cut). */
function sweepIncoming(app: App, now: number): number {
	const folder = incomingFolder(app);
	let removed = 0;
	let names: string[];
	try {
		names = readdirSync(folder);
	} catch {
		return 0;
	}
	for (const name of names) {
		const file = join(folder, name);
		try {
			if (statSync(file).mtimeMs < (now - 86_400) * 1000) {
				rmSync(file, { force: true });
				removed++;
			}
		} catch {
			// gone meanwhile
		}
	}
	return removed;
}

async function gcNetwork(app: App, network: number, young: number, since: number, options: GcOptions, report: GcReport): Promise<void> {
	const store = app.stores.git;
	const slicer = new Slicer();
	const rows = store.networkRows(network);
	const byId = new Map(rows.map((row) => [row.id, row]));
	report.bytesBefore += rows.reduce((sum, row) => sum + row.bytes, 0);

	// Mark: the roots, then everything they reach, with the name each blob and tree is met under.
	const kept = new Set<number>();
	const names = new Map<number, number>();
	let pending: Array<{ oid: Buffer; name: string }> = [];
	const enqueue = (oid: Buffer, name: string) => pending.push({ oid, name });
	for (const sha of store.networkRoots(network)) enqueue(Buffer.from(sha, 'hex'), '');
	const visit = (row: StoredObject, name: string) => {
		if (row.type === PACK_COMMIT) {
			const text = store.content(row).toString('latin1', 0, 8192);
			const end = text.indexOf('\n\n');
			for (const line of (end < 0 ? text : text.slice(0, end)).split('\n')) {
				if (line.startsWith('tree ')) enqueue(Buffer.from(line.slice(5, 45), 'hex'), '');
				else if (line.startsWith('parent ')) enqueue(Buffer.from(line.slice(7, 47), 'hex'), '');
			}
		} else if (row.type === PACK_TAG) {
			const object = /^object ([0-9a-f]{40})/.exec(store.content(row).toString('latin1', 0, 100))?.[1];
			if (object) enqueue(Buffer.from(object, 'hex'), name);
		} else if (row.type === PACK_TREE) {
			const content = store.content(row);
			let at = 0;
			while (at < content.length) {
				const space = content.indexOf(0x20, at);
				const nul = content.indexOf(0, space);
				if (space < 0 || nul < 0 || nul + 21 > content.length) break;
				const gitlink = content[at] === 0x31 && content[at + 1] === 0x36;
				if (!gitlink) enqueue(Buffer.from(content.subarray(nul + 1, nul + 21)), content.toString('utf8', space + 1, nul));
				at = nul + 21;
			}
		}
	};
	const mark = (id: number, name: string) => {
		if (kept.has(id)) return false;
		kept.add(id);
		if (name && !names.has(id)) names.set(id, nameHash(name));
		return true;
	};
	// Young objects and what pushes relied on are roots too (with what they reach).
	for (const row of rows) if (row.id >= young) pending.push({ oid: row.oid, name: '' });
	for (const id of store.freshRows(since)) {
		const row = byId.get(id);
		if (row) pending.push({ oid: row.oid, name: '' });
	}
	while (pending.length) {
		const batch = pending.slice(0, 512);
		pending = pending.slice(512);
		const found = store.locateMany(
			network,
			batch.map((item) => item.oid),
		);
		for (const item of batch) {
			const meta = found.get(item.oid.toString('latin1'));
			if (!meta || !mark(meta.id, item.name)) continue;
			if (meta.type !== PACK_BLOB) visit(store.storedById(meta.id)!, item.name);
		}
		await slicer.maybeYield();
	}
	// Every delta base of a kept object is kept.
	for (const id of [...kept]) {
		let base = byId.get(id)?.base ?? null;
		while (base !== null && !kept.has(base)) {
			kept.add(base);
			base = byId.get(base)?.base ?? null;
		}
	}
	report.kept += kept.size;

	// Sweep: what nothing keeps, old enough.
	const doomed = rows.filter((row) => !kept.has(row.id) && row.id < young).map((row) => row.id);
	report.deleted += doomed.length;
	if (!options.dryRun) {
		for (let at = 0; at < doomed.length; at += BATCH) {
			const ids = doomed.slice(at, at + BATCH);
			app.transaction(() => store.deleteRows(network, ids));
			await app.transaction.durable();
			await slicer.maybeYield();
		}
		if (doomed.length) {
			app.transaction(() => store.dropNetworkReachable(network));
			await app.transaction.durable();
		}
	}

	// Deltify: whole objects nothing depends on, against earlier candidates of the same type and name.
	const dependents = new Set<number>();
	for (const row of rows) if (row.base !== null) dependents.add(row.base);
	const depth = new Map(rows.map((row) => [row.id, row.depth]));
	const candidates = rows
		.filter((row) => kept.has(row.id) && (row.type === PACK_BLOB || row.type === PACK_TREE) && row.size >= MIN_DELTA_SIZE)
		.sort((a, b) => a.type - b.type || (names.get(a.id) ?? 0) - (names.get(b.id) ?? 0) || b.size - a.size || b.id - a.id);
	const window: Array<{ row: (typeof rows)[number]; index: ReturnType<typeof indexSource> | undefined }> = [];
	let rewrites: Array<{ id: number; base: number; depth: number; dataSize: number; data: Buffer }> = [];
	const flushRewrites = async () => {
		if (!rewrites.length || options.dryRun) {
			rewrites = [];
			return;
		}
		const batch = rewrites;
		rewrites = [];
		app.transaction(() => {
			for (const rewrite of batch) store.rewriteAsDelta(rewrite.id, rewrite.base, rewrite.depth, rewrite.dataSize, rewrite.data);
		});
		await app.transaction.durable();
	};
	for (const row of candidates) {
		const whole = row.base === null && !dependents.has(row.id);
		if (whole && window.length) {
			const target = store.content(store.storedById(row.id)!);
			let best: { base: number; delta: Buffer; data: Buffer } | null = null;
			for (const candidate of window) {
				if (candidate.row.type !== row.type || (depth.get(candidate.row.id) ?? 0) + 1 > MAX_DEPTH) continue;
				if (candidate.index === undefined) candidate.index = indexSource(store.content(store.storedById(candidate.row.id)!));
				if (!candidate.index) continue;
				const delta = createDelta(candidate.index, target, Math.floor(row.size / 2));
				if (!delta) continue;
				const data = deflateSync(delta);
				if (data.length < (best?.data.length ?? row.bytes * 0.9)) best = { base: candidate.row.id, delta, data };
			}
			if (best) {
				const newDepth = (depth.get(best.base) ?? 0) + 1;
				rewrites.push({ id: row.id, base: best.base, depth: newDepth, dataSize: best.delta.length, data: best.data });
				depth.set(row.id, newDepth);
				dependents.add(best.base);
				report.deltified++;
				if (rewrites.length >= BATCH) await flushRewrites();
			}
		}
		window.unshift({ row, index: undefined });
		if (window.length > WINDOW) window.pop();
		await slicer.maybeYield();
	}
	await flushRewrites();
	if (!options.dryRun && (report.deltified || doomed.length)) store.clearCache();
	const after = options.dryRun ? report.bytesBefore : store.networkBytes(network);
	report.bytesAfter += after;
	if (!options.dryRun) {
		app.transaction(() => {
			for (const repoId of store.networkMembers(network)) app.stores.repos.setSize(repoId, Math.ceil(after / 1024));
		});
		await app.transaction.durable();
	}
	options.progress?.(`network ${network}: ${kept.size} kept, ${doomed.length} deleted, ${report.deltified} deltified so far\n`);
}
