/**
 * GitHub's git database API for repositories (OpenAPI
 * operations git/*): blobs, trees, commits, annotated tag objects and references, stored in
 * SQLite under their real git object ids. Reading needs Contents (read) — public repositories
 * anonymously too; writing needs Contents (write) and push access to a writable repository.
 * References take a path with slashes ({ref} is 'heads/main'), so those routes end in a wildcard.
 */
import * as v from 'valibot';
import { notFound, unprocessable } from '../../model/errors';
import { created, noContent, ok, paged } from '../../http/reply';
import { route, type Context, type RouteDeclaration } from '../../http/route';
import { isoSeconds } from '../../time';
import {
	commitPayload,
	findTrailingSignature,
	hashObject,
	parseCommit,
	parseTag,
	parseTree,
	TREE_MODES,
	type Ident,
	type TreeEntry,
} from './objects';
import * as render from './render';
import { checkSignatures, signatureVerifier } from '../keys/verification';
import { visibleEmail } from '../users/render';
import { peel, resolveObject } from './service';
import {
	blobContent,
	commitContent,
	createCommit,
	createRef,
	createTag,
	createTree,
	deleteRef,
	fullSha,
	ident,
	requireCommits,
	storeObject,
	tagContent,
	updateRef,
	type CommitInput,
	type RefWrite,
	type PersonInput,
	type TagInput,
	type TreeInput,
} from './writes';

const BASE = '/repos/{owner}/{repo}/git';

const READ = { permissions: [{ contents: 'read' as const }], access: 'public' as const, resource: { repo: 'read' as const } };
// A public_repo token may write to public repositories; private ones stay invisible to it (404).
const WRITE = {
	permissions: [{ contents: 'write' as const }],
	scopes: ['repo', 'public_repo'],
	access: 'authenticated' as const,
	resource: { repo: 'push' as const },
};

const person = v.object({ name: v.string(), email: v.string(), date: v.optional(v.string()) });

const commitBody = v.object({
	message: v.string(),
	tree: v.string(),
	parents: v.optional(v.array(v.string()), []),
	author: v.optional(person),
	committer: v.optional(person),
	signature: v.optional(v.string()),
});
type CommitBody = v.InferOutput<typeof commitBody>;

const tagBody = v.object({
	tag: v.string(),
	message: v.string(),
	object: v.string(),
	type: v.picklist(['commit', 'tree', 'blob', 'tag']),
	tagger: v.optional(person),
});
type TagBody = v.InferOutput<typeof tagBody>;

/** Largest number of entries a tree listing returns before it is truncated (GitHub's limit). */
export const MAX_TREE_ENTRIES = 100_000;

/** The wildcard part of a route's path ('heads/main' of .../git/ref/heads/main). */
function rest(ctx: Context): string {
	return ctx.params['*'] ?? '';
}

/** Branch protection's view of the writer: repository administrators bypass what enforce_admins leaves to them. */
/** How the caller writes references: as an administrator of the repository or not, now. */
function refWrite(ctx: Context): RefWrite {
	return { now: isoSeconds(ctx.now), actorId: ctx.principal.actorId, admin: ctx.repo.permission === 'admin' };
}

function view(ctx: Context): render.RepoView {
	return { repo: ctx.repo.repo, owner: ctx.repo.owner };
}

/** The commit a POST …/git/commits asks for: the author defaults to the caller, now; the committer to the author. */
function commitInput(ctx: Context<Record<string, unknown>, CommitBody>): CommitInput {
	const author: Ident = ident('Commit', 'author', ctx.body.author ?? caller(ctx), ctx.now);
	const committer: Ident = ctx.body.committer ? ident('Commit', 'committer', ctx.body.committer, ctx.now) : author;
	return {
		message: ctx.body.message,
		tree: ctx.body.tree,
		parents: ctx.body.parents,
		author,
		committer,
		signature: ctx.body.signature ?? null,
	};
}

/** The tag object a POST …/git/tags asks for: the tagger defaults to the caller, now. */
function tagInput(ctx: Context<Record<string, unknown>, TagBody>): TagInput {
	const tagger = ident('Tag', 'tagger', ctx.body.tagger ?? caller(ctx), ctx.now);
	return { tag: ctx.body.tag, message: ctx.body.message, object: ctx.body.object, type: ctx.body.type, tagger };
}

/**
 * The caller as a commit author or tagger: the account's name (else login) and email (else
 * GitHub's noreply address <id>+<login>@users.noreply.<host>), dated now.
 */
