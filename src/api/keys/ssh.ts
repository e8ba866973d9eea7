/**
 * SSH keys and SSH signatures, read as OpenSSH writes them: a public key line ("<type> <base64>
 * [comment]", the base64 being the key blob of RFC 4253 §6.6, RFC 5656, RFC 8709 and OpenSSH's
 * PROTOCOL.u2f), its SHA256 fingerprint as `ssh-keygen -l` prints it, and the armored signatures
 * `ssh-keygen -Y sign` makes (OpenSSH's PROTOCOL.sshsig), which git writes for gpg.format=ssh.
 * Signatures are checked with Node's crypto (Ed25519, RSA with SHA-256/512, ECDSA on the NIST
 * curves, and their security-key variants) once the envelope is parsed.
 */
import { createHash, createPublicKey, verify, type KeyObject } from 'node:crypto';

/** Key types GitHub accepts (DSA keys are no longer accepted). */
export const SSH_KEY_TYPES = [
	'ssh-ed25519',
	'ssh-rsa',
	'ecdsa-sha2-nistp256',
	'ecdsa-sha2-nistp384',
	'ecdsa-sha2-nistp521',
	'sk-ssh-ed25519@openssh.com',
	'sk-ecdsa-sha2-nistp256@openssh.com',
] as const;

/** A parsed public key. */
export interface SshPublicKey {
	type: string;
	/** The key blob (wire format). */
	blob: Buffer;
	/** "<type> <base64>", the comment dropped: what GitHub keeps and answers. */
	key: string;
	/** SHA256:<base64 without padding> of the blob, as ssh-keygen -l prints it. */
	fingerprint: string;
	/** The key for crypto.verify. */
	keyObject: KeyObject;
	/** Security keys (sk-…): the application string (e.g. "ssh:"). */
	application: string | null;
}

/** Reads SSH wire-format fields (RFC 4251 §5). @throws Error past the end */
class Reader {
	private at = 0;
	constructor(private readonly data: Buffer) {}
	uint32(): number {
		if (this.at + 4 > this.data.length) throw new Error('truncated');
		const value = this.data.readUInt32BE(this.at);
		this.at += 4;
		return value;
	}
	byte(): number {
		if (this.at + 1 > this.data.length) throw new Error('truncated');
		return this.data[this.at++];
	}
	bytes(length: number): Buffer {
		if (this.at + length > this.data.length) throw new Error('truncated');
		const value = this.data.subarray(this.at, this.at + length);
		this.at += length;
		return value;
	}
	string(): Buffer {
		return this.bytes(this.uint32());
	}
	text(): string {
		return this.string().toString('latin1');
	}
	/** An mpint's magnitude, without the sign byte. @throws Error for a negative number */
	mpint(): Buffer {
		const value = this.string();
		if (value.length && value[0] & 0x80) throw new Error('negative mpint');
		let start = 0;
		while (start < value.length && value[start] === 0) start++;
		return value.subarray(start);
	}
	get done(): boolean {
		return this.at === this.data.length;
	}
}

/** An SSH string field (uint32 length, then the bytes). */
function sshString(value: Buffer | string): Buffer {
	const bytes = typeof value === 'string' ? Buffer.from(value) : value;
	const length = Buffer.alloc(4);
	length.writeUInt32BE(bytes.length);
	return Buffer.concat([length, bytes]);
}

const CURVES: Record<string, { name: string; crv: string; size: number; hash: string }> = {
	nistp256: { name: 'nistp256', crv: 'P-256', size: 32, hash: 'sha256' },
	nistp384: { name: 'nistp384', crv: 'P-384', size: 48, hash: 'sha384' },
	nistp521: { name: 'nistp521', crv: 'P-521', size: 66, hash: 'sha512' },
};

