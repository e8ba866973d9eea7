/**
 * `gitstead admin seed-demo`: plays the demo script (./data.ts) into a data folder. What the REST
 * API can do goes through the API itself — a temporary request listener on 127.0.0.1 (port 0) in
 * this process, called with classic tokens of each persona — so events, feeds, notifications,
 * counters and every rule come out exactly as a client would produce them. What has no route goes
 * through the same admin services the other admin commands use: users and their profiles, the
 * enterprise, organizations and memberships, tokens, security advisories, workflow runs and
 * runners.
 *
 * Safety: a folder that already holds the demo enterprise is left alone ("already seeded"); a
 * folder holding other accounts or repositories is refused unless `force` (the serve-created
 * `admin` alone does not count). Tokens used only for seeding are revoked at the end; the
 * personas' tokens (./data.ts PERSONAS) are returned, shown once. A seed that stopped part-way
 * (an API call refused) leaves its seeding tokens unrevoked: a later run sees them and says the
 * demo is incomplete instead of "already seeded".
 */
import type { App } from '../../app';
import { importRuns } from '../../api/actions/import';
import { importAdvisories } from '../../api/dependabot/advisories';
import { refreshAllAlerts } from '../../api/dependency-graph/service';
import { createEnterprise } from '../../api/enterprises/service';
import { addMember } from '../../api/members/service';
import { createOrganization } from '../../api/orgs/service';
import { registerRunner } from '../../api/runner-groups/service';
import { createUser } from '../../api/users/service';
import type { AccountRow } from '../../model/rows';
import { ALL_TOP_LEVEL_SCOPES } from '../../auth/scopes';
import { listen } from '../../server';
import { epochSeconds, isoSeconds } from '../../time';
import { CliError } from '../output';
import * as demo from './data';

/** One persona's sign-in: login, what it plays, and its classic token (shown once). */
export interface Persona {
	login: string;
	role: string;
	token: string;
}

export interface SeedResult {
	/** The folder already held the demo: nothing was written, personas and counts are empty. */
	alreadySeeded: boolean;
	personas: Persona[];
	/** What was created, by kind (users, repositories, commits, issues, …). */
	counts: Record<string, number>;
	/** Wall-clock milliseconds the seeding took. */
	ms: number;
	/** API requests made. */
	requests: number;
}

const DAY = 86_400_000;
/** The note of the tokens used only while seeding (revoked at the end). */
const SEEDING_NOTE = 'seed-demo (revoked after seeding)';
const MINUTE = 60_000;

/** An answer of the API that was not 2xx: the seed stops, naming the request. */
class SeedError extends Error {}

/**
 * Seeds the demo enterprise into `app`'s database.
 * @param options.force seed beside other data (logins the demo uses must still be free)
 * @param options.progress called with one line per stage (the CLI prints them on a terminal)
 * @throws CliError when the folder holds other data and force is off; Error naming the request
 *   when an API call is refused (the folder then holds a partial demo: start over in an empty one)
 */
export async function seedDemo(app: App, options: { force?: boolean; progress?: (line: string) => void } = {}): Promise<SeedResult> {
	const started = Date.now();
	const progress = options.progress ?? (() => {});
	const seeder = new Seeder(app, progress);
	// The check and the first writes (people, tokens, the enterprise) in one transaction: of two
	// runs started together on one folder, the second waits, then finds the demo begun.
	progress('people, enterprise and organizations');
	const fresh = app.transaction(() => {
		if (app.stores.enterprises.bySlug(demo.ENTERPRISE.slug)) {
			if (app.tokens.list().some((token) => token.note === SEEDING_NOTE && token.revoked_at === null)) {
				throw new CliError(
					`the data folder ${app.config.storage.data_dir} holds an incomplete demo (an earlier seed-demo stopped part-way, or is still running); start over in an empty folder`,
				);
			}
			return false;
		}
		const other = app.db
			.prepare(
				"SELECT (SELECT count(*) FROM accounts WHERE type IN ('User', 'Organization') AND login <> 'admin') + (SELECT count(*) FROM repositories)",
			)
			.pluck()
			.get() as number;
		if (other > 0 && !options.force) {
			throw new CliError(
				`the data folder ${app.config.storage.data_dir} already holds accounts or repositories; seed-demo fills a fresh folder (use --force to add the demo beside them)`,
			);
		}
		seeder.bootstrap();
		return true;
	});
	if (!fresh) return { alreadySeeded: true, personas: [], counts: {}, ms: Date.now() - started, requests: 0 };
	const savedUrls = app.urls;
	const server = await listen(app, '127.0.0.1', 0);
	// The listener's address is temporary: URLs written while seeding use the configured origin.
	app.urls = savedUrls;
	try {
		await seeder.run(`${server.address}/api/v3`);
	} catch (error) {
		if (error instanceof SeedError)
			throw new CliError(`${error.message} (the folder now holds an incomplete demo; start over in an empty folder)`);
		throw error;
	} finally {
		await server.close();
		app.urls = savedUrls;
	}
	return {
		alreadySeeded: false,
		personas: seeder.personas(),
		counts: seeder.counts,
		ms: Date.now() - started,
		requests: seeder.requests,
	};
}

