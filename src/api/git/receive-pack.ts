/**
 * git-receive-pack, the serving side of `git push`, over smart HTTP
 * (https://git-scm.com/docs/gitprotocol-pack#_pushing_data_to_a_server): the ref advertisement with
 * capabilities (report-status, report-status-v2, delete-refs, side-band-64k, quiet, atomic,
 * ofs-delta, push-options, object-format, agent), then one POST carrying the commands, the push
 * options and the pack.
 *
 * The pack is streamed to a file in `<data_dir>/incoming` while it arrives (storage.max_push_bytes
 * bounds it), indexed and stored (src/api/git/index-pack.ts), then the commands are applied
 * (src/api/git/push.ts). The answer is git's report (`unpack ok` or `unpack <reason>`, then
 * `ok <ref>` / `ng <ref> <reason>` per command) on side band 1, with progress and GitHub's
 * explanations (GH006, GH013…) on side band 2, which git shows as `remote:` lines.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync, rmSync, type WriteStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { createGunzip } from 'node:zlib';
import type { App } from '../../app';
import { GarbagePacer } from '../../memory';
import { version } from '../../build-info';
import { epochSeconds } from '../../time';
import type { RepositoryRow } from '../../model/rows';
import { type IndexResult, indexPack, UnpackError } from './index-pack';
import { cloneTips, knownReachable } from './reachable';
import { isAncestor } from './service';
import { FULL_SHA } from './objects';
import { BAND_DATA, bandLine, FLUSH, pktLine, readPacket } from './pktline';
import { applyPush, type PushCommand, type PushStatus } from './push';

const ZERO_ID = '0'.repeat(40);
const CAPABILITIES = `report-status report-status-v2 delete-refs side-band-64k quiet atomic ofs-delta push-options object-format=sha1 agent=gitstead/${version}`;
/** Largest command and push-option section accepted, in bytes. */
const MAX_COMMAND_BYTES = 4 * 1024 * 1024;
/** Bytes of an oversized push read on (and dropped) so the pusher reads the refusal; past this the connection is cut. */
const DRAIN_LIMIT = 64 * 1024 * 1024;

/** Who pushes, and what the pusher may do beyond writing to the repository. */
export interface Pusher {
	actorId: number | null;
	admin: boolean;
	/** The refusal for a token that may not change workflow files (null: it may). */
	workflowRefusal: ((path: string) => string) | null;
}

/** The folder incoming packs are written to, beside the database. */
export function incomingFolder(app: App): string {
	return join(dirname(app.config.databaseFile), 'incoming');
}

/** `info/refs?service=git-receive-pack`: every reference but the hidden refs/pull/*, with the capabilities. */
export function advertiseReceivePack(app: App, repo: RepositoryRow): Buffer {
	const refs = app.stores.git.allRefs(repo.id).filter((ref) => !ref.name.startsWith('refs/pull/'));
	const parts = [pktLine('# service=git-receive-pack\n'), FLUSH];
	if (refs.length === 0) parts.push(pktLine(`${ZERO_ID} capabilities^{}\0${CAPABILITIES}\n`));
	refs.forEach((ref, index) => {
		parts.push(pktLine(index === 0 ? `${ref.sha} ${ref.name}\0${CAPABILITIES}\n` : `${ref.sha} ${ref.name}\n`));
	});
	parts.push(FLUSH);
	return Buffer.concat(parts);
}

/** What the request said before its pack. */
interface Request {
	commands: PushCommand[];
	capabilities: Set<string>;
	options: string[];
}

/** The body as received: the request part, and the pack in a file (or why not). */
interface Received {
	request: Request | null;
	error: string | null;
	file: string | null;
	packBytes: number;
}

class CommandParser {
	private buffer: Buffer = Buffer.alloc(0);
	private stage: 'commands' | 'options' | 'pack' = 'commands';
	readonly request: Request = { commands: [], capabilities: new Set(), options: [] };

	/**
	 * Takes bytes until the pack begins.
	 * @returns the bytes after the request part (the pack's start), or null while it goes on
	 * @throws PktLineError / Error for a malformed request
	 */
	feed(chunk: Buffer): Buffer | null {
		this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
		if (this.buffer.length > MAX_COMMAND_BYTES) throw new Error('command list too long');
		let at = 0;
		while (this.stage !== 'pack') {
			const packet = readPacket(this.buffer, at);
			if (!packet) {
				this.buffer = this.buffer.subarray(at);
				return null;
			}
			at = packet.next;
			if (packet.kind !== 'data') {
				if (packet.kind !== 'flush') throw new Error('protocol error: unexpected packet');
				this.stage = this.stage === 'commands' && this.request.capabilities.has('push-options') ? 'options' : 'pack';
				continue;
			}
			const line = packet.data.toString('utf8').replace(/\n$/, '');
			if (this.stage === 'options') {
				this.request.options.push(line);
				continue;
			}
			if (line.startsWith('shallow ')) continue;
			const nul = line.indexOf('\0');
			const text = nul < 0 ? line : line.slice(0, nul);
			if (nul >= 0 && this.request.commands.length === 0)
				for (const capability of line.slice(nul + 1).split(' ')) this.request.capabilities.add(capability);
			const match = /^([0-9a-f]{40}) ([0-9a-f]{40}) (.+)$/.exec(text);
			if (!match) throw new Error(`protocol error: expected old/new/ref, got '${text.slice(0, 80)}'`);
			const [, before, after, ref] = match;
			this.request.commands.push({ ref, before: before === ZERO_ID ? null : before, after: after === ZERO_ID ? null : after });
		}
		const rest = this.buffer.subarray(at);
		this.buffer = Buffer.alloc(0);
		return rest;
	}
}

