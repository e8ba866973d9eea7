/**
 * Organization migrations (https://docs.github.com/en/rest/migrations/orgs): states, a real .tar.gz archive, signed
 * download URLs, deletion, locks, refusals, and an export that survives a restart.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tar from 'tar';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type TestServer } from './helpers/server';

const test = suite('migrations');
let s: TestServer;
let owner: string;
let work: string;

const MIGRATION_KEYS = [
	'id',
	'node_id',
	'owner',
	'guid',
	'state',
	'lock_repositories',
	'exclude_metadata',
	'exclude_git_data',
	'exclude_attachments',
	'exclude_releases',
	'exclude_owner_projects',
	'org_metadata_only',
	'repositories',
	'url',
	'created_at',
	'updated_at',
];

test.before(async () => {
	s = await startServer();
	work = mkdtempSync(join(tmpdir(), 'gitstead-archive-'));
	for (const login of ['olivia', 'mike', 'carl']) s.user(login);
	s.org('acme', 'olivia');
	s.org('globex', 'carl');
	s.member('acme', 'mike');
	owner = s.fullToken('olivia');
	for (const name of ['app', 'docs']) await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name } });
	await s.request('POST', '/orgs/globex/repos', { token: s.fullToken('carl'), body: { name: 'theirs' } });
	await s.request('POST', '/orgs/acme/teams', {
		token: owner,
		body: { name: 'Core', privacy: 'closed', maintainers: ['mike'], repo_names: ['acme/app'] },
	});
});
test.after(async () => {
	await s.close();
	rmSync(work, { recursive: true, force: true });
});

async function extract(buffer: Buffer, folder: string): Promise<Record<string, any>> {
	const file = join(work, `${folder}.tar.gz`);
	writeFileSync(file, buffer);
	const into = join(work, folder);
	rmSync(into, { recursive: true, force: true });
	await import('node:fs').then((fs) => fs.mkdirSync(into, { recursive: true }));
	const names: string[] = [];
	await tar.x({ file, cwd: into, onReadEntry: (entry) => void names.push(entry.path) });
	return Object.fromEntries(names.map((name) => [name, JSON.parse(readFileSync(join(into, name), 'utf8'))]));
}

test('start – 201 pending, then a job exports: exporting → exported', async () => {
	const res = await s.request('POST', '/orgs/acme/migrations', {
		token: owner,
		body: { repositories: ['acme/app', 'docs'], lock_repositories: true },
	});
	assert.is(res.status, 201);
	assert.equal(Object.keys(res.body).slice(0, MIGRATION_KEYS.length), MIGRATION_KEYS);
	assert.is(res.body.state, 'pending');
	assert.is(res.body.lock_repositories, true);
	assert.is(res.body.exclude_metadata, false, '~> booleans default to false');
	assert.equal(
		res.body.repositories.map((r: any) => r.full_name),
		['acme/app', 'acme/docs'],
	);
	assert.is(res.body.owner.login, 'acme');
	assert.is(res.body.url, `${s.api}/orgs/acme/migrations/${res.body.id}`);
	assert.match(res.body.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
	assert.match(res.body.guid, /^[0-9a-f-]{36}$/);
	assert.is((await s.get(`/orgs/acme/migrations/${res.body.id}/archive`, owner)).status, 404, '~> no archive before the export');
	await s.app.tasks.runDue();
	const status = await s.get(`/orgs/acme/migrations/${res.body.id}`, owner);
	assert.is(status.body.state, 'exported');
	assert.is(status.body.archive_url, `${s.api}/orgs/acme/migrations/${res.body.id}/archive`);
	const repos = await s.get(`/orgs/acme/migrations/${res.body.id}/repositories`, owner);
	assert.equal(
		repos.body.map((r: any) => r.name),
		['app', 'docs'],
	);
	assert.ok(s.app.stores.migrations.isLocked(repos.body[0].id), '~> lock_repositories locks them');
});

test('download – 302 to a signed URL Gitstead serves; the archive holds the organization', async () => {
	const id = (await s.get('/orgs/acme/migrations', owner)).body[0].id;
	const redirect = await s.get(`/orgs/acme/migrations/${id}/archive`, owner);
	assert.is(redirect.status, 302);
	const location = redirect.headers.get('location')!;
	assert.match(location, `${s.api}/migration-archives/`);
	const download = await fetch(location);
	assert.is(download.status, 200);
	assert.is(download.headers.get('content-type'), 'application/x-gzip');
	const archive = await extract(Buffer.from(await download.arrayBuffer()), 'full');
	assert.equal(Object.keys(archive).sort(), [
		'organizations_000001.json',
		'repositories_000001.json',
		'schema.json',
		'teams_000001.json',
		'users_000001.json',
	]);
	assert.is(archive['schema.json'].version, '1.0.1');
	assert.is(archive['organizations_000001.json'][0].login, 'acme');
	assert.equal(archive['organizations_000001.json'][0].members.map((m: any) => m.role).sort(), ['admin', 'member']);
	assert.equal(
		archive['repositories_000001.json'].map((r: any) => r.full_name),
		['acme/app', 'acme/docs'],
	);
	const team = archive['teams_000001.json'][0];
	assert.is(team.name, 'Core');
	assert.equal(
		team.permissions.map((p: any) => [p.repository.split('/').pop(), p.access]),
		[['app', 'pull']],
	);
	assert.equal(team.members.map((m: any) => m.user.split('/').pop()).sort(), ['mike', 'olivia']);
	assert.equal(archive['users_000001.json'].map((u: any) => u.login).sort(), ['mike', 'olivia']);
	const tampered = await fetch(location.replace(/signature=[0-9a-f]{4}/, 'signature=0000'));
	assert.is(tampered.status, 404);
	s.clock.advance(301_000);
	assert.is((await fetch(location)).status, 404, '~> signed URLs expire');
});

test('start – exclude_metadata and org_metadata_only shape the archive; exclude shapes the answer', async () => {
	const lean = await s.request('POST', '/orgs/acme/migrations', {
		token: owner,
		body: { repositories: ['app'], exclude_metadata: true, exclude: ['repositories'] },
	});
	assert.is(lean.status, 201);
	assert.not.ok('repositories' in lean.body, '~> exclude: ["repositories"] leaves them out');
	const meta = await s.request('POST', '/orgs/acme/migrations', {
		token: owner,
		body: { repositories: [], org_metadata_only: true, lock_repositories: true },
	});
	assert.is(meta.status, 201);
	assert.is(meta.body.org_metadata_only, true);
	assert.is(meta.body.lock_repositories, false, '~> other flags are ignored with org_metadata_only');
	await s.app.tasks.runDue();
	const leanArchive = await extract(
		Buffer.from(
			await (
				await fetch((await s.get(`/orgs/acme/migrations/${lean.body.id}/archive`, owner)).headers.get('location')!)
			).arrayBuffer(),
		),
		'lean',
	);
	assert.not.ok('teams_000001.json' in leanArchive);
	assert.not.ok('collaborators' in leanArchive['repositories_000001.json'][0]);
	const metaArchive = await extract(
		Buffer.from(
			await (
				await fetch((await s.get(`/orgs/acme/migrations/${meta.body.id}/archive`, owner)).headers.get('location')!)
			).arrayBuffer(),
		),
		'meta',
	);
	assert.not.ok('repositories_000001.json' in metaArchive);
	assert.ok('teams_000001.json' in metaArchive);
	const list = await s.get('/orgs/acme/migrations?exclude=repositories', owner);
	assert.is(list.body.length, 3);
	assert.ok(list.body.every((m: any) => !('repositories' in m)));
	assert.ok('repositories' in (await s.get('/orgs/acme/migrations', owner)).body[0]);
});

test('start – validation', async () => {
	const cases: Array<[Record<string, unknown>, string]> = [
		[{ repositories: [] }, 'repositories'],
		[{ repositories: ['nope'] }, 'repositories'],
		[{ repositories: ['globex/theirs'] }, 'repositories'],
		[{ repositories: ['app'], org_metadata_only: true }, 'repositories'],
		[{}, 'repositories'],
		[{ repositories: ['app'], exclude: ['teams'] }, 'exclude.0'],
	];
	for (const [body, field] of cases) {
		const res = await s.request('POST', '/orgs/acme/migrations', { token: owner, body });
		assert.is(res.status, 422, `~> ${JSON.stringify(body)}`);
		assert.ok(
			res.body.errors.some((e: any) => e.field === field),
			`~> names ${field}: ${JSON.stringify(res.body.errors)}`,
		);
	}
});

test('archive – delete, then download is 404; unlock', async () => {
	const first = (await s.get('/orgs/acme/migrations', owner)).body.at(-1);
	assert.is((await s.request('DELETE', `/orgs/acme/migrations/${first.id}/archive`, { token: owner })).status, 204);
	assert.is((await s.get(`/orgs/acme/migrations/${first.id}/archive`, owner)).status, 404);
	assert.is((await s.request('DELETE', `/orgs/acme/migrations/${first.id}/archive`, { token: owner })).status, 404);
	assert.is((await s.get(`/orgs/acme/migrations/${first.id}`, owner)).body.state, 'exported');
	const app = s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.organization('acme')!.id, 'app')!;
	assert.is((await s.request('DELETE', `/orgs/acme/migrations/${first.id}/repos/app/lock`, { token: owner })).status, 204);
	assert.not.ok(s.app.stores.migrations.isLocked(app.id));
	assert.is((await s.request('DELETE', `/orgs/acme/migrations/${first.id}/repos/nope/lock`, { token: owner })).status, 404);
	assert.is((await s.get('/orgs/acme/migrations/999999', owner)).status, 404);
});

test('access – owners only; fine-grained and app tokens refused', async () => {
	assert.is((await s.get('/orgs/acme/migrations')).status, 401);
	assert.is((await s.get('/orgs/acme/migrations', s.fullToken('mike'))).status, 403);
	const fine = await s.get(
		'/orgs/acme/migrations',
		s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { organization_administration: 'admin' } }),
	);
	assert.is(fine.status, 403);
	assert.is(fine.body.message, 'Resource not accessible by personal access token');
	const app = await s.get(
		'/orgs/acme/migrations',
		s.token('olivia', { kind: 'installation', org: 'acme', permissions: { organization_administration: 'admin' } }),
	);
	assert.is(app.status, 403);
	assert.is((await s.get('/orgs/acme/migrations', s.token('olivia', { scopes: ['read:org'] }))).status, 403);
});

test('durability – a pending export survives a restart and runs after it', async () => {
	const started = await s.request('POST', '/orgs/acme/migrations', { token: owner, body: { repositories: ['docs'] } });
	const { dataDir, clock } = s;
	await s.close(true);
	s = await startServer({ dataDir, clock });
	owner = s.fullToken('olivia');
	assert.is((await s.get(`/orgs/acme/migrations/${started.body.id}`, owner)).body.state, 'pending');
	await s.app.tasks.runDue();
	assert.is((await s.get(`/orgs/acme/migrations/${started.body.id}`, owner)).body.state, 'exported');
});

test('blob storage – without it, start answers 422 saying so', async () => {
	const bare = await startServer({ configure: (c) => (c.storage.blob_dir = '') });
	bare.user('olivia');
	bare.org('acme', 'olivia');
	const token = bare.fullToken('olivia');
	await bare.request('POST', '/orgs/acme/repos', { token, body: { name: 'app' } });
	const res = await bare.request('POST', '/orgs/acme/migrations', { token, body: { repositories: ['app'] } });
	assert.is(res.status, 422);
	assert.match(res.body.message, 'blob storage provider');
	await bare.close();
});

test.run();
