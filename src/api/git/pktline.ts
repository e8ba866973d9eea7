/**
 * Git's pkt-line framing (https://git-scm.com/docs/protocol-common#_pkt_line_format): four hex
 * digits of length (themselves included) then the data; "0000" flush, "0001" delimiter (protocol
 * v2), "0002" response end. And the side band that multiplexes a pack with progress and errors
 * (band 1 data, 2 progress, 3 a fatal error), as `side-band-64k` and protocol v2 frame it.
 */

/** Largest pkt-line: 65520 bytes, its length included. */
export const MAX_PKT = 65520;
/** Largest side-band-64k payload: the packet minus its length and the band byte. */
export const BAND_DATA = MAX_PKT - 5;
/** Old `side-band` (not 64k): 1000-byte packets. */
export const SMALL_BAND_DATA = 995;

export const FLUSH = Buffer.from('0000', 'ascii');
export const DELIM = Buffer.from('0001', 'ascii');

/** One pkt-line: 4 hex digits of length (itself included), then the data. */
export function pktLine(data: string | Buffer): Buffer {
	const body = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
	const out = Buffer.allocUnsafe(body.length + 4);
	out.write((body.length + 4).toString(16).padStart(4, '0'), 0, 'ascii');
	body.copy(out, 4);
	return out;
}

/** One side-band packet: the band number, then the payload (at most the band's size). */
export function bandLine(band: 1 | 2 | 3, data: string | Buffer): Buffer {
	const body = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
	const out = Buffer.allocUnsafe(body.length + 5);
	out.write((body.length + 5).toString(16).padStart(4, '0'), 0, 'ascii');
	out[4] = band;
	body.copy(out, 5);
	return out;
}

/** A malformed pkt-line stream: git sees it as a protocol error. */
export class PktLineError extends Error {}

/**
 * Parses a whole buffer of pkt-lines.
 * @returns the lines' text (one trailing newline removed), null for each flush, '\x01delim' for a delimiter
 * @throws PktLineError on a malformed length or a truncated packet
 */
export function parsePktLines(buffer: Buffer): Array<string | null> {
	const lines: Array<string | null> = [];
	let at = 0;
	while (at < buffer.length) {
		const packet = readPacket(buffer, at);
		if (!packet) throw new PktLineError('truncated pkt-line');
		at = packet.next;
		if (packet.kind === 'flush') lines.push(null);
		else if (packet.kind === 'delim') lines.push(DELIM_TEXT);
		else if (packet.kind === 'data') lines.push(packet.data.toString('utf8').replace(/\n$/, ''));
	}
	return lines;
}

/** What parsePktLines gives for a delimiter packet (never a line's text: it starts with a control byte). */
export const DELIM_TEXT = '\x01delim';

/**
 * Reads one packet at `at`.
 * @returns the packet and where the next begins, or null when `buffer` ends inside it
 * @throws PktLineError on a malformed length
 */
export function readPacket(
	buffer: Buffer,
	at: number,
): { kind: 'flush' | 'delim' | 'end'; next: number } | { kind: 'data'; data: Buffer; next: number } | null {
	if (at + 4 > buffer.length) return null;
	let length = 0;
	for (let i = 0; i < 4; i++) {
		const c = buffer[at + i];
		const digit = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1;
		if (digit < 0) throw new PktLineError('bad pkt-line length');
		length = length * 16 + digit;
	}
	if (length === 0) return { kind: 'flush', next: at + 4 };
	if (length === 1) return { kind: 'delim', next: at + 4 };
	if (length === 2) return { kind: 'end', next: at + 4 };
	if (length < 4) throw new PktLineError('bad pkt-line length');
	if (at + length > buffer.length) return null;
	return { kind: 'data', data: buffer.subarray(at + 4, at + length), next: at + length };
}
