/**
 * A repository's community health files, read from its default branch where GitHub looks for them
 * (the root, `.github/` and `docs/`): README, CODE_OF_CONDUCT, CONTRIBUTING, SECURITY, the issue
 * templates (`.github/ISSUE_TEMPLATE/*.md|*.yml` and their `config.yml`: blank issues and contact
 * links), the pull request templates (PULL_REQUEST_TEMPLATE.md or `.github/PULL_REQUEST_TEMPLATE/`).
 * https://docs.github.com/communities/setting-up-your-project-for-healthy-contributions
 * Reads only: a few tree lookups and the blobs of the files found.
 */
import type { App } from '../../app';
import { license } from '../../model/render';
import { parseCommit } from '../git/objects';
import { lookupPath, treeEntries } from '../contents/paths';
import type { RepositoryRow } from '../repos/store';

/** A file found: its path on the default branch and its text. */
export interface CommunityFile {
	path: string;
	text: string;
}

export interface IssueTemplate {
	/** File name within the templates folder. */
	filename: string;
	name: string;
	about: string;
	title: string;
	body: string;
}

export interface CommunityFiles {
	readme: CommunityFile | null;
	codeOfConduct: CommunityFile | null;
	contributing: CommunityFile | null;
	security: CommunityFile | null;
	/** The single-file template (ISSUE_TEMPLATE.md) when there is no templates folder. */
	issueTemplate: CommunityFile | null;
	issueTemplates: IssueTemplate[];
	/** Each template with its path on the default branch. */
	pullRequestTemplates: Array<{ filename: string; path: string; body: string }>;
	/** `blank_issues_enabled` of the templates' config.yml (GitHub's default: true). */
	blankIssuesEnabled: boolean;
	contactLinks: Array<{ name: string; url: string; about: string }>;
}

const FOLDERS = ['', '.github', 'docs'];
/** At most this many templates are read (GitHub lists the folder's; a bound for hostile trees). */
const MAX_TEMPLATES = 50;
/** Files larger than this are not read as templates or policies. */
const MAX_BYTES = 512 * 1024;

/** What a repository without commits has. */
export const NO_COMMUNITY_FILES: CommunityFiles = {
	readme: null,
	codeOfConduct: null,
	contributing: null,
	security: null,
	issueTemplate: null,
	issueTemplates: [],
	pullRequestTemplates: [],
	blankIssuesEnabled: true,
	contactLinks: [],
};

/**
 * The community files of the repository's default branch (all empty for an empty repository).
 */
export function communityFiles(app: App, repo: RepositoryRow): CommunityFiles {
	const git = app.stores.git;
	const head = git.ref(repo.id, `refs/heads/${repo.default_branch}`);
	if (!head) return NO_COMMUNITY_FILES;
	const commit = git.object(repo.id, head.sha);
	if (!commit) return NO_COMMUNITY_FILES;
	const root = parseCommit(commit.content).tree;
	const text = (sha: string): string | null => {
		const blob = git.object(repo.id, sha);
		return blob && blob.type === 'blob' && blob.content.length <= MAX_BYTES ? blob.content.toString('utf8') : null;
	};
	/** The entries of a folder of the default branch ([] when it is missing). */
	const folder = (path: string) => {
		if (path === '') return treeEntries(app, repo.id, root);
		const found = lookupPath(app, repo.id, root, path);
		return found && !found.root && found.entry.mode === '040000' ? treeEntries(app, repo.id, found.entry.sha) : [];
	};
	/** The first file named `base` (any case, any extension) in the root, .github or docs. */
	const find = (base: RegExp, folders = FOLDERS): CommunityFile | null => {
		for (const dir of folders) {
			for (const entry of folder(dir)) {
				if (entry.mode === '040000' || !base.test(entry.name)) continue;
				const content = text(entry.sha);
				if (content !== null) return { path: dir ? `${dir}/${entry.name}` : entry.name, text: content };
			}
		}
		return null;
	};

	const templates = folder('.github/ISSUE_TEMPLATE');
	const issueTemplates: IssueTemplate[] = [];
	let blankIssuesEnabled = true;
	let contactLinks: CommunityFiles['contactLinks'] = [];
	for (const entry of templates.slice(0, MAX_TEMPLATES)) {
		if (entry.mode === '040000') continue;
		const content = text(entry.sha);
		if (content === null) continue;
		if (/^config\.ya?ml$/i.test(entry.name)) {
			const config = yamlObject(content);
			if (config.blank_issues_enabled === false) blankIssuesEnabled = false;
			if (Array.isArray(config.contact_links))
				contactLinks = config.contact_links
					.filter((l): l is Record<string, unknown> => typeof l === 'object' && l !== null)
					.map((l) => ({ name: String(l.name ?? ''), url: String(l.url ?? ''), about: String(l.about ?? '') }));
			continue;
		}
		const template = issueTemplateOf(entry.name, content);
		if (template) issueTemplates.push(template);
	}

	const pullRequestTemplates: CommunityFiles['pullRequestTemplates'] = [];
	const single = find(/^pull_request_template(\.md)?$/i);
	if (single) pullRequestTemplates.push({ filename: single.path.split('/').pop() ?? single.path, path: single.path, body: single.text });
	for (const entry of folder('.github/PULL_REQUEST_TEMPLATE').slice(0, MAX_TEMPLATES)) {
		const content = entry.mode === '040000' ? null : text(entry.sha);
		if (content !== null)
			pullRequestTemplates.push({ filename: entry.name, path: `.github/PULL_REQUEST_TEMPLATE/${entry.name}`, body: content });
	}

	return {
		readme: find(/^readme(\.[a-z0-9]+)?$/i),
		codeOfConduct: find(/^code[_-]of[_-]conduct(\.[a-z0-9]+)?$/i),
		contributing: find(/^contributing(\.[a-z0-9]+)?$/i),
		security: find(/^security(\.[a-z0-9]+)?$/i),
		issueTemplate: find(/^issue_template(\.md)?$/i),
		issueTemplates,
		pullRequestTemplates,
		blankIssuesEnabled,
		contactLinks,
	};
}

