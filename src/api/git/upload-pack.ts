/**
 * git-upload-pack, the serving side of `git clone` and `git fetch`, over smart HTTP in both
 * protocol versions git speaks (https://git-scm.com/docs/gitprotocol-pack,
 * https://git-scm.com/docs/gitprotocol-v2):
 *
 * - v0/v1: the ref advertisement with capabilities (multi_ack_detailed, no-done, side-band-64k,
 *   ofs-delta, thin-pack, shallow, deepen-since, deepen-not, deepen-relative, include-tag,
 *   allow-tip-sha1-in-want, allow-reachable-sha1-in-want, filter, symref, agent), then stateless
 *   negotiation: each POST carries the wants, shallow/deepen lines and the haves found common so
 *   far; the answer is the shallow update, ACKs (`ready` once every want reaches a common commit)
 *   and, on `done` (or `ready` with no-done), the pack.
 * - v2: the capability advertisement, then the commands `ls-refs` (ref-prefix, symrefs, peel,
 *   unborn), `fetch` (want, want-ref, have, done, thin-pack, ofs-delta, include-tag, no-progress,
 *   shallow, deepen, deepen-since, deepen-not, deepen-relative, filter, sideband-all,
 *   wait-for-done) and `object-info` (size).
 *
 * Refs served: HEAD (a symref to the default branch), refs/heads/*, refs/tags/* (peeled), and each
 * pull request's head as refs/pull/{number}/head. A want may name any commit reachable from them
 * (what actions/checkout fetches by id) and, for partial clones, any tree or blob of the network.
 * Objects come from src/api/git/rev-list.ts, the pack from src/api/git/pack-writer.ts.
 */
import type { ServerResponse } from 'node:http';
import type { App } from '../../app';
import { version } from '../../build-info';
import type { RepositoryRow } from '../../model/rows';
import { FULL_SHA } from './objects';
import { PACK_COMMIT, PACK_TAG } from './pack';
import { type PackSink, writePack } from './pack-writer';
import { cloneTips, knownReachable, wantsAllTips } from './reachable';
import { BAND_DATA, bandLine, DELIM, DELIM_TEXT, FLUSH, pktLine, SMALL_BAND_DATA } from './pktline';
import {
	FetchRefused,
	type FetchRequest,
	INFINITE_DEPTH,
	type ObjectFilter,
	parseFilter,
	type Selection,
	selectObjects,
	shallowPlan,
	TooManyObjects,
} from './rev-list';

const ZERO_ID = '0'.repeat(40);
const AGENT = `agent=gitstead/${version}`;
/** Commits walked at most to decide that a want reaches a common commit (negotiation's `ready`). */
const READY_WALK = 20_000;

/** A ref as advertised: its name, target and, for an annotated tag, what it peels to. */
export interface AdvertisedRef {
	name: string;
	sha: string;
	peeled?: string;
}

/** The refs a fetch sees, HEAD first when the default branch exists. */
export function advertisedRefs(app: App, repo: RepositoryRow): { refs: AdvertisedRef[]; head: string | null } {
	const store = app.stores.git;
	const network = store.network(repo.id);
	const refs: AdvertisedRef[] = [];
	const rows = store.allRefs(repo.id).filter((row) => row.name.startsWith('refs/heads/') || row.name.startsWith('refs/tags/'));
	const head = rows.find((row) => row.name === `refs/heads/${repo.default_branch}`);
	if (head) refs.push({ name: 'HEAD', sha: head.sha });
	for (const row of rows) {
		const ref: AdvertisedRef = { name: row.name, sha: row.sha };
		if (row.type === 'tag') {
			const peeled = peelTag(app, network, row.sha);
			if (peeled) ref.peeled = peeled;
		}
		refs.push(ref);
	}
	for (const pull of store.pullHeads(repo.id)) refs.push({ name: `refs/pull/${pull.number}/head`, sha: pull.sha });
	return { refs, head: head ? `refs/heads/${repo.default_branch}` : null };
}

/** The object an annotated tag finally points to (through tags of tags), or null. */
function peelTag(app: App, network: number, sha: string): string | null {
	const store = app.stores.git;
	for (let depth = 0; depth < 16; depth++) {
		const row = store.stored(network, Buffer.from(sha, 'hex'));
		if (!row) return null;
		if (row.type !== PACK_TAG) return sha;
		const object = /^object ([0-9a-f]{40})/.exec(store.content(row).toString('latin1', 0, 100))?.[1];
		if (!object) return null;
		sha = object;
	}
	return null;
}

