/**
 * Streams a request body to a new file (release asset uploads): bytes are counted and hashed on
 * the way and written as they arrive, never held whole in memory and never parsed. More than the
 * limit stops the upload with 413; a client that goes away mid-upload leaves no file behind.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { HttpError, MESSAGES } from './errors';
import type { UploadedFile } from './route';

/**
 * Writes the body of `req` to a new file in `dir` (created if missing), then flushes it to disk.
 * @param limit most bytes accepted
 * @returns the file, its size and SHA-256
 * @throws (rejects with) HttpError 413 past the limit (the file is removed; the connection should
 *   then be closed), HttpError 400 when the client ended the request early
 */
export function receiveFile(req: IncomingMessage, dir: string, limit: number): Promise<UploadedFile> {
	mkdirSync(dir, { recursive: true });
	const path = join(dir, randomUUID());
	const hash = createHash('sha256');
	let size = 0;
	return new Promise<UploadedFile>((resolve, reject) => {
		let settled = false;
		const out = createWriteStream(path, { flags: 'wx' });
		const fail = (error: HttpError) => {
			if (settled) return;
			settled = true;
			req.unpipe(meter);
			meter.destroy();
			out.destroy();
			rmSync(path, { force: true });
			reject(error);
		};
		const meter = new Transform({
			transform(chunk: Buffer, _encoding, done) {
				size += chunk.length;
				if (size > limit) return fail(new HttpError(413, MESSAGES.bodyTooLarge, { headers: { Connection: 'close' } }));
				hash.update(chunk);
				done(null, chunk);
			},
		});
		const aborted = () => fail(new HttpError(400, 'Problems reading the upload: the request ended early.'));
		req.once('aborted', aborted);
		req.once('error', aborted);
		req.once('close', () => {
			if (!req.complete) aborted();
		});
		out.once('error', () => fail(new HttpError(500, MESSAGES.serverError)));
		out.once('finish', () => {
			if (settled) return;
			// On disk before the row that names it is committed.
			open(path, 'r+')
				.then((handle) => handle.sync().finally(() => handle.close()))
				.then(
					() => {
						if (settled) return;
						settled = true;
						resolve({ path, size, sha256: hash.digest('hex') });
					},
					() => fail(new HttpError(500, MESSAGES.serverError)),
				);
		});
		req.pipe(meter).pipe(out);
	});
}

/** Removes an uploaded file that no row will name (a refused or rolled-back upload). */
export function discardUpload(file: UploadedFile): void {
	rmSync(file.path, { force: true });
}
