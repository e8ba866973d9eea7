/**
 * Prepared statements of issue events (the `issue_events` table): what happened to an issue or a
 * pull request besides its comments and reviews — GitHub's issue events (labeled, assigned,
 * closed, merged, referenced, review_requested, head_ref_force_pushed, …), written by the event log
 * (src/events/log.ts) in the transaction of each change and by pushes for commit references.
 */
import type { DB } from '../../db/open';

export interface IssueEventRow {
	id: number;
	repo_id: number;
	issue_id: number;
	/** Who acted; null for the command line or a deleted account. */
	actor_id: number | null;
	/** GitHub's event name: labeled, unlabeled, assigned, closed, merged, referenced, … */
	event: string;
	/** The commit that closed, merged or referenced, if any (40 hex). */
	commit_id: string | null;
	/** JSON object: the event's own fields (label {name, color}, assignee_id, rename {from, to}, …). */
	details: string;
	/** ISO timestamp. */
	created_at: string;
}

/** An event to write: the issue's and repository's ids, GitHub's name, and its own fields. */
export interface NewIssueEvent {
	repoId: number;
	issueId: number;
	actorId: number | null;
	event: string;
	commitId?: string | null;
	details?: Record<string, unknown>;
	/** ISO timestamp. */
	createdAt: string;
}

export type IssueEventStore = ReturnType<typeof createIssueEventStore>;

export function createIssueEventStore(db: DB) {
	// A commit references an issue once, however often it is pushed (the partial unique index).
	const insert = db.prepare(`
		INSERT OR IGNORE INTO issue_events (repo_id, issue_id, actor_id, event, commit_id, details, created_at)
		VALUES (@repoId, @issueId, @actorId, @event, @commitId, @details, @createdAt)`);
	const forIssue = db.prepare('SELECT * FROM issue_events WHERE issue_id = ? ORDER BY id LIMIT ? OFFSET ?');
	const countForIssue = db.prepare('SELECT count(*) FROM issue_events WHERE issue_id = ?').pluck();
	const forRepo = db.prepare('SELECT * FROM issue_events WHERE repo_id = ? ORDER BY id DESC LIMIT ? OFFSET ?');
	const countForRepo = db.prepare('SELECT count(*) FROM issue_events WHERE repo_id = ?').pluck();
	const byId = db.prepare('SELECT * FROM issue_events WHERE repo_id = ? AND id = ?');
	return {
		/** Writes an event (a `referenced` event already written for that commit and issue is skipped). */
		insert(event: NewIssueEvent): void {
			insert.run({
				repoId: event.repoId,
				issueId: event.issueId,
				actorId: event.actorId,
				event: event.event,
				commitId: event.commitId ?? null,
				details: JSON.stringify(event.details ?? {}),
				createdAt: event.createdAt,
			});
		},
		/** One issue's events, oldest first, and how many it has. */
		forIssue(issueId: number, limit: number, offset: number): { rows: IssueEventRow[]; total: number } {
			return { rows: forIssue.all(issueId, limit, offset) as IssueEventRow[], total: countForIssue.get(issueId) as number };
		},
		/** A repository's events, newest first (GET /repos/{owner}/{repo}/issues/events), and how many it has. */
		forRepo(repoId: number, limit: number, offset: number): { rows: IssueEventRow[]; total: number } {
			return { rows: forRepo.all(repoId, limit, offset) as IssueEventRow[], total: countForRepo.get(repoId) as number };
		},
		/** One event of a repository. */
		byId: (repoId: number, id: number) => byId.get(repoId, id) as IssueEventRow | undefined,
	};
}
