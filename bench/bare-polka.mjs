// The baseline of npm run bench: bare polka answering GET and POST with fixed JSON bodies of the
// sizes Gitstead's answers have (BARE_GET_BYTES, BARE_POST_BYTES, …), nothing else. The teams list
// and the issue routes also send Gitstead's own response header set (BARE_GET_HEADERS,
// BARE_ISSUE_HEADERS, BARE_CREATED_HEADERS: JSON objects copied from its answers), so the
// comparison includes the cost of writing them.
import polka from 'polka';

const body = (bytes) => JSON.stringify({ filler: 'x'.repeat(Math.max(0, Number(bytes) - 14)) });
const getBody = body(process.env.BARE_GET_BYTES ?? 20000);
const feedBody = body(process.env.BARE_FEED_BYTES ?? 60000);
const postBody = body(process.env.BARE_POST_BYTES ?? 3000);
const issueBody = body(process.env.BARE_ISSUE_BYTES ?? 2000);
const createdBody = body(process.env.BARE_CREATED_BYTES ?? 2000);
const getHeaders = JSON.parse(process.env.BARE_GET_HEADERS ?? '{}');
const issueHeaders = JSON.parse(process.env.BARE_ISSUE_HEADERS ?? '{}');
const createdHeaders = JSON.parse(process.env.BARE_CREATED_HEADERS ?? '{}');
const send = (res, status, text, headers = {}) => {
	res.writeHead(status, {
		'Content-Type': 'application/json; charset=utf-8',
		...headers,
		'Content-Length': Buffer.byteLength(text),
	});
	res.end(text);
};

const app = polka()
	.get('/orgs/:org/teams', (_req, res) => send(res, 200, getBody, getHeaders))
	.get('/repos/:owner/:repo/events', (req, res) => {
		// A conditional poll that matches: 304 with the ETag, as a feed answers it.
		if (req.headers['if-none-match'] === 'W/"feed"') {
			res.writeHead(304, { ETag: 'W/"feed"' });
			return res.end();
		}
		send(res, 200, feedBody);
	})
	.get('/repos/:owner/:repo/issues/:number', (req, res) => {
		if (req.headers['if-none-match'] === 'W/"issue"') {
			const { 'content-type': _type, ...rest } = issueHeaders;
			res.writeHead(304, { ...rest, ETag: 'W/"issue"' });
			return res.end();
		}
		send(res, 200, issueBody, issueHeaders);
	})
	.post('/repos/:owner/:repo/issues', (req, res) => {
		req.resume();
		req.on('end', () => send(res, 201, createdBody, createdHeaders));
	})
	.post('/orgs/:org/teams', (req, res) => {
		req.resume();
		req.on('end', () => send(res, 201, postBody));
	})
	.listen(0, '127.0.0.1', () => console.error(`listening http://127.0.0.1:${app.server.address().port}`));
