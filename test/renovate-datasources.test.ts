/**
 * Renovate's github-tags and github-releases datasources: the two GraphQL queries its query
 * adapters send (captured into test/fixtures/renovate/tags.graphql and releases.graphql), run
 * against a repository whose tags were pushed with git (lightweight and annotated, with commit and
 * tagger dates apart, so the order shows which date counts). Where Renovate is installed
 * (test/helpers/renovate.ts), each node also goes through the adapter's own `transform`, which
 * drops what its schema refuses. Skipped when git is not installed.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { gitIn, hasGit, needsGit, writeTree } from './helpers/git';
import { RENOVATE_VERSION } from './helpers/renovate';
import { startServer, type TestServer } from './helpers/server';

const FIXTURES = join(__dirname, 'fixtures', 'renovate');
const fixture = (name: string) => readFileSync(join(FIXTURES, `${name}.graphql`), 'utf8');

/** Renovate's adapters, when the slow suite's copy of Renovate is installed. */
const ADAPTERS = resolve(
	__dirname,
	'..',
	'node_modules/.cache/gitstead-renovate',
	RENOVATE_VERSION,
	'node_modules/renovate/dist/util/github/graphql/query-adapters',
);
type Adapter = { transform(item: unknown): Record<string, unknown> | null };
const adapter = (name: string): Adapter | null =>
	existsSync(join(ADAPTERS, `${name}-query-adapter.js`)) ? require(join(ADAPTERS, `${name}-query-adapter.js`)).adapter : null;

const test = suite('renovate-datasources');
let s: TestServer;
let work: string;
let octo: string;
let reader: string;
let stranger: string;
/** Commit ids on main, oldest first, and their committer dates. */
const commits: string[] = [];
const commitDates = ['2026-01-01T10:00:00Z', '2026-01-02T10:00:00Z', '2026-01-03T10:00:00Z', '2026-01-04T10:00:00Z'];
/** Tag object ids of the annotated tags. */
const tagObjects: Record<string, string> = {};

async function must(method: string, path: string, body?: unknown, token = octo) {
	const res = await s.request(method, path, { token, body });
	assert.ok(res.status < 300, `${method} ${path} → ${res.status} ${res.text}`);
	return res.body;
}

async function graphql(query: string, variables: Record<string, unknown>, token = octo) {
	const res = await s.request('POST', '/api/graphql', { token, body: { query, variables } });
	assert.is(res.status, 200, res.text);
	return res.body as { data?: Record<string, any>; errors?: Array<{ type?: string; message: string }> };
}

test.before(async () => {
	if (!hasGit) return;
	s = await startServer();
	s.user('octo');
	s.user('reed');
	s.user('stranger');
	octo = s.fullToken('octo');
	reader = s.fullToken('reed');
	stranger = s.fullToken('stranger');
	await must('POST', '/user/repos', { name: 'lib', private: true });
	await must('PUT', '/repos/octo/lib/collaborators/reed', { permission: 'pull' });
	const invitations = (await s.request('GET', '/user/repository_invitations', { token: reader })).body as Array<{ id: number }>;
	for (const invitation of invitations) await must('PATCH', `/user/repository_invitations/${invitation.id}`, undefined, reader);

	work = mkdtempSync(join(tmpdir(), 'gitstead-datasources-'));
	const { git } = gitIn(work);
	const ok = async (args: string[], env: Record<string, string> = {}) => {
		const result = await git(args, join(work, 'lib'), env);
		assert.is(result.status, 0, `git ${args.join(' ')}: ${result.err}`);
		return result.out.trim();
	};
	await git(['init', '-q', join(work, 'lib')]);
	for (const [i, date] of commitDates.entries()) {
		writeTree(join(work, 'lib'), { VERSION: `${i}\n` });
		await ok(['add', '-A']);
		await ok(['commit', '-q', '-m', `Release ${i}`], { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });
		commits.push(await ok(['rev-parse', 'HEAD']));
	}
	// v1.0.0 and v2.0.0 lightweight; v1.1.0 and v1.2.0 annotated, tagged long after their commits
	// (v1.1.0 last of all: ordered by tagger date it would come first).
	await ok(['tag', 'v1.0.0', commits[0]]);
	await ok(['tag', '-a', '-m', 'Version 1.1.0\n\nWith notes.', 'v1.1.0', commits[1]], { GIT_COMMITTER_DATE: '2026-03-01T08:00:00Z' });
	await ok(['tag', '-a', '-m', 'Version 1.2.0', 'v1.2.0', commits[2]], { GIT_COMMITTER_DATE: '2026-02-01T08:00:00Z' });
	await ok(['tag', 'v2.0.0', commits[3]]);
	tagObjects['v1.1.0'] = await ok(['rev-parse', 'v1.1.0']);
	tagObjects['v1.2.0'] = await ok(['rev-parse', 'v1.2.0']);
	const url = `${s.origin.replace('http://', `http://x-access-token:${octo}@`)}/octo/lib.git`;
	await ok(['push', '-q', url, 'main', '--tags']);
});