/** v0/v1 `info/refs?service=git-upload-pack`: the service line, then refs with capabilities. */
export function advertiseV0(app: App, repo: RepositoryRow): Buffer {
	const { refs, head } = advertisedRefs(app, repo);
	const capabilities = [
		'multi_ack',
		'thin-pack',
		'side-band',
		'side-band-64k',
		'ofs-delta',
		'shallow',
		'deepen-since',
		'deepen-not',
		'deepen-relative',
		'no-progress',
		'include-tag',
		'multi_ack_detailed',
		'allow-tip-sha1-in-want',
		'allow-reachable-sha1-in-want',
		'no-done',
		...(head ? [`symref=HEAD:${head}`] : []),
		'filter',
		'object-format=sha1',
		AGENT,
	].join(' ');
	const parts = [pktLine('# service=git-upload-pack\n'), FLUSH];
	if (refs.length === 0) parts.push(pktLine(`${ZERO_ID} capabilities^{}\0${capabilities}\n`));
	refs.forEach((ref, index) => {
		parts.push(pktLine(index === 0 ? `${ref.sha} ${ref.name}\0${capabilities}\n` : `${ref.sha} ${ref.name}\n`));
		if (ref.peeled) parts.push(pktLine(`${ref.peeled} ${ref.name}^{}\n`));
	});
	parts.push(FLUSH);
	return Buffer.concat(parts);
}

/** v2 `info/refs`: the capability advertisement (no service line in v2). */
export function advertiseV2(): Buffer {
	return Buffer.concat([
		pktLine('version 2\n'),
		pktLine(`${AGENT}\n`),
		pktLine('ls-refs=unborn\n'),
		pktLine('fetch=shallow wait-for-done filter ref-in-want sideband-all\n'),
		pktLine('server-option\n'),
		pktLine('object-format=sha1\n'),
		pktLine('object-info\n'),
		FLUSH,
	]);
}

/** The answer being written: pkt-lines, then maybe a side-banded pack, with backpressure. */
class Reply implements PackSink {
	private started = false;
	constructor(
		private readonly res: ServerResponse,
		private readonly headers: Record<string, string>,
	) {}
	private start() {
		if (this.started) return;
		this.started = true;
		this.res.writeHead(200, { ...this.headers, 'Content-Type': 'application/x-git-upload-pack-result', 'Cache-Control': 'no-cache' });
	}
	write(data: Buffer): boolean {
		this.start();
		return this.res.write(data);
	}
	drained(): Promise<void> {
		return new Promise((resolve) => {
			if (this.res.destroyed || !this.res.writableNeedDrain) return resolve();
			const done = () => {
				this.res.off('drain', done);
				this.res.off('close', done);
				resolve();
			};
			this.res.on('drain', done);
			this.res.on('close', done);
		});
	}
	closed(): boolean {
		return this.res.destroyed;
	}
	end(data?: Buffer): void {
		this.start();
		this.res.end(data);
	}
}

/** Frames pack bytes into side-band packets of `size` (0: raw). */
class BandSink implements PackSink {
	constructor(
		private readonly reply: Reply,
		private readonly size: number,
	) {}
	write(data: Buffer): boolean {
		if (this.size === 0) return this.reply.write(data);
		let ok = true;
		for (let at = 0; at < data.length; at += this.size) ok = this.reply.write(bandLine(1, data.subarray(at, at + this.size))) && ok;
		return ok;
	}
	drained() {
		return this.reply.drained();
	}
	closed() {
		return this.reply.closed();
	}
}

/** What upload-pack's negotiation and the pack need to know of one request. */
interface Wants {
	wants: string[];
	haves: string[];
	shallow: string[];
	depth: number;
	deepenRelative: boolean;
	deepenSince: number | null;
	deepenNot: string[];
	filter: ObjectFilter | null;
	capabilities: Set<string>;
	done: boolean;
}

