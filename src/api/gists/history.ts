/**
 * A gist's revision history (GitHub's gist commits): every create or change of a gist's files
 * records one revision with its files, author, time and change_status (lines added and deleted,
 * as `git diff --numstat` would count them against the revision before). Description changes are
 * no revision, as on GitHub (the description is not in the gist's repository).
 */
import { createHash } from 'node:crypto';
import { diffLines } from 'diff';
import type { App } from '../../app';
import type { GistFileRow } from './store';
import type { GistRow } from '../../model/rows';

/** Edit length beyond which a file's changes are counted by lines instead (bounds the diff's cost). */
const MAX_EDIT_LENGTH = 2000;

/** Lines of a text: newlines, plus an unterminated last line. */
export function lineCount(text: string): number {
	let lines = 0;
	for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
	return text === '' || text.endsWith('\n') ? lines : lines + 1;
}

/**
 * Lines added and deleted from `before` to `after` (one file; '' when it does not exist): a line
 * diff, or — when the files differ in more than MAX_EDIT_LENGTH places — the lines of one that the
 * other does not hold, counted as multisets (same totals for everything but moved lines).
 */
function fileChanges(before: string, after: string): { additions: number; deletions: number } {
	if (before === after) return { additions: 0, deletions: 0 };
	if (before === '') return { additions: lineCount(after), deletions: 0 };
	if (after === '') return { additions: 0, deletions: lineCount(before) };
	const changes = diffLines(before, after, { maxEditLength: MAX_EDIT_LENGTH });
	if (changes) {
		let additions = 0;
		let deletions = 0;
		for (const change of changes) {
			if (change.added) additions += change.count ?? lineCount(change.value);
			else if (change.removed) deletions += change.count ?? lineCount(change.value);
		}
		return { additions, deletions };
	}
	const counts = new Map<string, number>();
	for (const line of before.split('\n')) counts.set(line, (counts.get(line) ?? 0) + 1);
	let additions = 0;
	for (const line of after.split('\n')) {
		const left = counts.get(line) ?? 0;
		if (left > 0) counts.set(line, left - 1);
		else additions++;
	}
	let deletions = 0;
	for (const left of counts.values()) deletions += left;
	return { additions, deletions };
}

/**
 * Records a revision of the gist's files when they changed (always for a new gist: `before` is
 * empty). `now` is an ISO timestamp; the version is a SHA-1 of the gist, the previous version, the
 * time and the files, so it is unique in the gist's history.
 */
export function recordRevision(
	app: App,
	gist: GistRow,
	userId: number,
	before: readonly GistFileRow[],
	after: readonly GistFileRow[],
	now: string,
): void {
	const old = new Map(before.map((file) => [file.filename, file.content]));
	const next = new Map(after.map((file) => [file.filename, file.content]));
	let additions = 0;
	let deletions = 0;
	for (const name of new Set([...old.keys(), ...next.keys()])) {
		const change = fileChanges(old.get(name) ?? '', next.get(name) ?? '');
		additions += change.additions;
		deletions += change.deletions;
	}
	const sameFiles = old.size === next.size && [...next].every(([name, content]) => old.get(name) === content);
	if (before.length > 0 && sameFiles) return;
	const files = JSON.stringify(Object.fromEntries([...next].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
	const parent = app.stores.gists.revisions(gist.id, 1, 0).rows[0]?.version ?? '';
	const version = createHash('sha1').update(`${gist.gist_id}\n${parent}\n${now}\n${files}`).digest('hex');
	app.stores.gists.insertRevision({ gist_id: gist.id, version, user_id: userId, committed_at: now, additions, deletions, files });
}

/** The files of a revision, as gist_files rows (ordered by name). */
export function revisionFiles(gist: GistRow, files: string): GistFileRow[] {
	return Object.entries(JSON.parse(files) as Record<string, string>)
		.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
		.map(([filename, content]) => ({ gist_id: gist.id, filename, content }));
}
