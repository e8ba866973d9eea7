/**
 * Applying a push (the reference updates `git push` asks for, once its pack is stored): each
 * command goes through the one reference-update path (src/api/git/writes.ts moveRef), so branch
 * protection, rulesets, immutable release tags, the events (push, create, delete, PushEvent…) and
 * pull requests following their branches work exactly as for the REST API. On top of that, what
 * GitHub's receive-pack checks for pushes:
 *
 * - compare-and-swap per reference on the value the pusher saw; with `atomic`, all or none;
 * - refs/pull/* are hidden (GitHub's "deny updating a hidden ref"); the default branch cannot be
 *   deleted ("refusing to delete the current branch");
 * - a token without the `workflow` scope (classic, OAuth) or `workflows` permission (fine-grained,
 *   GitHub Apps) may not bring commits that change `.github/workflows/`;
 * - refusals read as GitHub's: `GH006: Protected branch update failed` and `GH013: Repository
 *   rule violations found` lines for the pusher's terminal;
 * - a push to an empty repository sets its default branch; then the features that follow pushes
 *   (App.pushFollowers) see the updates that went through: commits that reach the default branch
 *   close the issues their messages name with a closing keyword (src/api/issues/push-references.ts).
 */
import type { App } from '../../app';
import { DomainError } from '../../model/errors';
import { isoSeconds } from '../../time';
import type { RefUpdate } from '../../model/ref-rules';
import type { RepositoryRow } from '../../model/rows';
import { isValidRefName, parseCommit, parseTree } from './objects';
import { isAncestor } from './service';
import { moveRef, RefRaceError } from './writes';

const ZERO_ID = '0'.repeat(40);

/** One command of a push: the reference, the value the pusher saw and the value it asks for (null: none). */
export type PushCommand = RefUpdate;

/** The outcome of one command: `error` null is `ok <ref>`, else `ng <ref> <error>`; `messages` go to the pusher's terminal. */
export interface PushStatus {
	ref: string;
	error: string | null;
	messages: string[];
}

export interface PushOptions {
	/** The pusher (the events' actor). */
	actorId: number | null;
	/** The pusher administers the repository (what enforce_admins leaves to administrators). */
	admin: boolean;
	/** All references or none (git push --atomic). */
	atomic: boolean;
	/**
	 * The refusal for a token that may not change workflow files, as a sentence naming the file
	 * (null: the token may).
	 */
	workflowRefusal: ((path: string) => string) | null;
	/** Commits this push brought (their ids, hex): only those are checked for workflow changes. */
	newCommits: ReadonlySet<string>;
}

/** What makes a reference name refused before anything else is checked. */
function refusedName(repo: RepositoryRow, command: PushCommand): string | null {
	if (!isValidRefName(command.ref)) return 'funny refname';
	if (command.ref.startsWith('refs/pull/')) return 'deny updating a hidden ref';
	if (command.after === null && command.ref === `refs/heads/${repo.default_branch}`) {
		return `refusing to delete the current branch: ${command.ref}`;
	}
	return null;
}

/** The first file under .github/workflows that differs between two trees, or null. */
function workflowChange(app: App, repoId: number, tree: string, parentTree: string | null): string | null {
	const { git } = app.stores;
	const subtree = (root: string | null, path: string[]): string | null => {
		let at = root;
		for (const name of path) {
			if (!at) return null;
			const object = git.object(repoId, at);
			if (!object || object.type !== 'tree') return null;
			at = parseTree(object.content).find((entry) => entry.name === name && entry.mode === '040000')?.sha ?? null;
		}
		return at;
	};
	const mine = subtree(tree, ['.github', 'workflows']);
	const theirs = parentTree === null ? null : subtree(parentTree, ['.github', 'workflows']);
	if (mine === theirs) return null;
	const entries = (sha: string | null) =>
		new Map(sha ? parseTree(git.object(repoId, sha)?.content ?? Buffer.alloc(0)).map((entry) => [entry.name, entry.sha]) : []);
	const before = entries(theirs);
	const after = entries(mine);
	for (const [name, sha] of after) if (before.get(name) !== sha) return `.github/workflows/${name}`;
	for (const name of before.keys()) if (!after.has(name)) return `.github/workflows/${name}`;
	return '.github/workflows';
}

/** A workflow file the commits of `after` that this push brought change, or null. */
function changedWorkflow(app: App, repoId: number, after: string, newCommits: ReadonlySet<string>): string | null {
	const { git } = app.stores;
	const stack = [after];
	const seen = new Set<string>();
	while (stack.length) {
		const sha = stack.pop()!;
		if (seen.has(sha) || !newCommits.has(sha)) continue;
		seen.add(sha);
		const object = git.object(repoId, sha);
		if (!object || object.type !== 'commit') continue;
		const commit = parseCommit(object.content);
		const parentTrees = commit.parents.map((parent) => {
			const row = git.object(repoId, parent);
			return row?.type === 'commit' ? parseCommit(row.content).tree : null;
		});
		for (const parentTree of parentTrees.length ? parentTrees : [null]) {
			const path = workflowChange(app, repoId, commit.tree, parentTree);
			if (path) return path;
		}
		stack.push(...commit.parents);
	}
	return null;
}

