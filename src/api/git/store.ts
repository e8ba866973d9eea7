/**
 * The git object store: prepared statements over schema.sql's block "git objects".
 *
 * Objects belong to a fork network (GitHub's fork networks: a repository and every fork of it
 * share one object store, `git_networks`; `git_network_members` names each repository's network,
 * kept by triggers on `repositories`). An object is one `git_objects` row: its id (20 bytes), pack
 * type, size, and `data` — a zlib stream of either the whole content or a git delta against
 * another object of the same network (`base_id`, chains at most MAX_DEPTH long, git's own
 * `pack.depth`). The zlib streams are exactly a pack entry's payload, so packs are written by
 * copying them (src/api/git/pack-writer.ts), and pushed packs are stored as they arrive
 * (src/api/git/index-pack.ts). Reading resolves the chain and keeps recently resolved objects in
 * a bounded cache keyed by object id (content-addressed, so never stale).
 *
 * References stay per repository (`git_refs`), with the commit graph per network
 * (`git_commit_parents`) for reachability walks without parsing commits.
 */
import { deflateSync, inflateSync } from 'node:zlib';
import type { DB } from '../../db/open';
import type { ObjectType } from './objects';
import { applyDelta, inflateKnown, OBJECT_TYPE, PACK_TYPE, PackError } from './pack';

/** An object's type and size without its content. */
export interface ObjectMeta {
	sha: string;
	type: ObjectType;
	/** Bytes of content. */
	size: number;
}

export interface ObjectRow extends ObjectMeta {
	content: Buffer;
}

export interface RefRow {
	name: string;
	sha: string;
	/** Type of the object the reference points to. */
	type: ObjectType;
}

/** An object as stored, for packs: its row id, pack type (1–4) and payload. */
export interface StoredObject {
	id: number;
	oid: Buffer;
	/** Pack type number: 1 commit, 2 tree, 3 blob, 4 tag. */
	type: number;
	/** Bytes of the object's content. */
	size: number;
	/** Row id of the delta base, or null when `data` is the whole content. */
	base: number | null;
	/** Length of the delta chain below this object (0: whole). */
	depth: number;
	/** Bytes `data` inflates to: the delta's size, or `size` when whole. */
	dataSize: number;
	/** A zlib stream. */
	data: Buffer;
}

/** What a new stored object needs: a stored object before it has a row id. */
export type NewStoredObject = Omit<StoredObject, 'id'>;

/** Seconds an epoch of stored objects spans at most (git_object_epochs). */
const EPOCH_SECONDS = 3600;

/** Longest delta chain kept (git's pack.depth default). */
export const MAX_DEPTH = 50;
/** Bytes of resolved objects the read cache keeps (git's core.deltaBaseCacheLimit is 96 MiB; this is a server among others). */
const CACHE_BYTES = 24 * 1024 * 1024;
/** Objects larger than this are never cached. */
const CACHE_OBJECT_LIMIT = 4 * 1024 * 1024;

/** A least-recently-used map of resolved contents, bounded by bytes. */
class ContentCache {
	private readonly map = new Map<string, Buffer>();
	private bytes = 0;
	constructor(private readonly limit: number) {}
	get(key: string): Buffer | undefined {
		const value = this.map.get(key);
		if (value !== undefined) {
			this.map.delete(key);
			this.map.set(key, value);
		}
		return value;
	}
	set(key: string, value: Buffer): void {
		if (value.length > CACHE_OBJECT_LIMIT || this.map.has(key)) return;
		this.map.set(key, value);
		this.bytes += value.length;
		while (this.bytes > this.limit) {
			const [oldest, buffer] = this.map.entries().next().value as [string, Buffer];
			this.map.delete(oldest);
			this.bytes -= buffer.length;
		}
	}
	clear(): void {
		this.map.clear();
		this.bytes = 0;
	}
}

interface RawRow {
	id: number;
	oid: Buffer;
	type: number;
	size: number;
	base_id: number | null;
	depth: number;
	data_size: number | null;
	data: Buffer;
}

