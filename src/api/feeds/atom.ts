/**
 * Atom 1.0 documents (RFC 4287) of the activity feeds that GET /feeds lists, and of the imported
 * security advisories: one `<entry>` per event with a tag: URI id, a sentence for a title ("olivia
 * opened issue acme/app#1"), published/updated, a link to the html_url of what it concerns, its
 * author (name, uri) and an HTML summary. GitHub's feeds have the same shape (tag:HOST,2008:Type/id
 * ids, media:thumbnail avatars).
 *
 * Written with a small escaped template: every text and attribute goes through `xml()`, which
 * also drops the characters XML 1.0 cannot carry (control characters, lone surrogates).
 */
import type { Urls } from '../../model/urls';
import type { EventRow } from '../../events/store';
import type { AdvisoryRow } from '../dependabot/store';
import type { AccountRow } from '../../model/rows';

/** Characters XML 1.0 forbids (Char production): removed from every text. */
const NOT_XML = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text or attribute value escaped for XML (and HTML). */
export function xml(text: string): string {
	return text.replace(NOT_XML, '').replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/** The `tag:` URI authority of the instance: the external URL's host name (RFC 4151 takes no port). */
export function tagAuthority(urls: Urls): string {
	return new URL(urls.origin).hostname.replace(/^\[|\]$/g, '');
}

/** What an entry says about one event: its title, the page it concerns, an HTML summary. */
interface Description {
	title: string;
	link: string;
	/** HTML (already escaped where it quotes text). */
	html: string;
}

/** Short text of at most `max` characters (code points), with an ellipsis when cut. */
function clip(text: string, max = 300): string {
	const chars = [...text];
	return chars.length <= max ? text : `${chars.slice(0, max).join('')}…`;
}

// biome-ignore lint/suspicious/noExplicitAny: webhook payloads are stored JSON of many shapes, read field by field
type Payload = Record<string, any>;

/** The sentence, link and summary of an event, from its stored payload. */
function describe(urls: Urls, row: EventRow, actor: string): Description {
	const repo = row.repo_name ?? '';
	const repoUrl = urls.html(`/${repo}`);
	let payload: Payload = {};
	try {
		payload = row.payload ? (JSON.parse(row.payload) as Payload) : {};
	} catch {
		// A payload that does not parse still gets a generic entry.
	}
	const str = (value: unknown) => (typeof value === 'string' ? value : '');
	switch (row.feed_type) {
		case 'IssuesEvent': {
			const issue = payload.issue ?? {};
			const kind = issue.pull_request ? 'pull request' : 'issue';
			return {
				title: `${actor} ${str(payload.action) || 'changed'} ${kind} ${repo}#${issue.number ?? ''}`,
				link: str(issue.html_url) || repoUrl,
				html: `<p>${xml(clip(str(issue.title)))}</p>`,
			};
		}
		case 'PullRequestEvent': {
			const pull = payload.pull_request ?? {};
			return {
				title: `${actor} ${str(payload.action) || 'changed'} pull request ${repo}#${payload.number ?? pull.number ?? ''}`,
				link: str(pull.html_url) || repoUrl,
				html: `<p>${xml(clip(str(pull.title)))}</p>`,
			};
		}
		case 'IssueCommentEvent': {
			const issue = payload.issue ?? {};
			const comment = payload.comment ?? {};
			const kind = issue.pull_request ? 'pull request' : 'issue';
			return {
				title: `${actor} commented on ${kind} ${repo}#${issue.number ?? ''}`,
				link: str(comment.html_url) || str(issue.html_url) || repoUrl,
				html: `<p>${xml(clip(str(issue.title)))}</p><blockquote>${xml(clip(str(comment.body)))}</blockquote>`,
			};
		}
		case 'PushEvent': {
			const ref = str(payload.ref).replace(/^refs\/(heads|tags)\//, '');
			const commits = Array.isArray(payload.commits) ? (payload.commits as Payload[]) : [];
			const head = str(payload.head);
			const before = str(payload.before);
			const items = commits
				.map((c) => `<li><code>${xml(str(c.sha).slice(0, 7))}</code> ${xml(clip(str(c.message).split('\n')[0], 200))}</li>`)
				.join('');
			return {
				title: `${actor} pushed to ${ref} in ${repo}`,
				link: before && head ? `${repoUrl}/compare/${before.slice(0, 10)}...${head.slice(0, 10)}` : repoUrl,
				html: `<p>${commits.length} ${commits.length === 1 ? 'commit' : 'commits'}</p>${items ? `<ul>${items}</ul>` : ''}`,
			};
		}
		case 'CreateEvent': {
			const kind = str(payload.ref_type);
			if (kind === 'repository') {
				return {
					title: `${actor} created a repository ${repo}`,
					link: repoUrl,
					html: `<p>${xml(clip(str(payload.description) || repo))}</p>`,
				};
			}
			const ref = str(payload.ref);
			return {
				title: `${actor} created ${kind} ${ref} in ${repo}`,
				link: `${repoUrl}/tree/${encodeURIComponent(ref)}`,
				html: `<p>${xml(kind)} <code>${xml(ref)}</code></p>`,
			};
		}
		case 'DeleteEvent':
			return {
				title: `${actor} deleted ${str(payload.ref_type)} ${str(payload.ref)} in ${repo}`,
				link: repoUrl,
				html: `<p>${xml(str(payload.ref_type))} <code>${xml(str(payload.ref))}</code></p>`,
			};
		case 'ForkEvent': {
			const forkee = payload.forkee ?? {};
			return {
				title: `${actor} forked ${str(forkee.full_name)} from ${repo}`,
				link: str(forkee.html_url) || repoUrl,
				html: `<p>${xml(str(forkee.full_name))}</p>`,
			};
		}
		case 'WatchEvent':
			return { title: `${actor} starred ${repo}`, link: repoUrl, html: `<p>${xml(repo)}</p>` };
		case 'MemberEvent': {
			const member = payload.member ?? {};
			return {
				title: `${actor} added ${str(member.login)} to ${repo}`,
				link: repoUrl,
				html: `<p>${xml(str(member.login))}</p>`,
			};
		}
		case 'PublicEvent':
			return { title: `${actor} made ${repo} public`, link: repoUrl, html: `<p>${xml(repo)}</p>` };
		case 'ReleaseEvent': {
			const release = payload.release ?? {};
			return {
				title: `${actor} ${str(payload.action) || 'published'} release ${str(release.tag_name) || str(release.name)} of ${repo}`,
				link: str(release.html_url) || repoUrl,
				html: `<p>${xml(clip(str(release.name)))}</p>`,
			};
		}
		default:
			return {
				title: `${actor} ${(row.feed_type ?? 'Event').replace(/Event$/, '')} in ${repo}`,
				link: repoUrl,
				html: `<p>${xml(repo)}</p>`,
			};
	}
}

/** One event's `<entry>`. @param accounts the actors of the page, by id */
function eventEntry(urls: Urls, authority: string, row: EventRow, accounts: Map<number, AccountRow>): string {
	const account = row.actor_id === null ? undefined : accounts.get(row.actor_id);
	const login = account?.login ?? 'ghost';
	const { title, link, html } = describe(urls, row, login);
	return (
		'<entry>' +
		`<id>tag:${xml(authority)},2008:${xml(row.feed_type ?? 'Event')}/${row.id}</id>` +
		`<published>${row.created_at}</published><updated>${row.created_at}</updated>` +
		`<link type="text/html" rel="alternate" href="${xml(link)}"/>` +
		`<title type="text">${xml(title)}</title>` +
		`<author><name>${xml(login)}</name><uri>${xml(urls.html(`/${login}`))}</uri></author>` +
		(account ? `<media:thumbnail height="30" width="30" url="${xml(`${urls.origin}/avatars/u/${account.id}`)}"/>` : '') +
		`<content type="html">${xml(html)}</content>` +
		'</entry>'
	);
}

/** A feed document's own facts. */
export interface AtomHead {
	/** The path the feed is known by (its id: tag:HOST,2008:PATH). */
	path: string;
	/** The URL it was fetched from (rel="self"), with its token for private feeds. */
	self: string;
	title: string;
	/** ISO timestamp: the newest entry's, or the moment of the request for an empty feed. */
	updated: string;
	/** A feed-level author, for feeds whose entries name none. */
	author?: string;
}

function document(urls: Urls, head: AtomHead, entries: string[]): string {
	return (
		'<?xml version="1.0" encoding="UTF-8"?>\n' +
		'<feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/" xml:lang="en-US">' +
		`<id>tag:${xml(tagAuthority(urls))},2008:${xml(head.path)}</id>` +
		`<link type="application/atom+xml" rel="self" href="${xml(head.self)}"/>` +
		`<title>${xml(head.title)}</title>` +
		`<updated>${head.updated}</updated>` +
		(head.author ? `<author><name>${xml(head.author)}</name></author>` : '') +
		entries.join('') +
		'</feed>\n'
	);
}

/**
 * An activity feed as an Atom document, newest event first.
 * @param accounts the actors of `rows`, by id
 */
export function eventsAtom(urls: Urls, head: AtomHead, rows: readonly EventRow[], accounts: Map<number, AccountRow>): string {
	const authority = tagAuthority(urls);
	return document(
		urls,
		head,
		rows.map((row) => eventEntry(urls, authority, row, accounts)),
	);
}

/**
 * The security advisories as an Atom document, most recently updated first: GitHub's advisory feed
 * ("[GHSA-…] Moderate severity vulnerability that affects …", the summary and description).
 * @param packages each advisory's affected package names, by advisory id
 */
export function advisoriesAtom(urls: Urls, head: AtomHead, rows: readonly AdvisoryRow[], packages: Map<number, string[]>): string {
	const authority = tagAuthority(urls);
	const entries = rows.map((row) => {
		const severity = row.severity === 'unknown' ? 'Unknown' : row.severity[0].toUpperCase() + row.severity.slice(1);
		const affected = packages.get(row.id) ?? [];
		const title =
			`[${row.ghsa_id}] ${severity} severity vulnerability` +
			(affected.length ? ` that affects ${affected.join(', ')}` : '') +
			(row.withdrawn_at ? ' (withdrawn)' : '');
		const html = `<p>${xml(clip(row.summary))}</p>${row.description ? `<p>${xml(clip(row.description, 1000))}</p>` : ''}`;
		return (
			'<entry>' +
			`<id>tag:${xml(authority)},2008:${xml(row.ghsa_id)}</id>` +
			`<published>${xml(row.published_at)}</published><updated>${xml(row.updated_at)}</updated>` +
			`<link type="text/html" rel="alternate" href="${xml(urls.html(`/advisories/${row.ghsa_id}`))}"/>` +
			`<title type="text">${xml(title)}</title>` +
			`<content type="html">${xml(html)}</content>` +
			'</entry>'
		);
	});
	return document(urls, head, entries);
}
