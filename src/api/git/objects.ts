/**
 * Git's canonical object encodings (blob, tree, commit, tag) and their object ids: the SHA-1 of
 * "<type> <size>\0<content>", so every id Gitstead hands out is the id `git hash-object`, `git mktree`,
 * `git commit-tree` and `git mktag` give the same content. Pure functions, no database.
 */
import { createHash } from 'node:crypto';

export type ObjectType = 'blob' | 'tree' | 'commit' | 'tag';

/** A full object id: 40 lowercase hexadecimal digits. */
export const FULL_SHA = /^[0-9a-f]{40}$/;

/** Object id of `content` stored as `type`: SHA-1 of "<type> <byte length>\0<content>". */
export function hashObject(type: ObjectType, content: Buffer): string {
	return createHash('sha1').update(`${type} ${content.length}\0`).update(content).digest('hex');
}

// ---------------------------------------------------------------------------------------------
// Identities: "Name <email> <epoch seconds> <±hhmm>"

/** An author, committer or tagger line's value. */
export interface Ident {
	name: string;
	email: string;
	/** Epoch seconds. */
	seconds: number;
	/** Git's offset notation: '+0200', '-0530'. */
	tz: string;
}

/** "Name <email> 1700000000 +0200" */
export function formatIdent(ident: Ident): string {
	return `${ident.name} <${ident.email}> ${ident.seconds} ${ident.tz}`;
}

