/**
 * Packs: git's delta encoding (src/api/git/pack.ts) as a property, and receive-pack fed what no
 * well-behaved git sends (src/api/git/index-pack.ts, fsck.ts): bad checksums, truncated and lying
 * packs, zlib bombs, missing delta bases, objects git fsck refuses, packs over the limits, and
 * random mutations of a valid pack. Every one is refused with `unpack <reason>`, nothing changes,
 * and the server answers on.
 */
import fc from 'fast-check';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { encodeCommit, encodeTree } from '../src/api/git/objects';
import { applyDelta, createDelta, indexSource } from '../src/api/git/pack';
import { buildPack, objectId, type PackEntry, pushRequest, readReport, resealPack } from './helpers/pack';
import { startServer, type TestServer } from './helpers/server';

const test = suite('git-packs');
let s: TestServer;
let token: string;
let main: string; // the repository's main branch tip

const ident = { name: 'Octo', email: 'octo@example.com', seconds: 1_767_225_600, tz: '+0000' };

async function push(body: Buffer, repo = 'target'): Promise<{ status: number; lines: string[]; messages: string }> {
	const res = await fetch(`${s.origin}/octo/${repo}.git/git-receive-pack`, {
		method: 'POST',
		body: new Uint8Array(body),
		headers: {
			'Content-Type': 'application/x-git-receive-pack-request',
			Authorization: `Basic ${Buffer.from(`x:${token}`).toString('base64')}`,
		},
	});
	const answer = Buffer.from(await res.arrayBuffer());
	return { status: res.status, ...readReport(answer) };
}

/** A commit of one file on top of `parent`, as pack entries and ids. */
function history(text: string, parent: string | null, extraTree: Array<{ mode: '100644'; name: string; sha: string }> = []) {
	const blob = Buffer.from(text);
	const blobId = objectId('blob', blob);
	const tree = encodeTree([{ mode: '100644', name: 'file.txt', sha: blobId }, ...extraTree]);
	const treeId = objectId('tree', tree);
	const commit = encodeCommit({
		tree: treeId,
		parents: parent ? [parent] : [],
		author: ident,
		committer: ident,
		message: `${text}\n`,
		signature: null,
	});
	const commitId = objectId('commit', commit);
	const entries: PackEntry[] = [
		{ type: 'commit', content: commit },
		{ type: 'tree', content: tree },
		{ type: 'blob', content: blob },
	];
	return { entries, commitId, treeId, blobId, blob, tree, commit };
}

async function mainTip(): Promise<string> {
	return (await s.get('/repos/octo/target/branches/main', token)).body.commit.sha;
}

test.before(async () => {
	s = await startServer();
	s.user('octo');
	token = s.fullToken('octo');
	const made = await s.request('POST', '/user/repos', { token, body: { name: 'target', auto_init: true } });
	assert.is(made.status, 201);
	main = await mainTip();
});
test.after(() => s.close());

test('deltas: createDelta then applyDelta gives the target back, for any source and target', () => {
	fc.assert(
		fc.property(
			fc.uint8Array({ maxLength: 3000 }),
			fc.array(fc.tuple(fc.nat(3000), fc.uint8Array({ maxLength: 40 })), { maxLength: 20 }),
			(source, edits) => {
				const base = Buffer.from(source);
				let target = Buffer.from(base);
				for (const [at, bytes] of edits) {
					const where = Math.min(at, target.length);
					target = Buffer.concat([target.subarray(0, where), Buffer.from(bytes), target.subarray(where + (at % 7))]);
				}
				const index = indexSource(base);
				const delta = index ? createDelta(index, target, target.length + 1024) : null;
				if (delta) assert.ok(applyDelta(base, delta).equals(target));
			},
		),
		{ numRuns: 300 },
	);
	const source = Buffer.from('line of text\n'.repeat(500));
	const target = Buffer.concat([source.subarray(0, 3000), Buffer.from('a change\n'), source.subarray(3000)]);
	const delta = createDelta(indexSource(source)!, target, target.length)!;
	assert.ok(delta.length < 100, `~> a small change makes a small delta (${delta.length} bytes)`);
	assert.throws(
		() => applyDelta(source, Buffer.from([1, 1, 0x91, 0, 10])),
		/base size mismatch/,
		'~> a delta for another base size is refused',
	);
	assert.throws(
		() => applyDelta(Buffer.from('x'), Buffer.from([1, 5, 0x91, 0, 10])),
		/outside its base/,
		'~> a copy past its base is refused',
	);
	assert.throws(
		() => applyDelta(Buffer.from('x'), Buffer.from([1, 1, 0])),
		/reserved instruction/,
		'~> the reserved instruction 0 is refused',
	);
});

