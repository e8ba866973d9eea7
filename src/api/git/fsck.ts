/**
 * git fsck's object checks, as `receive.fsckObjects` applies them to pushed objects (index-pack
 * --strict: git's warnings count as errors), with git's message ids and wording
 * (https://git-scm.com/docs/git-fsck#_fsck_messages): commits and tags must have well-formed
 * headers and identities; trees sorted entries without duplicates, standard modes, and no
 * `.`, `..`, `.git` (in its HFS+ and NTFS spellings too), empty or slash-containing names;
 * `.gitmodules` files no names that climb out (`..`) and no URL or path that git would read as
 * an option (a leading `-`).
 */

/** One finding: git's message id (camelCase) and its text. */
export interface FsckProblem {
	id: string;
	message: string;
}

const problem = (id: string, message: string): FsckProblem => ({ id, message });

/**
 * The header section (up to the first blank line) may hold no NUL and must end in a newline
 * (git's verify_headers).
 */
function verifyHeaders(content: Buffer): FsckProblem | null {
	for (let i = 0; i < content.length; i++) {
		if (content[i] === 0) return problem('nulInHeader', `unterminated header: NUL at offset ${i}`);
		if (content[i] === 0x0a && content[i + 1] === 0x0a) return null;
	}
	if (content.length && content[content.length - 1] === 0x0a) return null;
	return problem('unterminatedHeader', 'unterminated header');
}

/** git's fsck_ident on the text after "author ", "committer " or "tagger ": the line must be "Name <email> <seconds> <±hhmm>". */
function checkIdent(text: string, at: number): { problem: FsckProblem | null; next: number } {
	const lineEnd = text.indexOf('\n', at);
	const next = lineEnd < 0 ? text.length : lineEnd + 1;
	const fail = (id: string, what: string) => ({ problem: problem(id, `invalid author/committer line - ${what}`), next });
	let p = at;
	if (text[p] === '<') return fail('missingNameBeforeEmail', 'missing space before email');
	while (p < text.length && !'<>\n'.includes(text[p])) p++;
	if (text[p] === '>') return fail('badName', 'bad name');
	if (text[p] !== '<') return fail('missingEmail', 'missing email');
	if (text[p - 1] !== ' ') return fail('missingSpaceBeforeEmail', 'missing space before email');
	p++;
	while (p < text.length && !'<>\n'.includes(text[p])) p++;
	if (text[p] !== '>') return fail('badEmail', 'bad email');
	p++;
	if (text[p] !== ' ') return fail('missingSpaceBeforeDate', 'missing space before date');
	p++;
	if (text[p] === '0' && text[p + 1] !== ' ') return fail('zeroPaddedDate', 'zero-padded date');
	const dateStart = p;
	while (p < text.length && text[p] >= '0' && text[p] <= '9') p++;
	if (p - dateStart > 19 || (p > dateStart && Number(text.slice(dateStart, p)) > Number.MAX_SAFE_INTEGER))
		return fail('badDateOverflow', 'date causes integer overflow');
	if (p === dateStart || text[p] !== ' ') return fail('badDate', 'bad date');
	p++;
	if (!/^[+-]\d{4}\n/.test(text.slice(p, p + 6))) return fail('badTimezone', 'bad time zone');
	return { problem: null, next: p + 6 };
}

/** git's fsck_commit. */
export function checkCommit(content: Buffer): FsckProblem | null {
	const headers = verifyHeaders(content);
	if (headers) return headers;
	const text = content.toString('latin1');
	let at = 0;
	if (!text.startsWith('tree ')) return problem('missingTree', "invalid format - expected 'tree' line");
	if (!/^[0-9a-f]{40}\n/.test(text.slice(5, 46))) return problem('badTreeSha1', "invalid 'tree' line format - bad sha1");
	at = 46;
	while (text.startsWith('parent ', at)) {
		if (!/^[0-9a-f]{40}\n/.test(text.slice(at + 7, at + 48)))
			return problem('badParentSha1', "invalid 'parent' line format - bad sha1");
		at += 48;
	}
	let authors = 0;
	while (text.startsWith('author ', at)) {
		authors++;
		const ident = checkIdent(text, at + 7);
		if (ident.problem) return ident.problem;
		at = ident.next;
	}
	if (authors < 1) return problem('missingAuthor', "invalid format - expected 'author' line");
	if (authors > 1) return problem('multipleAuthors', "invalid format - multiple 'author' lines");
	if (!text.startsWith('committer ', at)) return problem('missingCommitter', "invalid format - expected 'committer' line");
	const ident = checkIdent(text, at + 10);
	if (ident.problem) return ident.problem;
	if (content.includes(0)) return problem('nulInCommit', 'NUL byte in the commit object body');
	return null;
}

const OBJECT_TYPES = new Set(['commit', 'tree', 'blob', 'tag']);

