/**
 * Takes in a pushed packfile (git's `index-pack --strict --fix-thin` as receive-pack runs it),
 * from the file the request body was streamed to, with bounded memory:
 *
 * 1. Reads the entries in order through a moving window: each entry's header, its zlib stream
 *    inflated (capped at the size its header declares: a zlib bomb is caught, not inflated),
 *    deltas applied to their bases as they come (an OFS_DELTA's base is earlier in the pack; a
 *    REF_DELTA waits for its base, in the pack or, for a thin pack, in the store), every object
 *    hashed and checked (git fsck's rules, src/api/git/fsck.ts), and the pack's trailing SHA-1
 *    checked. Resolved contents are kept in a cache bounded by bytes; a base evicted is
 *    recomputed from the file.
 * 2. Checks `.gitmodules` blobs and connectivity: every object a new object names exists, in
 *    the pack or the store.
 * 3. Only then stores what the network lacks, in small transactions, bases first: each entry's
 *    zlib stream as it arrived, a delta against its base's row while the chain stays within
 *    MAX_DEPTH (else whole). A pack that fails stores nothing; a crash in this step leaves only
 *    unreferenced objects, which gc removes.
 *
 * The work yields to the event loop every few milliseconds, so reads go on while a large push
 * is indexed.
 */
import { createHash, hash as cryptoHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import type { App } from '../../app';
import { GarbagePacer } from '../../memory';
import { checkCommit, checkGitmodules, checkTag, checkTree, type FsckProblem } from './fsck';
import {
	applyDelta,
	decodeEntryHeader,
	decodeOffset,
	deltaSizes,
	inflateEntry,
	inflateKnown,
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
	/** The ids (hex) the push's references will point to: connectivity is checked from them. */
	tips: string[];
}

/** What a pack brought. */
export interface IndexResult {
	/** Entries in the pack. */
	objects: number;
	/** Rows the network did not have. */
	stored: number;
	/** Entries stored as deltas. */
	deltas: number;
	/** Bytes of data the stored rows take. */
	storedBytes: number;
	/** Milliseconds spent resolving (inflating, deltas, hashing, fsck), checking connectivity, storing. */
	timings: Record<string, number>;
	/** The commits of the pack: id (hex) → parents and tree (hex). */
	commits: Map<string, { tree: string; parents: string[] }>;
	/**
	 * The rows of everything the pushed tips reach that `known` (rows, closed under reachability)
	 * lacks, from the connectivity walk through the pack's own objects.
	 * @returns null when the pack's objects name a stored object that `known` lacks
	 */
	reachable(known: ReadonlySet<number>): number[] | null;
}

/** Bytes read from the pack file per refill (the window grows past this for larger objects). */
const WINDOW = 4 * 1024 * 1024;
/** Resolved contents kept while resolving deltas, in bytes (a base evicted is read again from the file). */
const CACHE_BYTES = 8 * 1024 * 1024;
/** Objects larger than this are not kept (reading one again costs little beside its size). */
const CACHE_OBJECT_BYTES = 512 * 1024;
/** Work done between yields to the event loop, in ms. */
const SLICE_MS = 10;
/** Rows and bytes stored per transaction. */
const BATCH_ROWS = 4000;
const BATCH_BYTES = 4 * 1024 * 1024;

const TYPE_PREFIX = ['', 'commit ', 'tree ', 'blob ', 'tag '];

/** Objects up to this size are hashed in one call over a reused buffer (header and content copied in). */
const ONE_SHOT_BYTES = 64 * 1024;
const oneShot = Buffer.allocUnsafeSlow(ONE_SHOT_BYTES + 32);

/**
 * The object id of `content` as `type` (20 bytes): SHA-1 of "<type> <size>\0<content>". A pack of
 * small objects hashes tens of thousands of them, where a Hash object per object costs more than
 * the hashing: those go through one-shot `crypto.hash` over a reused buffer.
 */
function objectId(type: number, content: Buffer): Buffer {
	const header = `${TYPE_PREFIX[type]}${content.length}\0`;
	if (content.length > ONE_SHOT_BYTES) return createHash('sha1').update(header).update(content).digest();
	const at = oneShot.write(header, 0, 'latin1');
	content.copy(oneShot, at);
	return cryptoHash('sha1', oneShot.subarray(0, at + content.length), 'buffer');
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
	readonly dataStart: Float64Array;
	readonly dataLength: Float64Array;
	/** Declared size: the object's (whole) or the delta's. */
	readonly declared: Float64Array;
	/** 1–4 (whole), 6 ofs-delta, 7 ref-delta. */
	readonly kind: Uint8Array;
	/** The object's type once resolved (1–4). */
	readonly type: Uint8Array;
	/** In-pack base entry (-1: none, or a REF_DELTA's base named by id). */
	readonly base: Int32Array;
	/** Deltas below this entry in its chain within the pack (0: whole or on an external base). */
	readonly depth: Uint16Array;
	readonly size: Float64Array;
	readonly oids: Buffer;
	readonly resolved: Uint8Array;
	/** REF_DELTA bases by id (latin1 key). */
	readonly refBase = new Map<number, string>();
	constructor(readonly count: number) {
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
	key(i: number): string {
		return this.oids.toString('latin1', i * 20, i * 20 + 20);
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
		if (value.length > CACHE_OBJECT_BYTES || this.map.has(i)) return;
		this.map.set(i, value);
		this.bytes += value.length;
		if (this.bytes <= CACHE_BYTES) return;
		for (const [oldest, buffer] of this.map) {
			this.map.delete(oldest);
			this.bytes -= buffer.length;
			if (this.bytes <= CACHE_BYTES * 0.9) break;
		}
	}
}

/** Positioned reads of the pack file through a read-ahead buffer (pass 3 reads nearly in order). */
class FileReader {
	private space = Buffer.alloc(0);
	private buffer = Buffer.alloc(0);
	private start = 0;
	constructor(private readonly fd: number) {}
	/** Reads `length` bytes at `position` (a view, valid until the next read). */
	read(position: number, length: number): Buffer {
		if (position < this.start || position + length > this.start + this.buffer.length) {
			const size = Math.max(length, WINDOW);
			if (this.space.length < size) this.space = Buffer.allocUnsafe(size);
			let read = 0;
			while (read < size) {
				const n = readSync(this.fd, this.space, read, size - read, position + read);
				if (n === 0) break;
				read += n;
			}
			if (read < length) throw new UnpackError('premature end of pack file');
			this.buffer = this.space.subarray(0, read);
			this.start = position;
		}
		// A view: callers use it at once (inflate it, bind it to an insert).
		return this.buffer.subarray(position - this.start, position - this.start + length);
	}
}

/**
 * Inflates one entry's zlib stream, exactly `size` bytes.
 * @returns the content and the stream's length, or null when `input` ends inside the stream
 * @throws UnpackError for a corrupt stream or one that inflates to another size
 */
function inflatePacked(input: Buffer, size: number): { content: Buffer; consumed: number } | null {
	try {
		return inflateEntry(input, size);
	} catch (error) {
		if (error instanceof PackError) throw new UnpackError(error.message);
		throw error;
	}
}

/** A commit's tree and parents (hex), from its header. */
function commitLinks(content: Buffer): { tree: string; parents: string[] } {
	const header = content.toString('latin1', 0, Math.min(content.length, 64 * 1024));
	const end = header.indexOf('\n\n');
	const lines = (end < 0 ? header : header.slice(0, end)).split('\n');
	const parents: string[] = [];
	let tree = '';
	for (const line of lines) {
		if (line.startsWith('tree ')) tree = line.slice(5, 45);
		else if (line.startsWith('parent ')) parents.push(line.slice(7, 47));
		else if (tree) break;
	}
	return { tree, parents };
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
	} catch (error) {
		// A delta or stream found broken on a second reading is the pack's fault too.
		if (error instanceof PackError) throw new UnpackError(error.message);
		throw error;
	} finally {
		closeSync(fd);
	}
}

async function indexFile(app: App, network: number, fd: number, fileSize: number, options: IndexOptions): Promise<IndexResult> {
	const store = app.stores.git;
	const slicer = new Slicer();
	const reader = new FileReader(fd);
	const pacer = new GarbagePacer();
	if (fileSize < 32) throw new UnpackError('pack too short');
	const head = reader.read(0, 12);
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
	const cache = new ContentCache();
	/** Resolved objects by id (latin1 key) → entry. */
	const oidIndex = new Map<string, number>();
	/** REF_DELTA entries waiting for a base not seen yet, by the base's id. */
	const waiting = new Map<string, number[]>();
	/** Thin pack bases from the store: id (latin1 key) → row. */
	const external = new Map<string, { id: number; type: number; depth: number }>();
	const gitmodules = new Set<string>();
	const onGitmodules = (oid: Buffer) => gitmodules.add(oid.toString('latin1'));
	const commits = new Map<string, { tree: string; parents: string[] }>();
	/** Each tree's entries (ids, 20 bytes each; gitlinks left out) and each tag's object, for `reachable`. */
	const treeChildren = new Map<number, Buffer>();
	const tagTargets = new Map<number, string>();

	const accept = (i: number, type: number, content: Buffer) => {
		const oid = objectId(type, content);
		oid.copy(entries.oids, i * 20);
		entries.type[i] = type;
		entries.size[i] = content.length;
		entries.resolved[i] = 1;
		let problem: FsckProblem | null = null;
		if (type === PACK_COMMIT) {
			problem = checkCommit(content);
			if (!problem) {
				const links = commitLinks(content);
				commits.set(oid.toString('hex'), links);
			}
		} else if (type === PACK_TREE) {
			const offsets: number[] = [];
			problem = checkTree(content, onGitmodules, offsets);
			if (!problem) {
				const children = Buffer.allocUnsafeSlow(offsets.length * 20);
				for (let k = 0; k < offsets.length; k++) content.copy(children, k * 20, offsets[k], offsets[k] + 20);
				treeChildren.set(i, children);
			}
		} else if (type === PACK_TAG) {
			problem = checkTag(content);
			if (!problem) tagTargets.set(i, content.toString('latin1', 7, 47));
		}
		if (problem) throw new UnpackError(`object ${oid.toString('hex')}: ${problem.id}: ${problem.message}`);
		const key = oid.toString('latin1');
		if (!oidIndex.has(key)) oidIndex.set(key, i);
	};

	/** The inflated data (object or delta) of an entry, read again from the file. */
	const dataOf = (i: number): Buffer => inflateKnown(reader.read(entries.dataStart[i], entries.dataLength[i]), entries.declared[i]);

	/** An entry's content: from the cache, or recomputed along its chain. */
	const contentOf = (i: number): Buffer => {
		const cached = cache.get(i);
		if (cached) return cached;
		const chain: number[] = [];
		let at = i;
		let content: Buffer | undefined;
		for (;;) {
			chain.push(at);
			if (entries.kind[at] <= PACK_TAG) break;
			const base = entries.base[at];
			if (base >= 0) at = base;
			else {
				const name = entries.refBase.get(at)!;
				const inPack = oidIndex.get(name);
				if (inPack !== undefined && inPack !== at) at = inPack;
				else {
					content = store.content(store.storedById(external.get(name)!.id)!);
					break;
				}
			}
			const hit = cache.get(at);
			if (hit) {
				content = hit;
				break;
			}
		}
		for (let k = chain.length - 1; k >= 0; k--) {
			const e = chain[k];
			if (k === chain.length - 1 && content === undefined) content = dataOf(e);
			else content = applyDelta(content!, dataOf(e), options.maxObjectBytes);
			cache.set(e, content);
		}
		return content!;
	};

	/** Resolves delta `i` on `base` (content, type, depth), then whatever waited for it. */
	const resolveDelta = (i: number, delta: Buffer, base: Buffer, baseType: number, baseDepth: number) => {
		const stack: Array<[number, Buffer, Buffer, number, number]> = [[i, delta, base, baseType, baseDepth]];
		while (stack.length) {
			const [e, data, on, type, depth] = stack.pop()!;
			let content: Buffer;
			try {
				if (deltaSizes(data).target > options.maxObjectBytes) {
					throw new UnpackError(`object exceeds the limit of ${options.maxObjectBytes} bytes`);
				}
				content = applyDelta(on, data, options.maxObjectBytes);
			} catch (error) {
				if (error instanceof PackError) throw new UnpackError(error.message);
				throw error;
			}
			entries.depth[e] = Math.min(depth + 1, 65535);
			accept(e, type, content);
			cache.set(e, content);
			const children = waiting.get(entries.key(e));
			if (children) {
				waiting.delete(entries.key(e));
				for (const child of children) stack.push([child, dataOf(child), content, type, entries.depth[e]]);
			}
		}
	};
	/** A whole object resolved: the REF_DELTAs that waited for it go on. */
	const release = (i: number, content: Buffer) => {
		const children = waiting.get(entries.key(i));
		if (!children) return;
		waiting.delete(entries.key(i));
		for (const child of children) resolveDelta(child, dataOf(child), content, entries.type[i], 0);
	};

	// ---- pass 1: every entry in order; objects and deltas resolved as they come
	const started = performance.now();
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

	let position = 12;
	refill(0, 12);
	for (let i = 0; i < count; i++) {
		if (position >= end) throw new UnpackError('premature end of pack file');
		if (position + 32 > windowEnd && windowEnd < fileSize) refill(position, 32);
		const header = decodeEntryHeader(window, position - windowStart);
		if (!header) throw new UnpackError('premature end of pack file');
		const { type: kind, size, length } = header;
		if (kind === 0 || kind === 5 || kind > 7) throw new UnpackError(`unknown object type ${kind}`);
		if (size > options.maxObjectBytes)
			throw new UnpackError(`object of ${size} bytes exceeds the limit of ${options.maxObjectBytes} bytes`);
		entries.kind[i] = kind;
		entries.declared[i] = size;
		byOffset.set(position, i);
		let at = position + length;
		if (kind === PACK_OFS_DELTA) {
			const distance = decodeOffset(window, at - windowStart);
			if (!distance) throw new UnpackError('premature end of pack file');
			const base = byOffset.get(position - distance.distance);
			if (base === undefined) throw new UnpackError('delta base offset is out of bound');
			entries.base[i] = base;
			at += distance.length;
		} else if (kind === PACK_REF_DELTA) {
			if (at + 20 > windowEnd) throw new UnpackError('premature end of pack file');
			entries.refBase.set(i, window.toString('latin1', at - windowStart, at - windowStart + 20));
			at += 20;
		}
		entries.dataStart[i] = at;
		let inflated = inflatePacked(window.subarray(at - windowStart, windowEnd - windowStart), size);
		while (!inflated) {
			if (windowEnd >= fileSize) throw new UnpackError('premature end of pack file');
			const need = windowEnd - at + WINDOW;
			if (need > 2 * options.maxObjectBytes + WINDOW) throw new UnpackError('object data stream too long');
			refill(position, need + (at - position));
			inflated = inflatePacked(window.subarray(at - windowStart, windowEnd - windowStart), size);
		}
		entries.dataLength[i] = inflated.consumed;
		pacer.count(inflated.content.length);
		position = at + inflated.consumed;
		if (position > end) throw new UnpackError('premature end of pack file');
		if (kind <= PACK_TAG) {
			accept(i, kind, inflated.content);
			cache.set(i, inflated.content);
			release(i, inflated.content);
		} else if (kind === PACK_OFS_DELTA) {
			const base = entries.base[i];
			if (entries.resolved[base]) resolveDelta(i, inflated.content, contentOf(base), entries.type[base], entries.depth[base]);
			else {
				// Its base is a REF_DELTA still waiting: wait with it.
				const list = waiting.get(`ofs:${base}`);
				if (list) list.push(i);
				else waiting.set(`ofs:${base}`, [i]);
			}
		} else {
			const name = entries.refBase.get(i)!;
			const inPack = oidIndex.get(name);
			if (inPack !== undefined) resolveDelta(i, inflated.content, contentOf(inPack), entries.type[inPack], entries.depth[inPack]);
			else {
				const list = waiting.get(name);
				if (list) list.push(i);
				else waiting.set(name, [i]);
			}
		}
		await slicer.maybeYield();
	}
	if (position !== end) throw new UnpackError('pack has junk at the end');
	if (windowEnd < fileSize) refill(position, fileSize - position);
	const trailer = window.subarray(end - windowStart, fileSize - windowStart);
	if (!hash.digest().equals(trailer)) throw new UnpackError('pack is corrupted (SHA1 mismatch)');
	window = Buffer.alloc(0);

	// ---- what is left waits for bases outside the pack: a thin pack's, completed from the store
	const resolveWaitingOfs = () => {
		// OFS_DELTAs whose base was a waiting REF_DELTA, now resolved.
		let progress = true;
		while (progress) {
			progress = false;
			for (const [name, list] of waiting) {
				if (!name.startsWith('ofs:')) continue;
				const base = Number(name.slice(4));
				if (!entries.resolved[base]) continue;
				waiting.delete(name);
				for (const child of list) resolveDelta(child, dataOf(child), contentOf(base), entries.type[base], entries.depth[base]);
				progress = true;
			}
		}
	};
	for (const name of [...waiting.keys()]) {
		if (name.startsWith('ofs:') || !waiting.has(name)) continue;
		const row = store.locate(network, Buffer.from(name, 'latin1'));
		if (!row) continue;
		external.set(name, { id: row.id, type: row.type, depth: row.depth });
		const base = store.content(store.storedById(row.id)!);
		const children = waiting.get(name)!;
		waiting.delete(name);
		for (const child of children) resolveDelta(child, dataOf(child), base, row.type, 0);
		resolveWaitingOfs();
		await slicer.maybeYield();
	}
	resolveWaitingOfs();
	for (let i = 0; i < count; i++) {
		if (!entries.resolved[i]) {
			const missing = entries.refBase.get(i);
			throw new UnpackError(
				missing ? `missing delta base ${Buffer.from(missing, 'latin1').toString('hex')}` : 'unresolved deltas left after unpacking',
			);
		}
	}

	// ---- pass 2: .gitmodules blobs, then connectivity: everything a new object names exists
	const resolvedAt = performance.now();
	for (const key of gitmodules) {
		const inPack = oidIndex.get(key);
		const id = Buffer.from(key, 'latin1').toString('hex');
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
	// Connectivity (git's check_connected): from the pushed tips through the pack's objects, whatever
	// the pack names outside itself must be stored (what is stored is complete).
	const walked = new Uint8Array(count);
	/** Rows of stored objects the pack's objects name. */
	const outside = new Set<number>();
	const stack: number[] = [];
	const visit = (key: string) => {
		const i = oidIndex.get(key);
		if (i !== undefined) {
			if (!walked[i]) {
				walked[i] = 1;
				if (entries.type[i] !== PACK_BLOB) stack.push(i);
			}
			return;
		}
		const row = store.locate(network, Buffer.from(key, 'latin1'));
		if (!row) throw new UnpackError(`missing necessary object ${Buffer.from(key, 'latin1').toString('hex')}`);
		outside.add(row.id);
	};
	for (const tip of options.tips) {
		const key = Buffer.from(tip, 'hex').toString('latin1');
		// A tip neither in the pack nor stored is refused with its reference ("missing necessary objects").
		if (oidIndex.has(key) || store.locate(network, Buffer.from(key, 'latin1'))) visit(key);
	}
	while (stack.length) {
		const i = stack.pop()!;
		const type = entries.type[i];
		if (type === PACK_COMMIT) {
			const links = commits.get(entries.oid(i).toString('hex'))!;
			visit(Buffer.from(links.tree, 'hex').toString('latin1'));
			for (const parent of links.parents) visit(Buffer.from(parent, 'hex').toString('latin1'));
		} else if (type === PACK_TREE) {
			const children = treeChildren.get(i)!;
			for (let at = 0; at < children.length; at += 20) visit(children.toString('latin1', at, at + 20));
		} else if (type === PACK_TAG) {
			visit(Buffer.from(tagTargets.get(i)!, 'hex').toString('latin1'));
		}
		await slicer.maybeYield();
	}
	treeChildren.clear();
	await slicer.maybeYield();

	// ---- pass 3: store what the network lacks, bases first
	const checkedAt = performance.now();
	const baseOf = (i: number): number => {
		if (entries.base[i] >= 0) return entries.base[i];
		const name = entries.refBase.get(i);
		const inPack = name === undefined ? undefined : oidIndex.get(name);
		return inPack === undefined || inPack === i ? -1 : inPack;
	};
	const order: number[] = [];
	const placed = new Uint8Array(count);
	for (let i = 0; i < count; i++) {
		const chain: number[] = [];
		let at = i;
		while (at >= 0 && !placed[at]) {
			chain.push(at);
			placed[at] = 1;
			at = baseOf(at);
		}
		for (let k = chain.length - 1; k >= 0; k--) order.push(chain[k]);
	}
	const rowOf = new Int32Array(count).fill(-1);
	const rowDepth = new Int32Array(count);
	const result: IndexResult = {
		objects: count,
		stored: 0,
		deltas: 0,
		storedBytes: 0,
		timings: {},
		commits,
		reachable(known) {
			for (const row of outside) if (!known.has(row)) return null;
			const rows: number[] = [];
			for (let i = 0; i < count; i++) if (walked[i] && rowOf[i] >= 0 && !known.has(rowOf[i])) rows.push(rowOf[i]);
			return rows;
		},
	};
	const storeEntry = (i: number) => {
		const oid = entries.oid(i);
		let baseRow = -1;
		let baseDepth = 0;
		if (entries.kind[i] > PACK_TAG) {
			const b = baseOf(i);
			if (b >= 0) {
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
		let row: { id: number; inserted: boolean };
		let depth = 0;
		let written = entries.dataLength[i];
		if (entries.kind[i] <= PACK_TAG) {
			const data = reader.read(entries.dataStart[i], entries.dataLength[i]);
			row = store.insertStored(network, {
				oid,
				type: entries.type[i],
				size: entries.size[i],
				base: null,
				depth: 0,
				dataSize: entries.size[i],
				data,
			});
		} else if (baseRow >= 0 && baseDepth + 1 <= MAX_DEPTH) {
			const data = reader.read(entries.dataStart[i], entries.dataLength[i]);
			depth = baseDepth + 1;
			row = store.insertStored(network, {
				oid,
				type: entries.type[i],
				size: entries.size[i],
				base: baseRow,
				depth,
				dataSize: entries.declared[i],
				data,
			});
			if (row.inserted) result.deltas++;
		} else {
			const content = contentOf(i);
			const data = deflateSync(content);
			written = data.length;
			row = store.insertStored(network, {
				oid,
				type: entries.type[i],
				size: content.length,
				base: null,
				depth: 0,
				dataSize: content.length,
				data,
			});
		}
		if (!row.inserted) {
			// The network had it (another push, a fork): its row serves as the base of what follows.
			depth = store.locate(network, oid)?.depth ?? 0;
		} else {
			result.stored++;
			result.storedBytes += written;
			if (entries.type[i] === PACK_COMMIT) {
				const links = commits.get(oid.toString('hex'))!;
				store.insertParents(
					network,
					oid,
					links.parents.map((parent) => Buffer.from(parent, 'hex')),
				);
			}
		}
		rowOf[i] = row.id;
		rowDepth[i] = depth;
	};
	let batch: number[] = [];
	let batchBytes = 0;
	let freshened = false;
	const flush = async () => {
		if (!batch.length) return;
		const items = batch;
		batch = [];
		batchBytes = 0;
		app.transaction(() => {
			store.markEpoch(options.now);
			for (const i of items) storeEntry(i);
			// What the new objects name outside the pack lives through gc's grace period with them.
			if (outside.size && !freshened) {
				store.freshen(outside, options.now);
				freshened = true;
			}
		});
		await app.transaction.durable();
		await slicer.maybeYield();
	};
	for (const i of order) {
		batch.push(i);
		batchBytes += entries.dataLength[i];
		pacer.count(entries.dataLength[i]);
		if (batch.length >= BATCH_ROWS || batchBytes >= BATCH_BYTES) await flush();
	}
	await flush();
	result.timings = {
		resolve_ms: Math.round(resolvedAt - started),
		connect_ms: Math.round(checkedAt - resolvedAt),
		store_ms: Math.round(performance.now() - checkedAt),
	};
	let whole = 0;
	for (let i = 0; i < count; i++) if (entries.kind[i] <= PACK_TAG) whole++;
	options.progress?.(`Resolving deltas: 100% (${count - whole}/${count - whole}), done.\n`);
	return result;
}
