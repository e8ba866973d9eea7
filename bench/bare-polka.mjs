// The baseline of npm run bench: bare polka answering GET and POST with fixed JSON bodies of the
// sizes Gitstead's answers have (BARE_GET_BYTES, BARE_POST_BYTES), nothing else.
import polka from 'polka';

const body = (bytes) => JSON.stringify({ filler: 'x'.repeat(Math.max(0, Number(bytes) - 14)) });
const getBody = body(process.env.BARE_GET_BYTES ?? 20000);
const feedBody = body(process.env.BARE_FEED_BYTES ?? 60000);
const postBody = body(process.env.BARE_POST_BYTES ?? 3000);
const send = (res, status, text) => {
	res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
	res.end(text);
};

const app = polka()
	.get('/orgs/:org/teams', (_req, res) => send(res, 200, getBody))
	.get('/repos/:owner/:repo/events', (req, res) => {
		// A conditional poll that matches: 304 with the ETag, as a feed answers it.
		if (req.headers['if-none-match'] === 'W/"feed"') {
			res.writeHead(304, { ETag: 'W/"feed"' });
			return res.end();
		}
		send(res, 200, feedBody);
	})
	.post('/orgs/:org/teams', (req, res) => {
		req.resume();
		req.on('end', () => send(res, 201, postBody));
	})
	.listen(0, '127.0.0.1', () => console.error(`listening http://127.0.0.1:${app.server.address().port}`));
