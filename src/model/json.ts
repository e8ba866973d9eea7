/**
 * JSON text made once for a rendered object that is both recorded and answered: an issue opened or
 * changed is serialized into its event's feed payload and, the same object, into the answer of the
 * request that changed it (src/api/issues/service.ts renderIssue). The first serialization is kept
 * by object identity (a WeakMap: it goes with the object) and the second reuses it.
 *
 * Only objects given to serializeOnce are kept, and they must not be changed afterwards (renders
 * are built fresh for each request and not modified once recorded).
 */
const texts = new WeakMap<object, string>();

/** `value`'s JSON text, made now and kept for the next serialization of the same object. */
export function serializeOnce(value: object): string {
	let text = texts.get(value);
	if (text === undefined) {
		text = JSON.stringify(value);
		texts.set(value, text);
	}
	return text;
}

/** JSON.stringify(value), or the text kept for that object (an answer's body). */
export function toJson(value: unknown): string {
	return (typeof value === 'object' && value !== null && texts.get(value)) || JSON.stringify(value);
}

/**
 * JSON.stringify(payload) for a plain object whose fields may have kept texts (the feed payload
 * {action, issue, …} around an issue serialized once): the same text, fields in order, undefined
 * ones left out, each kept field's text reused.
 */
export function payloadJson(value: Record<string, unknown>): string {
	if (Array.isArray(value) || Object.getPrototypeOf(value) !== Object.prototype || 'toJSON' in value) return JSON.stringify(value);
	let out = '';
	for (const [key, field] of Object.entries(value)) {
		const text = typeof field === 'object' && field !== null ? (texts.get(field) ?? JSON.stringify(field)) : JSON.stringify(field);
		if (text === undefined) continue; // undefined, a function or a symbol: JSON.stringify leaves the field out
		out += `${out === '' ? '{' : ','}${JSON.stringify(key)}:${text}`;
	}
	return out === '' ? '{}' : `${out}}`;
}

/** Starts a stored text whose origin is written once: U+0001, the origin, U+0001, the text. */
const ORIGIN_HEAD = '\u0001';
/** Stands for the origin inside such a text. */
const ORIGIN_MARK = '\u0002';

/**
 * JSON text as stored with the origin its URLs begin with (`origin`, e.g. http://127.0.0.1:8080;
 * the API base is below it) written once instead of at each URL: an issue's feed payload names it
 * about twenty times, which made each event row longer than half a database page (one row a page
 * instead of two). JSON.stringify never writes the characters U+0001 and U+0002 raw (it escapes
 * every control character), so they mark the stored form unambiguously; expandOrigin gives back the
 * same text, byte for byte, whoever reads it. A text without the origin is stored as it is.
 * @param text JSON text (JSON.stringify's output, or text made of it)
 */
export function compactOrigin(text: string, origin: string): string {
	if (origin === '' || origin.includes(ORIGIN_HEAD) || !text.includes(origin)) return text;
	return `${ORIGIN_HEAD}${origin}${ORIGIN_HEAD}${text.replaceAll(origin, ORIGIN_MARK)}`;
}

/** The JSON text compactOrigin stored (texts stored before it, or without the origin, are returned as they are). */
export function expandOrigin(stored: string): string {
	if (stored.charCodeAt(0) !== 1) return stored;
	const end = stored.indexOf(ORIGIN_HEAD, 1);
	return stored.slice(end + 1).replaceAll(ORIGIN_MARK, stored.slice(1, end));
}