/** A request that wants nothing yet (what the wants, haves and deepen lines then fill). */
function noWants(): Wants {
	return {
		wants: [],
		haves: [],
		shallow: [],
		depth: 0,
		deepenRelative: false,
		deepenSince: null,
		deepenNot: [],
		filter: null,
		capabilities: new Set(),
		done: false,
	};
}

/** Refusals git shows as "remote error: …" / "fatal: …". */
class ProtocolError extends Error {}

function parseDeepen(line: string, request: Wants, app: App, repo: RepositoryRow): boolean {
	if (line.startsWith('shallow ')) {
		const id = line.slice(8);
		if (!FULL_SHA.test(id)) throw new ProtocolError(`invalid shallow line: ${line}`);
		request.shallow.push(id);
	} else if (line.startsWith('deepen ')) {
		const depth = Number(line.slice(7));
		if (!Number.isInteger(depth) || depth <= 0) throw new ProtocolError(`Invalid deepen: ${line}`);
		request.depth = Math.min(depth, INFINITE_DEPTH);
	} else if (line.startsWith('deepen-since ')) {
		const since = Number(line.slice(13));
		if (!Number.isInteger(since) || since < 0) throw new ProtocolError(`Invalid deepen-since: ${line}`);
		request.deepenSince = since;
	} else if (line.startsWith('deepen-not ')) {
		const name = line.slice(11);
		const sha = expandRef(app, repo, name);
		if (!sha) throw new ProtocolError(`git upload-pack: ambiguous deepen-not: ${line}`);
		request.deepenNot.push(sha);
	} else if (line === 'deepen-relative') {
		request.deepenRelative = true;
	} else if (line.startsWith('filter ')) {
		try {
			request.filter = parseFilter(line.slice(7));
		} catch (error) {
			if (error instanceof FetchRefused) throw new ProtocolError(error.message);
			throw error;
		}
	} else return false;
	return true;
}

/** A ref name as `deepen-not` gives it (a full name, or short as git's dwim rules) → its commit. */
function expandRef(app: App, repo: RepositoryRow, name: string): string | null {
	const store = app.stores.git;
	for (const candidate of [name, `refs/${name}`, `refs/tags/${name}`, `refs/heads/${name}`]) {
		const ref = candidate.startsWith('refs/') ? store.ref(repo.id, candidate) : undefined;
		if (ref) return peelTag(app, store.network(repo.id), ref.sha);
	}
	return FULL_SHA.test(name) ? name : null;
}

/**
 * Checks the wants (upload-pack's check_non_tip with allow-reachable-sha1-in-want): an advertised
 * tip, a commit reachable from one, or, for partial clones, a tree or blob of the network.
 * @returns the first want that may not be fetched, or null
 */
function forbiddenWant(app: App, repo: RepositoryRow, network: number, wants: string[], refs: AdvertisedRef[]): string | null {
	const store = app.stores.git;
	const tips = new Set<string>();
	for (const ref of refs) {
		tips.add(ref.sha);
		if (ref.peeled) tips.add(ref.peeled);
	}
	let reachable: Set<string> | null = null;
	for (const want of wants) {
		if (tips.has(want)) continue;
		const meta = store.metaIn(network, want);
		if (!meta) return want;
		if (meta.type !== 'commit' && meta.type !== 'tag') continue;
		if (!reachable) {
			reachable = new Set();
			for (const tip of tips) {
				if (reachable.has(tip) || store.metaIn(network, tip)?.type !== 'commit') continue;
				for (const sha of store.ancestors(repo.id, tip)) reachable.add(sha);
			}
		}
		if (!reachable.has(want)) return want;
	}
	return null;
}

/** The haves the network holds as commits, in the order sent. */
function commonHaves(app: App, network: number, haves: string[]): string[] {
	const store = app.stores.git;
	const common: string[] = [];
	const seen = new Set<string>();
	for (const have of haves) {
		if (seen.has(have)) continue;
		seen.add(have);
		if (store.locate(network, Buffer.from(have, 'hex'))?.type === PACK_COMMIT) common.push(have);
	}
	return common;
}