/** git's fsck_tag (the tag name and a missing tagger are only informational in git, so not checked). */
export function checkTag(content: Buffer): FsckProblem | null {
	const headers = verifyHeaders(content);
	if (headers) return headers;
	const text = content.toString('latin1');
	if (!text.startsWith('object ')) return problem('missingObject', "invalid format - expected 'object' line");
	if (!/^[0-9a-f]{40}\n/.test(text.slice(7, 48))) return problem('badObjectSha1', "invalid 'object' line format - bad sha1");
	let at = 48;
	if (!text.startsWith('type ', at)) return problem('missingTypeEntry', "invalid format - expected 'type' line");
	const typeEnd = text.indexOf('\n', at);
	if (typeEnd < 0) return problem('missingTypeEntry', "invalid format - unexpected end after 'type' line");
	if (!OBJECT_TYPES.has(text.slice(at + 5, typeEnd))) return problem('badType', "invalid 'type' value");
	at = typeEnd + 1;
	if (!text.startsWith('tag ', at)) return problem('missingTagEntry', "invalid format - expected 'tag' line");
	const tagEnd = text.indexOf('\n', at);
	if (tagEnd < 0) return problem('missingTagEntry', "invalid format - unexpected end after 'type' line");
	at = tagEnd + 1;
	if (text.startsWith('tagger ', at)) {
		const ident = checkIdent(text, at + 7);
		if (ident.problem) return ident.problem;
	}
	return null;
}

/** Code points HFS+ ignores in names (git's is_hfs_dotgit): ".git" with them in is still ".git" there. */
const HFS_IGNORED = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g;

/** True when `name` is `what` (".git", ".gitmodules") as HFS+ or NTFS would read it. */
function isDotName(name: string, what: string, shortName: RegExp): boolean {
	const folded = name.replace(HFS_IGNORED, '').toLowerCase();
	if (folded === what) return true;
	// NTFS drops trailing dots and spaces, and answers to the 8.3 short name.
	const trimmed = name.toLowerCase().replace(/[. ]+$/, '');
	if (trimmed === what) return true;
	return shortName.test(trimmed);
}
const isDotGit = (name: string) => isDotName(name, '.git', /^git~1$/);
/** True when a tree entry name is `.gitmodules` in any spelling a file system reads as such. */
export const isDotGitmodules = (name: string) => isDotName(name, '.gitmodules', /^gitmod~\d+$|^gi7eba~\d+$/);

/** True when a name may spell .git or .gitmodules somewhere (a dot, a g, or a non-ASCII byte HFS+ may ignore). */
function mayBeDotName(name: Buffer): boolean {
	const first = name[0];
	if (first === 0x2e || first === 0x67 || first === 0x47) return true;
	for (let i = 0; i < name.length; i++) if (name[i] >= 0x80) return true;
	return false;
}

/** Whether the mode bytes content[from, to) are one git writes (100644, 100755, 120000, 40000, 160000). */
function standardMode(content: Buffer, from: number, to: number): boolean {
	const length = to - from;
	if (length === 5) return content.toString('latin1', from, to) === '40000';
	if (length !== 6) return false;
	const mode = content.toString('latin1', from, to);
	return mode === '100644' || mode === '100755' || mode === '120000' || mode === '160000';
}

/** git's verify_ordered over two names in `content` (a directory's name as if it ended in '/'). */
function entryOrder(
	content: Buffer,
	a: number,
	aEnd: number,
	aTree: boolean,
	b: number,
	bEnd: number,
	bTree: boolean,
): 'ok' | 'dup' | 'unordered' {
	const length = Math.min(aEnd - a, bEnd - b);
	for (let i = 0; i < length; i++) {
		const d = content[a + i] - content[b + i];
		if (d < 0) return 'ok';
		if (d > 0) return 'unordered';
	}
	let c1 = aEnd - a > length ? content[a + length] : 0;
	let c2 = bEnd - b > length ? content[b + length] : 0;
	if (c1 === 0 && c2 === 0) return 'dup';
	if (c1 === 0 && aTree) c1 = 0x2f;
	if (c2 === 0 && bTree) c2 = 0x2f;
	return c1 < c2 ? 'ok' : 'unordered';
}

/**
 * git's fsck_tree with --strict, in one pass over the bytes.
 * @param onGitmodules called with the id of each `.gitmodules` blob entry (checked once all objects are in)
 * @param children when given, receives the offset of each entry's id that is not a gitlink (for walks)
 */
