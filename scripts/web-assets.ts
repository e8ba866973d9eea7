// Bundled and run by scripts/bundle.mjs: the web interface's assets as JSON, embedded in the bundle.
// The stylesheet is embedded compressed (Brotli at its best quality, and gzip), so the bundle
// carries ~100 KB instead of ~350 KB of CSS text and no request ever waits for compression.
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { assetSources } from '../src/web/asset-sources';

export function webAssetsJson(root: string): string {
	const sources = assetSources(root);
	const css = Buffer.from(sources.css);
	return JSON.stringify({
		...sources,
		css: '',
		cssEncoded: {
			br: brotliCompressSync(css, {
				params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: css.length },
			}).toString('base64'),
			gzip: gzipSync(css, { level: 9 }).toString('base64'),
		},
	});
}
