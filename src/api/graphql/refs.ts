/**
 * A repository's git references in GraphQL, as Renovate's github-tags datasource and `gh` read
 * them (https://docs.github.com/graphql/reference/objects#repository, field `refs`):
 * - Repository.refs(refPrefix, query, orderBy: {field: ALPHABETICAL | TAG_COMMIT_DATE, direction})
 *   with GitHub's Relay paging; TAG_COMMIT_DATE orders by the committer date of the commit each
 *   reference leads to (an annotated tag followed to its commit), newest first with DESC;
 * - Ref.target: the object a reference points at, a Commit (a branch, a lightweight tag) or a Tag
 *   (an annotated tag: its name, message, tagger and target, itself a Commit or a Tag).
 * Access is the REST twin's: GET /repos/{owner}/{repo}/tags (contents read) is asked first, so a
 * caller reads the references only where it may list the tags.
 */
import type { App } from '../../app';
import { isoSeconds } from '../../time';
import { AuthorLookup, fullCommit } from '../commits/render';
import { findTrailingSignature, parseCommit, parseTag, type TagData } from '../git/objects';
import { gitNodeId, type RepoView } from '../git/render';
import { simpleUser } from '../../model/render';
import type { RefRow } from '../git/store';
import { TypedError } from './errors';
import { guarded, rangeConnection, type GraphContext } from './resolve';
import { repositoryAccess } from './access';
import { REPO_POLICIES } from './repository-policies';

// biome-ignore lint/suspicious/noExplicitAny: sources are the REST-shaped objects resolve.ts makes
type Source = Record<string, any>;
// biome-ignore lint/suspicious/noExplicitAny: arguments are validated by graphql-js against the schema
type Args = Record<string, any>;
type Resolver = (source: Source, args: Args, g: GraphContext) => unknown;

/** References one `refs` connection reads at most (the rest are left out of the ordering). */
export const MAX_REFS = 20_000;
/** Tags followed at most from a reference to its commit (git's own limit on nested tags is similar). */
const MAX_PEEL = 10;
/** Peeled objects remembered (objects never change, so nothing goes stale). */
const PEEL_CACHE = 50_000;

/** What a reference's object leads to: the commit (null for a tree or blob) and that commit's committer date (epoch seconds). */
interface Peeled {
	commit: string | null;
	seconds: number;
}
const peeledCache = new Map<string, Peeled>();

/** The commit an object leads to and its committer date, through any tags; remembered by object id. */
function peeled(app: App, repoId: number, sha: string): Peeled {
	const cached = peeledCache.get(sha);
	if (cached) return cached;
	const { git } = app.stores;
	let result: Peeled = { commit: null, seconds: 0 };
	let at = sha;
	for (let depth = 0; depth < MAX_PEEL; depth++) {
		const object = git.object(repoId, at);
		if (!object) break;
		if (object.type === 'commit') {
			result = { commit: at, seconds: parseCommit(object.content).committer.seconds };
			break;
		}
		if (object.type !== 'tag') break;
		at = parseTag(object.content).object;
	}
	if (peeledCache.size >= PEEL_CACHE) peeledCache.delete(peeledCache.keys().next().value as string);
	peeledCache.set(sha, result);
	return result;
}

/** The repository row and its owner behind a REST repository source (or a Ref's `__repo`: owner/name). */
function repoView(g: GraphContext, fullName: string): RepoView | undefined {
	const [login, name] = fullName.split('/');
	const owner = login ? g.ctx.app.stores.accounts.byLogin(login) : undefined;
	const repo = owner && name ? g.ctx.app.stores.repos.byOwnerAndName(owner.id, name) : undefined;
	return owner && repo ? { owner, repo } : undefined;
}

/** A Ref source (the fields resolve.ts's Ref resolvers read: `__repo` is owner/name). */
function refSource(view: RepoView, fullName: string, row: RefRow, prefix: string): Source {
	return {
		__typename: 'Ref',
		id: gitNodeId('Ref', view.repo.id, row.name),
		name: row.name.slice(prefix.length),
		prefix,
		__repo: fullName,
		__sha: row.sha,
		__type: row.type,
	};
}

/**
 * A Commit source in the REST commit's shape (GET /repos/{owner}/{repo}/commits/{ref} without stats
 * and files), so resolve.ts's Commit fields read it without another request.
 */
function commitSource(g: GraphContext, view: RepoView, sha: string, authors: AuthorLookup): Source | null {
	const object = g.ctx.app.stores.git.object(view.repo.id, sha);
	if (!object || object.type !== 'commit') return null;
	return { ...fullCommit(g.ctx.app, view, sha, parseCommit(object.content), authors), __typename: 'Commit' };
}

