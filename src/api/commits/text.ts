/**
 * The text answers of the commit, comparison and pull-request routes: a change as a unified diff
 * (application/vnd.github.diff) or as `git format-patch --stdout` mails (application/vnd.github.patch).
 */
import type { App } from '../../app';
import type { Reply } from '../../http/reply';
import type { Context } from '../../http/route';
import { diffStat, unifiedDiff } from '../git/diff';
import type { CommitData } from '../git/objects';
import { commitChanges } from './service';

/** RFC 2822 date of a commit identity, as `git format-patch` writes it. */
function mailDate(seconds: number, tz: string): string {
	const sign = tz.startsWith('-') ? -1 : 1;
	const offset = sign * (Number(tz.slice(1, 3)) * 60 + Number(tz.slice(3, 5)));
	const local = new Date((seconds + offset * 60) * 1000);
	const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
	const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
	const two = (n: number) => String(n).padStart(2, '0');
	return `${days[local.getUTCDay()]}, ${local.getUTCDate()} ${months[local.getUTCMonth()]} ${local.getUTCFullYear()} ${two(local.getUTCHours())}:${two(local.getUTCMinutes())}:${two(local.getUTCSeconds())} ${tz}`;
}

/**
 * One commit as `git format-patch --stdout` writes it (application/vnd.github.patch): mail headers,
 * the message, the diffstat and summary, the diff, and the signature line.
 */
export function formatPatch(app: App, repoId: number, sha: string, data: CommitData, index: number, count: number): string {
	const changes = commitChanges(app, repoId, data);
	const [subject, ...rest] = data.message.replace(/\n+$/, '').split('\n');
	const body = rest.join('\n').replace(/^\n+/, '');
	const numbering = count > 1 ? `[PATCH ${index}/${count}]` : '[PATCH]';
	return (
		`From ${sha} Mon Sep 17 00:00:00 2001\nFrom: ${data.author.name} <${data.author.email}>\nDate: ${mailDate(data.author.seconds, data.author.tz)}\n` +
		`Subject: ${numbering} ${subject}\n\n${body ? `${body}\n` : ''}---\n${diffStat(app, repoId, changes)}\n${unifiedDiff(app, repoId, changes)}-- \n${GIT_VERSION}\n\n`
	);
}

/** The version line closing a patch, where git writes its own version. */
const GIT_VERSION = 'Gitstead';

/** A diff or patch answer when the media type asks for one, else null. */
export function textAnswer(ctx: Context, diff: () => string, patch: () => string): Reply | null {
	if (ctx.media === 'diff') return { status: 200, raw: { body: diff(), contentType: 'application/vnd.github.diff; charset=utf-8' } };
	if (ctx.media === 'patch') return { status: 200, raw: { body: patch(), contentType: 'application/vnd.github.patch; charset=utf-8' } };
	return null;
}
