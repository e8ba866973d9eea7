/**
 * What a fetch sends (git's `rev-list --objects` as upload-pack drives it): the commits reachable
 * from the wants and not from what the client has, cut at the shallow boundary a `deepen`,
 * `deepen-since` or `deepen-not` asks for; then their trees and blobs, without the objects the
 * client already has (the trees of its common commits) and without what a `filter` leaves out
 * (partial clones: `blob:none`, `blob:limit=<n>`, `tree:<depth>`).
 *
 * Works on one fork network's store (src/api/git/store.ts) and returns row ids for the pack
 * writer. Bounded: past MAX_OBJECTS objects it throws TooManyObjects.
 */
import type { GitStore } from './store';
import { PACK_BLOB, PACK_COMMIT, PACK_TAG, PACK_TREE } from './pack';

/** `deepen` for "everything" (git's INFINITE_DEPTH: `fetch --unshallow`). */
export const INFINITE_DEPTH = 0x7fffffff;
/** Most objects one fetch may send. */
export const MAX_OBJECTS = 5_000_000;
/** Common commits whose trees are walked to leave out what the client has (each costs a full tree walk). */
const MAX_EDGE_TREES = 8;

/** A partial-clone filter: what to leave out. */
export interface ObjectFilter {
	/** Blobs larger than this many bytes are left out (0: `blob:none`, every blob); null keeps all. */
	blobLimit: number | null;
	/** Trees and blobs this deep or deeper are left out (the root tree is 0); null keeps all. */
	treeDepth: number | null;
}

/** What the client asked for. */
export interface FetchRequest {
	/** Object ids (hex): commits, tags, or any object (a partial clone's lazy fetch). */
	wants: string[];
	/** Commits the client has (hex), already checked to be in the store. */
	haves: string[];
	/** The client's shallow commits (hex). */
	clientShallow: string[];
	/** `deepen <n>` (0: none). */
	depth: number;
	deepenRelative: boolean;
	/** `deepen-since`: epoch seconds, or null. */
	deepenSince: number | null;
	/** `deepen-not`: commits (hex) whose history is left out. */
	deepenNot: string[];
	filter: ObjectFilter | null;
	/** Annotated tags (tag id → peeled target id) of the repository, for `include-tag`; empty when not asked. */
	tags: Map<string, string>;
}

/** The outcome: what to send and the shallow lines to announce first. */
export interface Selection {
	/** Row ids to pack, in order (commits newest first, then trees and blobs as met, tags). */
	objects: number[];
	/** Row ids the client has for sure (thin packs may use them as delta bases). */
	known: Set<number>;
	/** Bytes of the objects' contents. */
	bytes: number;
	/** Commits that become shallow for the client ("shallow <id>"). */
	shallow: string[];
	/** Client shallow commits whose history is now sent ("unshallow <id>"). */
	unshallow: string[];
	/** True when a deepen request was made (the shallow section is sent then). */
	deepened: boolean;
	commits: number;
}

/** The selection would exceed MAX_OBJECTS. */
export class TooManyObjects extends Error {}
/** A request git would refuse (the message goes to the client as an ERR line). */
export class FetchRefused extends Error {}

const hex = (oid: Buffer) => oid.toString('hex');

/** Parsed facts of the commits one fetch reads, each read once. */
export class CommitFacts {
	private readonly parentsOf = new Map<string, string[]>();
	private readonly headers = new Map<string, { tree: string; time: number }>();
	constructor(
		private readonly store: GitStore,
		private readonly network: number,
	) {}

	parents(sha: string): string[] {
		let parents = this.parentsOf.get(sha);
		if (!parents) {
			parents = this.store.parentsIn(this.network, Buffer.from(sha, 'hex')).map(hex);
			this.parentsOf.set(sha, parents);
		}
		return parents;
	}

	/** The commit's tree and committer time, or null when `sha` is not a stored commit. */
	header(sha: string): { tree: string; time: number } | null {
		const known = this.headers.get(sha);
		if (known) return known;
		const row = this.store.stored(this.network, Buffer.from(sha, 'hex'));
		if (!row || row.type !== PACK_COMMIT) return null;
		const text = this.store.content(row).toString('latin1', 0, 4096);
		const tree = /^tree ([0-9a-f]{40})/.exec(text)?.[1] ?? '';
		const committer = /\ncommitter [^\n]*> (\d+) [+-]\d{4}\n/.exec(text);
		const header = { tree, time: committer ? Number(committer[1]) : 0 };
		this.headers.set(sha, header);
		return header;
	}
}

