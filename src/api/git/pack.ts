/**
 * Git's packfile encodings (https://git-scm.com/docs/pack-format): object entry headers, the
 * OFS_DELTA base offset, and deltas (applying them, and making them as git's diff-delta does).
 * Pure functions over Buffers, no database.
 */
import { constants, inflateSync } from 'node:zlib';
import type { ObjectType } from './objects';

/** The zlib binding's handle, as node:zlib drives it (its writeSync fills `state` with avail_out, avail_in). */
interface ZlibHandle {
	init(
		windowBits: number,
		level: number,
		memLevel: number,
		strategy: number,
		state: Uint32Array,
		callback: () => void,
		dictionary?: Buffer,
	): void;
	writeSync(flush: number, input: Buffer, inOffset: number, inLength: number, output: Buffer, outOffset: number, outLength: number): void;
	reset(): void;
	onerror: (message: string, errno: number) => void;
}

/**
 * Inflates zlib streams with one reused zlib handle. node:zlib's inflateSync makes (and closes) a
 * handle per call, which costs several times the inflating of a small object; packs hold tens of
 * thousands of small objects. The handle is node:zlib's own binding, as node:zlib uses it; where
 * it is not available, inflateSync does the work.
 */
class Inflater {
	private handle: ZlibHandle | null | undefined;
	private readonly state = new Uint32Array(2);
	private error: string | null = null;

	private open(): ZlibHandle | null {
		if (this.handle !== undefined) return this.handle;
		try {
			const binding = (process as unknown as { binding(name: string): { Zlib: new (mode: number) => ZlibHandle } }).binding('zlib');
			const handle = new binding.Zlib(constants.INFLATE);
			handle.onerror = (message) => {
				this.error = message;
			};
			// Exactly seven arguments, as node:zlib passes them (the binding asserts the count).
			handle.init(15, -1, 8, 0, this.state, () => undefined, undefined);
			this.handle = handle;
		} catch {
			this.handle = null;
		}
		return this.handle;
	}

	/**
	 * Inflates the zlib stream at the start of `input`, which must inflate to exactly `size` bytes.
	 * @returns the content and the stream's length in `input`, or null when `input` ends inside the stream
	 * @throws PackError for a corrupt stream, or one that inflates to more or fewer bytes than `size`
	 */
	inflate(input: Buffer, size: number): { content: Buffer; consumed: number } | null {
		const handle = this.open();
		if (!handle) return fallbackInflate(input, size);
		const output = Buffer.allocUnsafeSlow(size + 1);
		this.error = null;
		handle.writeSync(constants.Z_FINISH, input, 0, input.length, output, 0, output.length);
		const [availOut, availIn] = this.state;
		handle.reset();
		if (this.error !== null) {
			if (this.error === 'unexpected end of file') return null;
			throw new PackError(`inflate failed: ${this.error}`);
		}
		const produced = output.length - availOut;
		if (produced > size) throw new PackError(`object inflates past the ${size} bytes its header declares`);
		if (produced !== size) throw new PackError(`inflated object size ${produced} differs from the ${size} its header declares`);
		return { content: output.subarray(0, size), consumed: input.length - availIn };
	}
}

function fallbackInflate(input: Buffer, size: number): { content: Buffer; consumed: number } | null {
	try {
		const { buffer, engine } = inflateSync(input, {
			info: true,
			maxOutputLength: Math.max(1, size),
			chunkSize: Math.max(64, size + 1),
		}) as unknown as {
			buffer: Buffer;
			engine: { bytesWritten: number };
		};
		if (buffer.length !== size)
			throw new PackError(`inflated object size ${buffer.length} differs from the ${size} its header declares`);
		return { content: buffer, consumed: engine.bytesWritten };
	} catch (error) {
		if (error instanceof PackError) throw error;
		const code = (error as { code?: string }).code;
		if (code === 'Z_BUF_ERROR') return null;
		if (code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError)
			throw new PackError(`object inflates past the ${size} bytes its header declares`);
		throw new PackError(`inflate returned ${code ?? 'an error'}`);
	}
}

const inflater = new Inflater();

/**
 * Inflates the zlib stream at the start of `input` to exactly `size` bytes (a pack entry's payload).
 * @returns the content and the stream's length, or null when `input` ends inside the stream
 * @throws PackError for a corrupt stream or one of another size (a zlib bomb stops at size + 1 bytes)
 */
export function inflateEntry(input: Buffer, size: number): { content: Buffer; consumed: number } | null {
	return inflater.inflate(input, size);
}

