/**
 * Behind a reverse proxy: the client's address and the external URL as the proxy saw them.
 *
 * Only a peer listed in `[server] trusted_proxies` (addresses or CIDR ranges, IPv4 or IPv6) is
 * believed. From such a peer:
 * - the client address is the right-most address of X-Forwarded-For (or RFC 7239 Forwarded `for=`)
 *   that is not itself a trusted proxy, so a client cannot forge it by sending its own header
 *   through the proxy (the proxy appends the real peer on the right);
 * - the external origin is the left-most X-Forwarded-Proto + X-Forwarded-Host (or Forwarded
 *   `proto=`/`host=`), i.e. what the outermost proxy received; a malformed host is ignored.
 * From any other peer the headers are ignored. A configured external_url (`--external-url`) wins
 * over forwarded host and proto: it is a fixed override; the client address is still derived.
 */
import { BlockList, isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';

/** What one request's forwarding headers say, once they are to be believed. */
export interface Forwarded {
	/** The client's address (the socket's peer when nothing is forwarded). */
	ip: string;
	/** `proto://host[:port]` the client used, or null to use the configured origin. */
	origin: string | null;
}

const HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * Parses one trusted_proxies entry: "10.0.0.1", "10.0.0.0/8", "::1", "fd00::/8".
 * @throws Error naming the entry when it is neither an address nor a CIDR range.
 */
function addEntry(list: BlockList, entry: string): void {
	const [address, bits, extra] = entry.trim().split('/');
	const family = isIP(address ?? '');
	const prefix = bits === undefined ? null : Number(bits);
	const max = family === 6 ? 128 : 32;
	if (
		family === 0 ||
		extra !== undefined ||
		(prefix !== null && !(Number.isInteger(prefix) && prefix >= 0 && prefix <= max && /^\d+$/.test(bits!)))
	) {
		throw new Error(`trusted_proxies: "${entry}" is not an IP address or CIDR range`);
	}
	const type = family === 6 ? 'ipv6' : 'ipv4';
	if (prefix === null) list.addAddress(address!, type);
	else list.addSubnet(address!, prefix, type);
}

/** The trusted proxies of `[server] trusted_proxies` and what their headers say. */
export class TrustedProxies {
	private readonly list = new BlockList();
	private readonly empty: boolean;
	private readonly memo = new WeakMap<IncomingMessage, Forwarded>();

	/**
	 * @param entries addresses and CIDR ranges
	 * @param fixedOrigin true when external_url is configured: forwarded proto/host are then ignored
	 * @throws Error for an entry that is not an address or range (startup refuses the configuration)
	 */
	constructor(
		entries: readonly string[],
		private readonly fixedOrigin: boolean,
	) {
		for (const entry of entries) addEntry(this.list, entry);
		this.empty = entries.length === 0;
	}

	/** Whether an address (IPv4, IPv6 or IPv4-mapped IPv6) is a trusted proxy. */
	trusts(address: string | undefined): boolean {
		if (this.empty || !address) return false;
		const mapped = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
		const family = isIP(mapped);
		if (family === 0) return false;
		return this.list.check(mapped, family === 6 ? 'ipv6' : 'ipv4');
	}

	/** The request's client address and external origin (computed once per request). */
	resolve(req: IncomingMessage): Forwarded {
		if (this.empty) return { ip: req.socket.remoteAddress ?? 'unknown', origin: null };
		let forwarded = this.memo.get(req);
		if (!forwarded) this.memo.set(req, (forwarded = this.compute(req)));
		return forwarded;
	}

	private compute(req: IncomingMessage): Forwarded {
		const peer = req.socket.remoteAddress ?? 'unknown';
		if (!this.trusts(peer)) return { ip: peer, origin: null };
		const rfc = parseForwarded(header(req, 'forwarded'));
		const chain =
			rfc.length > 0 ? rfc.map((element) => nodeAddress(element.for)) : list(header(req, 'x-forwarded-for')).map(nodeAddress);
		let ip = peer;
		for (let i = chain.length - 1; i >= 0; i--) {
			const hop = chain[i];
			if (!hop) break; // "unknown" or an obfuscated identifier: nothing more to believe
			ip = hop;
			if (!this.trusts(hop)) break;
		}
		if (this.fixedOrigin) return { ip, origin: null };
		const proto = (rfc[0]?.proto ?? list(header(req, 'x-forwarded-proto'))[0])?.toLowerCase();
		const host = rfc[0]?.host ?? list(header(req, 'x-forwarded-host'))[0];
		if (!host && !proto) return { ip, origin: null };
		const scheme = proto === 'https' || proto === 'http' ? proto : null;
		const authority =
			host && HOST.test(host)
				? host.toLowerCase()
				: req.headers.host && HOST.test(req.headers.host)
					? req.headers.host.toLowerCase()
					: null;
		if (!scheme && !authority) return { ip, origin: null };
		return { ip, origin: `${scheme ?? 'http'}://${authority ?? 'localhost'}` };
	}
}

function header(req: IncomingMessage, name: string): string {
	const value = req.headers[name];
	return Array.isArray(value) ? value.join(',') : (value ?? '');
}

function list(value: string): string[] {
	return value
		.split(',')
		.map((part) => part.trim())
		.filter((part) => part !== '');
}

/** RFC 7239 elements, in order: `for=192.0.2.60;proto=http;host=example.com, for="[2001:db8::1]:4711"`. */
function parseForwarded(value: string): Array<{ for?: string; proto?: string; host?: string }> {
	if (!value) return [];
	return list(value).map((element) => {
		const out: { for?: string; proto?: string; host?: string } = {};
		for (const pair of element.split(';')) {
			const eq = pair.indexOf('=');
			if (eq < 0) continue;
			const key = pair.slice(0, eq).trim().toLowerCase();
			let text = pair.slice(eq + 1).trim();
			if (text.startsWith('"') && text.endsWith('"') && text.length >= 2) text = text.slice(1, -1);
			if (key === 'for' || key === 'proto' || key === 'host') out[key] = text;
		}
		return out;
	});
}

/** An address from a forwarded node ("192.0.2.1", "192.0.2.1:80", "[2001:db8::1]:4711"), or null. */
function nodeAddress(node: string | undefined): string | null {
	if (!node) return null;
	let text = node.trim();
	if (text.startsWith('[')) text = text.slice(1, text.indexOf(']') < 0 ? undefined : text.indexOf(']'));
	else if (isIP(text) === 0 && /^[\d.]+:\d+$/.test(text)) text = text.slice(0, text.lastIndexOf(':'));
	return isIP(text) === 0 ? null : text;
}