/** The Contributor Covenant, the code of conduct GitHub recognises most; any other is "Other". */
export function codeOfConductKind(file: CommunityFile): { key: string; name: string } {
	return /contributor covenant/i.test(file.text)
		? { key: 'contributor_covenant', name: 'Contributor Covenant' }
		: { key: 'other', name: 'Other' };
}

/** What GET …/community/profile reports of a repository: its community files and its health. */
export interface CommunityProfile {
	files: CommunityFiles;
	/** The code of conduct found, with the kind GitHub recognises in it. */
	codeOfConduct: (CommunityFile & { key: string; name: string }) | null;
	/** The single-file issue template, else the first template of the templates folder. */
	issueTemplate: CommunityFile | null;
	/** The first pull request template. */
	pullRequestTemplate: CommunityFile | null;
	/**
	 * 0 to 100: the share of GitHub's recommended community items present (description, README,
	 * code of conduct, contributing guide, license, issue template, pull request template), rounded.
	 */
	healthPercentage: number;
}

/** The community profile of the repository's default branch (GitHub's community profile metrics). */
export function communityProfile(app: App, repo: RepositoryRow): CommunityProfile {
	const files = communityFiles(app, repo);
	const conduct = files.codeOfConduct;
	const [firstTemplate] = files.issueTemplates;
	const issueTemplate =
		files.issueTemplate ??
		(firstTemplate ? { path: `.github/ISSUE_TEMPLATE/${firstTemplate.filename}`, text: firstTemplate.body } : null);
	const [prTemplate] = files.pullRequestTemplates;
	const pullRequestTemplate = prTemplate ? { path: prTemplate.path, text: prTemplate.body } : null;
	const present = [
		Boolean(repo.description),
		files.readme !== null,
		conduct !== null,
		files.contributing !== null,
		license(app.urls, repo.license_key) !== null,
		issueTemplate !== null,
		pullRequestTemplate !== null,
	];
	return {
		files,
		codeOfConduct: conduct && { ...conduct, ...codeOfConductKind(conduct) },
		issueTemplate,
		pullRequestTemplate,
		healthPercentage: Math.round((100 * present.filter(Boolean).length) / present.length),
	};
}

/** A YAML document as an object ({} when it is not one or does not parse). */
function yamlObject(source: string): Record<string, unknown> {
	try {
		// yaml is loaded at the first template read, not while the server starts.
		const value = (require('yaml') as typeof import('yaml')).parse(source, { maxAliasCount: 100 }) as unknown;
		return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
	} catch {
		return {};
	}
}

/**
 * An issue template: a Markdown file with YAML front matter (name, about, title) or an issue form
 * (.yml: name, description, title; its body is the form's fields, answered here as "").
 */
function issueTemplateOf(filename: string, content: string): IssueTemplate | null {
	if (/\.ya?ml$/i.test(filename)) {
		const form = yamlObject(content);
		if (typeof form.name !== 'string') return null;
		return { filename, name: form.name, about: String(form.description ?? ''), title: String(form.title ?? ''), body: '' };
	}
	if (!/\.md$/i.test(filename)) return null;
	const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(content);
	if (!m) return null;
	const front = yamlObject(m[1]);
	if (typeof front.name !== 'string') return null;
	return { filename, name: front.name, about: String(front.about ?? ''), title: String(front.title ?? ''), body: m[2] };
}