/** Reads the body: the request part parsed, the pack written to a file with the body's backpressure. */
function receive(app: App, req: IncomingMessage): Promise<Received> {
	return new Promise((resolve) => {
		const encoding = req.headers['content-encoding'];
		const source = encoding === 'gzip' || encoding === 'x-gzip' ? req.pipe(createGunzip()) : req;
		const parser = new CommandParser();
		const pacer = new GarbagePacer();
		const limit = app.config.storage.max_push_bytes;
		let file: string | null = null;
		let out: WriteStream | null = null;
		let packBytes = 0;
		let dropped = 0;
		let error: string | null = null;
		let settled = false;
		const finish = () => {
			if (settled) return;
			settled = true;
			const done = () =>
				resolve({ request: error === null || parser.request.commands.length ? parser.request : null, error, file, packBytes });
			if (out) out.end(done);
			else done();
		};
		const write = (data: Buffer) => {
			if (error !== null) {
				dropped += data.length;
				if (dropped > DRAIN_LIMIT) {
					source.destroy();
					finish();
				}
				return;
			}
			packBytes += data.length;
			pacer.count(data.length);
			if (packBytes > limit) {
				error = `pack exceeds maximum allowed size (${limit} bytes; storage.max_push_bytes)`;
				out?.destroy();
				out = null;
				if (file) rmSync(file, { force: true });
				file = null;
				return;
			}
			if (!out) {
				const folder = incomingFolder(app);
				mkdirSync(folder, { recursive: true });
				file = join(folder, `${randomUUID()}.pack`);
				out = createWriteStream(file);
				out.on('error', (failure) => {
					error = `cannot write the pack: ${failure.message}`;
				});
			}
			if (!out.write(data)) {
				source.pause();
				out.once('drain', () => source.resume());
			}
		};
		let parsing = true;
		source.on('data', (chunk: Buffer) => {
			if (settled) return;
			if (!parsing) return write(chunk);
			let rest: Buffer | null;
			try {
				rest = parser.feed(chunk);
			} catch (failure) {
				error = (failure as Error).message;
				parsing = false;
				dropped += chunk.length;
				return;
			}
			if (rest === null) return;
			parsing = false;
			if (rest.length) write(rest);
		});
		source.on('end', finish);
		source.on('error', () => {
			error = error ?? 'unreadable request body';
			finish();
		});
		req.on('close', finish);
	});
}

/**
 * What a full clone sends after a push that only created and fast-forwarded references: what it
 * sent before, with everything the pushed pack brings that the new tips reach.
 * @returns null when that is not known (a deletion, a forced update, nothing known before)
 */
function reachableAfter(
	app: App,
	repo: RepositoryRow,
	commands: PushCommand[],
	statuses: PushStatus[],
	before: number[] | null,
	indexed: IndexResult | null,
): { tips: string[]; rows: Iterable<number> } | null {
	if (before === null) return null;
	for (const [i, command] of commands.entries()) {
		// A refused command's objects were walked as if it went through: they may reach nothing now.
		if (statuses[i].error !== null) return null;
		if (command.after === null) return null;
		if (!command.ref.startsWith('refs/heads/') && !command.ref.startsWith('refs/tags/')) return null;
		if (command.before !== null && !isAncestor(app, repo.id, command.before, command.after)) return null;
	}
	const tips = cloneTips(app, repo);
	const known = new Set(before);
	const network = app.stores.git.network(repo.id);
	const added = indexed
		? indexed.reachable(known)
		: tips.every((tip) => known.has(app.stores.git.locate(network, Buffer.from(tip, 'hex'))?.id ?? -1))
			? []
			: null;
	if (added === null) return null;
	for (const row of added) known.add(row);
	return { tips, rows: known };
}

/** The report, as pkt-lines (report-status and report-status-v2 read the same lines for these outcomes). */
function reportLines(unpack: string, statuses: PushStatus[]): Buffer {
	const lines = [pktLine(`unpack ${unpack}\n`)];
	for (const status of statuses) lines.push(pktLine(status.error === null ? `ok ${status.ref}\n` : `ng ${status.ref} ${status.error}\n`));
	lines.push(FLUSH);
	return Buffer.concat(lines);
}

