/**
 * Build-time entry (scripts/bundle.mjs bundles and runs it): the route table's GitHub operations,
 * extracted from @octokit/openapi in the checkout at `root`, as the JSON the bundle embeds
 * (src/build-info.ts embeddedGithubOperations; src/http/openapi/github.ts GithubCatalogue).
 */
import { routeDeclarations } from '../src/api/routes';
import { descriptionsFolder, extractGithubOperations } from '../src/http/openapi/github';

/** The catalogue's JSON text for the checkout at `root`. */
export function githubOperationsJson(root: string): string {
	return JSON.stringify(extractGithubOperations(routeDeclarations(), descriptionsFolder(root)));
}