test.after(async () => {
	if (!hasGit) return;
	await s.close();
	rmSync(work, { recursive: true, force: true });
});

if (needsGit(test, 'renovate-datasources')) {
	test('github-tags: refs/tags/ newest commit first, lightweight tags as Commit, annotated as Tag with tagger and target', async () => {
		const { data, errors } = await graphql(fixture('tags'), { owner: 'octo', name: 'lib', count: 100, cursor: null });
		assert.is(errors, undefined, JSON.stringify(errors));
		assert.is(data!.repository.isRepoPrivate, true);
		const { nodes, pageInfo } = data!.repository.payload;
		assert.equal(
			nodes.map((n: { version: string }) => n.version),
			['v2.0.0', 'v1.2.0', 'v1.1.0', 'v1.0.0'],
			'ordered by the tagged commit date, not the tagger date',
		);
		assert.is(pageInfo.hasNextPage, false);
		assert.equal(nodes[0].target, { type: 'Commit', oid: commits[3], releaseTimestamp: commitDates[3] });
		assert.equal(nodes[3].target, { type: 'Commit', oid: commits[0], releaseTimestamp: commitDates[0] });
		assert.equal(nodes[1].target, {
			type: 'Tag',
			target: { oid: commits[2] },
			tagger: { releaseTimestamp: '2026-02-01T08:00:00Z' },
		});
		assert.equal(nodes[2].target, {
			type: 'Tag',
			target: { oid: commits[1] },
			tagger: { releaseTimestamp: '2026-03-01T08:00:00Z' },
		});

		// Renovate's own transform, when installed: each node becomes a release with its commit hash.
		const tags = adapter('tags');
		if (tags) {
			assert.equal(
				nodes.map((n: unknown) => tags.transform(n)),
				[
					{ version: 'v2.0.0', gitRef: 'v2.0.0', hash: commits[3], releaseTimestamp: commitDates[3] },
					{ version: 'v1.2.0', gitRef: 'v1.2.0', hash: commits[2], releaseTimestamp: '2026-02-01T08:00:00Z' },
					{ version: 'v1.1.0', gitRef: 'v1.1.0', hash: commits[1], releaseTimestamp: '2026-03-01T08:00:00Z' },
					{ version: 'v1.0.0', gitRef: 'v1.0.0', hash: commits[0], releaseTimestamp: commitDates[0] },
				],
			);
		} else console.log('renovate-datasources: Renovate not installed; its transform is not run');
	});

	test('github-tags: paged by $count and the cursor Renovate passes back', async () => {
		const seen: string[] = [];
		let cursor: string | null = null;
		for (let page = 0; page < 5; page++) {
			const { data, errors } = await graphql(fixture('tags'), { owner: 'octo', name: 'lib', count: 3, cursor });
			assert.is(errors, undefined, JSON.stringify(errors));
			const payload = data!.repository.payload;
			seen.push(...payload.nodes.map((n: { version: string }) => n.version));
			if (!payload.pageInfo.hasNextPage) break;
			cursor = payload.pageInfo.endCursor;
		}
		assert.equal(seen, ['v2.0.0', 'v1.2.0', 'v1.1.0', 'v1.0.0']);
	});

	test('refs: ALPHABETICAL (the default) and ASC, query filter, branches, Tag fields, Ref ids', async () => {
		const query = `query($prefix: String!, $q: String, $order: RefOrder) { repository(owner: "octo", name: "lib") {
			refs(refPrefix: $prefix, first: 10, query: $q, orderBy: $order) { totalCount nodes { id name prefix
				target { __typename oid abbreviatedOid ... on Tag { id name message tagger { name email date } target { __typename oid } } } } } } }`;
		const names = async (variables: Record<string, unknown>) => {
			const { data, errors } = await graphql(query, variables);
			assert.is(errors, undefined, JSON.stringify(errors));
			return data!.repository.refs;
		};
		assert.equal(
			(await names({ prefix: 'refs/tags/' })).nodes.map((n: { name: string }) => n.name),
			['v1.0.0', 'v1.1.0', 'v1.2.0', 'v2.0.0'],
		);
		assert.equal(
			(await names({ prefix: 'refs/tags/', order: { field: 'ALPHABETICAL', direction: 'DESC' } })).nodes.map(
				(n: { name: string }) => n.name,
			),
			['v2.0.0', 'v1.2.0', 'v1.1.0', 'v1.0.0'],
		);
		assert.equal(
			(await names({ prefix: 'refs/tags/', order: { field: 'TAG_COMMIT_DATE', direction: 'ASC' } })).nodes.map(
				(n: { name: string }) => n.name,
			),
			['v1.0.0', 'v1.1.0', 'v1.2.0', 'v2.0.0'],
		);
		const filtered = await names({ prefix: 'refs/tags/', q: 'V1.' });
		assert.is(filtered.totalCount, 3);
		const heads = await names({ prefix: 'refs/heads/' });
		assert.equal(
			heads.nodes.map((n: { name: string; prefix: string }) => [n.name, n.prefix]),
			[['main', 'refs/heads/']],
		);
		assert.is(heads.nodes[0].target.oid, commits[3]);
		assert.is(
			heads.nodes[0].id,
			Buffer.from(
				`03:Ref${s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.byLogin('octo')!.id, 'lib')!.id}:refs/heads/main`,
			).toString('base64'),
		);
		const annotated = (await names({ prefix: 'refs/tags/', q: '1.1' })).nodes[0].target;
		assert.is(annotated.__typename, 'Tag');
		assert.is(annotated.oid, tagObjects['v1.1.0']);
		assert.is(annotated.abbreviatedOid, tagObjects['v1.1.0'].slice(0, 7));
		assert.is(annotated.name, 'v1.1.0');
		assert.is(annotated.message, 'Version 1.1.0\n\nWith notes.\n');
		assert.equal(annotated.tagger, { name: 'Octo Cat', email: 'octo@example.com', date: '2026-03-01T08:00:00Z' });
		assert.equal(annotated.target, { __typename: 'Commit', oid: commits[1] });
		// Nothing below a prefix that names no references; a prefix must end with a slash.
		assert.is((await names({ prefix: 'refs/pull/' })).totalCount, 0);
		const bad = await graphql(query, { prefix: 'refs/tags' });
		assert.is(bad.errors?.[0].type, 'UNPROCESSABLE');
	});

	test('refs: a reader sees the tags, a stranger gets NOT_FOUND for the private repository', async () => {
		const asReader = await graphql(fixture('tags'), { owner: 'octo', name: 'lib', count: 10 }, reader);
		assert.is(asReader.errors, undefined, JSON.stringify(asReader.errors));
		assert.is(asReader.data!.repository.payload.nodes.length, 4);
		const hidden = await graphql(fixture('tags'), { owner: 'octo', name: 'lib', count: 10 }, stranger);
		assert.is(hidden.data?.repository ?? null, null);
		assert.is(hidden.errors?.[0].type, 'NOT_FOUND');
	});

	test('github-releases: newest created first, the fields the adapter reads, drafts only for writers', async () => {
		const made: Array<{ id: number; html_url: string }> = [];
		const bodies = [
			{ tag_name: 'v1.0.0', name: 'One', body: 'First release' },
			{ tag_name: 'v1.1.0', name: null, body: null, prerelease: true },
			{ tag_name: 'v1.2.0', name: 'One two', body: 'Notes' },
			{ tag_name: 'v3.0.0', name: 'Next', body: 'Soon', draft: true },
		];
		for (const body of bodies) {
			made.push(await must('POST', '/repos/octo/lib/releases', body));
			s.clock.advance(60_000);
		}
		const { data, errors } = await graphql(fixture('releases'), { owner: 'octo', name: 'lib', count: 100, cursor: null });
		assert.is(errors, undefined, JSON.stringify(errors));
		const nodes = data!.repository.payload.nodes;
		assert.equal(
			nodes.map((n: { version: string }) => n.version),
			['v3.0.0', 'v1.2.0', 'v1.1.0', 'v1.0.0'],
		);
		assert.equal(nodes[0].isDraft, true);
		assert.is(nodes[0].releaseTimestamp, null, 'a draft is not published');
		const first = await must('GET', `/repos/octo/lib/releases/${made[0].id}`);
		assert.equal(nodes[3], {
			version: 'v1.0.0',
			releaseTimestamp: first.published_at,
			isDraft: false,
			isPrerelease: false,
			url: made[0].html_url,
			id: made[0].id,
			name: 'One',
			description: 'First release',
		});
		assert.is(nodes[2].isPrerelease, true);
		assert.is(nodes[2].description, null);

		const releases = adapter('releases');
		if (releases) {
			const out = nodes.map((n: unknown) => releases.transform(n));
			assert.is(out[0], null, 'Renovate drops the draft');
			// Renovate normalizes the timestamps to milliseconds.
			const iso = (at: string) => new Date(at).toISOString();
			assert.equal(out[2], {
				version: 'v1.1.0',
				releaseTimestamp: iso(nodes[2].releaseTimestamp),
				url: made[1].html_url,
				id: made[1].id,
				isStable: false,
			});
			assert.equal(out[3], {
				version: 'v1.0.0',
				releaseTimestamp: iso(first.published_at),
				url: made[0].html_url,
				id: made[0].id,
				name: 'One',
				description: 'First release',
			});
		}

		// Paged two at a time; a reader (no push access) does not see the draft.
		const page1 = (await graphql(fixture('releases'), { owner: 'octo', name: 'lib', count: 2 }, reader)).data!.repository.payload;
		assert.equal(
			page1.nodes.map((n: { version: string }) => n.version),
			['v1.2.0', 'v1.1.0'],
		);
		assert.is(page1.pageInfo.hasNextPage, true);
		const page2 = (
			await graphql(fixture('releases'), { owner: 'octo', name: 'lib', count: 2, cursor: page1.pageInfo.endCursor }, reader)
		).data!.repository.payload;
		assert.equal(
			page2.nodes.map((n: { version: string }) => n.version),
			['v1.0.0'],
		);
		assert.is(page2.pageInfo.hasNextPage, false);
	});
}

test.run();
