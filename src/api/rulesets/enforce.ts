/**
 * Organization rulesets enforced on reference writes. checkRulesets is one of the rules the
 * application is wired with (App.refRules, src/compose.ts), after branch protection
 * (src/api/branches/enforce.ts checkRefUpdate): src/api/git/writes.ts runs them from its shared
 * create/update/delete functions, so every writer of a reference (the git refs API, contents, pull
 * request merges, releases' tags) meets the same rules.
 *
 * Every ruleset of the repository's organization whose conditions match the repository and the
 * reference (src/api/rulesets/match.ts) is evaluated, `disabled` ones excepted. Rules evaluated:
 * creation, update, deletion, non_fast_forward, required_linear_history, required_signatures
 * (Gitstead keeps no signing keys: no pushed commit verifies), pull_request (a direct update of the
 * branch; a pull request's merge passes), required_status_checks (commit statuses and check runs,
 * as branch protection decides them), commit_message_pattern, commit_author_email_pattern,
 * committer_email_pattern, branch_name_pattern, tag_name_pattern. Not evaluated (accepted and
 * stored only): merge_queue, required_deployments, workflows, code_scanning, the file rules of push
 * rulesets, and update_allows_fetch_and_merge.
 *
 * A failing rule of an `active` ruleset refuses the write with GitHub's 422 "Repository rule
 * violations found\n\n<violation>\n\n" unless the writer bypasses the ruleset; `evaluate` rulesets
 * only count in the rule suite's evaluation_result. Each evaluation that ran any rule is kept as a
 * rule suite (GET /orgs/{org}/rulesets/rule-suites): with the write when it goes through, and, when
 * it is refused, right after the refusal's rollback (GitHub keeps failed rule suites).
 */
import type { App } from '../../app';
import { DomainError, ERRORS } from '../../model/errors';
import { isoSeconds } from '../../time';
import { checksMessage, commitChecksPassed } from '../branches/enforce';
import type { RefWriter } from '../../model/ref-rules';
import { reachable, walkCommits, type WalkedCommit } from '../git/graph';
import { isAncestor, peel } from '../git/service';
import type { RepositoryRow, AccountRow } from '../../model/rows';
import { bypassMode, rulesetApplies } from './match';
import type { StoredEvaluation } from './render';
import type { Rule } from './schema';
import type { RuleSuiteRow, RulesetRow } from './store';

/** GitHub's first line of a refusal by rulesets. */
export const RULE_VIOLATIONS = ERRORS.RuleViolation.message;

/** The zero object id GitHub shows for the missing side of a creation or deletion. */
const ZERO_SHA = '0000000000000000000000000000000000000000';

/** Commits a push's history rules inspect at most. */
const MAX_PUSHED = 1000;

/** What a reference write does, and the commits it brings, computed once for every rule. */
interface Change {
	app: App;
	repo: RepositoryRow;
	ref: string;
	kind: 'create' | 'update' | 'delete';
	before: string | null;
	after: string | null;
	writer: RefWriter;
	pushed(): WalkedCommit[];
}

/** GitHub's refusal of a write by active rules (`violations`: one sentence each). */
export function ruleViolation(violations: string[]): DomainError {
	return new DomainError('RuleViolation', `${RULE_VIOLATIONS}\n\n${[...new Set(violations)].map((v) => `${v}\n\n`).join('')}`);
}

const VERBS = { starts_with: 'start with', ends_with: 'end with', contains: 'contain', regex: 'match a given regex pattern' } as const;

/** A pattern rule's test of one text. */
function patternHolds(parameters: { operator: keyof typeof VERBS; pattern: string; negate?: boolean }, text: string): boolean {
	const { operator, pattern } = parameters;
	let hit: boolean;
	if (operator === 'starts_with') hit = text.startsWith(pattern);
	else if (operator === 'ends_with') hit = text.endsWith(pattern);
	else if (operator === 'contains') hit = text.includes(pattern);
	else {
		try {
			hit = new RegExp(pattern).test(text);
		} catch {
			hit = false;
		}
	}
	return parameters.negate ? !hit : hit;
}

function patternMessage(subject: string, parameters: { operator: keyof typeof VERBS; pattern: string; negate?: boolean }): string {
	return `${subject} must ${parameters.negate ? 'not ' : ''}${VERBS[parameters.operator]}: ${parameters.pattern}`;
}

/**
 * One rule against the change: the violation's sentence, null when it passes, undefined when the
 * rule does not apply to this change (or is one Gitstead does not evaluate).
 */
