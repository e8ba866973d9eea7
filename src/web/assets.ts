/**
 * The web interface's static files, served at content-hashed paths (`/_assets/<name>-<hash>.<ext>`)
 * with `Cache-Control: immutable`, gzip- or Brotli-compressed when the browser accepts it. The
 * bundle embeds them (scripts/bundle.mjs defines GITSTEAD_WEB_ASSETS), the stylesheet already
 * compressed at build time; running from source they are assembled from the packages on first use
 * (src/web/asset-sources.ts) and compressed once on first request.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompressSync, brotliDecompressSync, constants, gzipSync } from 'node:zlib';
import { checkout } from '../build-info';
import { assetSources, type AssetSources } from './asset-sources';

declare const GITSTEAD_WEB_ASSETS: string | undefined;

/** URL prefix of the assets (a login never starts with `_`). */
export const ASSETS_PREFIX = '/_assets/';

interface Asset {
	type: string;
	body: Buffer;
	etag: string;
	gzip?: Buffer;
	brotli?: Buffer;
}

let sources: AssetSources | undefined;
let served: Map<string, Asset> | undefined;
let paths: { css: string; js: string } | undefined;

/** The assets' sources (CSS, script, icons), read once. */
export function webAssets(): AssetSources {
	sources ??= typeof GITSTEAD_WEB_ASSETS === 'string' ? (JSON.parse(GITSTEAD_WEB_ASSETS) as AssetSources) : assetSources(checkout);
	return sources;
}

function build(): void {
	const { css, cssEncoded, js } = webAssets();
	served = new Map();
	const add = (name: string, ext: string, type: string, body: Buffer, encoded?: Pick<Asset, 'brotli' | 'gzip'>) => {
		const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
		const path = `${ASSETS_PREFIX}${name}-${hash}.${ext}`;
		served!.set(path, { type, body, etag: `"${hash}"`, ...encoded });
		return path;
	};
	// The bundle's stylesheet comes compressed (scripts/web-assets.ts): its text is the Brotli form unpacked.
	const brotli = cssEncoded ? Buffer.from(cssEncoded.br, 'base64') : undefined;
	const cssBody = brotli ? brotliDecompressSync(brotli) : Buffer.from(css);
	paths = {
		css: add(
			'gitstead',
			'css',
			'text/css; charset=utf-8',
			cssBody,
			cssEncoded && { brotli, gzip: Buffer.from(cssEncoded.gzip, 'base64') },
		),
		js: add('gitstead', 'js', 'text/javascript; charset=utf-8', Buffer.from(js)),
	};
}

/** The hashed paths of the stylesheet and the script. */
export function assetPaths(): { css: string; js: string } {
	if (!paths) build();
	return paths!;
}

/**
 * Answers a GET or HEAD of an asset path: 200 with immutable caching (compressed when accepted), 304
 * for a matching If-None-Match; false when the path names no asset.
 */
export function serveAsset(req: IncomingMessage, res: ServerResponse, path: string, headers: Record<string, string>): boolean {
	if (!served) build();
	const asset = served!.get(path);
	if (!asset) return false;
	const common = { ...headers, ETag: asset.etag, 'Cache-Control': 'public, max-age=31536000, immutable', Vary: 'Accept-Encoding' };
	if (req.headers['if-none-match'] === asset.etag) {
		res.writeHead(304, common);
		res.end();
		return true;
	}
	const accept = String(req.headers['accept-encoding'] ?? '');
	let body = asset.body;
	let encoding: string | undefined;
	if (/\bbr\b/.test(accept)) {
		asset.brotli ??= brotliCompressSync(asset.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } });
		body = asset.brotli;
		encoding = 'br';
	} else if (/\bgzip\b/.test(accept)) {
		asset.gzip ??= gzipSync(asset.body, { level: 9 });
		body = asset.gzip;
		encoding = 'gzip';
	}
	res.writeHead(200, {
		...common,
		'Content-Type': asset.type,
		'Content-Length': String(body.length),
		...(encoding ? { 'Content-Encoding': encoding } : {}),
	});
	res.end(req.method === 'HEAD' ? undefined : body);
	return true;
}