/**
 * Inflates a stored zlib stream whose inflated size is known.
 * @throws PackError when it is truncated, corrupt or of another size
 */
export function inflateKnown(data: Buffer, size: number): Buffer {
	const result = inflater.inflate(data, size);
	if (!result) throw new PackError('truncated zlib stream');
	return result.content;
}

/** Pack entry type numbers. */
export const PACK_COMMIT = 1;
export const PACK_TREE = 2;
export const PACK_BLOB = 3;
export const PACK_TAG = 4;
export const PACK_OFS_DELTA = 6;
export const PACK_REF_DELTA = 7;

/** Object type → pack type number. */
export const PACK_TYPE: Record<ObjectType, number> = { commit: PACK_COMMIT, tree: PACK_TREE, blob: PACK_BLOB, tag: PACK_TAG };
/** Pack type number (1–4) → object type. */
export const OBJECT_TYPE: readonly (ObjectType | undefined)[] = [undefined, 'commit', 'tree', 'blob', 'tag'];

/** A malformed pack or delta: the reason reaches the pusher as `unpack <reason>`. */
export class PackError extends Error {}

/** An entry header: the type in bits 4–6 of the first byte, the size 4 bits then 7 bits a byte, least significant first. */
export function encodeEntryHeader(type: number, size: number): Buffer {
	const bytes: number[] = [];
	let byte = (type << 4) | (size & 0x0f);
	let rest = Math.floor(size / 16);
	while (rest > 0) {
		bytes.push(byte | 0x80);
		byte = rest & 0x7f;
		rest = Math.floor(rest / 128);
	}
	bytes.push(byte);
	return Buffer.from(bytes);
}

/**
 * Reads an entry header at `at`.
 * @returns type, size and the header's length, or null when `buffer` ends inside it
 * @throws PackError for a size past 2^53 (a corrupt or hostile header)
 */
export function decodeEntryHeader(buffer: Buffer, at: number): { type: number; size: number; length: number } | null {
	if (at >= buffer.length) return null;
	let byte = buffer[at];
	const type = (byte >> 4) & 7;
	let size = byte & 0x0f;
	let shift = 4;
	let i = at + 1;
	while (byte & 0x80) {
		if (i >= buffer.length) return null;
		byte = buffer[i++];
		if (shift > 49) throw new PackError('object size too large');
		size += (byte & 0x7f) * 2 ** shift;
		shift += 7;
	}
	return { type, size, length: i - at };
}

/** The OFS_DELTA base distance (this entry's offset minus the base's), git's offset encoding. */
export function encodeOffset(distance: number): Buffer {
	const bytes = [distance & 0x7f];
	let rest = Math.floor(distance / 128);
	while (rest > 0) {
		rest -= 1;
		bytes.unshift(0x80 | (rest & 0x7f));
		rest = Math.floor(rest / 128);
	}
	return Buffer.from(bytes);
}

/**
 * Reads an OFS_DELTA base distance at `at`.
 * @returns the distance and its length, or null when `buffer` ends inside it
 * @throws PackError for a distance past 2^53
 */
export function decodeOffset(buffer: Buffer, at: number): { distance: number; length: number } | null {
	if (at >= buffer.length) return null;
	let byte = buffer[at];
	let distance = byte & 0x7f;
	let i = at + 1;
	while (byte & 0x80) {
		if (i >= buffer.length) return null;
		byte = buffer[i++];
		if (distance > 2 ** 45) throw new PackError('delta base offset too large');
		distance = (distance + 1) * 128 + (byte & 0x7f);
	}
	return { distance, length: i - at };
}

/** A delta's leading varint (source or target size). */
function deltaVarint(delta: Buffer, at: number): { value: number; next: number } {
	let value = 0;
	let shift = 0;
	let byte: number;
	do {
		if (at >= delta.length) throw new PackError('truncated delta header');
		byte = delta[at++];
		if (shift > 49) throw new PackError('delta size too large');
		value += (byte & 0x7f) * 2 ** shift;
		shift += 7;
	} while (byte & 0x80);
	return { value, next: at };
}

/** The source and result sizes a delta declares, and where its instructions begin. */
export function deltaSizes(delta: Buffer): { source: number; target: number; start: number } {
	const source = deltaVarint(delta, 0);
	const target = deltaVarint(delta, source.next);
	return { source: source.value, target: target.value, start: target.next };
}

/**
 * Applies a git delta to `base`.
 * @param maxSize the largest result accepted (bytes)
 * @throws PackError when the delta does not fit the base (wrong source size, a copy outside it,
 *   the reserved instruction 0, a result of another size than declared or over maxSize)
 */