/**
 * POST git-receive-pack: receives the pack, stores it, applies the commands, reports.
 * The caller has checked that the pusher may write to the repository.
 */
export async function receivePack(
	app: App,
	repo: RepositoryRow,
	pusher: Pusher,
	req: IncomingMessage,
	res: ServerResponse,
	headers: Record<string, string>,
): Promise<void> {
	const started = performance.now();
	const received = await receive(app, req);
	const timing = { receive_ms: Math.round(performance.now() - started) };
	try {
		await answer(app, repo, pusher, received, res, headers, timing);
	} finally {
		if (received.file) rmSync(received.file, { force: true });
	}
}

async function answer(
	app: App,
	repo: RepositoryRow,
	pusher: Pusher,
	received: Received,
	res: ServerResponse,
	headers: Record<string, string>,
	timing: Record<string, number>,
): Promise<void> {
	const request = received.request;
	res.writeHead(200, { ...headers, 'Content-Type': 'application/x-git-receive-pack-result', 'Cache-Control': 'no-cache' });
	// A probe (an empty request, as git sends before a large body) or nothing to do.
	if (!request || request.commands.length === 0) {
		res.end(received.error && request === null ? pktLine(`ERR ${received.error}\n`) : undefined);
		return;
	}
	const band = request.capabilities.has('side-band-64k');
	const quiet = request.capabilities.has('quiet');
	const say = (text: string) => {
		if (band && !res.destroyed) res.write(bandLine(2, text));
	};
	const finish = (unpack: string, statuses: PushStatus[]) => {
		for (const status of statuses) for (const message of status.messages) say(`${message}\n`);
		const report = reportLines(unpack, statuses);
		if (!band) {
			res.end(report);
			return;
		}
		for (let at = 0; at < report.length; at += BAND_DATA) res.write(bandLine(1, report.subarray(at, at + BAND_DATA)));
		res.end(FLUSH);
	};
	const refuseAll = (reason: string, ngReason: string) => {
		say(`error: ${reason}\n`);
		finish(
			reason,
			request.commands.map((command) => ({ ref: command.ref, error: ngReason, messages: [] })),
		);
	};
	if (received.error) return refuseAll(received.error, 'unpacker error');
	const network = app.stores.git.network(repo.id);
	// What a full clone sent before this push, if known: the push adds what it brings.
	const reachableBefore = knownReachable(app, repo);
	let newCommits = new Set<string>();
	let indexed: IndexResult | null = null;
	const indexStarted = performance.now();
	if (received.file && received.packBytes > 0) {
		try {
			const result = await indexPack(app, network, received.file, {
				maxObjects: app.config.storage.max_push_objects,
				maxObjectBytes: app.config.storage.max_object_bytes,
				now: epochSeconds(app.clock()),
				progress: quiet ? undefined : say,
				tips: request.commands.flatMap((command) => (command.after === null ? [] : [command.after])),
			});
			newCommits = new Set(result.commits.keys());
			indexed = result;
		} catch (error) {
			if (!(error instanceof UnpackError)) throw error;
			return refuseAll(error.message, 'unpacker error');
		}
	}
	for (const command of request.commands) {
		if (command.after !== null && !FULL_SHA.test(command.after)) return refuseAll('protocol error: bad object id', 'unpacker error');
	}
	timing.index_ms = Math.round(performance.now() - indexStarted);
	const memory = process.memoryUsage();
	timing.rss_mb = Math.round(memory.rss / 1048576);
	timing.heap_mb = Math.round(memory.heapUsed / 1048576);
	timing.external_mb = Math.round(memory.external / 1048576);
	const applyStarted = performance.now();
	const statuses = applyPush(app, repo, request.commands, {
		actorId: pusher.actorId,
		admin: pusher.admin,
		atomic: request.capabilities.has('atomic'),
		workflowRefusal: pusher.workflowRefusal,
		newCommits,
	});
	await app.transaction.durable();
	if (statuses.some((status) => status.error === null)) {
		// What the push stored adds to the size (gc sets it exactly).
		const kilobytes = repo.size + Math.ceil((indexed?.storedBytes ?? 0) / 1024);
		const reachable = reachableAfter(app, repo, request.commands, statuses, reachableBefore, indexed);
		app.transaction(() => {
			app.stores.repos.setSize(repo.id, kilobytes);
			if (reachable) app.stores.git.setReachable(repo.id, reachable.tips, reachable.rows);
		});
		await app.transaction.durable();
	}
	timing.apply_ms = Math.round(performance.now() - applyStarted);
	app.log.info('git push', {
		repo: repo.id,
		commands: request.commands.length,
		refused: statuses.filter((status) => status.error !== null).length,
		pack_bytes: received.packBytes,
		objects: indexed?.objects ?? 0,
		stored: indexed?.stored ?? 0,
		...timing,
		...indexed?.timings,
	});
	finish('ok', statuses);
}