/** upload-pack's ok_to_give_up: every wanted commit reaches a commit the client has (or a parent of one). */
function readyToGiveUp(app: App, network: number, wants: string[], common: string[]): boolean {
	if (common.length === 0) return false;
	const store = app.stores.git;
	const theyHave = new Set<string>(common);
	for (const sha of common) for (const parent of store.parentsIn(network, Buffer.from(sha, 'hex'))) theyHave.add(parent.toString('hex'));
	for (const want of wants) {
		if (store.locate(network, Buffer.from(want, 'hex'))?.type !== PACK_COMMIT) continue;
		const seen = new Set<string>();
		const stack = [want];
		let found = false;
		while (stack.length && !found && seen.size < READY_WALK) {
			const sha = stack.pop()!;
			if (seen.has(sha)) continue;
			seen.add(sha);
			if (theyHave.has(sha)) found = true;
			else for (const parent of store.parentsIn(network, Buffer.from(sha, 'hex'))) stack.push(parent.toString('hex'));
		}
		if (!found) return false;
	}
	return true;
}

/**
 * The objects of a fetch: for a full clone (every branch and tag wanted, nothing had, no shallow
 * or filter) what is known to be reachable from them (src/api/git/reachable.ts), without a walk;
 * otherwise the walk of rev-list.ts, which a full clone then keeps for the next.
 * @throws FetchRefused, TooManyObjects (from the walk)
 */
function select(app: App, repo: RepositoryRow, network: number, request: Wants, fetch: FetchRequest): Selection {
	const store = app.stores.git;
	const full =
		fetch.haves.length === 0 &&
		fetch.clientShallow.length === 0 &&
		fetch.depth === 0 &&
		fetch.deepenSince === null &&
		fetch.deepenNot.length === 0 &&
		fetch.filter === null;
	const tips = full ? cloneTips(app, repo) : [];
	if (!full || !wantsAllTips(request.wants, tips)) return selectObjects(store, network, fetch);
	const known = knownReachable(app, repo, tips);
	if (known) {
		const rows = [...known].sort((a, b) => a - b);
		return { objects: rows, known: new Set(), bytes: store.sizeOfRows(rows), shallow: [], unshallow: [], deepened: false, commits: 0 };
	}
	const selection = selectObjects(store, network, fetch);
	app.transaction(() => store.setReachable(repo.id, tips, selection.objects));
	return selection;
}

/** Annotated tags of the repository (tag id → peeled target) for include-tag. */
function annotatedTags(refs: AdvertisedRef[]): Map<string, string> {
	const tags = new Map<string, string>();
	for (const ref of refs) if (ref.peeled && ref.name.startsWith('refs/tags/')) tags.set(ref.sha, ref.peeled);
	return tags;
}

/**
 * Sends the pack of a negotiated request: objects selected, progress on band 2, the pack on band
 * 1 (or raw without a side band), then a flush when banded.
 */
async function sendPack(
	app: App,
	repo: RepositoryRow,
	request: Wants,
	selection: Selection,
	reply: Reply,
	band: number,
	progress: boolean,
): Promise<void> {
	const store = app.stores.git;
	if (selection.bytes > app.config.storage.max_pack_bytes) {
		const message = `The pack would hold ${selection.bytes} bytes of objects, more than this server sends at once (storage.max_pack_bytes = ${app.config.storage.max_pack_bytes}).`;
		reply.end(band ? bandLine(3, `${message}\n`) : pktLine(`ERR ${message}\n`));
		return;
	}
	if (band && progress) reply.write(bandLine(2, `Enumerating objects: ${selection.objects.length}, done.\n`));
	const sink = new BandSink(reply, band);
	try {
		const written = await writePack(
			store,
			selection.objects,
			{ ofsDelta: request.capabilities.has('ofs-delta'), thin: request.capabilities.has('thin-pack'), known: selection.known },
			sink,
		);
		if (!written.complete) return;
		if (band && progress) {
			reply.write(
				bandLine(
					2,
					`Total ${written.objects} (delta ${written.deltas}), reused ${written.objects - written.resolved} (delta ${written.deltas}), pack-reused ${written.objects - written.resolved}\n`,
				),
			);
		}
	} catch (error) {
		app.log.warn('git pack stream failed', { repo: repo.id, error });
		if (band) reply.end(bandLine(3, 'aborting due to possible repository corruption on the remote side.\n'));
		else reply.end();
		return;
	}
	reply.end(band ? FLUSH : undefined);
}