/** A Tag source: the annotated tag object `sha` with its parsed fields, or null when it is not a tag. */
function tagSource(g: GraphContext, view: RepoView, sha: string): Source | null {
	const object = g.ctx.app.stores.git.object(view.repo.id, sha);
	if (!object || object.type !== 'tag') return null;
	const data: TagData = parseTag(object.content);
	return { __typename: 'Tag', __view: view, sha, data };
}

/** The GraphQL object `sha` is (a Commit or a Tag; trees and blobs are not served: null). */
function gitObject(g: GraphContext, view: RepoView, sha: string, authors = new AuthorLookup(g.ctx.app)): Source | null {
	const meta = g.ctx.app.stores.git.meta(view.repo.id, sha);
	if (meta?.type === 'commit') return commitSource(g, view, sha, authors);
	if (meta?.type === 'tag') return tagSource(g, view, sha);
	return null;
}

/** Compares names as git sorts references (byte order). */
const byName = (a: RefRow, b: RefRow) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * Repository.refs: the references below `refPrefix` whose short name contains `query` (without
 * case), ordered as asked (ALPHABETICAL by default; TAG_COMMIT_DATE by the peeled commit's
 * committer date, ties by name), paged with the other connections' cursors.
 * @throws TypedError from the REST twin's refusal (NOT_FOUND, FORBIDDEN)
 */
function refs(s: Source, a: Args, g: GraphContext): Source | null {
	const fullName = String(s.full_name);
	// Access: the REST list of tags' (contents read), as a REST client would need.
	const [login, name] = fullName.split('/');
	const { repo: view } = guarded(undefined, () => repositoryAccess(g.ctx, REPO_POLICIES.tags, login ?? '', name ?? ''));
	const prefix = String(a.refPrefix);
	if (!prefix.endsWith('/')) throw new TypedError('UNPROCESSABLE', 'refPrefix must end with a slash');
	const { app } = g.ctx;
	let rows = app.stores.git.matchingRefs(view.repo.id, prefix, MAX_REFS, 0).rows.filter((row) => row.name.length > prefix.length);
	if (a.query) {
		const needle = String(a.query).toLowerCase();
		rows = rows.filter((row) => row.name.slice(prefix.length).toLowerCase().includes(needle));
	}
	const field = a.orderBy?.field ?? 'ALPHABETICAL';
	const direction = a.orderBy?.direction ?? a.direction ?? 'ASC';
	if (field === 'TAG_COMMIT_DATE') {
		const dates = new Map(rows.map((row) => [row.name, peeled(app, view.repo.id, row.sha).seconds]));
		rows.sort((x, y) => (dates.get(x.name) as number) - (dates.get(y.name) as number) || byName(x, y));
	} else {
		rows.sort(byName);
	}
	if (direction === 'DESC') rows.reverse();
	return rangeConnection(a, (offset, count) => ({
		items: rows.slice(offset, offset + count).map((row) => refSource(view, fullName, row, prefix)),
		total: rows.length,
	}));
}

/** Resolvers by type and field, merged over resolve.ts's RESOLVERS by src/api/graphql/execute.ts. */
export const REF_RESOLVERS: Record<string, Record<string, Resolver>> = {
	Repository: { refs },
	Ref: {
		// The object the reference points at: a Commit, or a Tag for an annotated tag.
		target: (ref, _a, g) => {
			const view = repoView(g, String(ref.__repo ?? ''));
			if (!view) return null;
			let sha = ref.__sha as string | undefined;
			if (!sha) sha = g.ctx.app.stores.git.ref(view.repo.id, `${ref.prefix}${ref.name}`)?.sha;
			return sha ? gitObject(g, view, sha) : null;
		},
	},
	Tag: {
		id: (s) => gitNodeId('Tag', s.__view.repo.id, s.sha),
		oid: (s) => s.sha,
		abbreviatedOid: (s) => String(s.sha).slice(0, 7),
		name: (s) => s.data.tag,
		// The message without a trailing signature block, as GitHub shows it.
		message: (s) => findTrailingSignature(s.data.message)?.payload ?? s.data.message,
		tagger: (s, _a, g) => {
			const { tagger } = s.data as TagData;
			if (!tagger.email && !tagger.name) return null;
			const account = new AuthorLookup(g.ctx.app).account(tagger.email);
			return {
				__typename: 'GitActor',
				name: tagger.name,
				email: tagger.email,
				date: isoSeconds(tagger.seconds * 1000),
				user: account ? { ...simpleUser(g.ctx.app.urls, account), __typename: 'User' } : null,
			};
		},
		target: (s, _a, g) => gitObject(g, s.__view, s.data.object),
	},
};