function evaluateRule(rule: Rule, change: Change): string | null | undefined {
	const { kind, ref } = change;
	const thing = ref.startsWith('refs/tags/') ? 'tag' : 'branch';
	switch (rule.type) {
		case 'creation':
			return kind === 'create' ? 'Cannot create ref due to creations being restricted.' : undefined;
		case 'update':
			return kind === 'update' ? 'Cannot update this protected ref.' : undefined;
		case 'deletion':
			return kind === 'delete' ? `Cannot delete this ${thing}` : undefined;
		case 'non_fast_forward': {
			if (kind !== 'update') return undefined;
			const from = peel(change.app, change.repo.id, change.before!, 'commit');
			const to = peel(change.app, change.repo.id, change.after!, 'commit');
			return from && to && !isAncestor(change.app, change.repo.id, from, to) ? `Cannot force-push to this ${thing}` : null;
		}
		case 'required_linear_history':
			if (kind === 'delete') return undefined;
			return change.pushed().some((c) => c.data.parents.length > 1) ? 'This branch must not contain merge commits.' : null;
		case 'required_signatures':
			if (kind === 'delete') return undefined;
			// Gitstead keeps no signing keys, so no signature verifies (see src/api/git/render.ts).
			return change.pushed().length ? 'Commits must have verified signatures.' : null;
		case 'pull_request':
			if (kind !== 'update') return undefined;
			return change.writer.viaPullRequest ? null : 'Changes must be made through a pull request.';
		case 'required_status_checks': {
			if (kind === 'delete' || (kind === 'create' && rule.parameters.do_not_enforce_on_create)) return undefined;
			const contexts = rule.parameters.required_status_checks.map((c) => c.context);
			if (!contexts.length) return null;
			const result = commitChecksPassed(change.app, change.repo.id, change.writer.checksSha ?? change.after!, contexts);
			return result.passed ? null : checksMessage(result.states);
		}
		case 'commit_message_pattern':
		case 'commit_author_email_pattern':
		case 'committer_email_pattern': {
			if (kind === 'delete') return undefined;
			const read = (c: WalkedCommit) =>
				rule.type === 'commit_message_pattern'
					? c.data.message
					: rule.type === 'commit_author_email_pattern'
						? c.data.author.email
						: c.data.committer.email;
			const subject =
				rule.type === 'commit_message_pattern'
					? 'Commit message'
					: rule.type === 'commit_author_email_pattern'
						? 'Author email'
						: 'Committer email';
			return change.pushed().every((c) => patternHolds(rule.parameters, read(c))) ? null : patternMessage(subject, rule.parameters);
		}
		case 'branch_name_pattern':
		case 'tag_name_pattern': {
			if (kind === 'delete') return undefined;
			const prefix = rule.type === 'branch_name_pattern' ? 'refs/heads/' : 'refs/tags/';
			if (!ref.startsWith(prefix)) return undefined;
			const subject = rule.type === 'branch_name_pattern' ? 'Branch name' : 'Tag name';
			return patternHolds(rule.parameters, ref.slice(prefix.length)) ? null : patternMessage(subject, rule.parameters);
		}
		default:
			return undefined;
	}
}

/** The commits a write brings: new to the reference (an update) or to the default branch (a creation). */
function pushedCommits(app: App, repo: RepositoryRow, before: string | null, after: string | null): () => WalkedCommit[] {
	let commits: WalkedCommit[] | null = null;
	return () => {
		if (commits) return commits;
		const to = after && peel(app, repo.id, after, 'commit');
		if (!to) return (commits = []);
		const base = before ?? app.stores.git.ref(repo.id, `refs/heads/${repo.default_branch}`)?.sha ?? null;
		const from = base && peel(app, repo.id, base, 'commit');
		commits = walkCommits(app, repo.id, to, { exclude: reachable(app, repo.id, from || null), stopAfter: MAX_PUSHED }).commits;
		return commits;
	};
}

/** Keeps a rule suite; a failure is written after the refusal's savepoint rolled back. */
function keepSuite(app: App, row: Omit<RuleSuiteRow, 'id'>, refused: boolean): void {
	if (!refused) {
		app.stores.rulesets.addSuite(row);
		return;
	}
	process.nextTick(() => {
		try {
			app.transaction(() => app.stores.rulesets.addSuite(row));
		} catch (error) {
			app.log.warn('a refused push’s rule suite could not be kept', { error: (error as Error).message });
		}
	});
}