/**
 * v0/v1 POST git-upload-pack: negotiation and, when done, the pack.
 * @param lines the request's pkt-lines (null: flush)
 */
export async function uploadPackV0(
	app: App,
	repo: RepositoryRow,
	lines: Array<string | null>,
	res: ServerResponse,
	headers: Record<string, string>,
): Promise<void> {
	const reply = new Reply(res, headers);
	const store = app.stores.git;
	const network = store.network(repo.id);
	const request = noWants();
	let at = 0;
	let ended = false;
	try {
		// receive_needs: wants, shallow and deepen lines up to the first flush.
		for (; at < lines.length && lines[at] !== null; at++) {
			const line = lines[at]!;
			if (parseDeepen(line, request, app, repo)) continue;
			const match = /^want ([0-9a-f]{40})(?: (.*))?$/.exec(line);
			if (!match) throw new ProtocolError(`git upload-pack: protocol error, expected to get object ID, not '${line.slice(0, 80)}'`);
			if (request.wants.length === 0 && match[2]) for (const capability of match[2].split(' ')) request.capabilities.add(capability);
			if (!request.wants.includes(match[1])) request.wants.push(match[1]);
		}
		at++;
		// In v0 and v1, deepen-relative is a capability of the first want.
		if (request.capabilities.has('deepen-relative')) request.deepenRelative = true;
		// An end right after the needs: a stateless client only wants the shallow update.
		ended = at >= lines.length;
		// get_common_commits, stateless: haves up to a flush (a negotiation round) or `done`.
		for (; at < lines.length; at++) {
			const line = lines[at];
			if (line === null) break;
			if (line === 'done') {
				request.done = true;
				break;
			}
			if (!/^have [0-9a-f]{40}$/.test(line))
				throw new ProtocolError(`git upload-pack: expected SHA1 list, got '${line.slice(0, 80)}'`);
			request.haves.push(line.slice(5));
		}
	} catch (error) {
		if (!(error instanceof ProtocolError)) throw error;
		reply.end(pktLine(`ERR ${error.message}\n`));
		return;
	}
	if (request.wants.length === 0) {
		reply.end();
		return;
	}
	const { refs } = advertisedRefs(app, repo);
	const forbidden = forbiddenWant(app, repo, network, request.wants, refs);
	if (forbidden) {
		reply.end(pktLine(`ERR upload-pack: not our ref ${forbidden}\n`));
		return;
	}
	const band = request.capabilities.has('side-band-64k') ? BAND_DATA : request.capabilities.has('side-band') ? SMALL_BAND_DATA : 0;
	const common = commonHaves(app, network, request.haves);
	const fetch = fetchRequest(request, common, refs);
	const out: Buffer[] = [];
	try {
		const plan = shallowPlan(store, network, fetch);
		if (plan.deepened) {
			for (const sha of plan.shallow) out.push(pktLine(`shallow ${sha}\n`));
			for (const sha of plan.unshallow) out.push(pktLine(`unshallow ${sha}\n`));
			out.push(FLUSH);
		}
	} catch (error) {
		if (!(error instanceof FetchRefused)) throw error;
		reply.end(pktLine(`ERR ${error.message}\n`));
		return;
	}
	if (ended) {
		reply.end(Buffer.concat(out));
		return;
	}
	const detailed = request.capabilities.has('multi_ack_detailed');
	const multi = detailed || request.capabilities.has('multi_ack');
	const last = common[common.length - 1];
	if (!request.done) {
		// The end of a round: ACK what is common, `ready` once every want reaches it.
		for (const sha of common) out.push(pktLine(detailed ? `ACK ${sha} common\n` : multi ? `ACK ${sha} continue\n` : `ACK ${sha}\n`));
		const unknown = request.haves.length > common.length;
		const ready = detailed && common.length > 0 && !unknown && readyToGiveUp(app, network, request.wants, common);
		if (ready) out.push(pktLine(`ACK ${last} ready\n`));
		if (common.length === 0 || multi) out.push(pktLine('NAK\n'));
		if (!(ready && request.capabilities.has('no-done'))) {
			reply.end(Buffer.concat(out));
			return;
		}
		out.push(pktLine(`ACK ${last}\n`));
	} else {
		for (const sha of common) if (detailed) out.push(pktLine(`ACK ${sha} common\n`));
		out.push(pktLine(common.length ? `ACK ${last}\n` : 'NAK\n'));
	}
	let selection: Selection;
	try {
		selection = select(app, repo, network, request, fetch);
	} catch (error) {
		if (error instanceof FetchRefused || error instanceof TooManyObjects) {
			reply.end(Buffer.concat([...out, pktLine(`ERR ${error.message}\n`)]));
			return;
		}
		throw error;
	}
	reply.write(Buffer.concat(out));
	await sendPack(app, repo, request, selection, reply, band, !request.capabilities.has('no-progress'));
}

