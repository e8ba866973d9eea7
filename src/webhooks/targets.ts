/**
 * Where global webhooks may deliver (server-side request forgery guard).
 *
 * A hook URL must be http or https, and must not reach this machine or its cloud provider's
 * metadata service: loopback (127.0.0.0/8, ::1, the host name `localhost` and `*.localhost`),
 * link-local (169.254.0.0/16 with the metadata address 169.254.169.254, fe80::/10, and AWS's
 * IPv6 metadata address fd00:ec2::254) and unspecified addresses (0.0.0.0/8, ::) are refused, in
 * IPv4-mapped IPv6 form (::ffff:127.0.0.1) too. Private ranges (10/8, 172.16/12, 192.168/16,
 * fc00::/7) stay allowed: on-premises receivers live there. A host listed in config
 * `webhooks.allowed_hosts` (exact, case-insensitive: the URL's own host, not the addresses it
 * resolves to) is allowed whatever it is.
 *
 * The rule is checked twice: on the URL when a hook is created or updated (urlRefusal: IP literals
 * and `localhost` names, nothing is resolved), and when delivering (deliveryTarget: IP literals
 * before connecting, and every address a host name resolves to, through the `lookup` given to
 * http(s).request), so a name that resolves to loopback, or a DNS answer that changed since the
 * hook was saved (rebinding), is refused too.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** The configuration key that lifts the rule for listed hosts (named in every refusal). */
export const ALLOWED_HOSTS_KEY = 'webhooks.allowed_hosts';

/** Forbidden ranges, each with what an address inside it is; checked in order (most specific first). */
const FORBIDDEN_RANGES: Array<[what: string, ranges: Array<[network: string, prefix: number]>]> = [
	[
		'a cloud metadata address',
		[
			['169.254.169.254', 32],
			['fd00:ec2::254', 128],
		],
	],
	[
		'a loopback address',
		[
			['127.0.0.0', 8],
			['::1', 128],
		],
	],
	[
		'a link-local address',
		[
			['169.254.0.0', 16],
			['fe80::', 10],
		],
	],
	[
		'an unspecified address',
		[
			['0.0.0.0', 8],
			['::', 128],
		],
	],
	// Deprecated IPv4-compatible IPv6 (::127.0.0.1); never a legitimate receiver.
	['an IPv4-compatible IPv6 address', [['::', 96]]],
];
let forbidden: Array<{ what: string; list: BlockList }> | undefined;

/** FORBIDDEN_RANGES as BlockLists, built at the first check (not while the server starts). */
function forbiddenLists(): Array<{ what: string; list: BlockList }> {
	return (forbidden ??= FORBIDDEN_RANGES.map(([what, ranges]) => {
		const list = new BlockList();
		for (const [network, prefix] of ranges) list.addSubnet(network, prefix, isIP(network) === 4 ? 'ipv4' : 'ipv6');
		return { what, list };
	}));
}

/** A delivery refused by the address rule; its message is the delivery log's status. */
export class TargetRefused extends Error {
	readonly code = 'EWEBHOOKTARGET';
}

/**
 * Why an IP address may not receive deliveries, or null when it may.
 * @param address an IPv4 or IPv6 literal (IPv4-mapped IPv6 is checked as the IPv4 address it maps)
 * @returns e.g. "127.0.0.1 is a loopback address"; null for anything that is not an IP literal
 */
export function addressRefusal(address: string): string | null {
	const family = isIP(address);
	if (family === 0) return null;
	const type = family === 4 ? 'ipv4' : 'ipv6';
	const hit = forbiddenLists().find(({ list }) => list.check(address, type));
	return hit ? `${address} is ${hit.what}` : null;
}

/**
 * A host as compared with allowed_hosts: lower case, without IPv6 brackets or a trailing dot, IPv6
 * in its canonical form ("::ffff:127.0.0.1" → "::ffff:7f00:1", as URL host names are written).
 */
export function normalizeHost(host: string): string {
	let text = host.trim().toLowerCase();
	if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
	if (text.endsWith('.')) text = text.slice(0, -1);
	if (isIP(text) === 6) text = new URL(`http://[${text}]/`).hostname.slice(1, -1);
	return text;
}

/** Whether `url`'s host is listed in `allowedHosts` (config webhooks.allowed_hosts). */
export function hostAllowed(url: URL, allowedHosts: readonly string[]): boolean {
	const host = normalizeHost(url.hostname);
	return allowedHosts.some((entry) => normalizeHost(entry) === host);
}

/**
 * Why a hook URL may not be used, judged without resolving it, or null when it may: not http(s),
 * an IP literal in a forbidden range, or a `localhost` name — unless its host is in `allowedHosts`.
 * @returns a sentence fragment naming the reason, e.g. "127.0.0.1 is a loopback address"
 */
export function urlRefusal(url: URL, allowedHosts: readonly string[]): string | null {
	if (url.protocol !== 'http:' && url.protocol !== 'https:') return `${url.protocol} URLs are not delivered (only http and https)`;
	if (hostAllowed(url, allowedHosts)) return null;
	const host = normalizeHost(url.hostname);
	if (host === 'localhost' || host.endsWith('.localhost')) return `${host} is a loopback host name`;
	return addressRefusal(host);
}

/**
 * How a delivery may connect to `url`: `refusal` (the reason, as in urlRefusal) when it may not at
 * all — not http(s), or an IP literal in a forbidden range — and otherwise the `lookup` to give
 * http(s).request: guardedLookup for a host name, which checks every address the name resolves to
 * (`localhost` included), or none for a host in `allowedHosts` or an IP literal.
 */
export function deliveryTarget(url: URL, allowedHosts: readonly string[]): { refusal: string | null; lookup?: LookupFunction } {
	if (url.protocol !== 'http:' && url.protocol !== 'https:')
		return { refusal: `${url.protocol} URLs are not delivered (only http and https)` };
	if (hostAllowed(url, allowedHosts)) return { refusal: null };
	const host = normalizeHost(url.hostname);
	if (isIP(host) !== 0) return { refusal: addressRefusal(host) };
	return { refusal: null, lookup: guardedLookup };
}

/**
 * A `lookup` for http(s).request that resolves with dns.lookup and fails with TargetRefused when
 * any address of the answer is forbidden (for hosts not in allowed_hosts). Answers in whichever
 * form the caller asked for (`all` or one address), as net.connect expects.
 */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
	dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
		if (error) return callback(error, '', 0);
		for (const { address } of addresses) {
			const reason = addressRefusal(address);
			if (reason) return callback(new TargetRefused(reason), '', 0);
		}
		if (addresses.length === 0)
			return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
		if (options.all) callback(null, addresses);
		else callback(null, addresses[0].address, addresses[0].family);
	});
};
