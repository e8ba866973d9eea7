/**
 * Prompt collection of garbage after bulk work with large buffers (a pushed pack's objects, a
 * request body streamed to a file): V8 counts such buffers as external memory and collects them
 * only after that memory has grown by tens of megabytes, so a server streaming a 100 MB pack would
 * hold most of it as garbage for a while. `collectGarbage` runs a full collection when it can
 * (V8's gc function, exposed once at first use); it costs a few milliseconds on a small heap.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | null | undefined;

/** Runs a full garbage collection (no-op where V8 does not allow it). */
export function collectGarbage(): void {
	if (collect === undefined) {
		try {
			setFlagsFromString('--expose-gc');
			collect = runInNewContext('gc') as () => void;
		} catch {
			collect = null;
		}
	}
	collect?.();
}

/**
 * For loops that churn through large buffers: every `every` bytes counted, collects garbage when
 * the process holds more than `limit` bytes of buffers (dead ones, mostly).
 */
export class GarbagePacer {
	private bytes = 0;
	constructor(
		private readonly every = 8 * 1024 * 1024,
		private readonly limit = 24 * 1024 * 1024,
	) {}
	count(bytes: number): void {
		this.bytes += bytes;
		if (this.bytes < this.every) return;
		this.bytes = 0;
		if (process.memoryUsage().arrayBuffers > this.limit) collectGarbage();
	}
}