function caller(ctx: Context): PersonInput {
	const account = ctx.principal.actorId === null ? undefined : ctx.app.stores.accounts.byId(ctx.principal.actorId);
	if (!account) throw unprocessable('author is required when no user acts');
	const host = ctx.app.urls.host.replace(/:\d+$/, '');
	// Characters git cannot keep in an identity are dropped rather than refused: the caller gave none of this.
	const clean = (text: string | null) => (text ?? '').replace(/[<>\n\0]/g, '').trim();
	// A private email never goes into a commit anyone may read: GitHub's noreply address stands in.
	return {
		name: clean(account.name) || account.login,
		email: clean(visibleEmail(account)) || `${account.id}+${account.login}@users.noreply.${host}`,
	};
}

/**
 * A tree's listing: its own entries, or with `recursive` every entry below it, depth first with a
 * folder before its contents (git ls-tree -r -t order); at most MAX_TREE_ENTRIES, then truncated.
 */
function treeItems(ctx: Context, repoId: number, sha: string, recursive: boolean): { items: render.TreeItem[]; truncated: boolean } {
	const { git } = ctx.app.stores;
	const items: render.TreeItem[] = [];
	// An explicit stack: trees may nest deeper than the call stack would allow.
	const stack: Array<{ entries: TreeEntry[]; at: number; prefix: string; sizes: Map<string, number> }> = [];
	const open = (treeSha: string, prefix: string) => {
		const row = git.object(repoId, treeSha);
		if (!row || row.type !== 'tree') return;
		const entries = parseTree(row.content);
		const blobs = entries.filter((e) => e.mode !== '040000' && e.mode !== '160000').map((e) => e.sha);
		stack.push({ entries, at: 0, prefix, sizes: new Map(git.metas(repoId, blobs).map((m) => [m.sha, m.size])) });
	};
	open(sha, '');
	while (stack.length) {
		const top = stack[stack.length - 1];
		if (top.at >= top.entries.length) {
			stack.pop();
			continue;
		}
		if (items.length >= MAX_TREE_ENTRIES) return { items, truncated: true };
		const entry = top.entries[top.at++];
		const type = entry.mode === '040000' ? 'tree' : entry.mode === '160000' ? 'commit' : 'blob';
		items.push({ path: top.prefix + entry.name, mode: entry.mode, type, sha: entry.sha, size: top.sizes.get(entry.sha) });
		if (recursive && type === 'tree') open(entry.sha, `${top.prefix}${entry.name}/`);
	}
	return { items, truncated: false };
}

function refAnswer(ctx: Context, repo: render.RepoView, name: string) {
	const row = ctx.app.stores.git.ref(repo.repo.id, name);
	return row ? render.ref(ctx.app.urls, repo, row.name, row.sha, row.type) : null;
}

/** A page of the references starting with `prefix`, as GitRef items. */
function matching(ctx: Context, repo: render.RepoView, prefix: string) {
	const { rows, total } = ctx.app.stores.git.matchingRefs(repo.repo.id, prefix, ctx.page.perPage, ctx.page.offset);
	return { items: rows.map((row) => render.ref(ctx.app.urls, repo, row.name, row.sha, row.type)), total };
}

/**
 * The stored object a full SHA names, when it is of `type`.
 * @throws DomainError 404 for anything else (not 40 hexadecimal digits, unknown, another type)
 */
function storedObject(ctx: Context, repo: render.RepoView, text: string, type: 'commit' | 'tag'): { sha: string; content: Buffer } {
	const sha = fullSha(text);
	const row = sha ? ctx.app.stores.git.object(repo.repo.id, sha) : undefined;
	if (!sha || !row || row.type !== type) throw notFound();
	return { sha, content: row.content };
}

/** GitHub's git commit object for a stored commit. */
function commitObject(ctx: Context, repo: render.RepoView, object: { sha: string; content: Buffer }) {
	return render.commit(ctx.app.urls, repo, object.sha, parseCommit(object.content), signatureVerifier(ctx.app));
}

/** GitHub's git tag object for a stored annotated tag. */
function tagObject(ctx: Context, repo: render.RepoView, object: { sha: string; content: Buffer }) {
	return render.tag(
		ctx.app.urls,
		repo,
		object.sha,
		parseTag(object.content),
		object.content.toString('utf8'),
		signatureVerifier(ctx.app),
	);
}

