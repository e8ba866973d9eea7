/**
 * Writes a packfile (version 2, https://git-scm.com/docs/pack-format) of stored objects, reusing
 * what the store keeps (git's pack reuse): a whole object's zlib stream is copied as is, and a
 * stored delta is sent as a delta when its base is in the same pack (OFS_DELTA, the base written
 * first) or is known to the client of a thin pack (REF_DELTA). Only a delta whose base the client
 * lacks is resolved and sent whole. Nothing is deltified or recompressed per request, so a clone
 * costs about what copying its bytes costs.
 *
 * The pack is produced in chunks with the sink's backpressure, yielding to the event loop between
 * chunks, never built in memory.
 */
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { encodeEntryHeader, encodeOffset, PACK_OFS_DELTA, PACK_REF_DELTA } from './pack';
import type { GitStore, StoredObject } from './store';

/** Where pack bytes go: `write` answers false when the consumer is full (wait for `drained`). */
export interface PackSink {
	write(data: Buffer): boolean;
	drained(): Promise<void>;
	/** True once the consumer went away (stop writing). */
	closed(): boolean;
}

export interface PackWriteOptions {
	/** The client takes OFS_DELTA entries (capability ofs-delta); else bases are named by id. */
	ofsDelta: boolean;
	/** The client completes thin packs: deltas against `known` objects may be sent. */
	thin: boolean;
	/** Row ids the client has. */
	known: Set<number>;
}

export interface PackWriteResult {
	objects: number;
	/** Entries sent as deltas. */
	deltas: number;
	/** Deltas whose base the client lacked: resolved and sent whole. */
	resolved: number;
	/** Bytes of the pack. */
	bytes: number;
	/** False when the consumer went away before the end. */
	complete: boolean;
}

/** Bytes gathered before they are handed to the sink. */
const CHUNK = 256 * 1024;
/** Rows read per statement. */
const BATCH = 256;
/** Time spent writing before yielding to the event loop, in ms. */
const SLICE_MS = 8;

/**
 * Writes the pack of `ids` (row ids of one network; each written once, bases before the deltas
 * that name them by offset).
 * @throws Error when the store changed under the writer (an object gone): the caller cuts the connection
 */
export async function writePack(
	store: GitStore,
	objects: readonly number[],
	options: PackWriteOptions,
	sink: PackSink,
): Promise<PackWriteResult> {
	const sending = new Set(objects);
	const ids = [...sending];
	const offsets = new Map<number, number>();
	const hash = createHash('sha1');
	let pending: Buffer[] = [];
	let pendingBytes = 0;
	let offset = 0;
	const result: PackWriteResult = { objects: ids.length, deltas: 0, resolved: 0, bytes: 0, complete: false };

	const emit = (data: Buffer) => {
		hash.update(data);
		pending.push(data);
		pendingBytes += data.length;
		offset += data.length;
	};
	const flush = async () => {
		if (pendingBytes === 0) return;
		const chunk = pending.length === 1 ? pending[0] : Buffer.concat(pending, pendingBytes);
		pending = [];
		pendingBytes = 0;
		if (!sink.write(chunk)) await sink.drained();
	};

	const header = Buffer.alloc(12);
	header.write('PACK', 0, 'ascii');
	header.writeUInt32BE(2, 4);
	header.writeUInt32BE(ids.length, 8);
	emit(header);

	const oidOf = new Map<number, Buffer>();
	const baseOid = (id: number): Buffer => {
		let oid = oidOf.get(id);
		if (!oid) {
			const row = store.storedById(id);
			if (!row) throw new Error(`object row ${id} is gone`);
			oid = row.oid;
			oidOf.set(id, oid);
		}
		return oid;
	};

	const writeEntry = (row: StoredObject) => {
		const at = offset;
		if (row.base !== null && sending.has(row.base) && offsets.has(row.base)) {
			if (options.ofsDelta) {
				emit(encodeEntryHeader(PACK_OFS_DELTA, row.dataSize));
				emit(encodeOffset(at - offsets.get(row.base)!));
			} else {
				emit(encodeEntryHeader(PACK_REF_DELTA, row.dataSize));
				emit(baseOid(row.base));
			}
			emit(row.data);
			result.deltas++;
		} else if (row.base !== null && options.thin && options.known.has(row.base)) {
			emit(encodeEntryHeader(PACK_REF_DELTA, row.dataSize));
			emit(baseOid(row.base));
			emit(row.data);
			result.deltas++;
		} else if (row.base !== null) {
			const content = store.content(row);
			emit(encodeEntryHeader(row.type, content.length));
			emit(deflateSync(content));
			result.resolved++;
		} else {
			emit(encodeEntryHeader(row.type, row.size));
			emit(row.data);
		}
		offsets.set(row.id, at);
		oidOf.set(row.id, row.oid);
	};

	let sliceStart = performance.now();
	for (let batchStart = 0; batchStart < ids.length; batchStart += BATCH) {
		// One statement per batch of rows, in the pack's order.
		const batch = ids.slice(batchStart, batchStart + BATCH);
		const rows = store.storedByIds(batch.filter((id) => !offsets.has(id)));
		for (const id of batch) {
			if (offsets.has(id)) continue;
			// The object, with the bases it is stored against that this pack sends and has not written yet.
			const chain: StoredObject[] = [];
			let current: number | null = id;
			while (current !== null && !offsets.has(current) && chain.length < 200) {
				const row: StoredObject | undefined = rows.get(current) ?? store.storedById(current);
				if (!row) throw new Error(`object row ${current} is gone`);
				chain.push(row);
				current = row.base !== null && sending.has(row.base) ? row.base : null;
			}
			for (let i = chain.length - 1; i >= 0; i--) writeEntry(chain[i]);
		}
		if (pendingBytes >= CHUNK) {
			if (sink.closed()) return result;
			await flush();
			if (performance.now() - sliceStart > SLICE_MS) {
				await new Promise((resolve) => setImmediate(resolve));
				sliceStart = performance.now();
			}
		}
	}
	if (offsets.size !== ids.length) throw new Error(`pack wrote ${offsets.size} of ${ids.length} objects`);
	const trailer = hash.digest();
	pending.push(trailer);
	pendingBytes += trailer.length;
	offset += trailer.length;
	if (sink.closed()) return result;
	await flush();
	result.bytes = offset;
	result.complete = true;
	return result;
}