/** Turns a refusal of the reference-update path into the push's words. */
function refusal(error: unknown, ref: string): { error: string; messages: string[] } | null {
	if (error instanceof RefRaceError)
		return { error: 'failed to update ref', messages: [`error: cannot lock ref '${ref}': ${error.message}`] };
	if (!(error instanceof DomainError)) return null;
	const message = error.message.trim();
	if (error.code === 'RuleViolation') {
		const violations = message
			.split('\n')
			.slice(1)
			.map((line) => line.trim())
			.filter(Boolean);
		return {
			error: 'push declined due to repository rule violations',
			messages: [
				`error: GH013: Repository rule violations found for ${ref}.`,
				...violations.map((violation) => `- ${violation}`),
				'',
			],
		};
	}
	if (error.code === 'ProtectedBranch') {
		return {
			error: 'protected branch hook declined',
			messages: [`error: GH006: Protected branch update failed for ${ref}.`, `error: ${message}`],
		};
	}
	return { error: message, messages: [`error: ${message}`] };
}

/**
 * Applies the commands of a push whose objects are stored. Non-atomic: each command in its own
 * transaction, the others go on when one is refused. Atomic: one transaction; one refusal refuses
 * all (the others "atomic push failure").
 * @returns one status per command, in order
 */
export function applyPush(app: App, repo: RepositoryRow, commands: PushCommand[], options: PushOptions): PushStatus[] {
	const { git } = app.stores;
	const statuses: PushStatus[] = commands.map((command) => ({ ref: command.ref, error: null, messages: [] }));
	// Checks that need no transaction: names, objects, workflow files.
	commands.forEach((command, i) => {
		const name = refusedName(repo, command);
		if (name) {
			statuses[i].error = name;
			return;
		}
		if (command.after !== null) {
			const meta = git.meta(repo.id, command.after);
			if (!meta) {
				statuses[i].error = 'missing necessary objects';
				return;
			}
			if (command.ref.startsWith('refs/heads/') && meta.type !== 'commit') {
				statuses[i].error = `trying to write non-commit object ${command.after} to branch '${command.ref}'`;
				return;
			}
			if (options.workflowRefusal && meta.type === 'commit') {
				const path = changedWorkflow(app, repo.id, command.after, options.newCommits);
				if (path) statuses[i].error = options.workflowRefusal(path);
			}
		}
	});
	// A push to an empty repository names its default branch: the one it had if pushed, else the first branch pushed.
	const hadBranches = git.matchingRefs(repo.id, 'refs/heads/', 1, 0).total > 0;
	let target = repo;
	if (!hadBranches) {
		const created = commands.filter((c, i) => statuses[i].error === null && c.after !== null && c.ref.startsWith('refs/heads/'));
		if (created.length && !created.some((c) => c.ref === `refs/heads/${repo.default_branch}`)) {
			const branch = created[0].ref.slice('refs/heads/'.length);
			target = { ...repo, default_branch: branch };
		}
	}
	const now = isoSeconds(app.clock());
	const apply = (command: PushCommand, i: number) => {
		const current = git.ref(repo.id, command.ref)?.sha ?? null;
		if (current !== command.before) {
			// Someone moved the reference since the pusher read it.
			const behind = current !== null && command.after !== null && !isAncestor(app, repo.id, current, command.after);
			statuses[i].error = behind ? 'non-fast-forward' : 'failed to update ref';
			statuses[i].messages.push(
				`error: cannot lock ref '${command.ref}': is at ${current ?? ZERO_ID} but expected ${command.before ?? ZERO_ID}`,
			);
			throw new RefRaceError(command.ref, current);
		}
		moveRef(app, target, command.ref, command.before, command.after, { now, actorId: options.actorId, admin: options.admin });
	};
	const refuse = (error: unknown, i: number) => {
		if (statuses[i].error !== null) return;
		const words = refusal(error, commands[i].ref);
		if (!words) throw error;
		statuses[i].error = words.error;
		statuses[i].messages.push(...words.messages);
	};
	if (options.atomic) {
		if (statuses.some((status) => status.error !== null)) {
			for (const status of statuses) if (status.error === null) status.error = 'atomic push failure';
			return statuses;
		}
		let failed = -1;
		try {
			app.transaction(() => {
				if (target !== repo) app.stores.repos.setDefaultBranch(repo.id, target.default_branch, now);
				commands.forEach((command, i) => {
					failed = i;
					apply(command, i);
				});
			});
		} catch (error) {
			refuse(error, failed);
			for (const status of statuses) if (status.error === null) status.error = 'atomic push failure';
			return statuses;
		}
	} else {
		let defaultSet = target === repo;
		commands.forEach((command, i) => {
			if (statuses[i].error !== null) return;
			try {
				app.transaction(() => {
					if (!defaultSet && command.ref === `refs/heads/${target.default_branch}`) {
						app.stores.repos.setDefaultBranch(repo.id, target.default_branch, now);
						defaultSet = true;
					}
					apply(command, i);
				});
			} catch (error) {
				refuse(error, i);
			}
		});
	}
	// What other features derive from the commits pushed (App.pushFollowers: the issues they name).
	const applied = commands.filter((_, i) => statuses[i].error === null);
	for (const follow of app.pushFollowers) follow(app, target, applied, options.actorId);
	return statuses;
}
