/**
 * Facts fixed at build time. The bundler (scripts/bundle.mjs) defines GITSTEAD_VERSION and
 * GITSTEAD_SCHEMA_SQL so the single executable needs no files beside it; running from source
 * (tests under tsx) reads them from the checkout instead.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

declare const GITSTEAD_VERSION: string | undefined;
declare const GITSTEAD_SCHEMA_SQL: string | undefined;
declare const GITSTEAD_CONFIG_TEMPLATE: string | undefined;

const checkout = resolve(__dirname, '..');

/** Gitstead's version, from package.json. */
export const version: string =
	typeof GITSTEAD_VERSION === 'string'
		? GITSTEAD_VERSION
		: (JSON.parse(readFileSync(resolve(checkout, 'package.json'), 'utf8')) as { version: string }).version;

/** The text of schema.sql. */
export function schemaSql(): string {
	return typeof GITSTEAD_SCHEMA_SQL === 'string'
		? GITSTEAD_SCHEMA_SQL
		: readFileSync(resolve(checkout, 'schema.sql'), 'utf8');
}

/** The commented default configuration file, config/gitstead.toml. */
export function configTemplate(): string {
	return typeof GITSTEAD_CONFIG_TEMPLATE === 'string'
		? GITSTEAD_CONFIG_TEMPLATE
		: readFileSync(resolve(checkout, 'config/gitstead.toml'), 'utf8');
}
