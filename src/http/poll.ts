/**
 * X-Poll-Interval (GitHub's polling header of activity feeds and notifications): the configured
 * seconds while the server keeps up, doubled while its event loop lags (mean delay over 50 ms in
 * the last 10 s), quadrupled past 200 ms — clients that obey it back off when the server is busy.
 */
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

export class PollInterval {
	private histogram: IntervalHistogram | null = null;
	private factor = 1;
	private measuredAt = 0;

	/** @param baseSeconds the interval while not busy */
	constructor(private readonly baseSeconds: number) {}

	/** The interval to announce now, in seconds. */
	seconds(): number {
		if (!this.histogram) {
			// Started on first use: processes that answer no polled route (admin commands) never sample.
			this.histogram = monitorEventLoopDelay({ resolution: 20 });
			this.histogram.enable();
			this.measuredAt = Date.now();
		}
		const now = Date.now();
		if (now - this.measuredAt >= 10_000) {
			const meanMs = this.histogram.mean / 1e6;
			this.factor = meanMs > 200 ? 4 : meanMs > 50 ? 2 : 1;
			this.histogram.reset();
			this.measuredAt = now;
		}
		return this.baseSeconds * this.factor;
	}

	/** Stops sampling (closing the application). */
	stop(): void {
		this.histogram?.disable();
	}
}
