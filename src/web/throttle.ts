/**
 * Sign-in throttling, in memory: failed attempts are counted per account and per client address in
 * a sliding window; past the limit, further attempts are refused until the window has moved on
 * (a correct password included). A successful sign-in clears the account's count.
 */
import type { App } from '../app';

/** The window (ms) and the failures allowed in it. */
export const THROTTLE = { windowMs: 15 * 60_000, perAccount: 10, perAddress: 30 };
const MAX_KEYS = 20_000;

class Window {
	private readonly failures = new Map<string, number[]>();

	/** Seconds until an attempt is allowed again (0: now). */
	wait(key: string, limit: number, now: number): number {
		const times = this.prune(key, now);
		if (times.length < limit) return 0;
		return Math.ceil((times[times.length - limit] + THROTTLE.windowMs - now) / 1000);
	}

	fail(key: string, now: number): void {
		if (this.failures.size >= MAX_KEYS) this.failures.clear();
		const times = this.prune(key, now);
		times.push(now);
		this.failures.set(key, times);
	}

	clear(key: string): void {
		this.failures.delete(key);
	}

	private prune(key: string, now: number): number[] {
		const times = (this.failures.get(key) ?? []).filter((t) => t > now - THROTTLE.windowMs);
		if (times.length) this.failures.set(key, times);
		else this.failures.delete(key);
		return times;
	}
}

const windows = new WeakMap<App, Window>();
const windowOf = (app: App) => {
	let w = windows.get(app);
	if (!w) windows.set(app, (w = new Window()));
	return w;
};

/** Seconds before the next sign-in attempt for `login` from `ip` is allowed (0: now). @param now epoch ms */
export function signInWait(app: App, login: string, ip: string, now: number): number {
	const w = windowOf(app);
	return Math.max(w.wait(`login:${login.toLowerCase()}`, THROTTLE.perAccount, now), w.wait(`ip:${ip}`, THROTTLE.perAddress, now));
}

/** Records a failed attempt. @param now epoch ms */
export function signInFailed(app: App, login: string, ip: string, now: number): void {
	const w = windowOf(app);
	w.fail(`login:${login.toLowerCase()}`, now);
	w.fail(`ip:${ip}`, now);
}

/** Clears an account's failures after it signed in. */
export function signInSucceeded(app: App, login: string): void {
	windowOf(app).clear(`login:${login.toLowerCase()}`);
}
