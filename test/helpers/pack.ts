/**
 * Hand-made packfiles and push requests for the tests that feed receive-pack what no well-behaved
 * git sends: bad checksums, lying headers, zlib bombs, broken deltas, objects git fsck refuses.
 */
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { encodeEntryHeader, encodeOffset, PACK_OFS_DELTA, PACK_REF_DELTA, PACK_TYPE } from '../../src/api/git/pack';
import { pktLine } from '../../src/api/git/pktline';
import type { ObjectType } from '../../src/api/git/objects';

/** One entry of a hand-made pack. */
export type PackEntry =
	| { type: ObjectType; content: Buffer; declaredSize?: number; compressed?: Buffer }
	| { ofsDelta: number; delta: Buffer }
	| { refDelta: string; delta: Buffer };

/** The object id git gives `content` as `type`. */
export function objectId(type: ObjectType, content: Buffer): string {
	return createHash('sha1').update(`${type} ${content.length}\0`).update(content).digest('hex');
}

/**
 * A pack of `entries` (OFS_DELTA entries name their base by its index in `entries`).
 * @param options.checksum false: a wrong trailer; options.count: a lying object count
 */
export function buildPack(entries: PackEntry[], options: { checksum?: boolean; count?: number } = {}): Buffer {
	const parts: Buffer[] = [];
	const header = Buffer.alloc(12);
	header.write('PACK', 0, 'ascii');
	header.writeUInt32BE(2, 4);
	header.writeUInt32BE(options.count ?? entries.length, 8);
	parts.push(header);
	let offset = 12;
	const offsets: number[] = [];
	for (const entry of entries) {
		offsets.push(offset);
		let bytes: Buffer;
		if ('type' in entry) {
			bytes = Buffer.concat([
				encodeEntryHeader(PACK_TYPE[entry.type], entry.declaredSize ?? entry.content.length),
				entry.compressed ?? deflateSync(entry.content),
			]);
		} else if ('ofsDelta' in entry) {
			bytes = Buffer.concat([
				encodeEntryHeader(PACK_OFS_DELTA, entry.delta.length),
				encodeOffset(offset - offsets[entry.ofsDelta]),
				deflateSync(entry.delta),
			]);
		} else {
			bytes = Buffer.concat([
				encodeEntryHeader(PACK_REF_DELTA, entry.delta.length),
				Buffer.from(entry.refDelta, 'hex'),
				deflateSync(entry.delta),
			]);
		}
		parts.push(bytes);
		offset += bytes.length;
	}
	const body = Buffer.concat(parts);
	const trailer = createHash('sha1').update(body).digest();
	if (options.checksum === false) trailer[0] ^= 0xff;
	return Buffer.concat([body, trailer]);
}

/** Recomputes a pack's trailing checksum (after a test changed its bytes). */
export function resealPack(pack: Buffer): Buffer {
	const body = pack.subarray(0, pack.length - 20);
	return Buffer.concat([body, createHash('sha1').update(body).digest()]);
}

/** A receive-pack request body: commands (old new ref), capabilities on the first, then the pack. */
export function pushRequest(
	commands: Array<{ before?: string; after: string; ref: string }>,
	pack: Buffer | null,
	capabilities = 'report-status side-band-64k',
): Buffer {
	const zero = '0'.repeat(40);
	const lines = commands.map((command, i) =>
		pktLine(`${command.before ?? zero} ${command.after} ${command.ref}${i === 0 ? `\0${capabilities}` : ''}\n`),
	);
	return Buffer.concat([...lines, Buffer.from('0000'), ...(pack ? [pack] : [])]);
}

/** The report-status lines of a receive-pack answer (side band 1 unwrapped), and the band-2 messages. */
export function readReport(answer: Buffer): { lines: string[]; messages: string } {
	let band1 = Buffer.alloc(0);
	let messages = '';
	let at = 0;
	const plain: string[] = [];
	while (at + 4 <= answer.length) {
		const length = parseInt(answer.toString('ascii', at, at + 4), 16);
		if (length === 0) {
			at += 4;
			continue;
		}
		const data = answer.subarray(at + 4, at + length);
		at += length;
		if (data[0] === 1) band1 = Buffer.concat([band1, data.subarray(1)]);
		else if (data[0] === 2 || data[0] === 3) messages += data.subarray(1).toString('utf8');
		else plain.push(data.toString('utf8').replace(/\n$/, ''));
	}
	const lines = [...plain];
	for (let i = 0; i + 4 <= band1.length; ) {
		const length = parseInt(band1.toString('ascii', i, i + 4), 16);
		if (length === 0) {
			i += 4;
			continue;
		}
		lines.push(band1.toString('utf8', i + 4, i + length).replace(/\n$/, ''));
		i += length;
	}
	return { lines, messages };
}
