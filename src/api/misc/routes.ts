/**
 * The small public endpoints of GitHub's emojis and meta APIs: GET /emojis (every GitHub emoji
 * name → its image URL), GET /zen (one of GitHub's design principles, text/plain) and GET /octocat
 * (the Octocat as ASCII art with a speech bubble, application/octocat-stream). No token needed.
 */
import * as v from 'valibot';
import type { Reply } from '../../http/reply';
import { route } from '../../http/route';

/** GitHub's design principles, as GET /zen answers them one at a time. */
export const ZEN = [
	'Responsive is better than fast.',
	"It's not fully shipped until it's fast.",
	'Anything added dilutes everything else.',
	'Practicality beats purity.',
	'Approachable is better than simple.',
	'Mind your words, they are important.',
	'Speak like a human.',
	'Half measures are as bad as nothing at all.',
	'Encourage flow.',
	'Non-blocking is better than blocking.',
	'Favor focus over features.',
	'Avoid administrative distraction.',
	'Design for failure.',
	'Keep it logically awesome.',
] as const;

/** Where GitHub serves its emoji images: the code points in lower-case hex, joined by '-'. */
const EMOJI_BASE = 'https://github.githubassets.com/images/icons/emoji/unicode/';

let emojiJson: Buffer | undefined;

/**
 * GET /emojis' body, built once from emojibase-data's GitHub shortcodes (hexcode → name or names)
 * and kept as a Buffer (the pipeline digests a Buffer once for its ETag): `{name: url}` sorted by
 * name, as GitHub answers.
 */
export function emojis(): Buffer {
	if (!emojiJson) {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const shortcodes = require('emojibase-data/en/shortcodes/github.json') as Record<string, string | string[]>;
		const entries: Array<[string, string]> = [];
		for (const [hexcode, names] of Object.entries(shortcodes)) {
			const url = `${EMOJI_BASE}${hexcode.toLowerCase()}.png?v8`;
			for (const name of Array.isArray(names) ? names : [names]) entries.push([name, url]);
		}
		entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
		// Written by hand: an object would move integer-like names ("100", "1234") to the front.
		emojiJson = Buffer.from(`{${entries.map(([name, url]) => `${JSON.stringify(name)}:${JSON.stringify(url)}`).join(',')}}`);
	}
	return emojiJson;
}

/** The Octocat, without its speech bubble (GitHub's GET /octocat art). */
const OCTOCAT = [
	'               MMM.           .MMM',
	'               MMMMMMMMMMMMMMMMMMM',
	'               MMMMMMMMMMMMMMMMMMM',
	'              MMMMMMMMMMMMMMMMMMMMM',
	'             MMMMMMMMMMMMMMMMMMMMMMM',
	'            MMMMMMMMMMMMMMMMMMMMMMMM',
	'            MMMM::- -:::::::- -::MMMM',
	'             MM~:~ 00~:::::~ 00~:~MM',
	'        .. MMMMM::.00:::+:::.00::MMMMM ..',
	'              .MM::::: ._. :::::MM.',
	'                 MMMM;:::::;MMMM',
	'          -MM        MMMMMMM',
	'          ^  M+     MMMMMMMMM',
	'              MMMMMMM MM MM MM',
	'                   MM MM MM MM',
	'                   MM MM MM MM',
	'                .~~MM~MM~MM~MM~~.',
	'             ~~~~MM:~MM~~~MM~:MM~~~~',
	'            ~~~~~~==~==~~~==~==~~~~~~',
	'             ~~~~~~==~==~==~==~~~~~~',
	'                 :~==~==~==~==~~',
];

/** Longest speech in the bubble, in characters (longer text is cut). */
export const MAX_SPEECH = 200;

/**
 * The Octocat saying `speech` (one line: newlines and tabs become spaces), GitHub's layout: the
 * bubble's top at column 40 of the third line, its sides at column 39, its tail on the seventh.
 */
export function octocat(speech: string): string {
	const said = [...speech.replace(/[\r\n\t]/g, ' ')].slice(0, MAX_SPEECH).join('');
	const width = [...said].length + 2;
	const lines = [...OCTOCAT];
	const at = (line: number, column: number, text: string) => {
		lines[line] = lines[line].padEnd(column) + text;
	};
	at(2, 40, '_'.repeat(width));
	at(3, 39, `|${' '.repeat(width)}|`);
	at(4, 39, `| ${said} |`);
	at(5, 39, `|_   ${'_'.repeat(Math.max(0, width - 4))}|`);
	at(6, 41, '|/');
	return `${lines.join('\n')}\n`;
}

const PUBLIC = { access: 'public' as const, resource: 'none' as const, permissions: [] };

/** One design principle, chosen at random. */
const principle = () => ZEN[Math.floor(Math.random() * ZEN.length)];

/** GET /emojis, GET /zen, GET /octocat. */
export const miscRoutes = [
	route({
		...PUBLIC,
		method: 'GET',
		path: '/emojis',
		docs: 'emojis/emojis#get-emojis',
		handler: (): Reply => ({ status: 200, json: emojis() }),
	}),
	route({
		...PUBLIC,
		method: 'GET',
		path: '/zen',
		docs: 'meta/meta#get-the-zen-of-github',
		handler: (): Reply => ({ status: 200, raw: { body: principle(), contentType: 'text/plain;charset=utf-8' } }),
	}),
	route({
		...PUBLIC,
		method: 'GET',
		path: '/octocat',
		docs: 'meta/meta#get-octocat',
		query: v.object({ s: v.optional(v.string('s must be a string')) }),
		handler: (ctx): Reply => ({
			status: 200,
			raw: { body: octocat(ctx.query.s ?? principle()), contentType: 'application/octocat-stream' },
		}),
	}),
];
