/**
 * `gitstead routes` and `gitstead openapi`: the route table as a readable table, JSON, or the
 * Markdown table docs/ROUTES.md carries between its routes markers (npm run routes:doc rewrites it;
 * test/routes-table.test.ts fails when docs/ROUTES.md drifts), and the OpenAPI description
 * (src/http/openapi/document.ts). Neither opens a database.
 */
import { parseArgs } from 'node:util';
import type { Route } from '../http/route';
import { TOKEN_KINDS } from '../auth/tokens';
import { buildRoutes, openApiText } from '../server';
import { argsError, CliError } from './output';
import { renderHelp } from './help';

/** One route as `gitstead routes --json` lists it. */
export interface RouteRow {
	method: string;
	path: string;
	/** The documentation page (absolute URL). */
	documentation_url: string;
	/** Fine-grained permissions, X-Accepted-GitHub-Permissions format ("" = none needed). */
	permissions: string;
	/** The same as alternatives of permission sets. */
	permission_sets: Array<Record<string, string>>;
	/** Classic/OAuth scopes accepted (any one). */
	oauth_scopes: string[];
	token_kinds: string[];
	/** Rate-limit resource counted, or "none". */
	rate_limit: string;
	access: string;
	/** The resource guard, or "none". */
	resource: unknown;
}

/** The rows of `routes`, in route-table order. */
export function routeRows(routes: readonly Route[]): RouteRow[] {
	return routes.map((route) => ({
		method: route.method,
		path: route.path,
		documentation_url: route.documentationUrl,
		permissions: route.acceptedPermissionsHeader,
		permission_sets: route.policy as Array<Record<string, string>>,
		oauth_scopes: route.acceptedScopes,
		token_kinds: [...route.tokenKinds],
		rate_limit: route.rateResource ?? 'none',
		access: route.access,
		resource: route.guard ?? 'none',
	}));
}

/** Token kinds in short: "all" for every stored kind, "+ app" for an app's JWT. */
function kinds(row: RouteRow): string {
	const stored = TOKEN_KINDS.filter((kind) => row.token_kinds.includes(kind));
	const app = row.token_kinds.includes('app');
	const text = stored.length === TOKEN_KINDS.length ? 'all' : stored.join(', ');
	return [text, app ? 'app' : ''].filter(Boolean).join(' + ') || 'none';
}

/** The readable table: one aligned line per route. */
export function routesText(rows: RouteRow[]): string {
	const lines = [
		['METHOD', 'PATH', 'PERMISSIONS', 'TOKENS', 'RATE', 'ACCESS'],
		...rows.map((row) => [row.method, row.path, row.permissions || '-', kinds(row), row.rate_limit, row.access]),
	];
	const widths = lines[0].map((_, column) => Math.max(...lines.map((line) => line[column].length)));
	return `${lines.map((line) => line.map((cell, column) => (column === line.length - 1 ? cell : cell.padEnd(widths[column]))).join('  ')).join('\n')}\n`;
}

/** The Markdown table docs/ROUTES.md carries: area (the docs page's section), method, path (linked to GitHub's docs), permissions, tokens, rate, access. */
export function routesMarkdown(rows: RouteRow[]): string {
	const cell = (text: string) => text.replace(/\|/g, '\\|');
	const lines = ['| area | method | path | permissions | tokens | rate | access |', '|---|---|---|---|---|---|---|'];
	for (const row of rows) {
		const area = row.documentation_url.replace(/^.*\/rest\//, '').split('/')[0];
		lines.push(
			`| ${area} | ${row.method} | [\`${row.path}\`](${row.documentation_url}) | ${cell(row.permissions || '–')} | ${kinds(row)} | ${row.rate_limit} | ${row.access} |`,
		);
	}
	return `${lines.join('\n')}\n`;
}

/** What docs/ROUTES.md carries between its markers: a count and the Markdown table, folded. */
export function routesDocSection(rows: RouteRow[]): string {
	return `<details><summary>All ${rows.length} routes: method, path (linked to GitHub's documentation), fine-grained permissions (X-Accepted-GitHub-Permissions format), token kinds, rate-limit category, access</summary>\n\n${routesMarkdown(rows)}\n</details>\n`;
}

/** The markers around the generated table in docs/ROUTES.md. */
export const ROUTES_BEGIN = '<!-- routes:begin (generated from the route table: npm run routes:doc; do not edit by hand) -->';
export const ROUTES_END = '<!-- routes:end -->';

/**
 * The document's text with the table between the markers replaced by `table`.
 * @throws Error when the document has no markers (or they are out of order)
 */
export function withRoutesTable(doc: string, table: string): string {
	const begin = doc.indexOf(ROUTES_BEGIN);
	const end = doc.indexOf(ROUTES_END);
	if (begin < 0 || end < begin) throw new Error(`docs/ROUTES.md lacks the markers ${ROUTES_BEGIN} … ${ROUTES_END}`);
	return `${doc.slice(0, begin + ROUTES_BEGIN.length)}\n${table}${doc.slice(end)}`;
}

/** Parses a command's own flags, answering --help. @returns null when help was printed */
function flags<O extends Record<string, { type: 'boolean' }>>(
	command: string,
	args: string[],
	options: O,
): Record<keyof O, boolean | undefined> | null {
	let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
	try {
		parsed = parseArgs({
			args,
			options: { ...options, help: { type: 'boolean', short: 'h' } },
			allowPositionals: true,
			strict: true,
		}) as typeof parsed;
	} catch (error) {
		throw argsError(error, command);
	}
	if (parsed.values.help) {
		process.stdout.write(renderHelp(command)!);
		return null;
	}
	if (parsed.positionals.length) throw new CliError(`unexpected argument "${parsed.positionals[0]}" (see gitstead ${command} --help)`);
	return parsed.values as unknown as Record<keyof O, boolean | undefined>;
}

/** `gitstead routes [--json | --markdown]`. @throws CliError on unknown options */
export function runRoutes(args: string[]): void {
	const values = flags('routes', args, { json: { type: 'boolean' }, markdown: { type: 'boolean' } });
	if (!values) return;
	if (values.json && values.markdown) throw new CliError('--json and --markdown exclude each other (see gitstead routes --help)');
	const rows = routeRows(buildRoutes());
	process.stdout.write(
		values.json ? `${JSON.stringify({ routes: rows }, null, 2)}\n` : values.markdown ? routesMarkdown(rows) : routesText(rows),
	);
}

/** `gitstead openapi`: the OpenAPI description on stdout. @throws CliError on unknown options */
export function runOpenapi(args: string[]): void {
	if (!flags('openapi', args, {})) return;
	process.stdout.write(openApiText());
}