type Json = Record<string, unknown>;

class Seeder {
	readonly counts: Record<string, number> = {};
	/** API requests made so far. */
	requests = 0;
	private base = '';
	private readonly now: number;
	private enterpriseId = 0;
	private readonly tokens = new Map<string, { id: number; token: string }>();
	private readonly users = new Map<string, AccountRow>();
	/** owner/name → branch → head sha */
	private readonly heads = new Map<string, Map<string, string>>();

	constructor(
		private readonly app: App,
		private readonly progress: (line: string) => void,
	) {
		this.now = app.clock();
	}

	private count(kind: string, n = 1): void {
		this.counts[kind] = (this.counts[kind] ?? 0) + n;
	}

	private iso(daysAgo: number): string {
		return isoSeconds(this.now - daysAgo * DAY);
	}

	/** Calls the API as `login`. @throws SeedError for any answer but 2xx */
	private async api<T = Json>(login: string, method: string, path: string, body?: unknown): Promise<T> {
		const token = this.tokens.get(login);
		if (!token) throw new SeedError(`seed-demo: no token for ${login}`);
		this.requests++;
		const response = await fetch(`${this.base}${path}`, {
			method,
			headers: {
				authorization: `Bearer ${token.token}`,
				accept: 'application/vnd.github+json',
				'user-agent': 'gitstead-seed-demo',
				...(body === undefined ? {} : { 'content-type': 'application/json' }),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		if (!response.ok)
			throw new SeedError(`seed-demo: ${method} ${path} as ${login} answered ${response.status}: ${text.slice(0, 300)}`);
		return (text ? JSON.parse(text) : {}) as T;
	}

	private user(login: string): AccountRow {
		const row = this.users.get(login);
		if (!row) throw new SeedError(`seed-demo: the script names an unknown user "${login}"`);
		return row;
	}

	personas(): Persona[] {
		return demo.PERSONAS.map(({ login, role }) => ({ login, role, token: this.tokens.get(login)!.token }));
	}

	async run(base: string): Promise<void> {
		this.base = base;
		await this.organizations();
		this.progress('repositories and teams');
		for (const repo of demo.REPOS) await this.createRepository(repo);
		for (const org of demo.ORGS) await this.teams(org);
		for (const repo of demo.REPOS) await this.collaborators(repo);
		this.progress('git history, branches, tags');
		for (const repo of demo.REPOS) await this.history(repo);
		this.progress('issues, pull requests, releases');
		for (const repo of demo.REPOS) await this.conversation(repo);
		this.progress('stars, watchers, deployments, workflow runs');
		for (const repo of demo.REPOS) await this.social(repo);
		for (const repo of demo.REPOS) await this.deployments(repo);
		for (const repo of demo.REPOS) this.runs(repo);
		this.progress('advisories, dependency snapshots, dependabot alerts');
		await this.security();
		this.progress('custom properties, budgets, runners, gists, global webhook');
		await this.administration();
		await this.gists();
		this.finish();
	}

	/** Users with their profiles and seeding tokens, and the enterprise (inside the caller's transaction). */
	bootstrap(): void {
		const now = isoSeconds(this.now);
		for (const person of demo.USERS) {
			const row = createUser(this.app, {
				login: person.login,
				name: person.name,
				email: person.email,
				emailPublic: true,
				siteAdmin: person.siteAdmin,
			});
			this.app.stores.accounts.updateProfile(
				row.id,
				{ company: person.company, blog: person.blog ?? null, location: person.location, bio: person.bio },
				now,
			);
			this.users.set(person.login, this.app.stores.accounts.byId(row.id)!);
			const persona = demo.PERSONAS.some((p) => p.login === person.login);
			this.tokens.set(
				person.login,
				this.app.tokens.create({
					kind: 'classic',
					userId: row.id,
					createdById: row.id,
					scopes: [...ALL_TOP_LEVEL_SCOPES],
					now: epochSeconds(this.now),
					note: persona ? 'seed-demo persona' : SEEDING_NOTE,
				}),
			);
		}
		this.count('users', demo.USERS.length);
		const owner = this.user(demo.PERSONAS[0].login);
		this.enterpriseId = createEnterprise(this.app, { slug: demo.ENTERPRISE.slug, name: demo.ENTERPRISE.name, ownerId: owner.id }).id;
		this.count('enterprises');
	}

	private async organizations(): Promise<void> {
		const now = isoSeconds(this.now);
		for (const org of demo.ORGS) {
			const [first, ...others] = org.owners;
			const row = createOrganization(this.app, {
				login: org.login,
				ownerId: this.user(first).id,
				enterpriseId: this.enterpriseId,
				name: org.name,
			});
			this.app.transaction(() => {
				for (const login of others) addMember(this.app, row, this.user(login), 'admin', now, this.user(first).id);
				for (const login of org.members) addMember(this.app, row, this.user(login), 'member', now, this.user(first).id);
			});
			await this.api(first, 'PATCH', `/orgs/${org.login}`, {
				description: org.description,
				location: org.location,
				blog: org.blog,
				email: `hello@${org.login}.example`,
			});
			for (const login of [...org.owners, ...org.members].slice(0, 4))
				await this.api(login, 'PUT', `/orgs/${org.login}/public_members/${login}`);
			this.count('organizations');
		}
	}

	private ownerOf(repo: demo.DemoRepo): string {
		return demo.ORGS.find((org) => org.login === repo.owner)?.owners[0] ?? repo.owner;
	}

	private async createRepository(repo: demo.DemoRepo): Promise<void> {
		const admin = this.ownerOf(repo);
		const body = {
			name: repo.name,
			description: repo.description,
			visibility: repo.visibility,
			homepage: repo.homepage,
			has_wiki: false,
		};
		if (demo.ORGS.some((org) => org.login === repo.owner)) await this.api(admin, 'POST', `/orgs/${repo.owner}/repos`, body);
		else await this.api(admin, 'POST', '/user/repos', body);
		await this.api(admin, 'PUT', `/repos/${repo.owner}/${repo.name}/topics`, { names: repo.topics });
		this.count('repositories');
	}

	private async teams(org: demo.DemoOrg): Promise<void> {
		const owner = org.owners[0];
		const ids = new Map<string, { id: number; slug: string }>();
		for (const team of org.teams) {
			const parent = team.parent ? ids.get(team.parent) : undefined;
			const created = await this.api<{ id: number; slug: string }>(owner, 'POST', `/orgs/${org.login}/teams`, {
				name: team.name,
				description: team.description,
				privacy: team.parent ? 'closed' : team.privacy,
				...(parent ? { parent_team_id: parent.id } : {}),
			});
			ids.set(team.name, created);
			for (const login of team.maintainers)
				await this.api(owner, 'PUT', `/orgs/${org.login}/teams/${created.slug}/memberships/${login}`, { role: 'maintainer' });
			for (const login of team.members)
				await this.api(owner, 'PUT', `/orgs/${org.login}/teams/${created.slug}/memberships/${login}`, { role: 'member' });
			// The API makes the creating owner a maintainer (as GitHub does); the script says who is in.
			if (![...team.maintainers, ...team.members].includes(owner))
				await this.api(owner, 'DELETE', `/orgs/${org.login}/teams/${created.slug}/memberships/${owner}`);
			for (const [name, permission] of Object.entries(team.repos)) {
				await this.api(owner, 'PUT', `/orgs/${org.login}/teams/${created.slug}/repos/${org.login}/${name}`, { permission });
			}
			this.count('teams');
		}
	}

	private async collaborators(repo: demo.DemoRepo): Promise<void> {
		for (const [login, permission] of Object.entries(repo.collaborators ?? {})) {
			const invitation = await this.api<{ id: number }>(
				this.ownerOf(repo),
				'PUT',
				`/repos/${repo.owner}/${repo.name}/collaborators/${login}`,
				{ permission },
			);
			await this.api(login, 'PATCH', `/user/repository_invitations/${invitation.id}`);
			this.count('outside_collaborators');
		}
	}

	private person(login: string, daysAgo: number) {
		const user = this.user(login);
		return { name: user.name ?? login, email: user.email ?? `${login}@users.noreply.example`, date: this.iso(daysAgo) };
	}

	/**
	 * One commit on `branch` as its author (the org owner when the author may not push): a tree
	 * over the branch head's, the commit, and the branch moved (created when new).
	 */
	private async commit(repo: demo.DemoRepo, branch: string, commit: demo.DemoCommit): Promise<string> {
		const path = `/repos/${repo.owner}/${repo.name}`;
		const heads = this.heads.get(`${repo.owner}/${repo.name}`)!;
		const parent = heads.get(branch);
		const pusher = commit.author;
		const tree = Object.entries(commit.files).map(([file, content]) =>
			content === null
				? { path: file, mode: '100644', type: 'blob', sha: null }
				: { path: file, mode: '100644', type: 'blob', content },
		);
		const parentTree = parent
			? (await this.api<{ tree: { sha: string } }>(pusher, 'GET', `${path}/git/commits/${parent}`)).tree.sha
			: undefined;
		const madeTree = await this.api<{ sha: string }>(pusher, 'POST', `${path}/git/trees`, {
			tree,
			...(parentTree ? { base_tree: parentTree } : {}),
		});
		const person = this.person(commit.author, commit.daysAgo);
		const made = await this.api<{ sha: string }>(pusher, 'POST', `${path}/git/commits`, {
			message: commit.message,
			tree: madeTree.sha,
			parents: parent ? [parent] : [],
			author: person,
			committer: person,
		});
		if (parent) await this.api(pusher, 'PATCH', `${path}/git/refs/heads/${branch}`, { sha: made.sha });
		else await this.api(pusher, 'POST', `${path}/git/refs`, { ref: `refs/heads/${branch}`, sha: made.sha });
		heads.set(branch, made.sha);
		this.count('commits');
		return made.sha;
	}

	/** main's history: the first file through the contents API (an empty repository has no git database yet), then git data commits. */
	private async history(repo: demo.DemoRepo): Promise<void> {
		const path = `/repos/${repo.owner}/${repo.name}`;
		const heads = new Map<string, string>();
		this.heads.set(`${repo.owner}/${repo.name}`, heads);
		const [first, ...rest] = repo.commits;
		const [[file, content], ...otherFiles] = Object.entries(first.files);
		const person = this.person(first.author, first.daysAgo);
		const written = await this.api<{ commit: { sha: string } }>(first.author, 'PUT', `${path}/contents/${file}`, {
			message: first.message,
			content: Buffer.from(content ?? '').toString('base64'),
			author: person,
			committer: person,
		});
		heads.set('main', written.commit.sha);
		this.count('commits');
		const shas = [written.commit.sha];
		if (otherFiles.length) {
			// The rest of the first commit's files: one more commit with the same message would look
			// odd, so they arrive as a follow-up commit named after them.
			shas[0] = await this.commit(repo, 'main', {
				...first,
				message: `Add ${otherFiles.map(([name]) => name).join(', ')}`,
				files: Object.fromEntries(otherFiles),
			});
		}
		for (const commit of rest) shas.push(await this.commit(repo, 'main', commit));
		for (const branch of repo.branches ?? []) {
			await this.api(this.ownerOf(repo), 'POST', `${path}/git/refs`, { ref: `refs/heads/${branch}`, sha: heads.get('main') });
			heads.set(branch, heads.get('main')!);
			this.count('branches');
		}
		for (const [tag, index] of Object.entries(repo.tags ?? {})) {
			const target = shas[Math.min(index, shas.length - 1)];
			const author = this.person(this.ownerOf(repo), repo.commits[Math.min(index, repo.commits.length - 1)].daysAgo);
			const object = await this.api<{ sha: string }>(this.ownerOf(repo), 'POST', `${path}/git/tags`, {
				tag,
				message: `Release ${tag}`,
				object: target,
				type: 'commit',
				tagger: author,
			});
			await this.api(this.ownerOf(repo), 'POST', `${path}/git/refs`, { ref: `refs/tags/${tag}`, sha: object.sha });
			this.count('tags');
		}
		this.count('branches');
	}

	/** Labels, milestones, issues with comments and reactions, pull requests with reviews, protection, releases. */
	private async conversation(repo: demo.DemoRepo): Promise<void> {
		const path = `/repos/${repo.owner}/${repo.name}`;
		const triager = this.ownerOf(repo);
		for (const label of repo.labels ?? []) {
			await this.api(triager, 'POST', `${path}/labels`, label);
			this.count('labels');
		}
		const milestones = new Map<string, number>();
		for (const milestone of repo.milestones ?? []) {
			const created = await this.api<{ number: number }>(triager, 'POST', `${path}/milestones`, {
				title: milestone.title,
				description: milestone.description,
				due_on: isoSeconds(this.now + milestone.dueInDays * DAY),
				state: milestone.closed ? 'closed' : 'open',
			});
			milestones.set(milestone.title, created.number);
			this.count('milestones');
		}
		for (const issue of repo.issues ?? []) {
			const created = await this.api<{ number: number }>(issue.author, 'POST', `${path}/issues`, {
				title: issue.title,
				body: issue.body,
			});
			await this.triage(repo, created.number, issue, milestones);
			for (const comment of issue.comments ?? []) await this.comment(repo, created.number, comment);
			await this.react(`${path}/issues/${created.number}/reactions`, issue.reactions);
			if (issue.closed)
				await this.api(issue.closed.by, 'PATCH', `${path}/issues/${created.number}`, {
					state: 'closed',
					state_reason: issue.closed.reason,
				});
			this.count('issues');
		}
		if (repo.protectMain) {
			await this.api(triager, 'PUT', `${path}/branches/main/protection`, {
				required_status_checks: null,
				enforce_admins: false,
				required_pull_request_reviews: { required_approving_review_count: 1, dismiss_stale_reviews: true },
				restrictions: null,
			});
			this.count('protected_branches');
		}
		for (const pull of repo.pulls ?? []) await this.pullRequest(repo, pull, milestones);
		for (const release of repo.releases ?? []) {
			await this.api(release.author, 'POST', `${path}/releases`, {
				tag_name: release.tag,
				target_commitish: 'main',
				name: release.name,
				body: release.body,
				prerelease: release.prerelease ?? false,
				draft: release.draft ?? false,
			});
			this.count('releases');
		}
	}

	private async triage(
		repo: demo.DemoRepo,
		number: number,
		issue: { labels?: string[]; assignees?: string[]; milestone?: string },
		milestones: Map<string, number>,
	): Promise<void> {
		const change: Json = {};
		if (issue.labels?.length) change.labels = issue.labels;
		if (issue.assignees?.length) change.assignees = issue.assignees;
		if (issue.milestone) change.milestone = milestones.get(issue.milestone);
		if (Object.keys(change).length)
			await this.api(this.ownerOf(repo), 'PATCH', `/repos/${repo.owner}/${repo.name}/issues/${number}`, change);
	}

	private async comment(repo: demo.DemoRepo, number: number, comment: demo.DemoComment): Promise<void> {
		const path = `/repos/${repo.owner}/${repo.name}`;
		const created = await this.api<{ id: number }>(comment.author, 'POST', `${path}/issues/${number}/comments`, { body: comment.body });
		await this.react(`${path}/issues/comments/${created.id}/reactions`, comment.reactions);
		this.count('comments');
	}

	private async react(path: string, reactions: Record<string, string[]> | undefined): Promise<void> {
		for (const [content, logins] of Object.entries(reactions ?? {})) {
			for (const login of logins) {
				await this.api(login, 'POST', path, { content });
				this.count('reactions');
			}
		}
	}

	private async pullRequest(repo: demo.DemoRepo, pull: demo.DemoPull, milestones: Map<string, number>): Promise<void> {
		const path = `/repos/${repo.owner}/${repo.name}`;
		const heads = this.heads.get(`${repo.owner}/${repo.name}`)!;
		await this.api(pull.author, 'POST', `${path}/git/refs`, { ref: `refs/heads/${pull.branch}`, sha: heads.get('main') });
		heads.set(pull.branch, heads.get('main')!);
		this.count('branches');
		for (const commit of pull.commits) await this.commit(repo, pull.branch, commit);
		const created = await this.api<{ number: number }>(pull.author, 'POST', `${path}/pulls`, {
			title: pull.title,
			head: pull.branch,
			base: 'main',
			body: pull.body,
		});
		await this.triage(repo, created.number, { labels: pull.labels }, milestones);
		if (pull.reviewers?.length)
			await this.api(pull.author, 'POST', `${path}/pulls/${created.number}/requested_reviewers`, { reviewers: pull.reviewers });
		for (const review of pull.reviews ?? []) {
			await this.api(review.author, 'POST', `${path}/pulls/${created.number}/reviews`, {
				event: review.event,
				body: review.body,
				commit_id: heads.get(pull.branch),
				comments: (review.comments ?? []).map((comment) => ({ ...comment, side: 'RIGHT' })),
			});
			this.count('review_comments', review.comments?.length ?? 0);
			this.count('reviews');
		}
		for (const comment of pull.comments ?? []) await this.comment(repo, created.number, comment);
		if (pull.merge) {
			const merged = await this.api<{ sha: string }>(pull.merge.by, 'PUT', `${path}/pulls/${created.number}/merge`, {
				merge_method: pull.merge.method,
			});
			heads.set('main', merged.sha);
			this.count('merged_pull_requests');
		}
		this.count('pull_requests');
	}

	private async social(repo: demo.DemoRepo): Promise<void> {
		for (const login of repo.stars) {
			await this.api(login, 'PUT', `/user/starred/${repo.owner}/${repo.name}`);
			this.count('stars');
		}
		for (const login of repo.watchers) {
			await this.api(login, 'PUT', `/repos/${repo.owner}/${repo.name}/subscription`, { subscribed: true });
			this.count('watchers');
		}
	}

	private async deployments(repo: demo.DemoRepo): Promise<void> {
		const path = `/repos/${repo.owner}/${repo.name}`;
		const admin = this.ownerOf(repo);
		for (const environment of repo.environments ?? []) {
			const custom = (environment.branches ?? []).length > 0;
			await this.api(admin, 'PUT', `${path}/environments/${environment.name}`, {
				wait_timer: environment.waitTimer ?? 0,
				deployment_branch_policy: custom ? { protected_branches: false, custom_branch_policies: true } : null,
			});
			for (const name of environment.branches ?? []) {
				await this.api(admin, 'POST', `${path}/environments/${environment.name}/deployment-branch-policies`, {
					name,
					type: 'branch',
				});
				this.count('deployment_branch_policies');
			}
			this.count('environments');
		}
		const host = repo.homepage ? new URL(repo.homepage).host : `${repo.name}.northwind.example`;
		for (const deployment of repo.deployments ?? []) {
			const created = await this.api<{ id: number }>(deployment.creator, 'POST', `${path}/deployments`, {
				ref: 'main',
				environment: deployment.environment,
				description: deployment.description,
				auto_merge: false,
				required_contexts: [],
				production_environment: deployment.environment === 'production',
			});
			for (const state of deployment.statuses) {
				await this.api(deployment.creator, 'POST', `${path}/deployments/${created.id}/statuses`, {
					state,
					environment_url: `https://${deployment.environment === 'production' ? '' : `${deployment.environment}.`}${host}`,
					log_url: `https://ci.northwind.example/${repo.name}/deployments/${created.id}`,
					description: `${deployment.description}: ${state.replace('_', ' ')}`,
				});
				this.count('deployment_statuses');
			}
			this.count('deployments');
		}
	}

	/** Workflows, runs and jobs through importRuns (admin service: runs come from runners, not from the REST API). */
	private runs(repo: demo.DemoRepo): void {
		if (!repo.workflows && !repo.runs) return;
		const logs = this.app.config.blobDir !== null;
		const row = this.app.stores.repos.byOwnerAndName(this.app.stores.accounts.byLogin(repo.owner)!.id, repo.name)!;
		const heads = this.heads.get(`${repo.owner}/${repo.name}`)!;
		const result = importRuns(this.app, row, {
			workflows: (repo.workflows ?? []).map((workflow) => ({ ...workflow, created_at: this.iso(repo.commits[0].daysAgo) })),
			runs: (repo.runs ?? []).map((run) => {
				const workflow = repo.workflows?.find((w) => w.name === run.workflow);
				const created = isoSeconds(this.now - run.minutesAgo * MINUTE);
				const user = this.user(run.actor);
				// A completed run's jobs are the workflow's, in the run's conclusion, unless listed.
				const jobs =
					run.jobs ??
					(run.status === 'completed' && workflow
						? workflow.jobs.map((j) => ({
								name: j.name,
								status: 'completed' as const,
								conclusion: run.conclusion === undefined ? ('success' as const) : run.conclusion,
							}))
						: undefined);
				return {
					path: workflow?.path ?? run.workflow,
					name: run.workflow,
					event: run.event,
					branch: run.branch,
					head_sha: heads.get(run.branch) ?? heads.get('main'),
					actor: run.actor,
					status: run.status,
					...(run.status === 'completed' ? { conclusion: run.conclusion ?? 'success' } : {}),
					created_at: created,
					display_title: run.title,
					head_commit: {
						message: run.title,
						timestamp: created,
						author: { name: user.name ?? run.actor, email: user.email ?? '' },
						committer: { name: user.name ?? run.actor, email: user.email ?? '' },
					},
					...(jobs
						? {
								jobs: jobs.map((job) => {
									const conclusion = job.status === 'completed' ? (job.conclusion ?? 'success') : null;
									return {
										name: job.name,
										needs: workflow?.jobs.find((j) => j.name === job.name)?.needs,
										status: job.status,
										...(conclusion ? { conclusion } : {}),
										labels:
											job.name === 'build' || job.name === 'deploy' ? ['self-hosted', 'linux'] : ['ubuntu-latest'],
										// Logs (gh run view --log) for the jobs that ran, when blob storage is on.
										...(conclusion && logs ? { steps: demoSteps(job.name, conclusion, created) } : {}),
									};
								}),
							}
						: {}),
				};
			}),
		});
		this.count('workflows', result.workflows);
		this.count('workflow_runs', result.runs);
		this.count('workflow_jobs', result.jobs);
	}

	/** Advisories (admin import), dependency snapshots (API), then alerts: one dismissed, one with a dismissal request. */
	private async security(): Promise<void> {
		const now = isoSeconds(this.now);
		const advisories = demo.ADVISORIES.map(({ daysAgo, ...advisory }) => ({
			...advisory,
			published_at: this.iso(daysAgo),
			updated_at: this.iso(Math.max(daysAgo - 30, 1)),
		}));
		this.app.transaction(() => {
			importAdvisories(this.app, advisories, now);
			refreshAllAlerts(this.app, now);
		});
		this.count('advisories', advisories.length);
		for (const repo of demo.REPOS) {
			if (!repo.snapshot) continue;
			const path = `/repos/${repo.owner}/${repo.name}`;
			const admin = this.ownerOf(repo);
			const sha = this.heads.get(`${repo.owner}/${repo.name}`)!.get('main');
			const resolved = Object.fromEntries(
				Object.entries(repo.snapshot.packages).map(([name, pkg]) => [
					name,
					{ package_url: pkg.purl, relationship: pkg.relationship, scope: pkg.scope, dependencies: [] },
				]),
			);
			await this.api(admin, 'POST', `${path}/dependency-graph/snapshots`, {
				version: 0,
				sha,
				ref: 'refs/heads/main',
				job: {
					id: `${repo.name}-dependency-submission-1`,
					correlator: `${repo.snapshot.detector}_${repo.snapshot.manifest}`,
					html_url: `https://ci.northwind.example/${repo.name}/dependencies`,
				},
				detector: {
					name: repo.snapshot.detector,
					version: '1.4.2',
					url: 'https://github.com/advanced-security/component-detection-dependency-submission-action',
				},
				scanned: this.iso(0.01),
				manifests: {
					[repo.snapshot.manifest]: { name: repo.snapshot.manifest, file: { source_location: repo.snapshot.manifest }, resolved },
				},
			});
			this.count('dependency_snapshots');
			const alerts = await this.api<Array<{ number: number; dependency: { package: { name: string } } }>>(
				admin,
				'GET',
				`${path}/dependabot/alerts?per_page=100`,
			);
			this.count('dependabot_alerts', alerts.length);
			const byPackage = (name: string) => alerts.find((alert) => alert.dependency.package.name === name);
			const dismissed = byPackage('follow-redirects') ?? byPackage('urllib3');
			if (dismissed && repo.delegatedDismissal) {
				await this.api(admin, 'PATCH', `${path}/dependabot/alerts/${dismissed.number}`, {
					state: 'dismissed',
					dismissed_reason: 'tolerable_risk',
					dismissed_comment: 'Only used by the dev server proxy; no credentials cross origins.',
				});
				this.count('dismissed_alerts');
			}
			if (repo.delegatedDismissal) {
				await this.api(admin, 'PATCH', path, {
					security_and_analysis: { dependabot_delegated_alert_dismissal: { status: 'enabled' } },
				});
				const target = byPackage('minimist');
				if (target) {
					await this.api('jmartin', 'POST', `${path}/dismissal-requests/dependabot/${target.number}`, {
						dismissed_reason: 'not_used',
						dismissed_comment:
							'minimist only comes in through the dev tooling (vite → … → minimist); it never ships to browsers.',
					});
					this.count('dismissal_requests');
				}
			}
		}
	}

	/** Custom properties, budgets, runner groups and runners, the global webhook. */
	private async administration(): Promise<void> {
		const siteAdmin = demo.PERSONAS[0].login;
		const slug = demo.ENTERPRISE.slug;
		for (const org of demo.ORGS) {
			for (const { name, ...definition } of org.properties) {
				await this.api(org.owners[0], 'PUT', `/orgs/${org.login}/properties/schema/${name}`, definition);
				this.count('custom_properties');
			}
			for (const budget of org.budgets) {
				await this.api(org.owners[0], 'POST', `/organizations/${org.login}/settings/billing/budgets`, {
					budget_amount: budget.amount,
					prevent_further_usage: budget.prevent,
					budget_scope: budget.scope,
					budget_entity_name: budget.entity ?? '',
					budget_product_sku: budget.sku,
					budget_alerting: { will_alert: true, alert_recipients: [org.owners[0]] },
				});
				this.count('budgets');
			}
		}
		for (const { name, ...definition } of demo.ENTERPRISE_PROPERTIES) {
			await this.api(siteAdmin, 'PUT', `/enterprises/${slug}/org-properties/schema/${name}`, definition);
			this.count('custom_properties');
		}
		for (const budget of demo.ENTERPRISE_BUDGETS) {
			await this.api(siteAdmin, 'POST', `/enterprises/${slug}/settings/billing/budgets`, {
				budget_amount: budget.amount,
				prevent_further_usage: budget.prevent,
				budget_scope: 'enterprise',
				budget_entity_name: '',
				budget_type: 'ProductPricing',
				budget_product_sku: budget.sku,
				budget_alerting: { will_alert: true, alert_recipients: [siteAdmin] },
			});
			this.count('budgets');
		}
		for (const group of demo.RUNNER_GROUPS) {
			const ids = group.orgs.map((login) => this.app.stores.accounts.organization(login)!.id);
			await this.api(siteAdmin, 'POST', `/enterprises/${slug}/actions/runner-groups`, {
				name: group.name,
				visibility: 'selected',
				selected_organization_ids: ids,
				allows_public_repositories: false,
			});
			this.count('runner_groups');
		}
		const enterprise = this.app.stores.enterprises.bySlug(slug)!;
		for (const runner of demo.RUNNERS) {
			registerRunner(this.app, enterprise.id, runner, isoSeconds(this.now));
			this.count('runners');
		}
		await this.api(siteAdmin, 'POST', '/admin/hooks', {
			name: 'web',
			config: { url: demo.GLOBAL_HOOK.url, content_type: 'json' },
			events: demo.GLOBAL_HOOK.events,
			active: demo.GLOBAL_HOOK.active,
		});
		this.count('global_webhooks');
	}

	private async gists(): Promise<void> {
		for (const gist of demo.GISTS) {
			const files = Object.fromEntries(Object.entries(gist.files).map(([name, content]) => [name, { content }]));
			const created = await this.api<{ id: string }>(gist.owner, 'POST', '/gists', {
				description: gist.description,
				public: gist.public,
				files,
			});
			for (const comment of gist.comments ?? [])
				await this.api(comment.author, 'POST', `/gists/${created.id}/comments`, { body: comment.body });
			for (const login of gist.stars ?? []) await this.api(login, 'PUT', `/gists/${created.id}/star`);
			this.count('gists');
		}
	}

	/** Revokes the tokens used only for seeding. */
	private finish(): void {
		const personas = new Set(demo.PERSONAS.map((p) => p.login));
		const now = epochSeconds(this.app.clock());
		this.app.transaction(() => {
			for (const [login, token] of this.tokens) if (!personas.has(login)) this.app.tokens.revoke(token.id, now);
		});
	}
}

/**
 * The steps of a demo job that ran, with their logs (what a runner would have uploaded): set up,
 * checkout, and the job's own step, which carries the job's conclusion. Skipped and cancelled
 * jobs ran nothing.
 */
function demoSteps(job: string, conclusion: string, startedAt: string) {
	if (conclusion === 'skipped' || conclusion === 'cancelled') return [];
	const failed = conclusion !== 'success';
	const step = (number: number, name: string, result: string, log: string) => ({
		name,
		number,
		status: 'completed' as const,
		conclusion: result,
		started_at: startedAt,
		completed_at: startedAt,
		log,
	});
	return [
		step(1, 'Set up job', 'success', 'Current runner version: 2.321.0\nOperating System: Ubuntu 24.04\nPrepare workflow directory'),
		step(2, 'Run actions/checkout@v4', 'success', 'Syncing repository\nChecking out the ref\nHEAD is now at the pushed commit'),
		step(
			3,
			`Run ${job}`,
			conclusion,
			failed
				? `Running ${job}…\n##[error]${job} failed: see the messages above\n##[error]Process completed with exit code 1.`
				: `Running ${job}…\n${job}: all checks passed`,
		),
	];
}