export const gitRoutes: RouteDeclaration[] = [
	// ----- blobs
	route({
		...WRITE,
		method: 'POST',
		path: `${BASE}/blobs`,
		docs: 'git/blobs#create-a-blob',
		errorResource: 'Blob',
		body: v.object({ content: v.string(), encoding: v.optional(v.picklist(['utf-8', 'base64']), 'utf-8') }),
		handler(ctx) {
			const repo = view(ctx);
			const content = blobContent(ctx.body.content, ctx.body.encoding);
			const sha = storeObject(ctx.app, repo.repo.id, 'blob', content, isoSeconds(ctx.now));
			const body = render.shortBlob(ctx.app.urls, repo, sha);
			return created(body, body.url);
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: `${BASE}/blobs/{file_sha}`,
		docs: 'git/blobs#get-a-blob',
		errorResource: 'Blob',
		handler(ctx) {
			const repo = view(ctx);
			const sha = fullSha(ctx.params.file_sha);
			if (!sha) throw unprocessable('The sha parameter must be exactly 40 characters and contain only [0-9a-f].');
			const row = ctx.app.stores.git.object(repo.repo.id, sha);
			if (!row || row.type !== 'blob') throw notFound();
			// application/vnd.github.raw(+json): the blob's bytes themselves.
			if (ctx.media === 'raw') return { status: 200, raw: { body: row.content, contentType: 'application/vnd.github.raw' } };
			return ok(render.blob(ctx.app.urls, repo, sha, row.content));
		},
	}),

	// ----- trees
	route({
		...WRITE,
		method: 'POST',
		path: `${BASE}/trees`,
		docs: 'git/trees#create-a-tree',
		errorResource: 'Tree',
		body: v.object({
			tree: v.array(
				v.object({
					path: v.string(),
					mode: v.picklist(TREE_MODES),
					type: v.optional(v.picklist(['blob', 'tree', 'commit'])),
					sha: v.optional(v.nullable(v.string())),
					content: v.optional(v.string()),
				}),
			),
			base_tree: v.optional(v.string()),
		}),
		handler(ctx) {
			const repo = view(ctx);
			const sha = createTree(ctx.app, repo.repo.id, ctx.body.base_tree, ctx.body.tree as TreeInput[], isoSeconds(ctx.now));
			const { items, truncated } = treeItems(ctx, repo.repo.id, sha, false);
			const body = render.tree(ctx.app.urls, repo, sha, items, truncated);
			return created(body, body.url);
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: `${BASE}/trees/*`,
		docs: 'git/trees#get-a-tree',
		errorResource: 'Tree',
		query: v.object({ recursive: v.optional(v.union([v.string(), v.array(v.string())])) }),
		handler(ctx) {
			const repo = view(ctx);
			// A tree id, or anything leading to a tree: a commit, a tag, a branch or tag name.
			const object = resolveObject(ctx.app, repo.repo, rest(ctx));
			const sha = object ? peel(ctx.app, repo.repo.id, object.sha, 'tree') : null;
			if (!sha) throw notFound();
			// Any value of recursive (even 0 or false) asks for the whole tree, as on GitHub.
			const { items, truncated } = treeItems(ctx, repo.repo.id, sha, ctx.query.recursive !== undefined);
			return ok(render.tree(ctx.app.urls, repo, sha, items, truncated));
		},
	}),

	// ----- commits
	route({
		...WRITE,
		method: 'POST',
		path: `${BASE}/commits`,
		docs: 'git/commits#create-a-commit',
		errorResource: 'Commit',
		body: commitBody,
		// A signature is checked against the signer's registered keys before the commit is stored
		// (OpenPGP.js is asynchronous), so the answer's verification is final.
		prepare(ctx) {
			const { content } = commitContent(ctx.app, ctx.repo.repo.id, commitInput(ctx));
			const data = parseCommit(content);
			if (!data.signature) return Promise.resolve();
			return checkSignatures(ctx.app, {
				sha: hashObject('commit', content),
				signature: data.signature,
				payload: commitPayload(data),
				email: data.committer.email,
				seconds: data.committer.seconds,
			});
		},
		handler(ctx) {
			const repo = view(ctx);
			const now = isoSeconds(ctx.now);
			const body = commitObject(
				ctx,
				repo,
				storedObject(ctx, repo, createCommit(ctx.app, repo.repo.id, commitInput(ctx), now), 'commit'),
			);
			return created(body, body.url);
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: `${BASE}/commits/{commit_sha}`,
		docs: 'git/commits#get-a-commit-object',
		errorResource: 'Commit',
		handler(ctx) {
			const repo = view(ctx);
			return ok(commitObject(ctx, repo, storedObject(ctx, repo, ctx.params.commit_sha, 'commit')));
		},
	}),

	// ----- tag objects
	route({
		...WRITE,
		method: 'POST',
		path: `${BASE}/tags`,
		docs: 'git/tags#create-a-tag-object',
		errorResource: 'Tag',
		body: tagBody,
		// A signed tag's signature is checked before the tag is stored (see the commits route).
		prepare(ctx) {
			const data = tagInput(ctx);
			const content = tagContent(ctx.app, ctx.repo.repo.id, data);
			const found = findTrailingSignature(content.toString('utf8'));
			if (!found) return Promise.resolve();
			return checkSignatures(ctx.app, {
				sha: hashObject('tag', content),
				signature: found.signature,
				payload: found.payload,
				email: data.tagger.email,
				seconds: data.tagger.seconds,
			});
		},
		handler(ctx) {
			const repo = view(ctx);
			const now = isoSeconds(ctx.now);
			const body = tagObject(ctx, repo, storedObject(ctx, repo, createTag(ctx.app, repo.repo.id, tagInput(ctx), now), 'tag'));
			return created(body, body.url);
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: `${BASE}/tags/{tag_sha}`,
		docs: 'git/tags#get-a-tag',
		errorResource: 'Tag',
		handler(ctx) {
			const repo = view(ctx);
			requireCommits(ctx.app, repo.repo.id);
			return ok(tagObject(ctx, repo, storedObject(ctx, repo, ctx.params.tag_sha, 'tag')));
		},
	}),

	// ----- references
	route({
		...READ,
		method: 'GET',
		path: `${BASE}/matching-refs/*?`,
		docs: 'git/refs#list-matching-references',
		errorResource: 'Reference',
		pagination: true,
		handler(ctx) {
			const repo = view(ctx);
			requireCommits(ctx.app, repo.repo.id);
			// A plain prefix: heads/feature lists feature, featureA and feature/x.
			const { items, total } = matching(ctx, repo, `refs/${rest(ctx)}`);
			return paged(items, total);
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: `${BASE}/ref/*`,
		docs: 'git/refs#get-a-reference',
		errorResource: 'Reference',
		handler(ctx) {
			const repo = view(ctx);
			requireCommits(ctx.app, repo.repo.id);
			const answer = refAnswer(ctx, repo, `refs/${rest(ctx)}`);
			if (!answer) throw notFound();
			return ok(answer);
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: `${BASE}/refs`,
		docs: 'git/refs#list-matching-references',
		errorResource: 'Reference',
		pagination: true,
		handler(ctx) {
			// GitHub's older listing of every reference (PyGithub's get_git_refs).
			const repo = view(ctx);
			requireCommits(ctx.app, repo.repo.id);
			const { items, total } = matching(ctx, repo, 'refs/');
			return paged(items, total);
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: `${BASE}/refs/*`,
		docs: 'git/refs#get-a-reference',
		errorResource: 'Reference',
		pagination: true,
		handler(ctx) {
			// GitHub's older form: the reference when the name is exact, else the references it prefixes.
			const repo = view(ctx);
			requireCommits(ctx.app, repo.repo.id);
			const name = `refs/${rest(ctx)}`;
			const exact = refAnswer(ctx, repo, name);
			if (exact) return ok(exact);
			const { items, total } = matching(ctx, repo, name);
			if (total === 0) throw notFound();
			return paged(items, total);
		},
	}),
	route({
		...WRITE,
		method: 'POST',
		path: `${BASE}/refs`,
		docs: 'git/refs#create-a-reference',
		errorResource: 'Reference',
		body: v.object({ ref: v.string(), sha: v.string() }),
		handler(ctx) {
			const repo = view(ctx);
			const target = createRef(ctx.app, repo.repo, ctx.body.ref, ctx.body.sha, refWrite(ctx));
			const body = render.ref(ctx.app.urls, repo, ctx.body.ref, target.sha, target.type);
			return created(body, body.url);
		},
	}),
	route({
		...WRITE,
		method: 'PATCH',
		path: `${BASE}/refs/*`,
		docs: 'git/refs#update-a-reference',
		errorResource: 'Reference',
		body: v.object({ sha: v.string(), force: v.optional(v.boolean(), false) }),
		handler(ctx) {
			const repo = view(ctx);
			const name = `refs/${rest(ctx)}`;
			const target = updateRef(ctx.app, repo.repo, name, ctx.body.sha, { ...refWrite(ctx), force: ctx.body.force });
			return ok(render.ref(ctx.app.urls, repo, name, target.sha, target.type));
		},
	}),
	route({
		...WRITE,
		method: 'DELETE',
		path: `${BASE}/refs/*`,
		docs: 'git/refs#delete-a-reference',
		errorResource: 'Reference',
		handler(ctx) {
			const repo = view(ctx);
			deleteRef(ctx.app, repo.repo, `refs/${rest(ctx)}`, refWrite(ctx));
			return noContent();
		},
	}),
];