/**
 * Peels wanted objects: a tag (of a tag…) is kept and followed to what it points at.
 * @returns the tag ids met and the final objects
 */
function peelWants(store: GitStore, network: number, wants: string[]): { tags: string[]; targets: string[] } {
	const tags: string[] = [];
	const targets: string[] = [];
	for (const want of wants) {
		let sha = want;
		for (let hops = 0; hops < 16; hops++) {
			const row = store.stored(network, Buffer.from(sha, 'hex'));
			if (!row) break;
			if (row.type !== PACK_TAG) {
				targets.push(sha);
				break;
			}
			tags.push(sha);
			const object = /^object ([0-9a-f]{40})/.exec(store.content(row).toString('latin1', 0, 100))?.[1];
			if (!object) break;
			sha = object;
		}
	}
	return { tags, targets };
}

/**
 * git's get_shallow_commits: walks from `heads` down to `depth` commits (the heads count as 1);
 * commits reached at that depth become shallow.
 * @returns the shallow commits and every commit walked above them (NOT_SHALLOW)
 */
function shallowByDepth(facts: CommitFacts, heads: string[], depth: number): { shallow: string[]; notShallow: Set<string> } {
	const best = new Map<string, number>();
	const shallow = new Set<string>();
	const notShallow = new Set<string>();
	const stack: Array<[string, number]> = heads.map((sha) => [sha, 0]);
	stack.reverse();
	while (stack.length) {
		const [sha, above] = stack.pop()!;
		const level = above + 1;
		if (depth !== INFINITE_DEPTH && level >= depth) {
			shallow.add(sha);
			continue;
		}
		notShallow.add(sha);
		for (const parent of facts.parents(sha)) {
			const seen = best.get(parent);
			if (seen !== undefined && level >= seen) continue;
			best.set(parent, level);
			stack.push([parent, level]);
		}
	}
	for (const sha of notShallow) shallow.delete(sha);
	return { shallow: [...shallow], notShallow };
}

/**
 * git's get_shallow_commits_by_rev_list: the commits reachable from `heads` that are at least as
 * new as `since` and not reachable from `not`; those with a parent left out become shallow.
 */
function shallowByRevList(
	facts: CommitFacts,
	heads: string[],
	since: number | null,
	not: string[],
): { shallow: string[]; notShallow: Set<string> } {
	const excluded = new Set<string>();
	const stack = [...not];
	while (stack.length) {
		const sha = stack.pop()!;
		if (excluded.has(sha)) continue;
		excluded.add(sha);
		stack.push(...facts.parents(sha));
	}
	const listed = new Set<string>();
	const queue = heads.filter((sha) => !excluded.has(sha));
	while (queue.length) {
		const sha = queue.pop()!;
		if (listed.has(sha) || excluded.has(sha)) continue;
		const header = facts.header(sha);
		if (!header) continue;
		if (since !== null && header.time < since) continue;
		listed.add(sha);
		queue.push(...facts.parents(sha));
	}
	if (listed.size === 0) throw new FetchRefused('no commits selected for shallow requests');
	const shallow = [...listed].filter((sha) => facts.parents(sha).some((parent) => !listed.has(parent)));
	// Border commits are shallow, not NOT_SHALLOW (git clears the flag on them).
	for (const sha of shallow) listed.delete(sha);
	return { shallow, notShallow: listed };
}

/** The shallow boundary of a fetch (upload-pack's deepen / deepen_by_rev_list, send_shallow, send_unshallow). */
export interface ShallowPlan {
	/** Commits that become shallow for the client ("shallow <id>"). */
	shallow: string[];
	/** Client shallow commits whose history is now sent ("unshallow <id>"). */
	unshallow: string[];
	/** True when a deepen request was made (the shallow section is sent then). */
	deepened: boolean;
	/** Commits walked as parentless: the new boundary and the client's own. */
	grafts: Set<string>;
	/** The wanted commits, with the parents of unshallowed commits. */
	starts: string[];
	/** Wanted objects that are not commits (after peeling tags). */
	others: string[];
	/** Tags met peeling the wants. */
	tags: string[];
}

/**
 * Works out the shallow boundary of a fetch from its wants (not its haves, as upload-pack does
 * before negotiating).
 * @throws FetchRefused for a request git refuses
 */
