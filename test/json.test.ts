/**
 * JSON made once (src/model/json.ts): a kept object's text is reused by the answer and by the
 * payloads around it, and every text equals what JSON.stringify gives.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { payloadJson, serializeOnce, toJson } from '../src/model/json';

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

test.run();