/** Parses an identity value; lenient like git (an unparsable date reads as 0 +0000). */
export function parseIdent(text: string): Ident {
	const match = /^(.*?) ?<([^>]*)> ?(-?\d+)? ?([+-]\d{4})?\s*$/.exec(text);
	if (!match) return { name: text, email: '', seconds: 0, tz: '+0000' };
	return { name: match[1], email: match[2], seconds: Number(match[3] ?? 0), tz: match[4] ?? '+0000' };
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * An ISO 8601 timestamp ('2008-07-09T16:13:30+12:00', '...Z'; no offset means UTC) → epoch
 * seconds and git's offset notation, keeping the offset the caller gave (it is part of the object).
 * @returns null when the text is not such a timestamp or lies before 1970
 */
export function parseIsoDate(text: string): { seconds: number; tz: string } | null {
	const match = ISO_DATE.exec(text.trim());
	if (!match) return null;
	const [, y, mo, d, h, mi, s = '00', zone = 'Z'] = match;
	const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
	const check = new Date(utc);
	if (
		Number.isNaN(utc) ||
		check.getUTCDate() !== Number(d) ||
		check.getUTCMonth() !== Number(mo) - 1 ||
		Number(h) > 23 ||
		Number(mi) > 59 ||
		Number(s) > 59
	) {
		return null;
	}
	let tz = '+0000';
	let offsetMinutes = 0;
	if (zone.toUpperCase() !== 'Z') {
		const digits = zone.replace(':', '');
		const hours = Number(digits.slice(1, 3));
		const minutes = Number(digits.slice(3, 5));
		if (hours > 23 || minutes > 59) return null;
		tz = `${digits[0]}${digits.slice(1, 3)}${digits.slice(3, 5)}`;
		offsetMinutes = (digits[0] === '-' ? -1 : 1) * (hours * 60 + minutes);
	}
	const seconds = Math.floor(utc / 1000) - offsetMinutes * 60;
	if (seconds < 0) return null;
	return { seconds, tz };
}

// ---------------------------------------------------------------------------------------------
// Trees

/** Tree entry modes as the API spells them (git writes 040000 as 40000). */
export const TREE_MODES = ['100644', '100755', '040000', '160000', '120000'] as const;
export type TreeMode = (typeof TREE_MODES)[number];

/** The object type each mode points to. */
export const MODE_TYPE: Record<TreeMode, 'blob' | 'tree' | 'commit'> = {
	'100644': 'blob',
	'100755': 'blob',
	'040000': 'tree',
	'160000': 'commit',
	'120000': 'blob',
};

export interface TreeEntry {
	mode: TreeMode;
	name: string;
	sha: string;
}

/**
 * git's tree order (base_name_compare): names compared as bytes, a tree's name as if it ended
 * in '/'.
 */
function compareEntries(a: { name: Buffer; tree: boolean }, b: { name: Buffer; tree: boolean }): number {
	const length = Math.min(a.name.length, b.name.length);
	const common = Buffer.compare(a.name.subarray(0, length), b.name.subarray(0, length));
	if (common !== 0) return common;
	const ca = a.name.length > length ? a.name[length] : a.tree ? 0x2f : 0;
	const cb = b.name.length > length ? b.name[length] : b.tree ? 0x2f : 0;
	return ca - cb;
}

/** A tree's content: entries "<mode> <name>\0<20-byte id>" in git's order. */
export function encodeTree(entries: readonly TreeEntry[]): Buffer {
	const sorted = entries
		.map((entry) => ({ entry, name: Buffer.from(entry.name, 'utf8'), tree: entry.mode === '040000' }))
		.sort(compareEntries);
	const parts: Buffer[] = [];
	for (const { entry, name } of sorted) {
		parts.push(
			Buffer.from(`${entry.mode === '040000' ? '40000' : entry.mode} `, 'ascii'),
			name,
			Buffer.from([0]),
			Buffer.from(entry.sha, 'hex'),
		);
	}
	return Buffer.concat(parts);
}

/** A tree's entries, in stored order. */
export function parseTree(content: Buffer): TreeEntry[] {
	const entries: TreeEntry[] = [];
	let at = 0;
	while (at < content.length) {
		const space = content.indexOf(0x20, at);
		const nul = content.indexOf(0, space);
		if (space < 0 || nul < 0 || nul + 21 > content.length) break;
		const raw = content.toString('ascii', at, space);
		const mode = (raw === '40000' ? '040000' : raw) as TreeMode;
		entries.push({ mode, name: content.toString('utf8', space + 1, nul), sha: content.toString('hex', nul + 1, nul + 21) });
		at = nul + 21;
	}
	return entries;
}

/**
 * Why a path component cannot be a tree entry name (git fsck's rules), or null when it can.
 */
export function badEntryName(name: string): string | null {
	if (name === '') return 'contains an empty path component';
	if (name === '.' || name === '..') return `contains "${name}"`;
	if (name.toLowerCase() === '.git') return 'contains ".git"';
	if (name.includes('\0')) return 'contains a NUL character';
	return null;
}

// ---------------------------------------------------------------------------------------------
// Signatures

export interface Signature {
	/** The armor label: 'PGP SIGNATURE', 'SSH SIGNATURE', 'SIGNED MESSAGE', ... */
	kind: string;
	/** The armored block, ending in a newline. */
	signature: string;
	/** The text before the block: what was signed. */
	payload: string;
}

const ARMOR_END = /^-----END ([A-Z0-9][A-Z0-9 ]*)-----$/;

/**
 * A complete ASCII-armored block (-----BEGIN X-----...-----END X-----) closing `text`, as git
 * appends a tag's signature to its message; like git (parse_signed_buffer), the last BEGIN line
 * starts it. Linear in the text's length, whatever it holds.
 * @returns the block (ending in a newline) and the text before it, or null when the text ends in no such block
 */
export function findTrailingSignature(text: string): Signature | null {
	const body = text.endsWith('\n') ? text.slice(0, -1) : text;
	const end = ARMOR_END.exec(body.slice(body.lastIndexOf('\n') + 1));
	if (!end) return null;
	const begin = `-----BEGIN ${end[1]}-----\n`;
	const inner = body.lastIndexOf(`\n${begin}`);
	const start = inner >= 0 ? inner + 1 : body.startsWith(begin) ? 0 : -1;
	if (start < 0) return null;
	return { kind: end[1], signature: `${body.slice(start)}\n`, payload: text.slice(0, start) };
}

// ---------------------------------------------------------------------------------------------
// Commits

export interface CommitData {
	tree: string;
	parents: string[];
	author: Ident;
	committer: Ident;
	message: string;
	/** The gpgsig header's value (an armored signature ending in a newline), or null. */
	signature: string | null;
}

function commitHeaders(commit: Omit<CommitData, 'signature' | 'message'>): string {
	let text = `tree ${commit.tree}\n`;
	for (const parent of commit.parents) text += `parent ${parent}\n`;
	text += `author ${formatIdent(commit.author)}\ncommitter ${formatIdent(commit.committer)}\n`;
	return text;
}

/**
 * A multi-line header as git writes it (add_header_signature): the first line after the name,
 * every further line indented by one space.
 */
function multilineHeader(name: string, value: string): string {
	const text = value.endsWith('\n') ? value : `${value}\n`;
	const lines = text.slice(0, -1).split('\n');
	return `${name} ${lines.join('\n ')}\n`;
}

/** The commit's text without its signature: what a signature signs (verification.payload). */
export function commitPayload(commit: Omit<CommitData, 'signature'>): string {
	return `${commitHeaders(commit)}\n${commit.message}`;
}

/** A commit's content, byte for byte as git writes it (gpgsig after committer). */
export function encodeCommit(commit: CommitData): Buffer {
	const signature = commit.signature ? multilineHeader('gpgsig', commit.signature) : '';
	return Buffer.from(`${commitHeaders(commit)}${signature}\n${commit.message}`, 'utf8');
}

/** Splits an object's text into header lines (continuations joined) and the message. */
function splitHeaders(text: string): { headers: Array<[string, string]>; message: string } {
	const end = text.indexOf('\n\n');
	const head = end < 0 ? text : text.slice(0, end);
	const message = end < 0 ? '' : text.slice(end + 2);
	const headers: Array<[string, string]> = [];
	for (const line of head.split('\n')) {
		if (line.startsWith(' ') && headers.length) {
			headers[headers.length - 1][1] += `\n${line.slice(1)}`;
			continue;
		}
		const space = line.indexOf(' ');
		headers.push(space < 0 ? [line, ''] : [line.slice(0, space), line.slice(space + 1)]);
	}
	return { headers, message };
}

/** A stored commit's fields. */
export function parseCommit(content: Buffer): CommitData {
	const { headers, message } = splitHeaders(content.toString('utf8'));
	const commit: CommitData = {
		tree: '',
		parents: [],
		author: parseIdent(''),
		committer: parseIdent(''),
		message,
		signature: null,
	};
	for (const [name, value] of headers) {
		if (name === 'tree') commit.tree = value;
		else if (name === 'parent') commit.parents.push(value);
		else if (name === 'author') commit.author = parseIdent(value);
		else if (name === 'committer') commit.committer = parseIdent(value);
		else if (name === 'gpgsig') commit.signature = `${value}\n`;
	}
	return commit;
}

// ---------------------------------------------------------------------------------------------
// Tags

export interface TagData {
	object: string;
	type: ObjectType;
	tag: string;
	tagger: Ident;
	/** The message; a signature, when there is one, is its last part (as git stores it). */
	message: string;
}

/** A tag's content, byte for byte as git writes it. */
export function encodeTag(tag: TagData): Buffer {
	return Buffer.from(
		`object ${tag.object}\ntype ${tag.type}\ntag ${tag.tag}\ntagger ${formatIdent(tag.tagger)}\n\n${tag.message}`,
		'utf8',
	);
}

/** A stored tag's fields. */
export function parseTag(content: Buffer): TagData {
	const { headers, message } = splitHeaders(content.toString('utf8'));
	const tag: TagData = { object: '', type: 'commit', tag: '', tagger: parseIdent(''), message };
	for (const [name, value] of headers) {
		if (name === 'object') tag.object = value;
		else if (name === 'type') tag.type = value as ObjectType;
		else if (name === 'tag') tag.tag = value;
		else if (name === 'tagger') tag.tagger = parseIdent(value);
	}
	return tag;
}

// ---------------------------------------------------------------------------------------------
// Reference names

/**
 * git check-ref-format's rules for a full reference name ('refs/heads/main').
 * @returns true when git would accept the name
 */
export function isValidRefName(name: string): boolean {
	if (!name.startsWith('refs/') || name.endsWith('/') || name.endsWith('.') || name === '@') return false;
	if (name.includes('..') || name.includes('@{') || name.includes('//')) return false;
	// Control characters, space, ~ ^ : ? * [ \ and DEL.
	if (/[\x00-\x20~^:?*[\\\x7f]/.test(name)) return false;
	const components = name.split('/');
	if (components.length < 3) return false;
	return components.every((part) => part.length > 0 && !part.startsWith('.') && !part.endsWith('.lock'));
}