test('a hand-made pack with a delta against a stored object (a thin pack) is completed from the store', async () => {
	const first = history('first version of the file\n'.repeat(20), main);
	const fine = await push(pushRequest([{ before: main, after: first.commitId, ref: 'refs/heads/main' }], buildPack(first.entries)));
	assert.equal(fine.lines, ['unpack ok', 'ok refs/heads/main'], fine.messages);
	main = first.commitId;
	const changed = Buffer.concat([first.blob, Buffer.from('one more line\n')]);
	const second = history(changed.toString(), main);
	const delta = createDelta(indexSource(first.blob)!, changed, changed.length)!;
	const thin = buildPack([second.entries[0], second.entries[1], { refDelta: first.blobId, delta }]);
	const result = await push(pushRequest([{ before: main, after: second.commitId, ref: 'refs/heads/main' }], thin));
	assert.equal(result.lines, ['unpack ok', 'ok refs/heads/main']);
	main = second.commitId;
	const file = await s.get('/repos/octo/target/contents/file.txt', token);
	assert.is(Buffer.from(file.body.content, 'base64').toString(), changed.toString(), '~> the delta resolved against the stored blob');
});

test('broken packs are refused with unpack <reason>; the branch does not move', async () => {
	const next = history('refused\n', main);
	const cases: Array<[string, Buffer, RegExp]> = [
		['a bad checksum', buildPack(next.entries, { checksum: false }), /SHA1 mismatch/],
		['a truncated pack', buildPack(next.entries).subarray(0, 40), /premature end|too short/],
		['a lying object count', buildPack(next.entries, { count: 5 }), /premature end/],
		['garbage', Buffer.from('PACK\0\0\0\x02garbagegarbagegarbagegarbagegarbage'), /pack|premature|unknown/i],
		['a wrong signature', Buffer.concat([Buffer.from('KCAP'), buildPack(next.entries).subarray(4)]), /signature/],
		[
			'a zlib bomb: an object inflating past its declared size',
			buildPack([next.entries[0], next.entries[1], { type: 'blob', content: Buffer.alloc(50_000_000), declaredSize: 8 }]),
			/inflates past|size/,
		],
		[
			'an object smaller than its header says',
			buildPack([next.entries[0], next.entries[1], { type: 'blob', content: next.blob, declaredSize: next.blob.length + 10 }]),
			/declares|premature/,
		],
		[
			'a delta whose base is nowhere',
			buildPack([...next.entries.slice(0, 2), { refDelta: 'ab'.repeat(20), delta: Buffer.from([1, 1, 0x91, 0, 1]) }]),
			/missing delta base/,
		],
		[
			'a delta that does not fit its base',
			buildPack([...next.entries, { ofsDelta: 2, delta: Buffer.from([99, 1, 0x91, 0, 1]) }]),
			/delta base size mismatch/,
		],
		['a commit whose tree is not there', buildPack([next.entries[0]]), /missing necessary object/],
	];
	for (const [what, pack, reason] of cases) {
		const result = await push(pushRequest([{ before: main, after: next.commitId, ref: 'refs/heads/main' }], pack));
		assert.is(result.status, 200, `~> ${what}: answered`);
		assert.match(result.lines[0] ?? '', /^unpack /, `~> ${what}: an unpack status`);
		assert.is.not(result.lines[0], 'unpack ok', `~> ${what}: refused`);
		assert.match(result.lines[0], reason, `~> ${what}: ${result.lines[0]}`);
		assert.is(result.lines[1], 'ng refs/heads/main unpacker error', `~> ${what}: the ref is refused`);
		assert.is(await mainTip(), main, `~> ${what}: the branch did not move`);
	}
	assert.is(s.app.stores.git.metaIn(s.app.stores.git.network(1), next.commitId), undefined, '~> nothing of the refused packs was stored');
});

