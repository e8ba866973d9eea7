// Bundled and run by scripts/bundle.mjs: the web interface's assets as JSON, embedded in the bundle.
import { assetSources } from '../src/web/asset-sources';

export function webAssetsJson(root: string): string {
	return JSON.stringify(assetSources(root));
}