function toStored(row: RawRow): StoredObject {
	return {
		id: row.id,
		oid: row.oid,
		type: row.type,
		size: row.size,
		base: row.base_id,
		depth: row.depth,
		dataSize: row.data_size ?? row.size,
		data: row.data,
	};
}

const hex = (oid: Buffer) => oid.toString('hex');

/** Row ids as a deflated list of varint gaps (ascending). */
function encodeRows(rows: Iterable<number>): Buffer {
	const sorted = Float64Array.from(rows).sort();
	const bytes = Buffer.allocUnsafe(sorted.length * 9 + 1);
	let at = 0;
	let previous = 0;
	for (const id of sorted) {
		let gap = id - previous;
		previous = id;
		while (gap >= 0x80) {
			bytes[at++] = (gap & 0x7f) | 0x80;
			gap = Math.floor(gap / 128);
		}
		bytes[at++] = gap;
	}
	return deflateSync(bytes.subarray(0, at));
}

function decodeRows(encoded: Buffer): number[] {
	const bytes = inflateSync(encoded);
	const rows: number[] = [];
	let value = 0;
	let shift = 1;
	let previous = 0;
	for (const byte of bytes) {
		value += (byte & 0x7f) * shift;
		if (byte & 0x80) {
			shift *= 128;
			continue;
		}
		previous += value;
		rows.push(previous);
		value = 0;
		shift = 1;
	}
	return rows;
}

/** A repository's latest push: full ref name, commits before/after (null: created/deleted), ISO time. */
export interface LatestPush {
	ref: string;
	before: string | null;
	after: string | null;
	pushedAt: string;
}

export type GitStore = ReturnType<typeof createGitStore>;