export function shallowPlan(store: GitStore, network: number, request: FetchRequest, facts = new CommitFacts(store, network)): ShallowPlan {
	const peeled = peelWants(store, network, request.wants);
	const wantCommits: string[] = [];
	const others: string[] = [];
	for (const sha of peeled.targets) {
		const row = store.metaIn(network, sha);
		if (row?.type === 'commit') wantCommits.push(sha);
		else if (row) others.push(sha);
	}
	const clientShallow = new Set(request.clientShallow.filter((sha) => facts.header(sha) !== null));
	let shallow: string[] = [];
	let notShallow = new Set<string>();
	let deepened = false;
	if (request.depth > 0) {
		if (request.deepenSince !== null || request.deepenNot.length > 0) {
			throw new FetchRefused('deepen and deepen-since (or deepen-not) cannot be used together');
		}
		deepened = true;
		if (request.depth === INFINITE_DEPTH) {
			notShallow = new Set(clientShallow);
		} else if (request.deepenRelative) {
			({ shallow, notShallow } = shallowByDepth(facts, [...clientShallow], request.depth + 1));
		} else {
			({ shallow, notShallow } = shallowByDepth(facts, wantCommits, request.depth));
		}
	} else if (request.deepenSince !== null || request.deepenNot.length > 0) {
		deepened = true;
		({ shallow, notShallow } = shallowByRevList(facts, wantCommits, request.deepenSince, request.deepenNot));
	}
	const announced = shallow.filter((sha) => !clientShallow.has(sha) && !notShallow.has(sha));
	const unshallow = [...clientShallow].filter((sha) => notShallow.has(sha));
	const starts = [...wantCommits];
	for (const sha of unshallow) starts.push(...facts.parents(sha));
	return {
		shallow: announced,
		unshallow,
		deepened,
		grafts: new Set([...announced, ...clientShallow]),
		starts,
		others,
		tags: peeled.tags,
	};
}

/**
 * Selects the objects of a fetch.
 * @throws TooManyObjects past MAX_OBJECTS; FetchRefused for a request git refuses
 */