export function applyDelta(base: Buffer, delta: Buffer, maxSize = Number.MAX_SAFE_INTEGER): Buffer {
	const { source, target, start } = deltaSizes(delta);
	if (source !== base.length) throw new PackError('delta base size mismatch');
	if (target > maxSize) throw new PackError('delta result too large');
	const out = Buffer.allocUnsafe(target);
	let written = 0;
	let at = start;
	const end = delta.length;
	while (at < end) {
		const op = delta[at++];
		if (op & 0x80) {
			let offset = 0;
			let size = 0;
			if (op & 0x01) offset = delta[at++];
			if (op & 0x02) offset |= delta[at++] << 8;
			if (op & 0x04) offset |= delta[at++] << 16;
			if (op & 0x08) offset = (offset | (delta[at++] << 24)) >>> 0;
			if (op & 0x10) size = delta[at++];
			if (op & 0x20) size |= delta[at++] << 8;
			if (op & 0x40) size |= delta[at++] << 16;
			if (size === 0) size = 0x10000;
			if (at > end || offset + size > base.length || written + size > target) throw new PackError('delta copies outside its base');
			base.copy(out, written, offset, offset + size);
			written += size;
		} else if (op !== 0) {
			if (at + op > end || written + op > target) throw new PackError('delta inserts past its end');
			delta.copy(out, written, at, at + op);
			written += op;
			at += op;
		} else {
			throw new PackError('delta uses the reserved instruction 0');
		}
	}
	if (written !== target) throw new PackError('delta result size mismatch');
	return out;
}

// ---------------------------------------------------------------------------------------------
// Making deltas (git's diff-delta.c in spirit: the source indexed by 16-byte blocks, the target
// scanned with a rolling hash, matches extended both ways, copies of at least MIN_COPY bytes)

const BLOCK = 16;
const MIN_COPY = 20;
const MAX_COPY = 0x10000;
/** Entries kept per hash bucket (git caps its buckets at 64 too): bounds the work on repetitive sources. */
const BUCKET_LIMIT = 64;
const PRIME = 0x01000193;
/** PRIME ** (BLOCK - 1) mod 2^32: removes the byte leaving the rolling window. */
const OUT_FACTOR = (() => {
	let factor = 1;
	for (let i = 0; i < BLOCK - 1; i++) factor = Math.imul(factor, PRIME);
	return factor;
})();

/** The hash of `buffer[at, at + BLOCK)`. */
function blockHash(buffer: Buffer, at: number): number {
	let hash = 0;
	for (let i = 0; i < BLOCK; i++) hash = (Math.imul(hash, PRIME) + buffer[at + i]) | 0;
	return hash;
}

/** A source prepared for making deltas against it (reused across the targets tried against it). */
export interface DeltaIndex {
	source: Buffer;
	mask: number;
	/** Per bucket: the last block offset + 1 (0: empty). */
	heads: Int32Array;
	/** Per block: the previous offset + 1 in its bucket. */
	next: Int32Array;
}

/** Indexes `source` by its 16-byte blocks. @returns null for a source too small to copy from */
export function indexSource(source: Buffer): DeltaIndex | null {
	const blocks = Math.floor(source.length / BLOCK);
	if (blocks === 0) return null;
	let size = 1;
	while (size < blocks * 2) size <<= 1;
	const heads = new Int32Array(size);
	const next = new Int32Array(blocks);
	const counts = new Uint8Array(size);
	const mask = size - 1;
	// Later blocks first, so a bucket's list runs from the start of the source (earlier copies win ties).
	for (let block = blocks - 1; block >= 0; block--) {
		const bucket = blockHash(source, block * BLOCK) & mask;
		if (counts[bucket] >= BUCKET_LIMIT) continue;
		counts[bucket]++;
		next[block] = heads[bucket];
		heads[bucket] = block + 1;
	}
	return { source, mask, heads, next };
}

