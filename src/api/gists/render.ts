/**
 * Gist shapes (GitHub's gist-simple / base-gist) and the gist comment.
 */
import { extname } from 'node:path';
import { nodeId, type Urls } from '../../model/urls';
import { bodyFields } from '../../model/markdown/render';
import { publicUser } from '../users/render';
import { simpleUser } from '../../model/render';
import type { AccountCounts } from '../users/store';
import type { AccountRow, GistRow } from '../../model/rows';
import type { GistCommentRow, GistFileRow, GistRevisionRow } from './store';

/** Language and MIME type by file extension (what GitHub reports for common files). */
const KINDS: Record<string, [string | null, string]> = {
	'.md': ['Markdown', 'text/markdown'],
	'.markdown': ['Markdown', 'text/markdown'],
	'.txt': ['Text', 'text/plain'],
	'.js': ['JavaScript', 'application/javascript'],
	'.mjs': ['JavaScript', 'application/javascript'],
	'.ts': ['TypeScript', 'video/MP2T'],
	'.json': ['JSON', 'application/json'],
	'.py': ['Python', 'application/x-python'],
	'.rb': ['Ruby', 'application/x-ruby'],
	'.go': ['Go', 'text/x-go'],
	'.rs': ['Rust', 'text/rust'],
	'.sh': ['Shell', 'application/x-sh'],
	'.yml': ['YAML', 'application/x-yaml'],
	'.yaml': ['YAML', 'application/x-yaml'],
	'.toml': ['TOML', 'application/toml'],
	'.html': ['HTML', 'text/html'],
	'.css': ['CSS', 'text/css'],
	'.sql': ['SQL', 'application/sql'],
	'.c': ['C', 'text/x-c'],
	'.java': ['Java', 'text/x-java'],
};

export function fileKind(filename: string): { language: string | null; type: string } {
	const [language, type] = KINDS[extname(filename).toLowerCase()] ?? [null, 'text/plain'];
	return { language, type };
}

/** URL of a file's raw content, served by Gitstead. */
export const rawUrl = (urls: Urls, gist: GistRow, filename: string) =>
	`${urls.apiBase}/gists/${gist.gist_id}/raw/${encodeURIComponent(filename)}`;

/**
 * A gist. `withContent` adds each file's content (a single gist); lists leave it out.
 */
export function gist(urls: Urls, row: GistRow, owner: AccountRow, files: GistFileRow[], comments: number, withContent: boolean) {
	const url = `${urls.apiBase}/gists/${row.gist_id}`;
	return {
		url,
		forks_url: `${url}/forks`,
		commits_url: `${url}/commits`,
		id: row.gist_id,
		node_id: nodeId('Gist', row.id),
		git_pull_url: `${urls.origin}/gist/${row.gist_id}.git`,
		git_push_url: `${urls.origin}/gist/${row.gist_id}.git`,
		html_url: `${urls.origin}/gist/${row.gist_id}`,
		files: Object.fromEntries(
			files.map((file) => {
				const kind = fileKind(file.filename);
				return [
					file.filename,
					{
						filename: file.filename,
						type: kind.type,
						language: kind.language,
						raw_url: rawUrl(urls, row, file.filename),
						size: Buffer.byteLength(file.content),
						...(withContent ? { truncated: false, content: file.content } : {}),
					},
				];
			}),
		),
		public: row.public === 1,
		created_at: row.created_at,
		updated_at: row.updated_at,
		description: row.description,
		comments,
		user: null,
		comments_url: `${url}/comments`,
		owner: simpleUser(urls, owner),
		truncated: false,
	};
}

/** A gist's API URL. */
export const gistUrl = (urls: Urls, row: GistRow) => `${urls.apiBase}/gists/${row.gist_id}`;

/**
 * A revision (GitHub's gist-commit and gist-history): url, version, user (null once deleted),
 * change_status {total, additions, deletions} (lines), committed_at.
 */
export function gistRevision(urls: Urls, row: GistRow, revision: GistRevisionRow, user: AccountRow | undefined) {
	return {
		url: `${gistUrl(urls, row)}/${revision.version}`,
		version: revision.version,
		user: user ? simpleUser(urls, user) : null,
		change_status: { total: revision.additions + revision.deletions, additions: revision.additions, deletions: revision.deletions },
		committed_at: revision.committed_at,
	};
}

/** An entry of a gist's `forks` field: the fork's id and url, its owner (public-user), its times. */
export function gistForkEntry(urls: Urls, fork: GistRow, owner: AccountRow, counts: AccountCounts) {
	return {
		id: fork.gist_id,
		url: gistUrl(urls, fork),
		user: publicUser(urls, owner, counts),
		created_at: fork.created_at,
		updated_at: fork.updated_at,
	};
}

/** A gist comment, body fields by media type from the stored renderings. */
export function gistComment(urls: Urls, gistRow: GistRow, row: GistCommentRow, author: AccountRow, media: string | null) {
	return {
		url: `${urls.apiBase}/gists/${gistRow.gist_id}/comments/${row.id}`,
		id: row.id,
		node_id: nodeId('GistComment', row.id),
		...bodyFields(row, media),
		user: simpleUser(urls, author),
		author_association: author.id === gistRow.owner_id ? 'OWNER' : 'NONE',
		created_at: row.created_at,
		updated_at: row.updated_at,
	};
}
