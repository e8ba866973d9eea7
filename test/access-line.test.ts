/**
 * The access-log line of a request, written through the logfmt logger's preformatted path (the
 * parts that repeat made once per caller and route), is the line the generic path writes from the
 * same fields: same keys, order, quoting and redaction, for every kind of caller.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Principal } from '../src/auth/principal';
import { anonymous } from '../src/auth/principal';
import { logAccess, RequestRecord } from '../src/http/access';
import { createLogger, type Logger } from '../src/log';

/** The line logAccess writes with `log`, its time field left out. */
function lineOf(record: RequestRecord, preformatted: boolean): string {
	let line = '';
	const log: Logger = createLogger('info', (text) => (line += text));
	if (!preformatted) log.infoLogfmt = undefined;
	logAccess(log, record);
	return line.replace(/^time=\S+ /, '');
}

function record(principal: Principal | null, fields: Partial<RequestRecord> = {}): RequestRecord {
	const r = new RequestRecord('6f1c1e2a-3b4c-4d5e-8f90-123456789abc', 'GET', '203.0.113.9', null, null, () => {});
	Object.assign(r, { route: '/repos/{owner}/{repo}/issues/{issue_number}', status: 200, ms: 1.26, bytes: 2890, rate: 'core' }, fields);
	r.principal = principal;
	return r;
}

const user = (login: string, kind: Principal['kind'] = 'classic'): Principal => ({
	...anonymous('203.0.113.9'),
	kind,
	tokenId: 7,
	user: { id: 42, login } as Principal['user'],
	actorId: 42,
});

test('the preformatted line equals the generic one, for each kind of caller and record', () => {
	const classic = user('olivia');
	const app: Principal = { ...anonymous('203.0.113.9'), kind: 'installation', tokenId: 9, installationId: 3, appId: 5 };
	const cases = [
		record(null, { route: 'unmatched', status: 404, rate: null }),
		record(anonymous('203.0.113.9')),
		record(classic),
		record(classic, { completed: false, status: 499 }),
		record(app, { status: 201, ms: 12.04 }),
		record(user('has space "quoted"', 'fine-grained'), { route: 'web:git' }),
		record(user('ghp_abcdefghijklmnopqrstuvwxyz0123456789')),
	];
	for (const r of cases) {
		const fast = lineOf(r, true);
		assert.is(fast, lineOf(r, false));
		assert.ok(fast.startsWith('level=info msg=request request_id=6f1c1e2a-'), fast);
	}
	assert.is(
		lineOf(cases[2], true),
		'level=info msg=request request_id=6f1c1e2a-3b4c-4d5e-8f90-123456789abc ip=203.0.113.9 method=GET ' +
			'route=/repos/{owner}/{repo}/issues/{issue_number} status=200 ms=1.3 bytes=2890 auth=classic user_id=42 login=olivia token_id=7 rate=core\n',
	);
	assert.not.match(lineOf(cases[6], true), /ghp_/);
});

test('a renamed user is logged under the new login (the caller part is made again)', () => {
	const principal = user('olivia');
	assert.match(lineOf(record(principal), true), / login=olivia /);
	principal.user = { ...principal.user!, login: 'olivia-renamed' };
	assert.match(lineOf(record(principal), true), / login=olivia-renamed /);
});

test.run();