export function selectObjects(store: GitStore, network: number, request: FetchRequest): Selection {
	const facts = new CommitFacts(store, network);
	const plan = shallowPlan(store, network, request, facts);
	const { grafts, starts, unshallow } = plan;
	const uninterestingStarts = [...request.haves, ...unshallow];

	// What the client has: everything reachable from its common commits (through the grafts).
	const uninteresting = new Set<string>();
	const stack = [...uninterestingStarts];
	while (stack.length) {
		const sha = stack.pop()!;
		if (uninteresting.has(sha)) continue;
		uninteresting.add(sha);
		if (!grafts.has(sha)) stack.push(...facts.parents(sha));
	}

	// The commits to send, newest (closest to the wants) first.
	const commits: string[] = [];
	const taken = new Set<string>();
	const edges = new Set<string>(request.haves.slice(0, MAX_EDGE_TREES));
	const queue = starts.filter((sha) => !uninteresting.has(sha));
	for (let at = 0; at < queue.length; at++) {
		const sha = queue[at];
		if (taken.has(sha)) continue;
		if (!facts.header(sha)) continue;
		taken.add(sha);
		commits.push(sha);
		if (commits.length > MAX_OBJECTS) throw new TooManyObjects(`more than ${MAX_OBJECTS} commits`);
		if (grafts.has(sha)) continue;
		for (const parent of facts.parents(sha)) {
			if (uninteresting.has(parent)) {
				if (edges.size < MAX_EDGE_TREES) edges.add(parent);
			} else if (!taken.has(parent)) queue.push(parent);
		}
	}

	const objects: number[] = [];
	const known = new Set<number>();
	/** Objects met (latin1 keys of their 20-byte ids). */
	const seen = new Set<string>();
	const keyOf = (hex: string) => Buffer.from(hex, 'hex').toString('latin1');
	const filter = request.filter;
	let bytes = 0;
	const add = (id: number, size: number) => {
		objects.push(id);
		bytes += size;
		if (objects.length > MAX_OBJECTS) throw new TooManyObjects(`more than ${MAX_OBJECTS} objects`);
	};
	/** Blobs met by tree walks, located in batches (one statement for many ids). */
	let blobs: Buffer[] = [];
	let blobsCollected = true;
	const flushBlobs = () => {
		if (!blobs.length) return;
		const found = store.locateMany(network, blobs);
		for (const oid of blobs) {
			const blob = found.get(oid.toString('latin1'));
			if (!blob || blob.type !== PACK_BLOB) continue;
			if (!blobsCollected) known.add(blob.id);
			else if (filter?.blobLimit === null || filter?.blobLimit === undefined || blob.size <= filter.blobLimit)
				add(blob.id, blob.size);
		}
		blobs = [];
	};

	/** Walks a tree: collect=false marks what the client has; depths follow the tree filter. */
	const walkTree = (root: string, collect: boolean) => {
		if (blobsCollected !== collect) flushBlobs();
		blobsCollected = collect;
		const pending: Array<[Buffer, number]> = [[Buffer.from(root, 'hex'), 0]];
		const treeDepth = collect ? (filter?.treeDepth ?? null) : null;
		while (pending.length) {
			const [oid, depth] = pending.pop()!;
			const row = store.stored(network, oid);
			if (!row || row.type !== PACK_TREE) continue;
			if (collect) add(row.id, row.size);
			else known.add(row.id);
			const content = store.content(row);
			let at = 0;
			while (at < content.length) {
				const space = content.indexOf(0x20, at);
				const nul = content.indexOf(0, space);
				if (space < 0 || nul < 0 || nul + 21 > content.length) break;
				const isTree = content[at] === 0x34; // "40000"
				const isGitlink = content[at] === 0x31 && content[at + 1] === 0x36; // "160000"
				const key = content.toString('latin1', nul + 1, nul + 21);
				at = nul + 21;
				if (isGitlink || seen.has(key)) continue;
				if (treeDepth !== null && depth + 1 >= treeDepth) continue;
				seen.add(key);
				const child = content.subarray(nul + 1, nul + 21);
				if (isTree) pending.push([child, depth + 1]);
				else {
					blobs.push(child);
					if (blobs.length >= 512) flushBlobs();
				}
			}
		}
	};

	// Trees of the commits the client has at the edge: their objects are not sent.
	for (const sha of edges) {
		const tree = facts.header(sha)?.tree;
		if (tree && !seen.has(keyOf(tree))) {
			seen.add(keyOf(tree));
			walkTree(tree, false);
		}
	}
	flushBlobs();
	const rowOf = (sha: string) => store.locate(network, Buffer.from(sha, 'hex'));
	for (const sha of plan.tags) {
		const row = rowOf(sha);
		if (row && !seen.has(keyOf(sha))) {
			seen.add(keyOf(sha));
			add(row.id, row.size);
		}
	}
	for (const sha of commits) {
		const row = rowOf(sha)!;
		add(row.id, row.size);
	}
	const treeIncluded = filter?.treeDepth === null || filter?.treeDepth === undefined || filter.treeDepth > 0;
	// Explicitly wanted trees and blobs are sent whatever the filter says (a partial clone's lazy fetch).
	for (const sha of plan.others) {
		if (seen.has(keyOf(sha))) continue;
		seen.add(keyOf(sha));
		const row = rowOf(sha)!;
		if (row.type === PACK_TREE) walkTree(sha, true);
		else add(row.id, row.size);
	}
	if (treeIncluded) {
		for (const sha of commits) {
			const tree = facts.header(sha)!.tree;
			if (!tree || seen.has(keyOf(tree))) continue;
			seen.add(keyOf(tree));
			walkTree(tree, true);
		}
	}
	flushBlobs();
	// include-tag: annotated tags whose target is sent.
	for (const [tag, target] of request.tags) {
		if (seen.has(keyOf(tag)) || !(taken.has(target) || seen.has(keyOf(target)))) continue;
		const row = rowOf(tag);
		if (!row) continue;
		seen.add(keyOf(tag));
		add(row.id, row.size);
	}
	return { objects, known, bytes, shallow: plan.shallow, unshallow, deepened: plan.deepened, commits: commits.length };
}

/** Parses a filter spec (`blob:none`, `blob:limit=<n>[kmg]`, `tree:<depth>`). @throws FetchRefused for others */
export function parseFilter(spec: string): ObjectFilter {
	if (spec === 'blob:none') return { blobLimit: 0, treeDepth: null };
	const limit = /^blob:limit=(\d+)([kmg]?)$/i.exec(spec);
	if (limit) {
		const unit = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[limit[2].toLowerCase() as '' | 'k' | 'm' | 'g'];
		return { blobLimit: Number(limit[1]) * unit, treeDepth: null };
	}
	const tree = /^tree:(\d+)$/.exec(spec);
	if (tree) return { blobLimit: null, treeDepth: Number(tree[1]) };
	const kind = spec.split(/[:=]/)[0];
	throw new FetchRefused(`filter '${kind}' not supported`);
}
