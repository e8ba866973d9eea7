/**
 * Takes in a pushed packfile (git's `index-pack --strict --fix-thin` as receive-pack runs it),
 * from the file the request body was streamed to, in three passes with bounded memory:
 *
 * 1. Reads the entries in order through a moving window: each entry's header, its zlib stream
 *    inflated (capped at the size its header declares: a zlib bomb is caught, not inflated) to
 *    find where the next begins; whole objects are hashed and checked (git fsck's rules,
 *    src/api/git/fsck.ts); the pack's trailing SHA-1 is checked.
 * 2. Resolves the deltas, bases first (OFS_DELTA by offset, REF_DELTA by id, a thin pack's bases
 *    from the store), hashing and checking each result; resolved contents are kept in a cache
 *    bounded by bytes (a chain evicted is recomputed). Then `.gitmodules` blobs and the pack's
 *    connectivity (every object a new object names exists, in the pack or the store).
 * 3. Only then stores what the network lacks, in small transactions, bases first: each entry's
 *    zlib stream as it arrived, a delta against its base's row while the chain stays within
 *    MAX_DEPTH (else whole). A pack that fails stores nothing; a crash in this pass leaves only
 *    unreferenced objects, which gc removes.
 *
 * The work yields to the event loop every few milliseconds, so reads go on while a large push
 * is indexed.
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { deflateSync, inflateSync } from 'node:zlib';
import type { App } from '../../app';
import { checkCommit, checkGitmodules, checkTag, checkTree, type FsckProblem } from './fsck';
import {
	applyDelta,
	decodeEntryHeader,
	decodeOffset,
	deltaSizes,
	PACK_BLOB,
	PACK_COMMIT,
	PACK_OFS_DELTA,
	PACK_REF_DELTA,
	PACK_TAG,
	PACK_TREE,
	PackError,
} from './pack';
import { MAX_DEPTH } from './store';

/** A pack refused: the reason reaches the pusher as `unpack <reason>`. */
export class UnpackError extends Error {}

export interface IndexOptions {
	/** Most objects a pack may hold. */
	maxObjects: number;
	/** Largest object (content bytes) accepted. */
	maxObjectBytes: number;
	/** Epoch seconds: the new rows' creation time. */
	now: number;
	/** Progress lines for the pusher (band 2). */
	progress?(line: string): void;
}

/** What a pack brought. */
export interface IndexResult {
	/** Entries in the pack. */
	objects: number;
	/** Rows the network did not have. */
	stored: number;
	/** Entries stored as deltas. */
	deltas: number;
	/** Every object of the pack: id (hex) → pack type (1–4). */
	types: Map<string, number>;
	/** The commits of the pack: id (hex) → parents and tree (hex). */
	commits: Map<string, { tree: string; parents: string[] }>;
}

/** Bytes read from the pack file per refill (the window grows past this for larger objects). */
const WINDOW = 4 * 1024 * 1024;
/** Resolved contents kept while resolving deltas, in bytes. */
const CACHE_BYTES = 64 * 1024 * 1024;
/** Work done between yields to the event loop, in ms. */
const SLICE_MS = 10;
/** Rows and bytes stored per transaction. */
const BATCH_ROWS = 2000;
const BATCH_BYTES = 16 * 1024 * 1024;

const TYPE_NAMES = ['', 'commit', 'tree', 'blob', 'tag'];

function objectId(type: number, content: Buffer): Buffer {
	return createHash('sha1').update(`${TYPE_NAMES[type]} ${content.length}\0`).update(content).digest();
}

/** Yields to the event loop when the current slice of work has run long enough. */
class Slicer {
	private start = performance.now();
	async maybeYield(): Promise<void> {
		if (performance.now() - this.start < SLICE_MS) return;
		await new Promise((resolve) => setImmediate(resolve));
		this.start = performance.now();
	}
}

