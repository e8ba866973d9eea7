/**
 * Archives of a commit's tree, as `git archive` writes them and GitHub's codeload serves them: a
 * tar (gzip-compressed by the caller) or a zip whose every path starts with
 * `{owner}-{repo}-{short sha}/`. Both are streams that read one object at a time from the
 * database as the reader asks for more: an archive is never built whole in memory.
 *
 * - tar: pax global header with `comment=<commit sha>` (git's), then folders, files (mode 644 or
 *   755), symbolic links; submodules are empty folders (as git archive writes them); long paths
 *   get pax extended headers (the `tar` package's Header and Pax).
 * - zip: yazl; each file's bytes are read only when yazl reaches it (addReadStreamLazy); the
 *   entry list itself (paths and ids) is walked first, since a zip's central directory needs it.
 */
import { Readable } from 'node:stream';
import type * as Tar from 'tar';
import type * as Yazl from 'yazl';
import type { App } from '../../app';
import { parseTree, type TreeMode } from '../git/objects';

/** yazl, loaded at its first zip: its module body is not run by a start. */
let yazlLibrary: typeof Yazl | undefined;
const yazl = () => (yazlLibrary ??= require('yazl') as typeof Yazl);

/** tar, loaded at its first use: its module body is not run by a start. */
let tarLibrary: typeof Tar | undefined;
const tar = () => (tarLibrary ??= require('tar') as typeof Tar);

/** One path of the archive, in git's order (a folder before its contents). */
interface ArchiveEntry {
	path: string;
	mode: TreeMode;
	sha: string;
}

/** Entries below the tree `root` (paths prefixed with `prefix`), depth first, read lazily. */
function* walk(app: App, repoId: number, root: string, prefix: string): Generator<ArchiveEntry> {
	const stack: Array<{ entries: ReturnType<typeof parseTree>; at: number; prefix: string }> = [];
	const open = (sha: string, path: string) => {
		const row = app.stores.git.object(repoId, sha);
		if (!row || row.type !== 'tree') throw new Error(`tree ${sha} is missing`);
		stack.push({ entries: parseTree(row.content), at: 0, prefix: path });
	};
	open(root, prefix);
	while (stack.length) {
		const top = stack[stack.length - 1];
		if (top.at >= top.entries.length) {
			stack.pop();
			continue;
		}
		const entry = top.entries[top.at++];
		const path = `${top.prefix}${entry.name}`;
		yield { path, mode: entry.mode, sha: entry.sha };
		if (entry.mode === '040000') open(entry.sha, `${path}/`);
	}
}

/** A blob's bytes. @throws Error when it is missing (the repository went away while streaming). */
function blob(app: App, repoId: number, sha: string): Buffer {
	const row = app.stores.git.object(repoId, sha);
	if (!row || row.type !== 'blob') throw new Error(`blob ${sha} is missing`);
	return row.content;
}

/** A tar header block, with a pax extended header before it when a name does not fit. */
function header(fields: {
	path: string;
	mode: number;
	size: number;
	mtime: Date;
	type: 'File' | 'Directory' | 'SymbolicLink';
	linkpath?: string;
}): Buffer[] {
	const h = new (tar().Header)({ ...fields, uid: 0, gid: 0, uname: 'root', gname: 'root' });
	h.encode();
	const blocks: Buffer[] = [];
	// A name over the 100 bytes of ustar's name field gets a pax record, as git archive writes it:
	// ustar's prefix/name split would drop a folder's trailing slash.
	const long = Buffer.byteLength(fields.path) > 100 || Buffer.byteLength(fields.linkpath ?? '') > 100;
	if (h.needPax || long) blocks.push(new (tar().Pax)({ path: fields.path, linkpath: fields.linkpath, mtime: fields.mtime }).encode());
	blocks.push(h.block!);
	return blocks;
}

/** Zero bytes to the next 512-byte boundary. */
const padding = (size: number) => Buffer.alloc((512 - (size % 512)) % 512);

/**
 * The uncompressed tar of the tree `tree` under the folder `top` (no trailing slash), every entry
 * dated `mtime` (the commit's committer date, as git archive does); the pax global header carries
 * the commit id.
 */
export function tarStream(app: App, repoId: number, commit: string, tree: string, top: string, mtime: Date): Readable {
	const entries = walk(app, repoId, tree, `${top}/`);
	let started = false;
	return new Readable({
		read() {
			try {
				if (!started) {
					started = true;
					this.push(new (tar().Pax)({ comment: commit }, true).encode());
					for (const block of header({ path: `${top}/`, mode: 0o775, size: 0, mtime, type: 'Directory' })) this.push(block);
				}
				for (;;) {
					const next = entries.next();
					if (next.done) {
						this.push(Buffer.alloc(1024));
						this.push(null);
						return;
					}
					const { path, mode, sha } = next.value;
					const chunks: Buffer[] = [];
					if (mode === '040000' || mode === '160000') {
						chunks.push(...header({ path: `${path}/`, mode: 0o775, size: 0, mtime, type: 'Directory' }));
					} else if (mode === '120000') {
						chunks.push(
							...header({
								path,
								mode: 0o777,
								size: 0,
								mtime,
								type: 'SymbolicLink',
								linkpath: blob(app, repoId, sha).toString('utf8'),
							}),
						);
					} else {
						const content = blob(app, repoId, sha);
						chunks.push(
							...header({ path, mode: mode === '100755' ? 0o775 : 0o664, size: content.length, mtime, type: 'File' }),
							content,
							padding(content.length),
						);
					}
					let more = true;
					for (const chunk of chunks) more = this.push(chunk);
					if (!more) return;
				}
			} catch (error) {
				this.destroy(error as Error);
			}
		},
	});
}

/** Entries at most in a zip (its listing is walked first); a bigger tree's zip fails, its tarball does not. */
export const MAX_ZIP_ENTRIES = 100_000;

/** A tree with more than MAX_ZIP_ENTRIES entries asked for as a zip. */
export class TooManyEntries extends Error {}

/**
 * The zip of the tree `tree` under the folder `top`, entries dated `mtime`. File contents are read
 * when yazl reaches them.
 * @throws TooManyEntries when the tree has more than MAX_ZIP_ENTRIES entries; Error when a tree is missing
 */
export function zipStream(app: App, repoId: number, tree: string, top: string, mtime: Date): Readable {
	const zip = new (yazl().ZipFile)();
	zip.addEmptyDirectory(`${top}/`, { mtime });
	let count = 0;
	for (const { path, mode, sha } of walk(app, repoId, tree, `${top}/`)) {
		if (++count > MAX_ZIP_ENTRIES) throw new TooManyEntries(`more than ${MAX_ZIP_ENTRIES} entries`);
		if (mode === '040000' || mode === '160000') {
			zip.addEmptyDirectory(`${path}/`, { mtime });
			continue;
		}
		const fileMode = mode === '120000' ? 0o120777 : mode === '100755' ? 0o100775 : 0o100664;
		zip.addReadStreamLazy(path, { mtime, mode: fileMode, compress: mode !== '120000' }, (callback) => {
			try {
				callback(null, Readable.from([blob(app, repoId, sha)]));
			} catch (error) {
				callback(error as Error, undefined as never);
			}
		});
	}
	zip.end();
	return zip.outputStream as Readable;
}
