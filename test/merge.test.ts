/**
 * The merge engine (src/api/git/merge.ts) against git itself: histories are built over
 * HTTP (POST git/trees, git/blobs, git/commits) and, identically, with the git binary in a temporary
 * repository (commit ids must agree); then Gitstead's merged trees are compared with
 * `git merge-tree --write-tree` (chosen cases and 40 random histories), conflicts with the paths git
 * names, line merges with `git merge-file` (500 random cases), merge and squash commits with
 * `git commit-tree`, rebases with a `git cherry-pick` sequence (same commit ids), and every object
 * Gitstead stored passes `git fsck --strict`.
 * Skipped, with a message, when no git binary is installed.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
	EMPTY_TREE,
	MERGE_LIMITS,
	MergeTooLargeError,
	mergeBase,
	mergeCommit,
	mergeText,
	mergeTrees,
	rebaseCommits,
	squashCommit,
	type MergeConflict,
} from '../src/api/git/merge';
import { merge3 } from '../src/api/git/diff3';
import { parseCommit, type Ident } from '../src/api/git/objects';
import { storedObjectCount, storedObjects } from './helpers/git-objects';
import { startServer, type TestServer } from './helpers/server';

const test = suite('merge');
const hasGit = spawnSync('git', ['--version']).status === 0;
let s: TestServer;
let token: string;
let repoId: number;
let work: string;
let repo: string;
const R = '/repos/acme/merges/git';
const NOW = '2026-11-22T12:00:00Z';

// ---- the git binary, in a repository of its own (no user or system configuration)

function gitEnv(extra: Record<string, string> = {}): Record<string, string> {
	return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: work, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', ...extra };
}
function git(args: string[], options: { input?: string | Buffer; env?: Record<string, string> } = {}): string {
	return execFileSync('git', args, { cwd: repo, input: options.input, env: gitEnv(options.env), stdio: ['pipe', 'pipe', 'pipe'] })
		.toString('utf8')
		.trim();
}
/** git that may exit 1 (merge-tree on conflicts): stdout and status. */
function gitStatus(args: string[]): { status: number; stdout: string } {
	const run = spawnSync('git', args, { cwd: repo, env: gitEnv() });
	return { status: run.status ?? -1, stdout: run.stdout.toString('utf8') };
}

// ---- histories: a commit is a set of files, built both ways

type File = string | Buffer | { content: string | Buffer; mode: '100644' | '100755' | '120000' };
type Files = Record<string, File>;

const norm = (file: File) => (typeof file === 'string' || Buffer.isBuffer(file) ? { content: file, mode: '100644' as const } : file);

let tick = 0;
/** A fresh date for each commit, so ids differ; "<ISO>" for Gitstead, "<epoch> +0000" for git. */
function nextDate(): { iso: string; git: string; seconds: number } {
	const seconds = Date.UTC(2026, 0, 1) / 1000 + ++tick * 60;
	return { iso: new Date(seconds * 1000).toISOString().replace('.000', ''), git: `${seconds} +0000`, seconds };
}
const AUTHOR = { name: 'Ada Author', email: 'ada@example.com' };
const COMMITTER: Ident = { name: 'Gitstead', email: 'noreply@gitstead.test', seconds: Date.UTC(2026, 10, 22, 12) / 1000, tz: '+0000' };

/** The tree git gives these files (git hash-object + git mktree, nested by '/'). */
function gitTree(files: Files): string {
	const here: string[] = [];
	const dirs = new Map<string, Files>();
	for (const [path, file] of Object.entries(files)) {
		const slash = path.indexOf('/');
		if (slash >= 0) {
			const dir = path.slice(0, slash);
			dirs.set(dir, { ...(dirs.get(dir) ?? {}), [path.slice(slash + 1)]: file });
			continue;
		}
		const { content, mode } = norm(file);
		here.push(`${mode} blob ${git(['hash-object', '-w', '--stdin'], { input: content })}\t${path}\n`);
	}
	for (const [dir, inner] of dirs) here.push(`040000 tree ${gitTree(inner)}\t${dir}\n`);
	return git(['mktree'], { input: here.join('') });
}