/** The entries of a pack, in compact arrays (index = position in the pack). */
class Entries {
	readonly offset: Float64Array;
	readonly dataStart: Float64Array;
	readonly dataLength: Float64Array;
	/** Declared size: the object's (whole) or the delta's. */
	readonly declared: Float64Array;
	/** 1–4 (whole), 6 ofs-delta, 7 ref-delta; after resolution `type` holds the object's type. */
	readonly kind: Uint8Array;
	readonly type: Uint8Array;
	/** In-pack base entry (-1: none or external). */
	readonly base: Int32Array;
	readonly depth: Uint16Array;
	readonly size: Float64Array;
	readonly oids: Buffer;
	readonly resolved: Uint8Array;
	/** REF_DELTA bases by id (hex). */
	readonly refBase = new Map<number, string>();
	constructor(readonly count: number) {
		this.offset = new Float64Array(count);
		this.dataStart = new Float64Array(count);
		this.dataLength = new Float64Array(count);
		this.declared = new Float64Array(count);
		this.kind = new Uint8Array(count);
		this.type = new Uint8Array(count);
		this.base = new Int32Array(count).fill(-1);
		this.depth = new Uint16Array(count);
		this.size = new Float64Array(count);
		this.oids = Buffer.alloc(count * 20);
		this.resolved = new Uint8Array(count);
	}
	oid(i: number): Buffer {
		return this.oids.subarray(i * 20, i * 20 + 20);
	}
}

/** A least-recently-used map of entry contents, bounded by bytes. */
class ContentCache {
	private readonly map = new Map<number, Buffer>();
	private bytes = 0;
	get(i: number): Buffer | undefined {
		const value = this.map.get(i);
		if (value) {
			this.map.delete(i);
			this.map.set(i, value);
		}
		return value;
	}
	set(i: number, value: Buffer): void {
		if (this.map.has(i) || value.length > CACHE_BYTES / 4) return;
		this.map.set(i, value);
		this.bytes += value.length;
		while (this.bytes > CACHE_BYTES) {
			const [oldest, buffer] = this.map.entries().next().value as [number, Buffer];
			this.map.delete(oldest);
			this.bytes -= buffer.length;
		}
	}
}

/** Reads `length` bytes at `position` of the file. */
function readAt(fd: number, position: number, length: number): Buffer {
	const buffer = Buffer.allocUnsafe(length);
	let read = 0;
	while (read < length) {
		const n = readSync(fd, buffer, read, length - read, position + read);
		if (n === 0) throw new UnpackError('premature end of pack file');
		read += n;
	}
	return buffer;
}

/**
 * Inflates one zlib stream, exactly `size` bytes.
 * @returns the content and the stream's length, or null when `input` ends inside the stream
 * @throws UnpackError for a corrupt stream or one that inflates to another size
 */
function inflateEntry(input: Buffer, size: number): { content: Buffer; consumed: number } | null {
	try {
		const { buffer, engine } = inflateSync(input, { info: true, maxOutputLength: Math.max(1, size) }) as unknown as {
			buffer: Buffer;
			engine: { bytesWritten: number };
		};
		if (buffer.length !== size)
			throw new UnpackError(`inflated object size ${buffer.length} differs from the ${size} its header declares`);
		return { content: buffer, consumed: engine.bytesWritten };
	} catch (error) {
		if (error instanceof UnpackError) throw error;
		const code = (error as { code?: string }).code;
		if (code === 'Z_BUF_ERROR') return null;
		if (code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError)
			throw new UnpackError(`object inflates past the ${size} bytes its header declares`);
		throw new UnpackError(`inflate returned ${code ?? 'an error'}`);
	}
}

function fsckProblem(type: number, content: Buffer, onGitmodules: (oid: Buffer) => void): FsckProblem | null {
	if (type === PACK_COMMIT) return checkCommit(content);
	if (type === PACK_TREE) return checkTree(content, onGitmodules);
	if (type === PACK_TAG) return checkTag(content);
	return null;
}

/** The ids an object names (commit: tree and parents; tree: entries but gitlinks; tag: its object). */
function references(type: number, content: Buffer): string[] {
	if (type === PACK_COMMIT || type === PACK_TAG) {
		const out: string[] = [];
		const text = content.toString('latin1', 0, Math.min(content.length, 64 * 1024));
		const header = text.split('\n\n', 1)[0];
		for (const line of header.split('\n')) {
			if (type === PACK_COMMIT && (line.startsWith('tree ') || line.startsWith('parent ')))
				out.push(line.slice(line.indexOf(' ') + 1));
			else if (type === PACK_TAG && line.startsWith('object ')) out.push(line.slice(7));
		}
		return out;
	}
	if (type === PACK_TREE) {
		const out: string[] = [];
		let at = 0;
		while (at < content.length) {
			const space = content.indexOf(0x20, at);
			const nul = content.indexOf(0, space);
			if (space < 0 || nul < 0 || nul + 21 > content.length) break;
			const gitlink = content[at] === 0x31 && content[at + 1] === 0x36; // 160000
			if (!gitlink) out.push(content.toString('hex', nul + 1, nul + 21));
			at = nul + 21;
		}
		return out;
	}
	return [];
}

