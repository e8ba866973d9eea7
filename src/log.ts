/**
 * One-line logs to standard error: `2026-11-22T15:05:26Z INFO message key=value ...`.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
	debug(message: string, fields?: Record<string, unknown>): void;
	info(message: string, fields?: Record<string, unknown>): void;
	warn(message: string, fields?: Record<string, unknown>): void;
	error(message: string, fields?: Record<string, unknown>): void;
}

function format(fields: Record<string, unknown> | undefined): string {
	if (!fields) return '';
	let out = '';
	for (const [key, value] of Object.entries(fields)) {
		if (value === undefined) continue;
		// An error's stack is kept, JSON-quoted like any text with spaces, so each entry stays one line.
		const text = value instanceof Error ? (value.stack ?? value.message) : typeof value === 'string' ? value : JSON.stringify(value);
		out += ` ${key}=${/[\s"=]/.test(text) ? JSON.stringify(text) : text}`;
	}
	return out;
}

/** A logger writing lines at or above `level` to `write` (standard error by default). */
export function createLogger(level: LogLevel = 'info', write: (line: string) => void = (line) => process.stderr.write(line)): Logger {
	const emit = (at: LogLevel) => (message: string, fields?: Record<string, unknown>) => {
		if (ORDER[at] < ORDER[level]) return;
		const time = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
		write(`${time} ${at.toUpperCase()} ${message}${format(fields)}\n`);
	};
	return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') };
}

/** A logger that drops everything (tests). */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