function fetchRequest(request: Wants, common: string[], refs: AdvertisedRef[]): FetchRequest {
	return {
		wants: request.wants,
		haves: common,
		clientShallow: request.shallow,
		depth: request.depth,
		deepenRelative: request.deepenRelative,
		deepenSince: request.deepenSince,
		deepenNot: request.deepenNot,
		filter: request.filter,
		tags: request.capabilities.has('include-tag') ? annotatedTags(refs) : new Map(),
	};
}

/**
 * v2 POST git-upload-pack: one command (ls-refs, fetch, object-info) per request.
 * @param lines the request's pkt-lines (null: flush, DELIM_TEXT: delimiter)
 */
export async function uploadPackV2(
	app: App,
	repo: RepositoryRow,
	lines: Array<string | null>,
	res: ServerResponse,
	headers: Record<string, string>,
): Promise<void> {
	const reply = new Reply(res, headers);
	const command = lines[0]?.startsWith('command=') ? lines[0].slice(8) : null;
	// Capabilities up to the delimiter, then the arguments up to the flush.
	const delimiter = lines.indexOf(DELIM_TEXT);
	const args = (delimiter < 0 ? [] : lines.slice(delimiter + 1)).filter((line): line is string => line !== null && line !== DELIM_TEXT);
	if (command === 'ls-refs') {
		reply.end(lsRefs(app, repo, args));
		return;
	}
	if (command === 'object-info') {
		reply.end(objectInfo(app, repo, args));
		return;
	}
	if (command !== 'fetch') {
		reply.end(pktLine(`ERR ${command === null ? 'no command requested' : `invalid command '${command.slice(0, 40)}'`}\n`));
		return;
	}
	await fetchV2(app, repo, args, reply);
}

function lsRefs(app: App, repo: RepositoryRow, args: string[]): Buffer {
	const prefixes = args.filter((arg) => arg.startsWith('ref-prefix ')).map((arg) => arg.slice(11));
	const symrefs = args.includes('symrefs');
	const peel = args.includes('peel');
	const unborn = args.includes('unborn');
	const { refs, head } = advertisedRefs(app, repo);
	const out: Buffer[] = [];
	const wanted = (name: string) => prefixes.length === 0 || prefixes.some((prefix) => name.startsWith(prefix));
	if (!refs.some((ref) => ref.name === 'HEAD') && unborn && wanted('HEAD')) {
		out.push(pktLine(`unborn HEAD${symrefs ? ` symref-target:refs/heads/${repo.default_branch}` : ''}\n`));
	}
	for (const ref of refs) {
		if (!wanted(ref.name)) continue;
		let line = `${ref.sha} ${ref.name}`;
		if (symrefs && ref.name === 'HEAD' && head) line += ` symref-target:${head}`;
		if (peel && ref.peeled) line += ` peeled:${ref.peeled}`;
		out.push(pktLine(`${line}\n`));
	}
	out.push(FLUSH);
	return Buffer.concat(out);
}

function objectInfo(app: App, repo: RepositoryRow, args: string[]): Buffer {
	const store = app.stores.git;
	const network = store.network(repo.id);
	const out: Buffer[] = [];
	if (args.includes('size')) out.push(pktLine('size\n'));
	for (const arg of args) {
		if (!arg.startsWith('oid ')) continue;
		const sha = arg.slice(4);
		const meta = FULL_SHA.test(sha) ? store.metaIn(network, sha) : undefined;
		out.push(pktLine(meta ? `${sha} ${meta.size}\n` : `${sha}\n`));
	}
	out.push(FLUSH);
	return Buffer.concat(out);
}