/**
 * Indexes and stores the pack at `file` into a network.
 * @throws UnpackError for a pack refused (malformed, truncated, bad checksum, over a limit, an
 *   object failing fsck, a missing delta base or object): nothing is stored then
 */
export async function indexPack(app: App, network: number, file: string, options: IndexOptions): Promise<IndexResult> {
	const fd = openSync(file, 'r');
	try {
		return await indexFile(app, network, fd, fstatSync(fd).size, options);
	} finally {
		closeSync(fd);
	}
}

async function indexFile(app: App, network: number, fd: number, fileSize: number, options: IndexOptions): Promise<IndexResult> {
	const store = app.stores.git;
	const slicer = new Slicer();
	if (fileSize < 32) throw new UnpackError('pack too short');
	const head = readAt(fd, 0, 12);
	if (head.toString('latin1', 0, 4) !== 'PACK') throw new UnpackError('protocol error (pack signature mismatch detected)');
	const version = head.readUInt32BE(4);
	if (version !== 2 && version !== 3) throw new UnpackError(`protocol error (pack version ${version} unsupported)`);
	const count = head.readUInt32BE(8);
	if (count > options.maxObjects)
		throw new UnpackError(`pack has ${count} objects, more than the ${options.maxObjects} this server accepts`);
	const end = fileSize - 20;
	const entries = new Entries(count);
	const byOffset = new Map<number, number>();
	const hash = createHash('sha1');

	// ---- pass 1: entries in order, whole objects hashed and checked
	let window = Buffer.allocUnsafe(Math.min(WINDOW, fileSize));
	let windowStart = 0;
	let windowEnd = 0;
	const refill = (from: number, minimum: number) => {
		// Keep [from, windowEnd), read on after it; grow when the kept part plus `minimum` does not fit.
		const kept = windowEnd - from;
		if (kept + minimum > window.length) {
			const grown = Buffer.allocUnsafe(Math.min(Math.max(window.length * 2, kept + minimum), fileSize));
			window.copy(grown, 0, from - windowStart, windowEnd - windowStart);
			window = grown;
		} else if (from > windowStart) {
			window.copy(window, 0, from - windowStart, windowEnd - windowStart);
		}
		windowStart = from;
		const want = Math.min(window.length - kept, fileSize - windowEnd);
		let read = 0;
		while (read < want) {
			const n = readSync(fd, window, kept + read, want - read, windowEnd + read);
			if (n === 0) break;
			read += n;
		}
		// Every byte is read once: the checksum covers all but the trailer.
		const hashedEnd = Math.min(windowEnd + read, end);
		if (hashedEnd > windowEnd) hash.update(window.subarray(kept, kept + (hashedEnd - windowEnd)));
		windowEnd += read;
	};
	const gitmodules = new Set<string>();
	const onGitmodules = (oid: Buffer) => gitmodules.add(oid.toString('hex'));
	const referenced = new Set<string>();
	const fail = (i: number, problem: FsckProblem): never => {
		throw new UnpackError(`object ${entries.oid(i).toString('hex')}: ${problem.id}: ${problem.message}`);
	};
	const accept = (i: number, type: number, content: Buffer) => {
		objectId(type, content).copy(entries.oids, i * 20);
		entries.type[i] = type;
		entries.size[i] = content.length;
		entries.resolved[i] = 1;
		const problem = fsckProblem(type, content, onGitmodules);
		if (problem) fail(i, problem);
		for (const id of references(type, content)) referenced.add(id);
	};

	let position = 12;
	refill(0, 12);
	for (let i = 0; i < count; i++) {
		if (position >= end) throw new UnpackError('premature end of pack file');
		if (position + 32 > windowEnd && windowEnd < fileSize) refill(position, 32);
		const headerInfo = decodeEntryHeader(window, position - windowStart);
		if (!headerInfo) throw new UnpackError('premature end of pack file');
		const { type: kind, size, length } = headerInfo;
		if (kind === 0 || kind === 5 || kind > 7) throw new UnpackError(`unknown object type ${kind}`);
		if (size > options.maxObjectBytes) {
			throw new UnpackError(`object of ${size} bytes exceeds the limit of ${options.maxObjectBytes} bytes`);
		}
		entries.offset[i] = position;
		entries.kind[i] = kind;
		entries.declared[i] = size;
		byOffset.set(position, i);
		let at = position + length;
		if (kind === PACK_OFS_DELTA) {
			const distance = decodeOffset(window, at - windowStart);
			if (!distance) throw new UnpackError('premature end of pack file');
			const baseOffset = position - distance.distance;
			const base = byOffset.get(baseOffset);
			if (baseOffset < 12 || base === undefined) throw new UnpackError('delta base offset is out of bound');
			entries.base[i] = base;
			at += distance.length;
		} else if (kind === PACK_REF_DELTA) {
			if (at + 20 > windowEnd) throw new UnpackError('premature end of pack file');
			entries.refBase.set(i, window.toString('hex', at - windowStart, at - windowStart + 20));
			at += 20;
		}
		entries.dataStart[i] = at;
		let inflated = inflateEntry(window.subarray(at - windowStart, windowEnd - windowStart), size);
		while (!inflated) {
			if (windowEnd >= fileSize) throw new UnpackError('premature end of pack file');
			const need = windowEnd - at + WINDOW;
			if (need > 2 * options.maxObjectBytes + WINDOW) throw new UnpackError('object data stream too long');
			refill(position, need + (at - position));
			inflated = inflateEntry(window.subarray(at - windowStart, windowEnd - windowStart), size);
		}
		entries.dataLength[i] = inflated.consumed;
		if (kind <= PACK_TAG) accept(i, kind, inflated.content);
		position = at + inflated.consumed;
		if (position > end) throw new UnpackError('premature end of pack file');
		await slicer.maybeYield();
	}
	if (position !== end) throw new UnpackError('pack has junk at the end');
	if (windowEnd < fileSize) refill(position, fileSize - position);
	const trailer = window.subarray(end - windowStart, fileSize - windowStart);
	if (!hash.digest().equals(trailer)) throw new UnpackError('pack is corrupted (SHA1 mismatch)');
	window = Buffer.alloc(0);

	// ---- pass 2: deltas resolved bases first
	const cache = new ContentCache();
	const ofsChildren = new Map<number, number[]>();
	const refChildren = new Map<string, number[]>();
	for (let i = 0; i < count; i++) {
		if (entries.kind[i] === PACK_OFS_DELTA) {
			const list = ofsChildren.get(entries.base[i]);
			if (list) list.push(i);
			else ofsChildren.set(entries.base[i], [i]);
		} else if (entries.kind[i] === PACK_REF_DELTA) {
			const base = entries.refBase.get(i)!;
			const list = refChildren.get(base);
			if (list) list.push(i);
			else refChildren.set(base, [i]);
		}
	}
	/** External (thin pack) bases: id (hex) → content and row. */
	const external = new Map<string, { id: number; type: number; depth: number }>();
	/** An entry's content, from the cache or recomputed along its chain. */
	const contentOf = (i: number): Buffer => {
		const cached = cache.get(i);
		if (cached) return cached;
		const chain: number[] = [];
		let at = i;
		let content: Buffer | undefined;
		for (;;) {
			const hit = cache.get(at);
			if (hit) {
				content = hit;
				break;
			}
			chain.push(at);
			if (entries.kind[at] <= PACK_TAG) break;
			if (entries.base[at] >= 0) at = entries.base[at];
			else {
				const base = entries.refBase.get(at)!;
				const inPack = oidIndex.get(base);
				if (inPack !== undefined) at = inPack;
				else {
					content = store.content(store.storedById(external.get(base)!.id)!);
					break;
				}
			}
		}
		for (let k = chain.length - 1; k >= 0; k--) {
			const e = chain[k];
			const data = inflateSync(readAt(fd, entries.dataStart[e], entries.dataLength[e]));
			content = entries.kind[e] <= PACK_TAG ? data : applyDelta(content!, data, options.maxObjectBytes);
			cache.set(e, content);
		}
		return content!;
	};
	const oidIndex = new Map<string, number>();
	for (let i = 0; i < count; i++) if (entries.resolved[i]) oidIndex.set(entries.oid(i).toString('hex'), i);

	const resolveFrom = async (root: number | null, rootOid: string | null) => {
		// Depth-first: each resolved entry's children (by its offset and by its id).
		const stack: number[] = [];
		const pushChildren = (parent: number | null, parentOid: string) => {
			if (parent !== null) for (const child of ofsChildren.get(parent) ?? []) stack.push(child);
			for (const child of refChildren.get(parentOid) ?? []) if (!entries.resolved[child]) stack.push(child);
			refChildren.delete(parentOid);
		};
		pushChildren(root, rootOid ?? entries.oid(root!).toString('hex'));
		while (stack.length) {
			const i = stack.pop()!;
			if (entries.resolved[i]) continue;
			let base: Buffer;
			let baseType: number;
			let baseDepth: number;
			if (entries.base[i] >= 0) {
				const b = entries.base[i];
				base = contentOf(b);
				baseType = entries.type[b];
				baseDepth = entries.depth[b];
			} else {
				const name = entries.refBase.get(i)!;
				const inPack = oidIndex.get(name);
				if (inPack !== undefined) {
					base = contentOf(inPack);
					baseType = entries.type[inPack];
					baseDepth = entries.depth[inPack];
				} else {
					const row = external.get(name)!;
					base = store.content(store.storedById(row.id)!);
					baseType = row.type;
					baseDepth = 0;
				}
			}
			const delta = inflateSync(readAt(fd, entries.dataStart[i], entries.dataLength[i]));
			let content: Buffer;
			try {
				if (deltaSizes(delta).target > options.maxObjectBytes) {
					throw new UnpackError(`object exceeds the limit of ${options.maxObjectBytes} bytes`);
				}
				content = applyDelta(base, delta, options.maxObjectBytes);
			} catch (error) {
				if (error instanceof PackError) throw new UnpackError(error.message);
				throw error;
			}
			entries.depth[i] = Math.min(baseDepth + 1, 65535);
			accept(i, baseType, content);
			cache.set(i, content);
			const oid = entries.oid(i).toString('hex');
			if (!oidIndex.has(oid)) oidIndex.set(oid, i);
			pushChildren(i, oid);
			await slicer.maybeYield();
		}
	};
	for (let i = 0; i < count; i++) {
		if (entries.kind[i] <= PACK_TAG && (ofsChildren.has(i) || refChildren.has(entries.oid(i).toString('hex')))) {
			await resolveFrom(i, null);
		}
	}
	// What is left names bases outside the pack: a thin pack's, completed from the store.
	for (const name of [...refChildren.keys()]) {
		if (!refChildren.has(name)) continue;
		const row = store.locate(network, Buffer.from(name, 'hex'));
		if (!row) continue;
		external.set(name, { id: row.id, type: row.type, depth: row.depth });
		await resolveFrom(null, name);
	}
	for (let i = 0; i < count; i++) {
		if (!entries.resolved[i]) {
			const missing = entries.refBase.get(i);
			throw new UnpackError(missing ? `missing delta base ${missing}` : 'unresolved deltas left after unpacking');
		}
	}

	// .gitmodules blobs, then connectivity: everything a new object names exists.
	for (const id of gitmodules) {
		const inPack = oidIndex.get(id);
		let content: Buffer | undefined;
		if (inPack !== undefined) {
			if (entries.type[inPack] !== PACK_BLOB) throw new UnpackError(`object ${id}: gitmodulesBlob: non-blob found at .gitmodules`);
			content = contentOf(inPack);
		} else content = store.readIn(network, id)?.content;
		if (content) {
			const problem = checkGitmodules(content);
			if (problem) throw new UnpackError(`object ${id}: ${problem.id}: ${problem.message}`);
		}
	}
	for (const id of referenced) {
		if (oidIndex.has(id)) continue;
		if (!store.locate(network, Buffer.from(id, 'hex'))) throw new UnpackError(`missing necessary object ${id}`);
	}

	// ---- pass 3: store what the network lacks, bases first
	const order: number[] = [];
	const placed = new Uint8Array(count);
	for (let i = 0; i < count; i++) {
		const chain: number[] = [];
		let at = i;
		while (!placed[at]) {
			chain.push(at);
			placed[at] = 1;
			const base =
				entries.base[at] >= 0 ? entries.base[at] : entries.refBase.has(at) ? (oidIndex.get(entries.refBase.get(at)!) ?? -1) : -1;
			if (base < 0) break;
			at = base;
		}
		for (let k = chain.length - 1; k >= 0; k--) order.push(chain[k]);
	}
	const rowOf = new Int32Array(count).fill(-1);
	const rowDepth = new Int32Array(count);
	const result: IndexResult = { objects: count, stored: 0, deltas: 0, types: new Map(), commits: new Map() };
	for (let i = 0; i < count; i++) {
		const id = entries.oid(i).toString('hex');
		result.types.set(id, entries.type[i]);
	}
	let batch: number[] = [];
	let batchBytes = 0;
	const flush = async () => {
		if (!batch.length) return;
		const items = batch;
		batch = [];
		batchBytes = 0;
		app.transaction(() => {
			for (const i of items) storeEntry(i);
		});
		await app.transaction.durable();
		await slicer.maybeYield();
	};
	const storeEntry = (i: number) => {
		const oid = Buffer.from(entries.oid(i));
		const existing = store.locate(network, oid);
		if (existing) {
			rowOf[i] = existing.id;
			rowDepth[i] = existing.depth;
			return;
		}
		let baseRow = -1;
		let baseDepth = 0;
		if (entries.kind[i] > PACK_TAG) {
			const b = entries.base[i] >= 0 ? entries.base[i] : oidIndex.get(entries.refBase.get(i)!);
			if (b !== undefined && b >= 0 && b !== i) {
				baseRow = rowOf[b];
				baseDepth = rowDepth[b];
			} else {
				const ext = external.get(entries.refBase.get(i)!);
				if (ext) {
					baseRow = ext.id;
					baseDepth = ext.depth;
				}
			}
		}
		const data = readAt(fd, entries.dataStart[i], entries.dataLength[i]);
		let row: { id: number };
		if (entries.kind[i] <= PACK_TAG) {
			row = store.insertStored(
				network,
				{ oid, type: entries.type[i], size: entries.size[i], base: null, depth: 0, dataSize: entries.size[i], data },
				options.now,
			);
			rowDepth[i] = 0;
		} else if (baseRow >= 0 && baseDepth + 1 <= MAX_DEPTH) {
			row = store.insertStored(
				network,
				{
					oid,
					type: entries.type[i],
					size: entries.size[i],
					base: baseRow,
					depth: baseDepth + 1,
					dataSize: entries.declared[i],
					data,
				},
				options.now,
			);
			rowDepth[i] = baseDepth + 1;
			result.deltas++;
		} else {
			const content = contentOf(i);
			row = store.insertStored(
				network,
				{
					oid,
					type: entries.type[i],
					size: content.length,
					base: null,
					depth: 0,
					dataSize: content.length,
					data: deflateSync(content),
				},
				options.now,
			);
			rowDepth[i] = 0;
		}
		rowOf[i] = row.id;
		result.stored++;
		if (entries.type[i] === PACK_COMMIT) {
			const content = contentOf(i);
			const header = content.toString('latin1', 0, Math.min(content.length, 64 * 1024)).split('\n\n', 1)[0];
			const parents: string[] = [];
			let tree = '';
			for (const line of header.split('\n')) {
				if (line.startsWith('parent ')) parents.push(line.slice(7, 47));
				else if (line.startsWith('tree ')) tree = line.slice(5, 45);
			}
			store.insertParents(
				network,
				oid,
				parents.map((parent) => Buffer.from(parent, 'hex')),
			);
			result.commits.set(oid.toString('hex'), { tree, parents });
		}
	};
	for (const i of order) {
		batch.push(i);
		batchBytes += entries.dataLength[i];
		if (batch.length >= BATCH_ROWS || batchBytes >= BATCH_BYTES) await flush();
	}
	await flush();
	// Commits the network had already: their graph is there; list them for the caller too.
	for (let i = 0; i < count; i++) {
		if (entries.type[i] !== PACK_COMMIT) continue;
		const id = entries.oid(i).toString('hex');
		if (result.commits.has(id)) continue;
		const content = contentOf(i);
		const header = content.toString('latin1', 0, Math.min(content.length, 64 * 1024)).split('\n\n', 1)[0];
		const parents = header
			.split('\n')
			.filter((line) => line.startsWith('parent '))
			.map((line) => line.slice(7, 47));
		result.commits.set(id, { tree: header.slice(5, 45), parents });
	}
	options.progress?.(`Resolving deltas: 100% (${count - countWhole(entries)}/${count - countWhole(entries)}), done.\n`);
	return result;
}

function countWhole(entries: Entries): number {
	let n = 0;
	for (let i = 0; i < entries.count; i++) if (entries.kind[i] <= PACK_TAG) n++;
	return n;
}
