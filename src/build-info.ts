/**
 * Facts fixed at build time. The bundler (scripts/bundle.mjs) defines GITSTEAD_VERSION and
 * GITSTEAD_SCHEMA_SQL (and the others below) so the single executable needs no files beside it; running from source
 * (tests under tsx) reads them from the checkout instead.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

declare const GITSTEAD_VERSION: string | undefined;
declare const GITSTEAD_SCHEMA_SQL: string | undefined;
declare const GITSTEAD_CONFIG_TEMPLATE: string | undefined;
declare const GITSTEAD_GITHUB_OPERATIONS: string | undefined;

/** The source checkout's root folder (running from source; meaningless in the bundle). */
export const checkout = resolve(__dirname, '..');

/** Gitstead's version, from package.json. */
export const version: string =
	typeof GITSTEAD_VERSION === 'string'
		? GITSTEAD_VERSION
		: (JSON.parse(readFileSync(resolve(checkout, 'package.json'), 'utf8')) as { version: string }).version;

/**
 * The GitHub Enterprise Server release whose REST and GraphQL API Gitstead serves (its answers link
 * to docs.github.com/enterprise-server@3.19). Sent as `X-GitHub-Enterprise-Version` on every API
 * answer and as `installed_version` in GET /meta, as GitHub Enterprise Server does: clients read it
 * to detect an enterprise server and which features its API has (Renovate, Octokit's enterprise
 * plugins). Gitstead's own version is `version`.
 */
export const enterpriseVersion = '3.19.0';

/** The text of schema.sql. */
export function schemaSql(): string {
	return typeof GITSTEAD_SCHEMA_SQL === 'string' ? GITSTEAD_SCHEMA_SQL : readFileSync(resolve(checkout, 'schema.sql'), 'utf8');
}

/** The commented default configuration file, config/gitstead.toml. */
export function configTemplate(): string {
	return typeof GITSTEAD_CONFIG_TEMPLATE === 'string'
		? GITSTEAD_CONFIG_TEMPLATE
		: readFileSync(resolve(checkout, 'config/gitstead.toml'), 'utf8');
}

/**
 * The route table's GitHub operations (src/http/openapi/github.ts GithubCatalogue, as JSON) that
 * the bundler extracted from @octokit/openapi at build time; undefined running from source, where
 * the descriptions are read from node_modules instead.
 */
export function embeddedGithubOperations(): string | undefined {
	return typeof GITSTEAD_GITHUB_OPERATIONS === 'string' ? GITSTEAD_GITHUB_OPERATIONS : undefined;
}
