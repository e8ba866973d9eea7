/**
 * auto_init of repository creation (POST /user/repos, POST /orgs/{org}/repos): the first commit on
 * the default branch with README.md ("# <name>\n\n<description>", as GitHub writes it), .gitignore
 * from `gitignore_template` and LICENSE from `license_template`.
 */
import type { App } from '../../app';
import { invalidField } from '../../model/errors';
import { GITIGNORE_TEMPLATES } from '../gitignore/templates';
import type { RepositoryRow, AccountRow } from '../../model/rows';
import { ident } from '../git/writes';
import { licenseText } from '../licenses/templates';
import { callerPerson, initialCommit, type InitialFile } from './service';

/**
 * Checks a gitignore template name (exact, as GitHub's names: 'Node', 'Python').
 * @throws DomainError 422 naming `gitignore_template` for an unknown template
 */
export function checkGitignoreTemplate(name: string | undefined): void {
	if (name !== undefined && !Object.hasOwn(GITIGNORE_TEMPLATES, name)) {
		throw invalidField(
			'Repository',
			'gitignore_template',
			`unknown gitignore template "${name}"; known: ${Object.keys(GITIGNORE_TEMPLATES).join(', ')}`,
		);
	}
}

/**
 * Writes the initial commit of a repository just created, inside its creation's transaction; the
 * commit's author is the user who acts (else the owner), dated now.
 * @param nowMs epoch milliseconds
 * @returns the commit's sha
 */
export function autoInitialize(
	app: App,
	repo: RepositoryRow,
	owner: AccountRow,
	options: { gitignore?: string; license?: string | null },
	nowMs: number,
	now: string,
	actorId: number | null,
): string {
	const files: InitialFile[] = [{ path: 'README.md', content: `# ${repo.name}\n${repo.description ? `\n${repo.description}\n` : ''}` }];
	if (options.gitignore !== undefined) files.push({ path: '.gitignore', content: GITIGNORE_TEMPLATES[options.gitignore] });
	const license = options.license ? licenseText(options.license, new Date(nowMs).getUTCFullYear(), owner.name || owner.login) : undefined;
	if (license !== undefined) files.push({ path: 'LICENSE', content: license });
	const person = ident('Commit', 'author', callerPerson(app, actorId ?? owner.id), nowMs);
	return initialCommit(app, repo, files, person, now, actorId);
}