export function checkTree(content: Buffer, onGitmodules?: (oid: Buffer) => void, children?: number[]): FsckProblem | null {
	let first: FsckProblem | null = null;
	const report = (id: string, message: string) => {
		first ??= problem(id, message);
	};
	let previous = -1;
	let previousEnd = -1;
	let previousTree = false;
	let at = 0;
	while (at < content.length) {
		let space = at;
		while (space < content.length && space - at <= 7 && content[space] !== 0x20) {
			const c = content[space];
			if (c < 0x30 || c > 0x37) return problem('badTree', 'cannot be parsed as a tree');
			space++;
		}
		if (space >= content.length || content[space] !== 0x20 || space === at) return problem('badTree', 'cannot be parsed as a tree');
		const nul = content.indexOf(0, space + 1);
		if (nul < 0 || nul + 21 > content.length) return problem('badTree', 'cannot be parsed as a tree');
		const name = space + 1;
		const nameLength = nul - name;
		const isTree = space - at === 5 && content[at] === 0x34;
		const gitlink = space - at === 6 && content[at] === 0x31 && content[at + 1] === 0x36;
		let nullId = true;
		for (let i = nul + 1; i < nul + 21; i++) {
			if (content[i] !== 0) {
				nullId = false;
				break;
			}
		}
		if (nullId) report('nullSha1', 'contains entries pointing to null sha1');
		if (nameLength === 0) report('emptyName', 'contains empty pathname');
		else {
			for (let i = name; i < nul; i++) {
				if (content[i] === 0x2f) {
					report('fullPathname', 'contains full pathnames');
					break;
				}
			}
		}
		if (nameLength === 1 && content[name] === 0x2e) report('hasDot', "contains '.'");
		if (nameLength === 2 && content[name] === 0x2e && content[name + 1] === 0x2e) report('hasDotdot', "contains '..'");
		if (content[at] === 0x30) report('zeroPaddedFilemode', 'contains zero-padded file modes');
		else if (!standardMode(content, at, space)) report('badFilemode', 'contains bad file modes');
		if (nameLength && mayBeDotName(content.subarray(name, nul))) {
			const text = content.toString('utf8', name, nul);
			if (isDotGit(text)) report('hasDotgit', "contains '.git'");
			if (isDotGitmodules(text)) {
				const mode = content.toString('latin1', at, space);
				if (mode === '120000') report('gitmodulesSymlink', '.gitmodules is a symbolic link');
				else if (!isTree && !gitlink) onGitmodules?.(Buffer.from(content.subarray(nul + 1, nul + 21)));
			}
		}
		if (previous >= 0) {
			const order = entryOrder(content, previous, previousEnd, previousTree, name, nul, isTree);
			if (order === 'dup') report('duplicateEntries', 'contains duplicate file entries');
			else if (order === 'unordered') report('treeNotSorted', 'not properly sorted');
		}
		if (children && !gitlink) children.push(nul + 1);
		previous = name;
		previousEnd = nul;
		previousTree = isTree;
		at = nul + 21;
	}
	return first;
}

/**
 * git's fsck_gitmodules_fn over a `.gitmodules` blob: a git config file whose submodule names
 * must not climb out of .git/modules and whose URLs and paths must not look like options.
 */
export function checkGitmodules(content: Buffer): FsckProblem | null {
	const text = content.toString('utf8');
	let section: string | null = null;
	for (const raw of text.split('\n')) {
		const line = raw.trim();
		if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
		const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/.exec(line);
		if (header) {
			section = header[1].toLowerCase() === 'submodule' && header[2] !== undefined ? header[2].replace(/\\(.)/g, '$1') : null;
			if (section !== null && !validSubmoduleName(section)) return problem('gitmodulesName', `disallowed submodule name: ${section}`);
			continue;
		}
		if (line.startsWith('[')) return problem('gitmodulesParse', 'could not parse gitmodules blob');
		const pair = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line);
		if (!pair) return problem('gitmodulesParse', 'could not parse gitmodules blob');
		if (section === null) continue;
		const key = pair[1].toLowerCase();
		const value = unquote(pair[2] ?? '');
		if (key === 'url' && (value.startsWith('-') || /\n/.test(decodeURIComponentSafe(value))))
			return problem('gitmodulesUrl', `disallowed submodule url: ${value}`);
		if (key === 'path' && value.startsWith('-')) return problem('gitmodulesPath', `disallowed submodule path: ${value}`);
	}
	return null;
}

/** git's check_submodule_name: no ".." path component. */
function validSubmoduleName(name: string): boolean {
	if (name === '') return false;
	return !name.split(/[/\\]/).includes('..');
}

function unquote(value: string): string {
	const trimmed = value.replace(/\s+[#;].*$/, '').trim();
	if (trimmed.startsWith('"') && trimmed.endsWith('"') && trimmed.length >= 2) return trimmed.slice(1, -1).replace(/\\(.)/g, '$1');
	return trimmed;
}

function decodeURIComponentSafe(value: string): string {
	try {
		return decodeURIComponent(value);
	} catch {
		return value;
	}
}