/** The same commit made in Gitstead (over HTTP) and in git; their ids must agree. */
async function commit(files: Files, parents: string[], message: string): Promise<string> {
	const date = nextDate();
	const tree: unknown[] = [];
	for (const [path, file] of Object.entries(files)) {
		const { content, mode } = norm(file);
		if (Buffer.isBuffer(content)) {
			const blob = await s.request('POST', `${R}/blobs`, {
				token,
				body: { content: content.toString('base64'), encoding: 'base64' },
			});
			assert.is(blob.status, 201);
			tree.push({ path, mode, type: 'blob', sha: blob.body.sha });
		} else {
			tree.push({ path, mode, type: 'blob', content });
		}
	}
	const made = await s.request('POST', `${R}/trees`, { token, body: { tree } });
	assert.is(made.status, 201, `~> ${made.text}`);
	const person = { ...AUTHOR, date: date.iso };
	const created = await s.request('POST', `${R}/commits`, {
		token,
		body: { message, tree: made.body.sha, parents, author: person, committer: person },
	});
	assert.is(created.status, 201, `~> ${created.text}`);
	const env = {
		GIT_AUTHOR_NAME: AUTHOR.name,
		GIT_AUTHOR_EMAIL: AUTHOR.email,
		GIT_AUTHOR_DATE: date.git,
		GIT_COMMITTER_NAME: AUTHOR.name,
		GIT_COMMITTER_EMAIL: AUTHOR.email,
		GIT_COMMITTER_DATE: date.git,
	};
	const gitCommit = git(['commit-tree', gitTree(files), ...parents.flatMap((p) => ['-p', p])], { input: message, env });
	assert.is(created.body.sha, gitCommit, '~> Gitstead and git made the same commit');
	return gitCommit;
}

const treeOf = (sha: string) => parseCommit(s.app.stores.git.object(repoId, sha)!.content).tree;

/** Base, ours, theirs: two commits on one base, each side the base's files with its changes (null deletes). */
async function history(base: Files, ours: Record<string, File | null>, theirs: Record<string, File | null>) {
	const apply = (changes: Record<string, File | null>) => {
		const files = { ...base };
		for (const [path, file] of Object.entries(changes)) {
			if (file === null) delete files[path];
			else files[path] = file;
		}
		return files;
	};
	const b = await commit(base, [], 'base\n');
	const o = await commit(apply(ours), [b], 'ours\n');
	const t = await commit(apply(theirs), [b], 'theirs\n');
	return { base: b, ours: o, theirs: t };
}

/** git merge-tree --write-tree: the merged tree, and the conflicted paths (sorted). */
function gitMergeTree(ours: string, theirs: string): { tree: string; conflicts: string[] } {
	const run = gitStatus(['merge-tree', '--write-tree', '--name-only', '--no-messages', ours, theirs]);
	assert.ok(run.status === 0 || run.status === 1, `~> git merge-tree failed: ${run.stdout}`);
	const [tree, ...rest] = run.stdout.split('\n').filter((line) => line !== '');
	// git moves one side of a file/directory or type conflict aside, to "<path>~<commit>": the same path.
	return { tree, conflicts: run.status === 0 ? [] : [...new Set(rest.map((path) => path.replace(/~[0-9a-f]{40}$/, '')))].sort() };
}

/** Gitstead's merge of two commits against their merge base. */
function engineMerge(ours: string, theirs: string) {
	const base = mergeBase(s.app, repoId, ours, theirs);
	return mergeTrees(s.app, repoId, base ? treeOf(base) : null, treeOf(ours), treeOf(theirs), NOW);
}

async function expectClean(
	name: string,
	base: Files,
	ours: Record<string, File | null>,
	theirs: Record<string, File | null>,
): Promise<string> {
	const h = await history(base, ours, theirs);
	const expected = gitMergeTree(h.ours, h.theirs);
	assert.equal(expected.conflicts, [], `~> ${name}: git merges it cleanly`);
	const result = engineMerge(h.ours, h.theirs);
	assert.equal(result, { tree: expected.tree }, `~> ${name}: the same tree as git merge-tree`);
	// Merging the other way round gives the same tree.
	assert.equal(engineMerge(h.theirs, h.ours), { tree: gitMergeTree(h.theirs, h.ours).tree }, `~> ${name}: symmetric`);
	return expected.tree;
}

async function expectConflicts(
	name: string,
	base: Files,
	ours: Record<string, File | null>,
	theirs: Record<string, File | null>,
	reasons: Record<string, string>,
): Promise<MergeConflict[]> {
	const h = await history(base, ours, theirs);
	const expected = gitMergeTree(h.ours, h.theirs);
	const before = objectCount();
	const result = engineMerge(h.ours, h.theirs);
	assert.ok('conflicts' in result, `~> ${name}: a conflict`);
	const conflicts = (result as { conflicts: MergeConflict[] }).conflicts;
	assert.equal([...new Set(conflicts.map((c) => c.path))].sort(), expected.conflicts, `~> ${name}: the paths git names`);
	assert.equal(Object.fromEntries(conflicts.map((c) => [c.path, c.reason])), reasons, `~> ${name}: reasons`);
	assert.is(objectCount(), before, `~> ${name}: a conflicting merge stores nothing`);
	return conflicts;
}