/** Delta instruction writer with a growing output buffer. */
class DeltaWriter {
	out: Buffer;
	length = 0;
	private literalStart = -1;
	constructor(
		capacity: number,
		private readonly limit: number,
	) {
		this.out = Buffer.allocUnsafe(Math.max(64, Math.min(capacity, limit + 32)));
	}
	private ensure(extra: number): boolean {
		if (this.length + extra > this.limit) return false;
		if (this.length + extra > this.out.length) {
			const grown = Buffer.allocUnsafe(Math.min(Math.max(this.out.length * 2, this.length + extra), this.limit + 32));
			this.out.copy(grown, 0, 0, this.length);
			this.out = grown;
		}
		return true;
	}
	varint(value: number): boolean {
		if (!this.ensure(10)) return false;
		do {
			let byte = value & 0x7f;
			value = Math.floor(value / 128);
			if (value > 0) byte |= 0x80;
			this.out[this.length++] = byte;
		} while (value > 0);
		return true;
	}
	/** Appends a literal byte (grouped into inserts of at most 127 bytes). */
	literal(byte: number): boolean {
		if (this.literalStart < 0 || this.out[this.literalStart] === 127) {
			if (!this.ensure(2)) return false;
			this.literalStart = this.length;
			this.out[this.length++] = 0;
		} else if (!this.ensure(1)) return false;
		this.out[this.length++] = byte;
		this.out[this.literalStart]++;
		return true;
	}
	/** Takes back the last `count` literal bytes (a match extended backwards over them). */
	unliteral(count: number): number {
		let taken = 0;
		while (taken < count && this.literalStart >= 0) {
			const inRun = this.out[this.literalStart];
			const take = Math.min(inRun, count - taken);
			this.out[this.literalStart] -= take;
			this.length -= take;
			taken += take;
			if (this.out[this.literalStart] === 0) {
				this.length--; // the empty insert's opcode
				this.literalStart = -1;
				// An earlier run directly before cannot be found again cheaply: stop here.
			}
		}
		return taken;
	}
	copy(offset: number, size: number): boolean {
		this.literalStart = -1;
		if (!this.ensure(8)) return false;
		const opAt = this.length++;
		let op = 0x80;
		for (let i = 0; i < 4; i++) {
			const byte = Math.floor(offset / 2 ** (8 * i)) & 0xff;
			if (byte) {
				op |= 1 << i;
				this.out[this.length++] = byte;
			}
		}
		const encoded = size === MAX_COPY ? 0 : size;
		for (let i = 0; i < 3; i++) {
			const byte = (encoded >> (8 * i)) & 0xff;
			if (byte) {
				op |= 0x10 << i;
				this.out[this.length++] = byte;
			}
		}
		this.out[opAt] = op;
		return true;
	}
}

/**
 * A delta that turns `index.source` into `target`, or null when none comes out smaller than
 * `maxSize` bytes (git tries each candidate base with a size limit and keeps the best).
 */
export function createDelta(index: DeltaIndex, target: Buffer, maxSize: number): Buffer | null {
	const { source, mask, heads, next } = index;
	const writer = new DeltaWriter(Math.min(target.length, maxSize), maxSize);
	if (!writer.varint(source.length) || !writer.varint(target.length)) return null;
	let at = 0;
	let hash = 0;
	let hashed = 0; // bytes in the rolling window ending before `at`
	while (at < target.length) {
		if (at + BLOCK <= target.length) {
			if (hashed < BLOCK) {
				hash = blockHash(target, at);
				hashed = BLOCK;
			}
			let bestOffset = -1;
			let bestLength = 0;
			for (let entry = heads[hash & mask]; entry !== 0; entry = next[entry - 1]) {
				const offset = (entry - 1) * BLOCK;
				let length = 0;
				const limit = Math.min(source.length - offset, target.length - at, MAX_COPY);
				while (length < limit && source[offset + length] === target[at + length]) length++;
				if (length > bestLength) {
					bestLength = length;
					bestOffset = offset;
					if (length === limit) break;
				}
			}
			if (bestLength >= MIN_COPY) {
				// Extend backwards over literals just written.
				let back = 0;
				while (back < bestOffset && at - back > 0 && back < 127 && source[bestOffset - back - 1] === target[at - back - 1]) back++;
				back = writer.unliteral(back);
				let offset = bestOffset - back;
				let start = at - back;
				let length = bestLength + back;
				while (length > 0) {
					const size = Math.min(length, MAX_COPY);
					if (!writer.copy(offset, size)) return null;
					offset += size;
					start += size;
					length -= size;
				}
				at = start;
				hashed = 0;
				continue;
			}
			if (!writer.literal(target[at])) return null;
			// Roll the window one byte on.
			if (at + BLOCK < target.length) {
				hash = (Math.imul(hash - Math.imul(target[at], OUT_FACTOR), PRIME) + target[at + BLOCK]) | 0;
			} else hashed = 0;
			at++;
			continue;
		}
		if (!writer.literal(target[at])) return null;
		at++;
	}
	return writer.length < maxSize ? writer.out.subarray(0, writer.length) : null;
}