test('objects git fsck refuses (receive.fsckObjects): bad names in trees, bad identities, .gitmodules options', async () => {
	const blob = Buffer.from('x');
	const blobId = objectId('blob', blob);
	const treeWith = (name: string) => encodeTree([{ mode: '100644', name, sha: blobId }]);
	const commitOf = (tree: Buffer, raw?: string) => {
		const treeId = objectId('tree', tree);
		return raw !== undefined
			? Buffer.from(raw.replace('TREE', treeId))
			: encodeCommit({ tree: treeId, parents: [main], author: ident, committer: ident, message: 'x\n', signature: null });
	};
	const cases: Array<[string, Buffer, Buffer, Buffer[], RegExp]> = [
		['a ".." entry', treeWith('..'), commitOf(treeWith('..')), [blob], /hasDotdot/],
		['a ".git" entry', treeWith('.GIT'), commitOf(treeWith('.GIT')), [blob], /hasDotgit/],
		['a ".git" entry NTFS would read as .git', treeWith('.git. '), commitOf(treeWith('.git. ')), [blob], /hasDotgit/],
		[
			'a bad author line',
			treeWith('ok.txt'),
			commitOf(
				treeWith('ok.txt'),
				`tree TREE\nparent ${main}\nauthor Octo <octo@example.com> notadate +0000\ncommitter Octo <octo@example.com> 1 +0000\n\nx\n`,
			),
			[blob],
			/badDate/,
		],
		[
			'a bad time zone',
			treeWith('ok.txt'),
			commitOf(
				treeWith('ok.txt'),
				`tree TREE\nparent ${main}\nauthor Octo <octo@example.com> 1 +00\ncommitter Octo <octo@example.com> 1 +0000\n\nx\n`,
			),
			[blob],
			/badTimezone/,
		],
	];
	const gitmodules = Buffer.from('[submodule "evil"]\n\tpath = evil\n\turl = --upload-pack=touch /tmp/pwned\n');
	const modulesTree = encodeTree([{ mode: '100644', name: '.gitmodules', sha: objectId('blob', gitmodules) }]);
	cases.push(['a .gitmodules url that is an option', modulesTree, commitOf(modulesTree), [gitmodules], /gitmodulesUrl/]);
	for (const [what, tree, commit, blobs, reason] of cases) {
		const pack = buildPack([
			{ type: 'commit', content: commit },
			{ type: 'tree', content: tree },
			...blobs.map((content) => ({ type: 'blob' as const, content })),
		]);
		const result = await push(pushRequest([{ before: main, after: objectId('commit', commit), ref: 'refs/heads/main' }], pack));
		assert.match(result.lines[0] ?? '', reason, `~> ${what}: ${result.lines[0]}`);
		assert.is(result.lines[1], 'ng refs/heads/main unpacker error');
		assert.is(await mainTip(), main, `~> ${what}: nothing changed`);
	}
});

test('limits: storage.max_push_bytes, max_push_objects and max_object_bytes refuse with a reason', async () => {
	const next = history('over the limit\n'.repeat(100), main);
	const pack = buildPack(next.entries);
	const { storage } = s.app.config;
	const saved = { ...storage };
	try {
		storage.max_push_bytes = 100;
		let result = await push(pushRequest([{ before: main, after: next.commitId, ref: 'refs/heads/main' }], pack));
		assert.match(result.lines[0], /pack exceeds maximum allowed size/);
		Object.assign(storage, saved);
		storage.max_push_objects = 2;
		result = await push(pushRequest([{ before: main, after: next.commitId, ref: 'refs/heads/main' }], pack));
		assert.match(result.lines[0], /3 objects, more than the 2/);
		Object.assign(storage, saved);
		storage.max_object_bytes = 100;
		result = await push(pushRequest([{ before: main, after: next.commitId, ref: 'refs/heads/main' }], pack));
		assert.match(result.lines[0], /exceeds the limit of 100 bytes/);
	} finally {
		Object.assign(storage, saved);
	}
	assert.is(await mainTip(), main);
});

test('random mutations of a valid pack: always an answer, never a 500, never a branch at a missing object', async () => {
	const next = history('mutated\n'.repeat(30), main);
	const valid = buildPack(next.entries);
	await fc.assert(
		fc.asyncProperty(
			fc.array(fc.tuple(fc.nat(valid.length - 21), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 }),
			async (flips) => {
				const pack = Buffer.from(valid);
				for (const [at, value] of flips) pack[at] = value;
				const result = await push(pushRequest([{ before: main, after: next.commitId, ref: 'refs/heads/main' }], resealPack(pack)));
				assert.is(result.status, 200);
				assert.match(result.lines[0] ?? '', /^unpack /);
				const tip = await mainTip();
				if (tip !== main) {
					assert.is(result.lines[0], 'unpack ok', '~> only a pack that unpacked moves the branch');
					assert.ok(s.app.stores.git.object(1, tip), '~> the branch points at a stored commit');
					main = tip;
				}
			},
		),
		{ numRuns: 60 },
	);
	const health = await fetch(`${s.origin}/healthz`);
	assert.is(health.status, 200, '~> the server is fine');
});

test('a push request that is not pkt-lines gets an error; an empty request (git probing) gets an empty answer', async () => {
	const garbage = await fetch(`${s.origin}/octo/target.git/git-receive-pack`, {
		method: 'POST',
		body: 'zzzz not pkt-lines',
		headers: {
			'Content-Type': 'application/x-git-receive-pack-request',
			Authorization: `Basic ${Buffer.from(`x:${token}`).toString('base64')}`,
		},
	});
	assert.is(garbage.status, 200);
	assert.match(await garbage.text(), 'ERR ');
	const probe = await push(Buffer.from('0000'));
	assert.equal(probe.lines, [], '~> nothing to report');
});

test.run();
