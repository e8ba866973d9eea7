/**
 * A parser over the permission matrix as written in test/fixtures/permission-matrix.md ("### Permission
 * matrix"): the test's own reading of the text, independent of src/auth/permission-matrix.ts, so
 * test/matrix-text.test.ts can hold the encoded matrix, and the routes, to the words of the table.
 *
 * Grammar of the section, as written:
 *   **Organization '<Category>' - <level>[ (rows seen)]:** item; item; ….
 *   **Enterprise '<Category>' (UAT and IAT):** write: item; …. read: item; ….
 *   item   = [VERBS] PATH [ *] [(UAT only[, no IAT])]  |  DELETE of the same path (row cut off)
 *   VERBS  = GET | PUT and DELETE | GET, PUT, DELETE | GET and POST …; an item without verbs takes
 *            the previous item's
 *   PATH   = O/… (O = /orgs/{org}) | /… | .../tail (the previous item's path, from the tail's first
 *            segment on, replaced by the tail); {a, b, c} is one row per alternative, {name} a
 *            path parameter; depbot is GitHub's dependabot
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** One row of the matrix as the text names it. */
export interface TextRow {
	method: string;
	path: string;
	/** The fine-grained permission the category names, e.g. organization_administration. */
	key: string;
	level: 'read' | 'write';
	/** The text's `*`: more than one permission, or a substitute. */
	multiple: boolean;
	/** "UAT only" / "no IAT": installation tokens are refused. */
	rejectsInstallation: boolean;
}

const MATRIX_TEXT = resolve(__dirname, '../fixtures/permission-matrix.md');

/** GitHub's fine-grained permission key of each category the section names. */
const CATEGORY_KEYS: Record<string, string> = {
	"Organization 'Administration'": 'organization_administration',
	"Organization 'Members'": 'members',
	"Organization 'Self-hosted runners'": 'organization_self_hosted_runners',
	"Enterprise 'Enterprise organization installations'": 'enterprise_organization_installations',
};

/** The section's text, or null when the file is missing. */
export function matrixSection(file = MATRIX_TEXT): string | null {
	let text: string;
	try {
		text = readFileSync(file, 'utf8');
	} catch {
		return null;
	}
	const start = text.indexOf('### Permission matrix');
	const next = text.indexOf('\n## ', start);
	const end = next < 0 ? text.length : next;
	if (start < 0) throw new Error(`${file} has no "### Permission matrix" section`);
	return text.slice(start, end);
}

/** Splits on `;` outside braces. */
function items(list: string): string[] {
	const out: string[] = [];
	let depth = 0;
	let current = '';
	for (const ch of list) {
		if (ch === '{') depth++;
		if (ch === '}') depth--;
		if (ch === ';' && depth === 0) {
			out.push(current.trim());
			current = '';
		} else current += ch;
	}
	if (current.trim()) out.push(current.trim());
	return out.map((item) => item.replace(/\.$/, '').trim()).filter(Boolean);
}

/** The rows of one category's list. */
function parseList(list: string, key: string, level: 'read' | 'write'): TextRow[] {
	const rows: TextRow[] = [];
	let verbs: string[] = [];
	let previous = '';
	for (let item of items(list)) {
		const rejectsInstallation = /\(UAT only(, no IAT)?\)/.test(item);
		item = item.replace(/\s*\(UAT only(, no IAT)?\)/, '');
		if (/^DELETE of the same path/.test(item)) {
			rows.push({
				method: 'DELETE',
				path: previous,
				key,
				level,
				multiple: rows[rows.length - 1]?.multiple ?? false,
				rejectsInstallation,
			});
			continue;
		}
		const multiple = /\s\*$/.test(item);
		item = item.replace(/\s\*$/, '');
		const verbMatch = /^((?:GET|POST|PUT|PATCH|DELETE)(?:(?:, | and |, and )(?:GET|POST|PUT|PATCH|DELETE))*)\s+(.*)$/.exec(item);
		let raw = item;
		if (verbMatch) {
			verbs = verbMatch[1].split(/, and |, | and /);
			raw = verbMatch[2];
		}
		if (verbs.length === 0) throw new Error(`matrix item without a verb: "${item}"`);
		let path = raw.replace(/^O(?=\/|$)/, '/orgs/{org}').replace(/\/depbot(?=\/|$)/g, '/dependabot');
		if (path.startsWith('.../')) {
			const tail = path.slice(3);
			const first = tail.split('/')[1];
			const at = previous.indexOf(`/${first}`);
			if (at < 0) throw new Error(`cannot resolve "${path}" against "${previous}"`);
			path = previous.slice(0, at) + tail;
		}
		if (!path.startsWith('/')) throw new Error(`matrix item is not a path: "${item}"`);
		// {a, b, c}: one row per alternative; {name}: a parameter.
		const alternation = /\{([^{}]*,[^{}]*)\}/.exec(path);
		const paths = alternation ? alternation[1].split(',').map((alt) => path.replace(alternation[0], alt.trim())) : [path];
		for (const method of verbs) for (const p of paths) rows.push({ method, path: p, key, level, multiple, rejectsInstallation });
		previous = path;
	}
	return rows;
}

/** Every row the section names, in its order. */
export function parseMatrix(section: string): TextRow[] {
	const rows: TextRow[] = [];
	for (const paragraph of section.split(/\n\s*\n/)) {
		const head = /^\*\*(.+?):\*\*\s*(.*)$/s.exec(paragraph.trim());
		if (!head) continue;
		const title = head[1].replace(/\s*\(.*?\)\s*/g, ' ').trim();
		const category = Object.keys(CATEGORY_KEYS).find((name) => title.startsWith(name));
		if (!category) throw new Error(`unknown matrix category "${head[1]}"`);
		const key = CATEGORY_KEYS[category];
		const level = /- (read|write)$/.exec(title)?.[1] as 'read' | 'write' | undefined;
		if (level) {
			rows.push(...parseList(head[2], key, level));
		} else {
			// write: …. read: ….
			const parts = /write:\s*(.*?)\s*read:\s*(.*)$/s.exec(head[2]);
			if (!parts) throw new Error(`matrix paragraph "${head[1]}" names no levels`);
			rows.push(...parseList(parts[1], key, 'write'), ...parseList(parts[2], key, 'read'));
		}
	}
	return rows;
}
