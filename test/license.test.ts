/**
 * GET /repos/{owner}/{repo}/license: the license file of the default branch (or `ref`) as the
 * contents API answers a file, with `license` naming the license GitHub would detect ('other' when
 * unrecognised); 404 without one; the raw media type answers the file's bytes.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type TestServer } from './helpers/server';

const test = suite('license');
let s: TestServer;
let olivia: string;

const MIT = `MIT License

Copyright (c) 2026 Olivia

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction.`;

async function write(repo: string, path: string, text: string, branch?: string) {
	const res = await s.request('PUT', `/repos/${repo}/contents/${path}`, {
		token: olivia,
		body: { message: `Add ${path}`, content: Buffer.from(text).toString('base64'), ...(branch ? { branch } : {}) },
	});
	assert.is(res.status, 201, JSON.stringify(res.body));
}

test.before(async () => {
	s = await startServer();
	s.user('olivia');
	olivia = s.fullToken('olivia');
	for (const name of ['mit', 'custom', 'none'])
		await s.request('POST', '/user/repos', { token: olivia, body: { name, auto_init: true } });
	await write('olivia/mit', 'COPYING', 'Some other words');
	await write('olivia/mit', 'LICENSE', MIT);
	await write('olivia/custom', 'COPYING.txt', 'You may do as you like, except on Tuesdays.');
});
test.after(() => s.close());

test('a recognised license: the LICENSE file before COPYING, with its license', async () => {
	const res = await s.get('/repos/olivia/mit/license', olivia);
	assert.is(res.status, 200, JSON.stringify(res.body));
	assert.is(res.body.name, 'LICENSE');
	assert.is(res.body.path, 'LICENSE');
	assert.is(res.body.type, 'file');
	assert.is(res.body.encoding, 'base64');
	assert.is(Buffer.from(res.body.content, 'base64').toString('utf8'), MIT);
	assert.is(res.body.license.key, 'mit');
	assert.is(res.body.license.spdx_id, 'MIT');
	assert.is(res.body.license.name, 'MIT License');
	const raw = await s.get('/repos/olivia/mit/license', olivia, { accept: 'application/vnd.github.raw' });
	assert.is(raw.status, 200);
	assert.is(raw.text, MIT);
});

test("an unrecognised license is 'other'; none is 404", async () => {
	const res = await s.get('/repos/olivia/custom/license');
	assert.is(res.status, 200);
	assert.is(res.body.path, 'COPYING.txt');
	assert.equal(
		{ ...res.body.license, node_id: undefined },
		{
			key: 'other',
			name: 'Other',
			spdx_id: 'NOASSERTION',
			url: null,
			node_id: undefined,
		},
	);
	assert.is((await s.get('/repos/olivia/none/license')).status, 404);
});

test.run();