/**
 * Evaluates the rulesets that apply to the write of `ref` in `repo` (its organization's and its own
 * repository rulesets), keeps the rule suite, and refuses what an active ruleset forbids. `before`
 * null: the reference is created; `after` null: it is deleted.
 * @throws DomainError 422 "Repository rule violations found\n\nCannot delete this branch\n\n" (one
 *   line per violated rule)
 */
export function checkRulesets(
	app: App,
	repo: RepositoryRow,
	ref: string,
	before: string | null,
	after: string | null,
	writer: RefWriter,
): void {
	const org = app.stores.accounts.byId(repo.owner_id);
	if (!org) return;
	const rulesets = applicableRulesets(app, org, repo).filter(
		(r) => r.enforcement !== 'disabled' && rulesetApplies(app, org, r, repo, ref),
	);
	if (!rulesets.length) return;
	const change: Change = {
		app,
		repo,
		ref,
		kind: before === null ? 'create' : after === null ? 'delete' : 'update',
		before,
		after,
		writer,
		pushed: pushedCommits(app, repo, before, after),
	};
	const evaluations: StoredEvaluation[] = [];
	const violations: string[] = [];
	let activeBypassed = false;
	let evaluateRan = false;
	let evaluateFailed = false;
	let evaluateBypassed = false;
	for (const ruleset of rulesets) {
		const mode = bypassMode(app, org, ruleset, writer.actorId, repo);
		const bypass = mode === 'always' || (mode === 'pull_requests_only' && writer.viaPullRequest === true);
		const enforcement = ruleset.enforcement as 'active' | 'evaluate';
		for (const rule of JSON.parse(ruleset.rules) as Rule[]) {
			const failure = evaluateRule(rule, change);
			if (failure === undefined) continue;
			evaluations.push({
				rule_source: { type: 'ruleset', id: ruleset.id, name: ruleset.name },
				enforcement,
				result: failure === null ? 'pass' : 'fail',
				rule_type: rule.type,
				details: failure,
			});
			if (enforcement === 'evaluate') evaluateRan = true;
			if (failure === null) continue;
			if (enforcement === 'active') {
				if (bypass) activeBypassed = true;
				else violations.push(failure);
			} else if (bypass) evaluateBypassed = true;
			else evaluateFailed = true;
		}
	}
	if (!evaluations.length) return;
	const result = violations.length ? 'fail' : activeBypassed ? 'bypass' : 'pass';
	const evaluation = !evaluateRan
		? null
		: result === 'fail' || evaluateFailed
			? 'fail'
			: result === 'bypass' || evaluateBypassed
				? 'bypass'
				: 'pass';
	keepSuite(app, suiteRow(app, org, repo, ref, before, after, writer, result, evaluation, evaluations), violations.length > 0);
	if (violations.length) throw ruleViolation(violations);
}

function suiteRow(
	app: App,
	org: AccountRow,
	repo: RepositoryRow,
	ref: string,
	before: string | null,
	after: string | null,
	writer: RefWriter,
	result: RuleSuiteRow['result'],
	evaluation: RuleSuiteRow['evaluation_result'],
	evaluations: StoredEvaluation[],
): Omit<RuleSuiteRow, 'id'> {
	const actor = writer.actorId === null ? undefined : app.stores.accounts.byId(writer.actorId);
	return {
		org_id: org.id,
		repository_id: repo.id,
		repository_name: repo.name,
		actor_id: actor?.id ?? null,
		actor_name: actor?.login ?? null,
		before_sha: before ?? ZERO_SHA,
		after_sha: after ?? ZERO_SHA,
		ref,
		pushed_at: isoSeconds(app.clock()),
		result,
		evaluation_result: evaluation,
		rule_evaluations: JSON.stringify(evaluations),
	};
}

/**
 * The rulesets that may apply in `repo`: its owner organization's (none for a user's repository),
 * then the repository's own.
 * @param owner the repository's owner account
 */
export function applicableRulesets(app: App, owner: AccountRow, repo: RepositoryRow): RulesetRow[] {
	const inherited = owner.type === 'Organization' ? app.stores.rulesets.list(owner.id) : [];
	return [...inherited, ...app.stores.rulesets.listInRepo(repo.id)];
}

/** The active rulesets (the organization's and the repository's own) that apply to a branch of `repo` (GET /repos/…/rules/branches/{branch}: evaluate and disabled ones are not shown). */
export function branchRulesets(app: App, org: AccountRow, repo: RepositoryRow, branch: string): RulesetRow[] {
	return applicableRulesets(app, org, repo).filter(
		(r) => r.enforcement === 'active' && r.target === 'branch' && rulesetApplies(app, org, r, repo, `refs/heads/${branch}`),
	);
}