const objectCount = () => storedObjectCount(s.app, repoId);

/** A seeded random number generator (mulberry32): random(n) is an integer in [0, n). */
function generator(seed: number): (n: number) => number {
	let state = seed >>> 0;
	return (n) => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
	};
}

const text = (...lines: string[]) => `${lines.join('\n')}\n`;
const TEN = text('one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten');

test.before(async () => {
	if (!hasGit) return;
	work = mkdtempSync(join(tmpdir(), 'gitstead-merge-'));
	repo = join(work, 'repo');
	execFileSync('git', ['init', '-q', repo], { env: gitEnv() });
	s = await startServer();
	s.user('olivia');
	s.org('acme', 'olivia');
	token = s.fullToken('olivia');
	assert.is((await s.request('POST', '/orgs/acme/repos', { token, body: { name: 'merges', auto_init: true } })).status, 201);
	repoId = s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.byLogin('acme')!.id, 'merges')!.id;
});
test.after(async () => {
	if (!hasGit) return;
	await s.close();
	rmSync(work, { recursive: true, force: true });
});

if (!hasGit) {
	test('merge engine against git – skipped: no git binary on PATH', () => {
		console.warn('merge.test.ts: git is not installed; the comparisons with git are skipped');
	});
} else {
	test('mergeText – one side, both sides apart, the same change twice; touching changes conflict', () => {
		assert.is(mergeText('a\nb\nc\n', 'A\nb\nc\n', 'a\nb\nC\n'), 'A\nb\nC\n');
		assert.is(mergeText('a\nb\n', 'a\nX\nb\n', 'a\nX\nb\n'), 'a\nX\nb\n');
		assert.is(mergeText('a\nb\nc\n', 'A\nb\nc\n', 'a\nB\nc\n'), null);
		assert.is(mergeText('a\nb\nc', 'A\nb\nc', 'a\nb\nc\nd'), 'A\nb\nc\nd', '~> a last line without newline round-trips');
	});

	test('line merges – 500 random edits of files of repeated lines: clean or conflicting and the merged text as git merge-file', () => {
		const random = generator(7);
		const alphabet = ['a\n', 'b\n', 'c\n', '}\n', '\n', 'd\n', 'e\n'];
		const edit = (lines: string[]) => {
			const out = [...lines];
			for (let i = 1 + random(8); i > 0; i--) {
				const at = random(out.length + 1);
				const op = random(3);
				if (op === 0) out.splice(at, 0, `n${random(5)}\n`);
				else if (op === 1) out.splice(at, 1);
				else if (at < out.length) out[at] = `m${random(5)}\n`;
			}
			return out.join('');
		};
		const dir = mkdtempSync(join(work, 'merge-file-'));
		const disagree: string[] = [];
		for (let round = 0; round < 500; round++) {
			const lines = Array.from({ length: 3 + random(40) }, () => alphabet[random(alphabet.length)]);
			const [base, ours, theirs] = [lines.join(''), edit(lines), edit(lines)];
			writeFileSync(join(dir, 'base'), base);
			writeFileSync(join(dir, 'ours'), ours);
			writeFileSync(join(dir, 'theirs'), theirs);
			const run = spawnSync('git', ['merge-file', '-p', '-q', join(dir, 'ours'), join(dir, 'base'), join(dir, 'theirs')], {
				env: gitEnv(),
			});
			const expected = run.status === 0 ? run.stdout.toString('latin1') : null;
			if (mergeText(base, ours, theirs) !== expected) disagree.push(JSON.stringify({ base, ours, theirs }));
		}
		// Ambiguous alignments (which of two equal lines changed) are decided as git decides them (xdl_change_compact).
		assert.equal(disagree, [], '~> every merge agrees with git');
	});

	test('line merges are bounded – 200,000 lines of repeated braces in well under seconds; past MAX_EDITS a give-up', () => {
		const base = Array.from({ length: 200_000 }, (_, i) => (i % 2 ? '}\n' : i % 3 ? '\n' : `line ${i}\n`));
		const ours = [...base];
		const theirs = [...base];
		for (let i = 0; i < base.length; i += 200) ours[i] = `ours ${i}\n`;
		for (let i = 100; i < base.length; i += 200) theirs[i] = `theirs ${i}\n`;
		const merged = merge3(base.join(''), ours.join(''), theirs.join(''));
		assert.type(merged, 'string');
		assert.ok((merged as string).includes('ours 0\ntheirs') === false && (merged as string).startsWith('ours 0\n}\n'));
		assert.is(merge3(base.join(''), ours.join(''), theirs.join(''), 100), 'too large');
	});

	test('clean merges – the tree git merge-tree --write-tree writes', async () => {
		await expectClean('disjoint files', { 'a.txt': 'a\n', 'b.txt': 'b\n' }, { 'a.txt': 'a2\n' }, { 'b.txt': 'b2\n' });
		await expectClean(
			'same file, different regions',
			{ 'f.txt': TEN },
			{ 'f.txt': TEN.replace('two', 'TWO') },
			{ 'f.txt': TEN.replace('nine', 'NINE') },
		);
		await expectClean(
			'the same change on both sides',
			{ 'f.txt': TEN, 'g.txt': 'g\n' },
			{ 'f.txt': TEN.replace('five', 'FIVE') },
			{ 'f.txt': TEN.replace('five', 'FIVE'), 'g.txt': 'g2\n' },
		);
		await expectClean(
			'an addition in a new subdirectory',
			{ 'a.txt': 'a\n', 'src/x.ts': 'x\n' },
			{ 'src/deep/new.ts': 'new\n', 'docs/readme.md': 'doc\n' },
			{ 'a.txt': 'a2\n' },
		);
		await expectClean(
			'additions on both sides in one new directory',
			{ 'a.txt': 'a\n' },
			{ 'lib/one.ts': '1\n' },
			{ 'lib/two.ts': '2\n' },
		);
		await expectClean(
			'a deletion on one side, untouched on the other',
			{ 'a.txt': 'a\n', 'gone.txt': 'bye\n', 'dir/x.txt': 'x\n' },
			{ 'gone.txt': null, 'dir/x.txt': null },
			{ 'a.txt': 'a2\n' },
		);
		await expectClean(
			'the executable bit on one side, content on the other',
			{ 'run.sh': text('#!/bin/sh', 'echo one', 'echo two', 'echo three', 'echo four') },
			{ 'run.sh': { content: text('#!/bin/sh', 'echo one', 'echo two', 'echo three', 'echo four'), mode: '100755' } },
			{ 'run.sh': text('#!/bin/sh', 'echo one', 'echo two', 'echo three', 'echo FOUR') },
		);
		await expectClean(
			'the executable bit and lines on both sides',
			{ 'run.sh': TEN },
			{ 'run.sh': { content: TEN.replace('one', 'ONE'), mode: '100755' } },
			{ 'run.sh': TEN.replace('ten', 'TEN') },
		);
		await expectClean(
			'insertions at neighbouring places',
			{ 'f.txt': TEN },
			{ 'f.txt': TEN.replace('two\n', 'two\nafter two\n') },
			{ 'f.txt': TEN.replace('four\n', 'four\nafter four\n') },
		);
		await expectClean(
			'a last line without newline',
			{ 'f.txt': 'a\nb\nc\nd\ne' },
			{ 'f.txt': 'A\nb\nc\nd\ne' },
			{ 'f.txt': 'a\nb\nc\nd\ne\nf' },
		);
		await expectClean(
			'a symbolic link retargeted on one side',
			{ link: { content: 'a.txt', mode: '120000' }, 'a.txt': 'a\n' },
			{ link: { content: 'b.txt', mode: '120000' } },
			{ 'a.txt': 'a2\n' },
		);
		await expectClean(
			'a file replaced by a directory, the other side elsewhere',
			{ thing: 'file\n', 'a.txt': 'a\n' },
			{ thing: null, 'thing/inside.txt': 'in\n' },
			{ 'a.txt': 'a2\n' },
		);
		await expectClean(
			'a directory emptied on one side',
			{ 'dir/x.txt': 'x\n', 'a.txt': 'a\n' },
			{ 'dir/x.txt': null },
			{ 'a.txt': 'a2\n' },
		);
		await expectClean(
			'a binary file changed on one side',
			{ 'img.bin': Buffer.from([0, 1, 2, 3]), 'a.txt': 'a\n' },
			{ 'img.bin': Buffer.from([0, 9, 9]) },
			{ 'a.txt': 'a2\n' },
		);
		await expectClean(
			'non-UTF-8 bytes merged by lines',
			{ 'l1.txt': Buffer.from('caf\xe9\nb\nc\nd\n', 'latin1') },
			{ 'l1.txt': Buffer.from('CAF\xc9\nb\nc\nd\n', 'latin1') },
			{ 'l1.txt': Buffer.from('caf\xe9\nb\nc\nD\xff\n', 'latin1') },
		);
	});

	test('conflicts – the paths git names: content, modify/delete, add/add, binary, file/directory', async () => {
		await expectConflicts(
			'content',
			{ 'f.txt': TEN, 'ok.txt': 'ok\n' },
			{ 'f.txt': TEN.replace('five', 'FIVE'), 'ok.txt': 'ok2\n' },
			{ 'f.txt': TEN.replace('five', 'Five') },
			{ 'f.txt': 'content' },
		);
		await expectConflicts(
			'modify/delete',
			{ 'f.txt': TEN, 'g.txt': 'g\n' },
			{ 'f.txt': null },
			{ 'f.txt': TEN.replace('one', 'ONE') },
			{ 'f.txt': 'modify/delete' },
		);
		await expectConflicts('add/add', { 'a.txt': 'a\n' }, { 'new.txt': 'mine\n' }, { 'new.txt': 'yours\n' }, { 'new.txt': 'add/add' });
		await expectConflicts(
			'changes on touching lines',
			{ 'f.txt': TEN },
			{ 'f.txt': TEN.replace('four', 'FOUR') },
			{ 'f.txt': TEN.replace('five', 'FIVE') },
			{ 'f.txt': 'content' },
		);
		await expectConflicts(
			'a deleted file whose mode changed on the other side',
			{ 'run.sh': 'run\n' },
			{ 'run.sh': null },
			{ 'run.sh': { content: 'run\n', mode: '100755' } },
			{ 'run.sh': 'modify/delete' },
		);
		await expectConflicts(
			'binary',
			{ 'img.bin': Buffer.from([0, 1, 2, 3]) },
			{ 'img.bin': Buffer.from([0, 1, 2, 4]) },
			{ 'img.bin': Buffer.from([0, 1, 2, 5]) },
			{ 'img.bin': 'binary' },
		);
		await expectConflicts(
			'a directory deleted on one side, a file in it changed on the other',
			{ 'dir/x.txt': 'x\n', 'dir/y.txt': 'y\n', 'a.txt': 'a\n' },
			{ 'dir/x.txt': null, 'dir/y.txt': null },
			{ 'dir/x.txt': 'x2\n' },
			{ 'dir/x.txt': 'modify/delete' },
		);
		await expectConflicts(
			'add/add with the same content and different modes',
			{ 'a.txt': 'a\n' },
			{ tool: 'same\n' },
			{ tool: { content: 'same\n', mode: '100755' } },
			{ tool: 'mode' },
		);
		await expectConflicts(
			'a file on one side, a symbolic link on the other',
			{ p: 'target\n' },
			{ p: 'changed\n' },
			{ p: { content: 'elsewhere', mode: '120000' } },
			{ p: 'type' },
		);
		await expectConflicts(
			'a symbolic link retargeted on both sides',
			{ l: { content: 'a', mode: '120000' } },
			{ l: { content: 'b', mode: '120000' } },
			{ l: { content: 'c', mode: '120000' } },
			{ l: 'symlink' },
		);
		await expectConflicts(
			'two at once, in subdirectories',
			{ 'x/a.txt': 'a\n', 'y/b.txt': 'b\n' },
			{ 'x/a.txt': 'a1\n', 'y/b.txt': null },
			{ 'x/a.txt': 'a2\n', 'y/b.txt': 'b2\n' },
			{ 'x/a.txt': 'content', 'y/b.txt': 'modify/delete' },
		);
	});

	test('bounds – past the entry or byte cap a merge throws MergeTooLargeError; a blob over the file cap is a conflict', async () => {
		const h = await history(
			{ 'd/a.txt': TEN, 'd/b.txt': 'b\n', 'e.txt': 'e\n' },
			{ 'd/a.txt': TEN.replace('one', 'ONE'), 'e.txt': 'e1\n' },
			{ 'd/a.txt': TEN.replace('ten', 'TEN'), 'e.txt': 'e1\n' },
		);
		const [b, o, t] = [h.base, h.ours, h.theirs].map(treeOf);
		assert.ok('tree' in mergeTrees(s.app, repoId, b, o, t, NOW, { ...MERGE_LIMITS, entries: 5 }), '~> 2 + 2 entries compared');
		assert.throws(
			() => mergeTrees(s.app, repoId, b, o, t, NOW, { ...MERGE_LIMITS, entries: 3 }),
			(error: Error) => error instanceof MergeTooLargeError && /more than 3 tree entries/.test(error.message),
		);
		assert.throws(
			() => mergeTrees(s.app, repoId, b, o, t, NOW, { ...MERGE_LIMITS, bytes: 100 }),
			(error: Error) => error instanceof MergeTooLargeError && /more than 100 bytes/.test(error.message),
		);
		assert.equal(mergeTrees(s.app, repoId, b, o, t, NOW, { ...MERGE_LIMITS, file: 10 }), {
			conflicts: [{ path: 'd/a.txt', reason: 'too large' }],
		});
	});

	test('tree merges – 40 random histories (edits, deletions, additions, modes, in subdirectories) against git merge-tree', async () => {
		const random = generator(11);
		const PATHS = ['a.txt', 'b.txt', 'd/x.txt', 'd/y.txt', 'd/e/z.txt', 'f.txt', 'g/h.txt'];
		const alphabet = ['a', 'b', 'c', '}', '', 'd'];
		const body = () =>
			Array.from({ length: 4 + random(6) }, () => alphabet[random(alphabet.length)])
				.map((line) => `${line}\n`)
				.join('');
		let fresh = 0;
		const change = (files: Files): Record<string, File | null> => {
			const changes: Record<string, File | null> = {};
			for (let i = 2 + random(5); i > 0; i--) {
				const path = PATHS[random(PATHS.length)];
				const now = changes[path] === undefined ? files[path] : changes[path];
				const op = random(5);
				if (now === undefined || now === null) {
					// Added content is unlike anything else, so git's rename detection finds nothing to pair.
					if (op < 3) changes[path] = Array.from({ length: 3 }, () => `fresh ${++fresh} ${'#'.repeat(fresh % 7)}\n`).join('');
				} else if (op === 0) changes[path] = null;
				else if (op === 1) changes[path] = { content: norm(now).content, mode: norm(now).mode === '100755' ? '100644' : '100755' };
				else {
					const lines = (norm(now).content as string).split(/(?<=\n)/);
					lines[random(lines.length)] = `edit ${random(3)}\n`;
					changes[path] = { content: lines.join(''), mode: norm(now).mode };
				}
			}
			return changes;
		};
		let clean = 0;
		for (let round = 0; round < 40; round++) {
			const base: Files = {};
			for (const path of PATHS) if (random(4) > 0) base[path] = body();
			const h = await history(base, change(base), change(base));
			const expected = gitMergeTree(h.ours, h.theirs);
			const result = engineMerge(h.ours, h.theirs);
			if (expected.conflicts.length === 0) {
				clean++;
				assert.equal(result, { tree: expected.tree }, `~> round ${round}: git's tree`);
			} else {
				assert.ok('conflicts' in result, `~> round ${round}: a conflict, as git finds`);
				assert.equal(
					[...new Set((result as { conflicts: MergeConflict[] }).conflicts.map((c) => c.path))].sort(),
					expected.conflicts,
					`~> round ${round}: git's paths`,
				);
			}
		}
		assert.ok(clean >= 5 && clean <= 35, `~> both outcomes exercised (${clean} clean)`);
	});

	test('unrelated histories – merged against nothing, as git merge-tree --allow-unrelated-histories', async () => {
		const one = await commit({ 'a.txt': 'a\n', 'same.txt': 's\n' }, [], 'one\n');
		const two = await commit({ 'b/c.txt': 'c\n', 'same.txt': 's\n' }, [], 'two\n');
		const three = await commit({ 'a.txt': 'other\n' }, [], 'three\n');
		const expected = git(['merge-tree', '--write-tree', '--allow-unrelated-histories', one, two]);
		assert.equal(engineMerge(one, two), { tree: expected });
		const clash = gitStatus(['merge-tree', '--write-tree', '--name-only', '--no-messages', '--allow-unrelated-histories', one, three]);
		assert.is(clash.status, 1);
		assert.equal(engineMerge(one, three), { conflicts: [{ path: 'a.txt', reason: 'add/add' }] });
		assert.ok(clash.stdout.split('\n').includes('a.txt'));
	});

	test('file/directory – a file on one side where the other made a directory', async () => {
		const h = await history({ 'a.txt': 'a\n' }, { thing: 'file\n' }, { 'thing/inside.txt': 'in\n' });
		assert.equal(gitMergeTree(h.ours, h.theirs).conflicts, ['thing'], '~> git reports it there too');
		assert.equal(engineMerge(h.ours, h.theirs), { conflicts: [{ path: 'thing', reason: 'file/directory' }] });
	});

	test('merge commit and squash commit – the commits git commit-tree makes of git merge-tree’s tree; no reference moves', async () => {
		const h = await history(
			{ 'a.txt': 'a\n', 'b.txt': TEN },
			{ 'a.txt': 'a2\n' },
			{ 'b.txt': TEN.replace('six', 'SIX'), 'c.txt': 'c\n' },
		);
		const refs = s.app.db.prepare('SELECT name, sha FROM git_refs WHERE repo_id = ? ORDER BY name').all(repoId);
		const author: Ident = { name: 'Ada Author', email: 'ada@example.com', seconds: COMMITTER.seconds, tz: '+0000' };
		const message = 'Merge pull request #7 from acme/feature\n\nA feature';
		const merged = mergeCommit(s.app, repoId, { base: h.ours, head: h.theirs, message, author, committer: COMMITTER }, NOW);
		const squashed = squashCommit(
			s.app,
			repoId,
			{ base: h.ours, head: h.theirs, message: 'A feature (#7)\n', author, committer: COMMITTER },
			NOW,
		);
		const tree = gitMergeTree(h.ours, h.theirs).tree;
		const env = {
			GIT_AUTHOR_NAME: author.name,
			GIT_AUTHOR_EMAIL: author.email,
			GIT_AUTHOR_DATE: `${author.seconds} +0000`,
			GIT_COMMITTER_NAME: COMMITTER.name,
			GIT_COMMITTER_EMAIL: COMMITTER.email,
			GIT_COMMITTER_DATE: `${COMMITTER.seconds} +0000`,
		};
		assert.equal(merged, { sha: git(['commit-tree', tree, '-p', h.ours, '-p', h.theirs], { input: message, env }) });
		assert.equal(squashed, { sha: git(['commit-tree', tree, '-p', h.ours], { input: 'A feature (#7)\n', env }) });
		assert.equal(s.app.stores.git.parents(repoId, (merged as { sha: string }).sha), [h.ours, h.theirs]);
		assert.equal(
			s.app.db.prepare('SELECT name, sha FROM git_refs WHERE repo_id = ? ORDER BY name').all(repoId),
			refs,
			'~> no reference moved',
		);

		const c = await history({ 'f.txt': TEN }, { 'f.txt': TEN.replace('five', 'FIVE') }, { 'f.txt': TEN.replace('five', 'Five') });
		assert.equal(mergeCommit(s.app, repoId, { base: c.ours, head: c.theirs, message, author, committer: COMMITTER }, NOW), {
			conflicts: [{ path: 'f.txt', reason: 'content' }],
		});
	});

	test('rebase – a 3-commit branch replayed as git cherry-pick replays it (same commits); merge commits refused', async () => {
		const base = await commit({ 'f.txt': TEN, 'a.txt': 'a\n' }, [], 'base\n');
		const main1 = await commit({ 'f.txt': TEN.replace('one', 'ONE'), 'a.txt': 'a\n', 'm.txt': 'main\n' }, [base], 'main moves on\n');
		const p1 = await commit({ 'f.txt': TEN.replace('ten', 'TEN'), 'a.txt': 'a\n' }, [base], 'first\n');
		const p2 = await commit(
			{ 'f.txt': TEN.replace('ten', 'TEN'), 'a.txt': 'a\n', 'src/new.ts': 'new\n' },
			[p1],
			'second\n\nwith a body\n',
		);
		const p3 = await commit(
			{
				'f.txt': TEN.replace('ten', 'TEN').replace('five', 'FIVE'),
				'src/new.ts': 'new\n',
				'run.sh': { content: 'run\n', mode: '100755' },
			},
			[p2],
			'third\n',
		);
		const result = rebaseCommits(s.app, repoId, { base: main1, head: p3, committer: COMMITTER }, NOW);
		assert.ok('sha' in result);
		const head = (result as { sha: string }).sha;

		const env = {
			GIT_COMMITTER_NAME: COMMITTER.name,
			GIT_COMMITTER_EMAIL: COMMITTER.email,
			GIT_COMMITTER_DATE: `${COMMITTER.seconds} +0000`,
		};
		git(['checkout', '-q', '--detach', main1]);
		git(['cherry-pick', p1, p2, p3], { env });
		assert.is(head, git(['rev-parse', 'HEAD']), '~> the same commits as git cherry-pick: trees, authors, messages, parents');
		const replayed = [head, ...['HEAD~1', 'HEAD~2'].map((rev) => git(['rev-parse', rev]))];
		assert.is(s.app.stores.git.parents(repoId, replayed[2])[0], main1);
		for (const sha of replayed) assert.is(treeOf(sha), git(['rev-parse', `${sha}^{tree}`]));

		// A commit whose change the base holds already is dropped, as git rebase drops it.
		const main2 = await commit({ 'f.txt': TEN.replace('ten', 'TEN'), 'a.txt': 'a\n' }, [base], 'the same as first\n');
		const again = rebaseCommits(s.app, repoId, { base: main2, head: p3, committer: COMMITTER }, NOW) as { sha: string };
		assert.is(
			s.app.stores.git.parents(repoId, s.app.stores.git.parents(repoId, again.sha)[0])[0],
			main2,
			'~> two commits replayed, not three',
		);

		const merge = await commit({ 'f.txt': TEN, 'a.txt': 'a\n', 'm.txt': 'main\n' }, [p1, main1], 'a merge\n');
		assert.equal(rebaseCommits(s.app, repoId, { base, head: merge, committer: COMMITTER }, NOW), {
			conflicts: [{ path: '', reason: 'merge commit', commit: merge }],
		});

		const clash = await commit({ 'f.txt': TEN.replace('one', 'uno'), 'a.txt': 'a\n' }, [base], 'clash\n');
		assert.equal(rebaseCommits(s.app, repoId, { base: main1, head: clash, committer: COMMITTER }, NOW), {
			conflicts: [{ path: 'f.txt', reason: 'content', commit: clash }],
		});
	});

	test('criss-cross – a virtual merge base, as merge-ort makes it', async () => {
		const base = await commit({ 'f.txt': TEN, 'a.txt': 'a\n', 'b.txt': 'b\n' }, [], 'base\n');
		const x = await commit({ 'f.txt': TEN.replace('one', 'ONE'), 'a.txt': 'a\n', 'b.txt': 'b\n' }, [base], 'x\n');
		const y = await commit({ 'f.txt': TEN.replace('ten', 'TEN'), 'a.txt': 'a\n', 'b.txt': 'b\n' }, [base], 'y\n');
		const both = TEN.replace('one', 'ONE').replace('ten', 'TEN');
		const xy = await commit({ 'f.txt': both, 'a.txt': 'a2\n', 'b.txt': 'b\n' }, [x, y], 'x merges y\n');
		// The second merge edits the line x changed: against y alone (the newest base) that conflicts,
		// against the virtual base (x and y merged) it is one side's change.
		const yx = await commit({ 'f.txt': both.replace('ONE', 'ONE!'), 'a.txt': 'a\n', 'b.txt': 'b2\n' }, [y, x], 'y merges x\n');
		assert.is(gitStatus(['merge-base', '--all', xy, yx]).stdout.trim().split('\n').length, 2, '~> two merge bases');
		assert.ok('conflicts' in mergeTrees(s.app, repoId, treeOf(y), treeOf(xy), treeOf(yx), NOW), '~> one base alone conflicts');
		const expected = gitMergeTree(xy, yx);
		assert.equal(expected.conflicts, [], '~> git merges it cleanly');
		const result = mergeCommit(
			s.app,
			repoId,
			{ base: xy, head: yx, message: 'merge\n', author: COMMITTER, committer: COMMITTER },
			NOW,
		) as { sha: string };
		assert.is(treeOf(result.sha), expected.tree);
	});

	test('empty results and fsck – every object Gitstead made is one git accepts (git fsck --strict)', async () => {
		const h = await history({ 'only.txt': 'x\n' }, { 'only.txt': null }, { 'only.txt': null });
		assert.equal(engineMerge(h.ours, h.theirs), { tree: EMPTY_TREE });
		const rows = storedObjects(s.app, repoId);
		for (const type of ['blob', 'tree', 'commit']) {
			const dir = mkdtempSync(join(work, `${type}-`));
			const mine = rows.filter((row) => row.type === type);
			const paths = mine.map((row, i) => {
				const path = join(dir, String(i));
				writeFileSync(path, row.content);
				return path;
			});
			const ids = git(['hash-object', '-w', '-t', type, '--stdin-paths'], { input: paths.join('\n') }).split('\n');
			assert.equal(
				ids,
				mine.map((row) => row.sha),
				`~> git hashes every ${type} as Gitstead did`,
			);
		}
		git(['fsck', '--strict', '--no-dangling']);
	});
}

test.run();
