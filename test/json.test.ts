/**
 * JSON made once (src/model/json.ts): a kept object's text is reused by the answer and by the
 * payloads around it, and every text equals what JSON.stringify gives.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { compactOrigin, expandOrigin, payloadJson, serializeOnce, toJson } from '../src/model/json';

const test = suite('json');

const issue = { id: 1, title: 'Bug "quoted" \u2028', user: { login: 'octo' }, labels: [], body: null, closed_at: undefined };

test('payloadJson equals JSON.stringify, whatever the fields and whether a field was kept', () => {
	const shapes: Array<Record<string, unknown>> = [
		{},
		{ action: 'opened', issue },
		{ action: 'edited', issue, changes: { title: { from: 'Old' } } },
		{ a: undefined, b: () => 1, c: Symbol('s'), d: [1, undefined, 'x'], e: new Date(0), f: null, g: 0, h: '' },
		{ 2: 'integer keys first', action: 'x', 1: 'one' },
		{ nested: { toJSON: () => 'custom' } },
	];
	for (const shape of shapes) assert.is(payloadJson(shape), JSON.stringify(shape), JSON.stringify(shape));
	serializeOnce(issue);
	for (const shape of shapes) assert.is(payloadJson(shape), JSON.stringify(shape), `~> with the issue kept: ${JSON.stringify(shape)}`);
	assert.is(payloadJson({ toJSON: () => 'whole' } as never), JSON.stringify({ toJSON: () => 'whole' }));
});

test('toJson: the kept text for a kept object, JSON.stringify for anything else', () => {
	const kept = { id: 2, title: 'Kept' };
	assert.is(serializeOnce(kept), JSON.stringify(kept));
	assert.is(toJson(kept), JSON.stringify(kept));
	for (const value of [null, 0, 'x', [1, 2], { id: 3 }, true]) assert.is(toJson(value), JSON.stringify(value));
});

test('compactOrigin: the origin written once, given back byte for byte; texts without it, and texts stored before, as they are', () => {
	const origin = 'http://127.0.0.1:8080';
	const texts = [
		JSON.stringify({
			url: `${origin}/api/v3/repos/o/r/issues/1`,
			html_url: `${origin}/o/r/issues/1`,
			body: `see ${origin}/x \u0001\u0002 "q"`,
		}),
		JSON.stringify({ action: 'opened', title: 'no URL here' }),
		JSON.stringify(`${origin}${origin}`),
		JSON.stringify({ a: 'http://127.0.0.1:80800', b: 'http://127.0.0.1:808' }),
		'{}',
	];
	for (const text of texts) {
		const stored = compactOrigin(text, origin);
		assert.is(expandOrigin(stored), text, text);
		if (text.includes(origin)) assert.ok(stored.length < text.length + origin.length + 2, '~> the origin written once');
		else assert.is(stored, text, '~> stored as it is');
	}
	const issue = JSON.stringify({ url: `${origin}/api/v3/x`, user: { url: `${origin}/api/v3/users/u`, html_url: `${origin}/u` } });
	assert.is(compactOrigin(issue, origin).split(origin).length - 1, 1, '~> one occurrence left');
	assert.is(expandOrigin(issue), issue, '~> a text stored before is read as it is');
	assert.is(compactOrigin(issue, ''), issue);
});

test.run();