async function fetchV2(app: App, repo: RepositoryRow, args: string[], reply: Reply): Promise<void> {
	const store = app.stores.git;
	const network = store.network(repo.id);
	const request = noWants();
	const wantedRefs: Array<{ name: string; sha: string }> = [];
	let sidebandAll = false;
	let waitForDone = false;
	const { refs } = advertisedRefs(app, repo);
	try {
		for (const arg of args) {
			if (parseDeepen(arg, request, app, repo)) continue;
			if (arg.startsWith('want ')) {
				const id = arg.slice(5);
				if (!FULL_SHA.test(id))
					throw new ProtocolError(`git upload-pack: protocol error, expected to get oid, not '${arg.slice(0, 80)}'`);
				if (!request.wants.includes(id)) request.wants.push(id);
			} else if (arg.startsWith('want-ref ')) {
				const name = arg.slice(9);
				const ref = refs.find((candidate) => candidate.name === name);
				if (!ref) throw new ProtocolError(`unknown ref ${name}`);
				wantedRefs.push({ name, sha: ref.sha });
				if (!request.wants.includes(ref.sha)) request.wants.push(ref.sha);
			} else if (arg.startsWith('have ')) {
				const id = arg.slice(5);
				if (!FULL_SHA.test(id)) throw new ProtocolError(`git upload-pack: expected SHA1 object, got '${id.slice(0, 80)}'`);
				request.haves.push(id);
			} else if (['thin-pack', 'ofs-delta', 'no-progress', 'include-tag'].includes(arg)) {
				request.capabilities.add(arg);
			} else if (arg === 'done') request.done = true;
			else if (arg === 'wait-for-done') waitForDone = true;
			else if (arg === 'sideband-all') sidebandAll = true;
			else if (arg.startsWith('packfile-uris ') || arg.startsWith('server-option') || arg.startsWith('agent=')) continue;
			else throw new ProtocolError(`unexpected line: '${arg.slice(0, 80)}'`);
		}
	} catch (error) {
		if (!(error instanceof ProtocolError)) throw error;
		reply.end(pktLine(`ERR ${error.message}\n`));
		return;
	}
	const line = (text: string) => (sidebandAll ? pktLine(Buffer.concat([Buffer.from([1]), Buffer.from(text)])) : pktLine(text));
	if (request.wants.length === 0 && !waitForDone) {
		reply.end(FLUSH);
		return;
	}
	const forbidden = forbiddenWant(app, repo, network, request.wants, refs);
	if (forbidden) {
		reply.end(pktLine(`ERR upload-pack: not our ref ${forbidden}\n`));
		return;
	}
	const common = commonHaves(app, network, request.haves);
	const out: Buffer[] = [];
	if (request.haves.length > 0 && !request.done) {
		// process_haves_and_send_acks: the acknowledgments, and `ready` when the pack can follow.
		out.push(line('acknowledgments\n'));
		if (common.length === 0) out.push(line('NAK\n'));
		for (const sha of common) out.push(line(`ACK ${sha}\n`));
		const ready = !waitForDone && readyToGiveUp(app, network, request.wants, common);
		if (!ready) {
			out.push(FLUSH);
			reply.end(Buffer.concat(out));
			return;
		}
		out.push(line('ready\n'), DELIM);
	}
	let selection: Selection;
	try {
		selection = select(app, repo, network, request, fetchRequest(request, common, refs));
	} catch (error) {
		if (error instanceof FetchRefused || error instanceof TooManyObjects) {
			reply.end(pktLine(`ERR ${error.message}\n`));
			return;
		}
		throw error;
	}
	if (selection.deepened || request.shallow.length > 0) {
		out.push(line('shallow-info\n'));
		if (selection.deepened) {
			for (const sha of selection.shallow) out.push(line(`shallow ${sha}\n`));
			for (const sha of selection.unshallow) out.push(line(`unshallow ${sha}\n`));
		}
		out.push(DELIM);
	}
	if (wantedRefs.length) {
		out.push(line('wanted-refs\n'));
		for (const ref of wantedRefs) out.push(line(`${ref.sha} ${ref.name}\n`));
		out.push(DELIM);
	}
	out.push(line('packfile\n'));
	reply.write(Buffer.concat(out));
	await sendPack(app, repo, request, selection, reply, BAND_DATA, !request.capabilities.has('no-progress'));
}