/** The fingerprint of a key blob: SHA256:<base64 without padding>. */
export function fingerprintOf(blob: Buffer): string {
	return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

/**
 * Reads a key blob into a key Node's crypto can use.
 * @throws Error for an unknown type, a malformed blob or a point not on its curve
 */
function keyFromBlob(blob: Buffer): { type: string; keyObject: KeyObject; application: string | null } {
	const reader = new Reader(blob);
	const type = reader.text();
	let jwk: Record<string, string>;
	let application: string | null = null;
	const ecdsa = (curveName: string) => {
		const curve = CURVES[curveName];
		if (!curve || reader.text() !== curve.name) throw new Error('curve mismatch');
		const point = reader.string();
		if (point.length !== 1 + 2 * curve.size || point[0] !== 4) throw new Error('bad point');
		return {
			kty: 'EC',
			crv: curve.crv,
			x: point.subarray(1, 1 + curve.size).toString('base64url'),
			y: point.subarray(1 + curve.size).toString('base64url'),
		};
	};
	if (type === 'ssh-ed25519' || type === 'sk-ssh-ed25519@openssh.com') {
		const x = reader.string();
		if (x.length !== 32) throw new Error('bad ed25519 key');
		jwk = { kty: 'OKP', crv: 'Ed25519', x: x.toString('base64url') };
	} else if (type === 'ssh-rsa') {
		const e = reader.mpint();
		const n = reader.mpint();
		if (n.length * 8 < 1024) throw new Error('RSA keys need at least 1024 bits');
		jwk = { kty: 'RSA', e: e.toString('base64url'), n: n.toString('base64url') };
	} else if (type.startsWith('ecdsa-sha2-')) {
		jwk = ecdsa(type.slice('ecdsa-sha2-'.length));
	} else if (type === 'sk-ecdsa-sha2-nistp256@openssh.com') {
		jwk = ecdsa('nistp256');
	} else {
		throw new Error(`unsupported key type ${type}`);
	}
	if (type.startsWith('sk-')) application = reader.text();
	if (!reader.done) throw new Error('trailing data');
	return { type, keyObject: createPublicKey({ key: jwk, format: 'jwk' }), application };
}

/**
 * Parses an OpenSSH public key line.
 * @returns the key, or null when it is not a public key of a type GitHub accepts
 */
export function parseSshPublicKey(text: string): SshPublicKey | null {
	const match = /^\s*(\S+)\s+([A-Za-z0-9+/]+={0,2})(?:\s+.*)?$/s.exec(text.trim());
	if (!match || !(SSH_KEY_TYPES as readonly string[]).includes(match[1])) return null;
	const blob = Buffer.from(match[2], 'base64');
	try {
		const { type, keyObject, application } = keyFromBlob(blob);
		if (type !== match[1]) return null;
		return { type, blob, key: `${type} ${blob.toString('base64')}`, fingerprint: fingerprintOf(blob), keyObject, application };
	} catch {
		return null;
	}
}

/** An SSH signature's envelope (PROTOCOL.sshsig). */
export interface SshSignature {
	/** The signer's public key blob. */
	publicKey: Buffer;
	fingerprint: string;
	namespace: string;
	reserved: Buffer;
	hashAlgorithm: string;
	/** The signature blob. */
	signature: Buffer;
}

/**
 * Parses an armored SSH signature ("-----BEGIN SSH SIGNATURE-----").
 * @returns the envelope, or null when it is malformed
 */
export function parseSshSignature(armored: string): SshSignature | null {
	const match = /-----BEGIN SSH SIGNATURE-----\s*([A-Za-z0-9+/=\s]+?)\s*-----END SSH SIGNATURE-----/.exec(armored);
	if (!match) return null;
	try {
		const reader = new Reader(Buffer.from(match[1].replace(/\s+/g, ''), 'base64'));
		if (reader.bytes(6).toString('latin1') !== 'SSHSIG' || reader.uint32() !== 1) return null;
		const publicKey = reader.string();
		const namespace = reader.text();
		const reserved = reader.string();
		const hashAlgorithm = reader.text();
		const signature = reader.string();
		if (!reader.done) return null;
		return { publicKey: Buffer.from(publicKey), fingerprint: fingerprintOf(publicKey), namespace, reserved, hashAlgorithm, signature };
	} catch {
		return null;
	}
}

/** The signature algorithm names a key type may sign with. */
function acceptedFormats(type: string): string[] {
	if (type === 'ssh-rsa') return ['rsa-sha2-512', 'rsa-sha2-256'];
	return [type];
}

/**
 * Whether `signed` is a valid signature of `message` made in git's namespace by the key in its
 * envelope: the hash of the message wrapped as PROTOCOL.sshsig says, signed as the key type signs.
 * Never throws (a malformed signature blob is invalid).
 */
export function verifySshSignature(signed: SshSignature, message: Buffer | string): boolean {
	try {
		if (signed.namespace !== 'git') return false;
		if (signed.hashAlgorithm !== 'sha256' && signed.hashAlgorithm !== 'sha512') return false;
		const { type, keyObject, application } = keyFromBlob(signed.publicKey);
		const digest = createHash(signed.hashAlgorithm).update(message).digest();
		const data = Buffer.concat([
			Buffer.from('SSHSIG'),
			sshString(signed.namespace),
			sshString(signed.reserved),
			sshString(signed.hashAlgorithm),
			sshString(digest),
		]);
		const reader = new Reader(signed.signature);
		const format = reader.text();
		if (!acceptedFormats(type).includes(format)) return false;
		let raw = reader.string();
		let toVerify = data;
		if (type.startsWith('sk-')) {
			// Security keys sign SHA256(application) ‖ flags ‖ counter ‖ SHA256(data) (PROTOCOL.u2f).
			const flags = reader.byte();
			const counter = reader.bytes(4);
			toVerify = Buffer.concat([
				createHash('sha256')
					.update(application ?? '')
					.digest(),
				Buffer.from([flags]),
				counter,
				createHash('sha256').update(data).digest(),
			]);
		}
		if (!reader.done) return false;
		if (type === 'ssh-ed25519' || type === 'sk-ssh-ed25519@openssh.com') return verify(null, toVerify, keyObject, raw);
		if (type === 'ssh-rsa') return verify(format === 'rsa-sha2-512' ? 'sha512' : 'sha256', toVerify, keyObject, raw);
		// ECDSA: the blob holds mpint r and mpint s; Node takes them as r ‖ s of the curve's size.
		const curve = type.startsWith('sk-') ? CURVES.nistp256 : CURVES[type.slice('ecdsa-sha2-'.length)];
		const parts = new Reader(raw);
		const r = parts.mpint();
		const s = parts.mpint();
		if (r.length > curve.size || s.length > curve.size) return false;
		raw = Buffer.concat([Buffer.alloc(curve.size - r.length), r, Buffer.alloc(curve.size - s.length), s]);
		return verify(curve.hash, toVerify, { key: keyObject, dsaEncoding: 'ieee-p1363' }, raw);
	} catch {
		return false;
	}
}