export function createGitStore(db: DB) {
	const networkOf = db.prepare('SELECT network_id FROM git_network_members WHERE repo_id = ?').pluck();
	const rowByOid = db.prepare(
		'SELECT id, oid, type, size, base_id, depth, data_size, data FROM git_objects WHERE network_id = ? AND oid = ?',
	);
	const rowById = db.prepare('SELECT id, oid, type, size, base_id, depth, data_size, data FROM git_objects WHERE id = ?');
	const metaByOid = db.prepare('SELECT id, type, size, depth FROM git_objects WHERE network_id = ? AND oid = ?');
	const locateMany = db.prepare(
		'SELECT oid, id, type, size FROM git_objects WHERE network_id = ? AND oid IN (SELECT unhex(value) FROM json_each(?))',
	);
	const rowsById = db.prepare(
		'SELECT id, oid, type, size, base_id, depth, data_size, data FROM git_objects WHERE id IN (SELECT value FROM json_each(?))',
	);
	const sizeOfRows = db.prepare('SELECT coalesce(sum(size), 0) FROM git_objects WHERE id IN (SELECT value FROM json_each(?))').pluck();
	const metas = db.prepare(
		'SELECT oid, type, size FROM git_objects WHERE network_id = ? AND oid IN (SELECT unhex(value) FROM json_each(?))',
	);
	// Abbreviated ids: every id in [prefix, prefix + 'g') starts with the prefix; as bytes, the
	// prefix padded with 00s up to the prefix padded with ffs.
	const byPrefix = db.prepare(
		'SELECT oid, type, size FROM git_objects WHERE network_id = ? AND oid >= ? AND oid <= ? ORDER BY oid LIMIT ?',
	);
	const exists = db.prepare('SELECT id FROM git_objects WHERE network_id = ? AND oid = ?').pluck();
	const networkIds = db.prepare('SELECT oid FROM git_objects WHERE network_id = ? ORDER BY id').pluck();
	const countIn = db.prepare('SELECT count(*) FROM git_objects WHERE network_id = ?').pluck();
	const bytesIn = db.prepare('SELECT coalesce(sum(length(data)), 0) FROM git_objects WHERE network_id = ?').pluck();
	const insertObject = db.prepare(`
		INSERT INTO git_objects (network_id, oid, type, size, base_id, depth, data_size, data)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (network_id, oid) DO NOTHING`);
	const lastEpoch = db.prepare('SELECT created_at FROM git_object_epochs ORDER BY first_id DESC LIMIT 1').pluck();
	const addEpoch = db.prepare(
		'INSERT INTO git_object_epochs (first_id, created_at) SELECT coalesce(max(id), 0) + 1, ? FROM git_objects WHERE true ON CONFLICT (first_id) DO NOTHING',
	);
	const addFresh = db.prepare(
		'INSERT INTO git_fresh (object_id, created_at) VALUES (?, ?) ON CONFLICT (object_id) DO UPDATE SET created_at = excluded.created_at',
	);
	const anyCommit = db.prepare('SELECT 1 FROM git_objects WHERE network_id = ? AND type = 1 LIMIT 1').pluck();
	const insertParent = db.prepare(
		'INSERT INTO git_commit_parents (network_id, commit_oid, position, parent_oid) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
	);
	const parents = db
		.prepare('SELECT parent_oid FROM git_commit_parents WHERE network_id = ? AND commit_oid = ? ORDER BY position')
		.pluck();
	// The commit and every commit reachable from it through parents. CROSS JOIN keeps the loop order:
	// each queued commit looks up its parents by primary key (a plain JOIN let SQLite scan every parent
	// row of the network per queued commit: quadratic).
	const ancestors = db
		.prepare(`
		WITH RECURSIVE reach(oid) AS (
			SELECT @oid UNION SELECT p.parent_oid FROM reach r CROSS JOIN git_commit_parents p ON p.network_id = @network AND p.commit_oid = r.oid
		)
		SELECT oid FROM reach`)
		.pluck();
	const reaches = db
		.prepare(`
		WITH RECURSIVE reach(oid) AS (
			SELECT @from UNION SELECT p.parent_oid FROM reach r CROSS JOIN git_commit_parents p ON p.network_id = @network AND p.commit_oid = r.oid
		)
		SELECT 1 FROM reach WHERE oid = @to LIMIT 1`)
		.pluck();

	const refColumns = `r.name, r.sha, CASE o.type WHEN 1 THEN 'commit' WHEN 2 THEN 'tree' WHEN 3 THEN 'blob' ELSE 'tag' END AS type FROM git_refs r
		JOIN git_network_members m ON m.repo_id = r.repo_id
		JOIN git_objects o ON o.network_id = m.network_id AND o.oid = unhex(r.sha)`;
	const ref = db.prepare(`SELECT ${refColumns} WHERE r.repo_id = ? AND r.name = ?`);
	const setLatestPush = db.prepare(`
		INSERT INTO repository_pushes (repo_id, ref, before_sha, after_sha, pushed_at) VALUES (@repoId, @ref, @before, @after, @pushedAt)
		ON CONFLICT (repo_id) DO UPDATE SET ref = excluded.ref, before_sha = excluded.before_sha, after_sha = excluded.after_sha,
		  pushed_at = excluded.pushed_at`);
	const latestPush = db.prepare(
		'SELECT ref, before_sha AS before, after_sha AS after, pushed_at AS pushedAt FROM repository_pushes WHERE repo_id = ?',
	);
	const matching = db.prepare(`
		SELECT ${refColumns}
		WHERE r.repo_id = @repoId AND substr(r.name, 1, length(@prefix)) = @prefix ORDER BY r.name LIMIT @limit OFFSET @offset`);
	const countMatching = db
		.prepare('SELECT count(*) FROM git_refs WHERE repo_id = @repoId AND substr(name, 1, length(@prefix)) = @prefix')
		.pluck();
	const allRefs = db.prepare(`SELECT ${refColumns} WHERE r.repo_id = ? ORDER BY r.name`);
	const refCount = db.prepare('SELECT count(*) FROM git_refs WHERE repo_id = ?').pluck();
	const pullHeads = db.prepare(`
		SELECT i.number, p.head_sha AS sha FROM pull_requests p JOIN issues i ON i.id = p.issue_id
		JOIN git_network_members m ON m.repo_id = p.repo_id
		WHERE p.repo_id = ? AND EXISTS (SELECT 1 FROM git_objects o WHERE o.network_id = m.network_id AND o.oid = unhex(p.head_sha))
		ORDER BY i.number`);
	const insertRef = db.prepare('INSERT INTO git_refs (repo_id, name, sha, created_at, updated_at) VALUES (?, ?, ?, ?, ?)');
	const updateRef = db.prepare('UPDATE git_refs SET sha = ?, updated_at = ? WHERE repo_id = ? AND name = ?');
	const swapRef = db.prepare('UPDATE git_refs SET sha = ?, updated_at = ? WHERE repo_id = ? AND name = ? AND sha = ?');
	const deleteRef = db.prepare('DELETE FROM git_refs WHERE repo_id = ? AND name = ?');
	const copyRefs = db.prepare(`
		INSERT INTO git_refs (repo_id, name, sha, created_at, updated_at)
		SELECT @to, name, sha, created_at, updated_at FROM git_refs WHERE repo_id = @from`);
	// gc (src/api/git/gc.ts)
	const networks = db.prepare('SELECT id FROM git_networks ORDER BY id').pluck();
	const networkMembers = db.prepare('SELECT repo_id FROM git_network_members WHERE network_id = ? ORDER BY repo_id').pluck();
	const networkRows = db.prepare(
		'SELECT id, oid, type, size, base_id AS base, depth, length(data) AS bytes FROM git_objects WHERE network_id = ? ORDER BY id',
	);
	// What a network keeps whatever else: its references, and its pull requests' heads, bases and merge commits.
	const networkRoots = db
		.prepare(`
		SELECT r.sha FROM git_refs r JOIN git_network_members m ON m.repo_id = r.repo_id WHERE m.network_id = @network
		UNION SELECT p.head_sha FROM pull_requests p JOIN git_network_members m ON m.repo_id = p.repo_id WHERE m.network_id = @network
		UNION SELECT p.base_sha FROM pull_requests p JOIN git_network_members m ON m.repo_id = p.repo_id WHERE m.network_id = @network
		UNION SELECT p.merge_commit_sha FROM pull_requests p JOIN git_network_members m ON m.repo_id = p.repo_id
			WHERE m.network_id = @network AND p.merge_commit_sha IS NOT NULL`)
		.pluck();
	const youngThreshold = db.prepare('SELECT min(first_id) FROM git_object_epochs WHERE created_at > ?').pluck();
	const freshRows = db.prepare('SELECT object_id FROM git_fresh WHERE created_at >= ?').pluck();
	const deleteParents = db.prepare(`
		DELETE FROM git_commit_parents WHERE network_id = @network AND commit_oid IN
			(SELECT oid FROM git_objects WHERE network_id = @network AND type = 1 AND id IN (SELECT value FROM json_each(@ids)))`);
	const deleteRows = db.prepare('DELETE FROM git_objects WHERE network_id = @network AND id IN (SELECT value FROM json_each(@ids))');
	const deleteFresh = db.prepare('DELETE FROM git_fresh WHERE object_id IN (SELECT value FROM json_each(?))');
	const dropNetworkReachable = db.prepare(
		'DELETE FROM git_reachable WHERE repo_id IN (SELECT repo_id FROM git_network_members WHERE network_id = ?)',
	);
	const rewriteAsDelta = db.prepare(
		'UPDATE git_objects SET base_id = ?, depth = ?, data_size = ?, data = ? WHERE id = ? AND base_id IS NULL',
	);
	const pruneFresh = db.prepare('DELETE FROM git_fresh WHERE created_at < ?');
	const pruneEpochs = db.prepare('DELETE FROM git_object_epochs WHERE created_at <= ?');
	const reachableOf = db.prepare('SELECT tips, rows FROM git_reachable WHERE repo_id = ?');
	const putReachable = db.prepare(
		'INSERT INTO git_reachable (repo_id, tips, rows) VALUES (?, ?, ?) ON CONFLICT (repo_id) DO UPDATE SET tips = excluded.tips, rows = excluded.rows',
	);
	const dropReachable = db.prepare('DELETE FROM git_reachable WHERE repo_id = ?');
	// The repository record belongs to the repos area; a branch push only moves its pushed_at.
	const touchPushed = db.prepare('UPDATE repositories SET pushed_at = ? WHERE id = ?');

	const cache = new ContentCache(CACHE_BYTES);

	/** The network's row of `oid`. */
	const storedByOid = (network: number, oid: Buffer): StoredObject | undefined => {
		const row = rowByOid.get(network, oid) as RawRow | undefined;
		return row && toStored(row);
	};

	/**
	 * An object's content: its delta chain resolved down to a whole object or one in the cache,
	 * then the deltas applied upwards (each result cached).
	 * @throws PackError when a stored delta does not apply (a corrupt store)
	 */
	const resolve = (object: StoredObject): Buffer => {
		const key = hex(object.oid);
		const cached = cache.get(key);
		if (cached) return cached;
		const chain: StoredObject[] = [];
		let current: StoredObject = object;
		let content: Buffer;
		for (;;) {
			if (current.base === null) {
				content = inflateKnown(current.data, current.size);
				if (content.length !== current.size) throw new PackError(`object ${hex(current.oid)} has a wrong size`);
				cache.set(hex(current.oid), content);
				break;
			}
			chain.push(current);
			if (chain.length > MAX_DEPTH * 4) throw new PackError(`delta chain of ${key} does not end`);
			const row = rowById.get(current.base) as RawRow | undefined;
			if (!row) throw new PackError(`delta base of ${hex(current.oid)} is missing`);
			current = toStored(row);
			const hit = cache.get(hex(current.oid));
			if (hit) {
				content = hit;
				break;
			}
		}
		for (let i = chain.length - 1; i >= 0; i--) {
			content = applyDelta(content, inflateKnown(chain[i].data, chain[i].dataSize), chain[i].size);
			if (content.length !== chain[i].size) throw new PackError(`object ${hex(chain[i].oid)} has a wrong size`);
			cache.set(hex(chain[i].oid), content);
		}
		return content;
	};

	const network = (repoId: number): number => {
		const id = networkOf.get(repoId) as number | undefined;
		if (id === undefined) throw new Error(`repository ${repoId} has no object network`);
		return id;
	};
	const networkOrNull = (repoId: number) => (networkOf.get(repoId) as number | undefined) ?? null;

	const readObject = (networkId: number, sha: string): ObjectRow | undefined => {
		if (sha.length !== 40) return undefined;
		const stored = storedByOid(networkId, Buffer.from(sha, 'hex'));
		if (!stored) return undefined;
		return { sha, type: OBJECT_TYPE[stored.type]!, size: stored.size, content: resolve(stored) };
	};
	const metaOf = (networkId: number, sha: string): ObjectMeta | undefined => {
		if (sha.length !== 40) return undefined;
		const row = metaByOid.get(networkId, Buffer.from(sha, 'hex')) as { type: number; size: number } | undefined;
		return row && { sha, type: OBJECT_TYPE[row.type]!, size: row.size };
	};

	/** Stores a whole object (deflated) unless the network has it. @returns its row id */
	/** The newest epoch's time (epoch seconds), as last read or written by this connection. */
	let epochAt: number | null = null;
	/**
	 * Marks the objects about to be stored with the time (git_object_epochs): a new epoch when the
	 * last one is more than EPOCH_SECONDS old. Call inside the storing transaction, before the inserts.
	 */
	const markEpoch = (nowSeconds: number) => {
		epochAt ??= (lastEpoch.get() as number | undefined) ?? -Infinity;
		if (nowSeconds - epochAt < EPOCH_SECONDS) return;
		addEpoch.run(nowSeconds);
		epochAt = nowSeconds;
	};

	const insertWhole = (networkId: number, oid: Buffer, type: ObjectType, content: Buffer, nowSeconds: number): number => {
		const existing = exists.get(networkId, oid) as number | undefined;
		if (existing !== undefined) return existing;
		markEpoch(nowSeconds);
		const result = insertObject.run(networkId, oid, PACK_TYPE[type], content.length, null, 0, null, deflateSync(content));
		return Number(result.lastInsertRowid);
	};

	return {
		/** The fork network of a repository (every repository has one). @throws Error for an unknown repository */
		network,
		/** The fork network of a repository, or null when the repository does not exist. */
		networkOrNull,
		object: (repoId: number, sha: string) => readObject(network(repoId), sha),
		meta: (repoId: number, sha: string) => metaOf(network(repoId), sha),
		/** Type and size of each stored object among `shas` (unknown ids are left out). */
		metas(repoId: number, shas: string[]): ObjectMeta[] {
			const rows = metas.all(network(repoId), JSON.stringify(shas)) as Array<{ oid: Buffer; type: number; size: number }>;
			return rows.map((row) => ({ sha: hex(row.oid), type: OBJECT_TYPE[row.type]!, size: row.size }));
		},
		/** Objects whose id starts with `prefix` (lowercase hex), at most `limit`. */
		byPrefix(repoId: number, prefix: string, limit: number): ObjectMeta[] {
			const low = Buffer.from(prefix.padEnd(40, '0').slice(0, 40), 'hex');
			const high = Buffer.from(prefix.padEnd(40, 'f').slice(0, 40), 'hex');
			const rows = byPrefix.all(network(repoId), low, high, limit) as Array<{ oid: Buffer; type: number; size: number }>;
			return rows
				.map((row) => ({ sha: hex(row.oid), type: OBJECT_TYPE[row.type]!, size: row.size }))
				.filter((row) => row.sha.startsWith(prefix));
		},
		/**
		 * Stores an object whole (a no-op when the network has it); a commit's parents go to the
		 * commit graph too.
		 * @param now ISO timestamp
		 */
		insert(repoId: number, sha: string, type: ObjectType, content: Buffer, now: string, commitParents: string[] = []): void {
			const networkId = network(repoId);
			const oid = Buffer.from(sha, 'hex');
			if (exists.get(networkId, oid) !== undefined) return;
			insertWhole(networkId, oid, type, content, Math.floor(Date.parse(now) / 1000) || Math.floor(Date.now() / 1000));
			commitParents.forEach((parent, position) => {
				insertParent.run(networkId, oid, position, Buffer.from(parent, 'hex'));
			});
		},
		/** True when the repository's network holds at least one commit (else GitHub calls it empty). */
		hasCommits: (repoId: number) => anyCommit.get(network(repoId)) === 1,
		parents: (repoId: number, sha: string) => (parents.all(network(repoId), Buffer.from(sha, 'hex')) as Buffer[]).map(hex),
		/** `sha` and every commit reachable from it. */
		ancestors: (repoId: number, sha: string) =>
			(ancestors.all({ network: network(repoId), oid: Buffer.from(sha, 'hex') }) as Buffer[]).map(hex),
		/** True when `to` is `from` or reachable from it through parents. */
		reaches: (repoId: number, from: string, to: string) =>
			reaches.get({ network: network(repoId), from: Buffer.from(from, 'hex'), to: Buffer.from(to, 'hex') }) === 1,

		ref: (repoId: number, name: string) => ref.get(repoId, name) as RefRow | undefined,
		/**
		 * Remembers a repository's latest push (over git or through the API): the full ref name, its
		 * commit before (null: created) and after (null: deleted). @param pushedAt ISO timestamp
		 */
		setLatestPush: (repoId: number, push: LatestPush) => void setLatestPush.run({ repoId, ...push }),
		/** The repository's latest push, or undefined when none was recorded. */
		latestPush: (repoId: number) => latestPush.get(repoId) as LatestPush | undefined,
		/** References whose full name starts with `prefix`, by name. */
		matchingRefs(repoId: number, prefix: string, limit: number, offset: number) {
			const filter = { repoId, prefix, limit, offset };
			return { rows: matching.all(filter) as RefRow[], total: countMatching.get(filter) as number };
		},
		/** Every reference of the repository, by name. */
		allRefs: (repoId: number) => allRefs.all(repoId) as RefRow[],
		/** How many references the repository has. */
		refCount: (repoId: number) => refCount.get(repoId) as number,
		/** Each pull request's number and head commit, when the network holds that commit. */
		pullHeads: (repoId: number) => pullHeads.all(repoId) as Array<{ number: number; sha: string }>,
		/** @param now ISO timestamp */
		insertRef: (repoId: number, name: string, sha: string, now: string) => void insertRef.run(repoId, name, sha, now, now),
		/** @param now ISO timestamp */
		updateRef: (repoId: number, name: string, sha: string, now: string) => void updateRef.run(sha, now, repoId, name),
		/**
		 * Moves a reference only while it still points to `expected` (compare-and-swap).
		 * @param now ISO timestamp
		 * @returns false when the reference moved (or went) in between
		 */
		swapRef: (repoId: number, name: string, expected: string, sha: string, now: string) =>
			swapRef.run(sha, now, repoId, name, expected).changes === 1,
		deleteRef: (repoId: number, name: string) => deleteRef.run(repoId, name).changes > 0,
		/** Gives the new fork `to` the references of repository `from` (the objects are the network's already). */
		copyRepository(from: number, to: number): void {
			copyRefs.run({ from, to });
		},
		/** Sets the repository's pushed_at. @param now ISO timestamp */
		touchPushed: (repoId: number, now: string) => void touchPushed.run(now, repoId),

		// -----------------------------------------------------------------------------------------
		// Network-level access for packs (transport, index-pack, gc)

		/** The stored row of `oid` in a network. */
		stored: storedByOid,
		/** The stored row with this row id. */
		storedById(id: number): StoredObject | undefined {
			const row = rowById.get(id) as RawRow | undefined;
			return row && toStored(row);
		},
		/** Row id, pack type, size and delta depth of `oid` in a network, or undefined. */
		locate: (networkId: number, oid: Buffer) =>
			metaByOid.get(networkId, oid) as { id: number; type: number; size: number; depth: number } | undefined,
		/** Row id, pack type and size of each of `oids` the network holds, by the id's latin1 key. */
		locateMany(networkId: number, oids: Buffer[]): Map<string, { id: number; type: number; size: number }> {
			const rows = locateMany.all(networkId, JSON.stringify(oids.map(hex))) as Array<{
				oid: Buffer;
				id: number;
				type: number;
				size: number;
			}>;
			return new Map(rows.map((row) => [row.oid.toString('latin1'), row]));
		},
		/** Bytes of content of these rows. */
		sizeOfRows: (ids: number[]) => sizeOfRows.get(JSON.stringify(ids)) as number,
		/** The stored rows with these row ids (those that exist), by id. */
		storedByIds(ids: number[]): Map<number, StoredObject> {
			const rows = rowsById.all(JSON.stringify(ids)) as RawRow[];
			return new Map(rows.map((row) => [row.id, toStored(row)]));
		},
		/** The row id of `oid` in a network, or undefined. */
		idOf: (networkId: number, oid: Buffer) => exists.get(networkId, oid) as number | undefined,
		/** Type and size of `sha` in a network. */
		metaIn: metaOf,
		/** An object of a network, resolved. */
		readIn: readObject,
		/**
		 * A stored object's content (its delta chain resolved).
		 * @throws PackError for a broken chain (a corrupt store)
		 */
		content: resolve,
		/**
		 * Stores an object as given (a pack entry's payload), unless the network has it. Call
		 * markEpoch first in the same transaction.
		 * @returns the row id, and whether it was new
		 */
		insertStored(networkId: number, object: NewStoredObject): { id: number; inserted: boolean } {
			const result = insertObject.run(
				networkId,
				object.oid,
				object.type,
				object.size,
				object.base,
				object.depth,
				object.base === null ? null : object.dataSize,
				object.data,
			);
			if (result.changes === 1) return { id: Number(result.lastInsertRowid), inserted: true };
			return { id: exists.get(networkId, object.oid) as number, inserted: false };
		},
		/** Stores a whole object in a network (deflated), unless it has it. @param nowSeconds epoch seconds @returns the row id */
		insertWhole,
		/** Dates the objects stored next in this transaction (gc's grace period). @param nowSeconds epoch seconds */
		markEpoch,
		/** Keeps stored objects a push relies on (and what they reach) through gc's grace period. @param nowSeconds epoch seconds */
		freshen(rows: Iterable<number>, nowSeconds: number): void {
			for (const row of rows) addFresh.run(row, nowSeconds);
		},
		/** Forgets what this connection knows of the epochs (another process may have written one). */
		forgetEpoch() {
			epochAt = null;
		},
		/** Adds a commit's parents to the network's commit graph. */
		insertParents(networkId: number, oid: Buffer, commitParents: Buffer[]): void {
			commitParents.forEach((parent, position) => {
				insertParent.run(networkId, oid, position, parent);
			});
		},
		/** Parents of a commit in a network, as 20-byte ids. */
		parentsIn: (networkId: number, oid: Buffer) => parents.all(networkId, oid) as Buffer[],
		/** Every object id of a network, in the order stored (hex). */
		objectIds: (networkId: number) => (networkIds.all(networkId) as Buffer[]).map(hex),
		/** Bytes of object data a network stores (its zlib streams). */
		networkBytes: (networkId: number) => bytesIn.get(networkId) as number,
		/** How many objects a network holds. */
		objectCount: (networkId: number) => countIn.get(networkId) as number,
		/**
		 * What a full clone of the repository sends: the rows reachable from its branches and tags, and
		 * the tips (sorted ids) they were computed for; undefined when not known.
		 */
		reachable(repoId: number): { tips: string[]; rows: number[] } | undefined {
			const row = reachableOf.get(repoId) as { tips: string; rows: Buffer } | undefined;
			return row && { tips: row.tips === '' ? [] : row.tips.split(' '), rows: decodeRows(row.rows) };
		},
		/** Keeps what a full clone sends for these tips (sorted or not). */
		setReachable(repoId: number, tips: string[], rows: Iterable<number>): void {
			putReachable.run(repoId, [...tips].sort().join(' '), encodeRows(rows));
		},
		/** Forgets what a full clone sends (a reference moved). */
		dropReachable: (repoId: number) => void dropReachable.run(repoId),
		// -----------------------------------------------------------------------------------------
		// gc (src/api/git/gc.ts)

		/** Every fork network's id. */
		networks: () => networks.all() as number[],
		/** The repositories of a network. */
		networkMembers: (networkId: number) => networkMembers.all(networkId) as number[],
		/** Every object of a network without its data (`bytes`: its data's length), by id. */
		networkRows: (networkId: number) =>
			networkRows.all(networkId) as Array<Pick<StoredObject, 'id' | 'oid' | 'type' | 'size' | 'base' | 'depth'> & { bytes: number }>,
		/** The object ids (hex) a network keeps whatever else: references, pull requests' heads, bases and merge commits. */
		networkRoots: (networkId: number) => networkRoots.all({ network: networkId }) as string[],
		/**
		 * The first row id that may have been stored at or after `since` (epoch seconds): every
		 * younger object has an id from it on (epochs span at most EPOCH_SECONDS).
		 * @returns Infinity when every object is older
		 */
		youngThreshold: (since: number) => (youngThreshold.get(since - EPOCH_SECONDS) as number | null) ?? Number.POSITIVE_INFINITY,
		/** Rows pushes relied on since `since` (epoch seconds). */
		freshRows: (since: number) => freshRows.all(since) as number[],
		/** Deletes objects of a network (and their place in the commit graph). */
		deleteRows(networkId: number, ids: number[]): void {
			const list = JSON.stringify(ids);
			deleteParents.run({ network: networkId, ids: list });
			deleteRows.run({ network: networkId, ids: list });
			deleteFresh.run(list);
		},
		/** Forgets what full clones of a network's repositories send. */
		dropNetworkReachable: (networkId: number) => void dropNetworkReachable.run(networkId),
		/** Stores a whole object as a delta (only while it is still whole). */
		rewriteAsDelta: (id: number, base: number, depth: number, dataSize: number, data: Buffer) =>
			rewriteAsDelta.run(base, depth, dataSize, data, id).changes === 1,
		/** Forgets fresh marks and epochs older than `since` (epoch seconds): what they protected is old now. */
		pruneMarks(since: number): void {
			pruneFresh.run(since);
			pruneEpochs.run(since - EPOCH_SECONDS);
		},
		/** Forgets resolved objects (after gc rewrote rows). */
		clearCache: () => cache.clear(),
	};
}
