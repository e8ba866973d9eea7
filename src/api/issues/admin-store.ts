/**
 * SQL of the issue administration use cases (src/api/issues/admin.ts): pins (issue_pins),
 * transfers and deletions with the numbers they leave behind (issue_tombstones).
 */
import type { DB } from '../../db/open';
import type { IssueRow } from '../../model/rows';

/** What an old issue number leads to. */
export interface IssueTombstone {
	repo_id: number;
	number: number;
	/** The issue where a transferred one is now (null: deleted since). */
	issue_id: number | null;
	/** 1: transferred; 0: deleted. */
	transferred: number;
	created_at: string;
}

/** Creates the issue administration store. */
export function createIssueAdminStore(db: DB) {
	const pinned = db.prepare(
		'SELECT i.*, p.pinned_by_id FROM issue_pins p JOIN issues i ON i.id = p.issue_id WHERE p.repo_id = ? ORDER BY p.pinned_at, p.rowid',
	);
	const isPinned = db.prepare('SELECT 1 FROM issue_pins WHERE issue_id = ?').pluck();
	const pinnedIds = db.prepare('SELECT issue_id FROM issue_pins WHERE issue_id IN (SELECT value FROM json_each(?))').pluck();
	const pin = db.prepare('INSERT OR IGNORE INTO issue_pins (issue_id, repo_id, pinned_by_id, pinned_at) VALUES (?, ?, ?, ?)');
	const unpin = db.prepare('DELETE FROM issue_pins WHERE issue_id = ?');
	const tombstone = db.prepare('SELECT * FROM issue_tombstones WHERE repo_id = ? AND number = ?');
	const bury = db.prepare(
		'INSERT OR REPLACE INTO issue_tombstones (repo_id, number, issue_id, transferred, created_at) VALUES (?, ?, ?, ?, ?)',
	);
	const nextNumber = db
		.prepare(
			'SELECT max(coalesce((SELECT max(number) FROM issues WHERE repo_id = @repo), 0), coalesce((SELECT max(number) FROM issue_tombstones WHERE repo_id = @repo), 0)) + 1',
		)
		.pluck();
	const moveIssue = db.prepare('UPDATE issues SET repo_id = ?, number = ?, milestone_id = ?, updated_at = ? WHERE id = ?');
	const moveComments = db.prepare('UPDATE issue_comments SET repo_id = ? WHERE issue_id = ?');
	const moveEvents = db.prepare('UPDATE issue_events SET repo_id = ? WHERE issue_id = ?');
	const moveSubjects = db.prepare(`
		UPDATE notification_subjects SET repository_id = @repo, path = @path,
		  latest_comment_path = CASE WHEN latest_comment_path LIKE '/issues/comments/%' THEN latest_comment_path ELSE @path END
		WHERE type = 'Issue' AND subject_id = @issue`);
	const moveThreads = db.prepare(`
		UPDATE notification_threads SET repository_id = ?
		WHERE subject_id IN (SELECT id FROM notification_subjects WHERE type = 'Issue' AND subject_id = ?)`);
	const dropSubjects = db.prepare("DELETE FROM notification_subjects WHERE type IN ('Issue', 'PullRequest') AND subject_id = ?");
	const keepLabels = db.prepare(`
		DELETE FROM issue_labels WHERE issue_id = @issue AND label_id NOT IN (
		  SELECT l.id FROM labels l JOIN labels d ON d.repo_id = @repo AND d.name = l.name COLLATE NOCASE WHERE l.id = issue_labels.label_id)`);
	const relabel = db.prepare(`
		UPDATE issue_labels SET label_id = (
		  SELECT d.id FROM labels l JOIN labels d ON d.repo_id = @repo AND d.name = l.name COLLATE NOCASE WHERE l.id = issue_labels.label_id)
		WHERE issue_id = @issue`);
	const milestoneByTitle = db.prepare('SELECT id FROM milestones WHERE repo_id = ? AND title = ?').pluck();
	const milestoneTitle = db.prepare('SELECT title FROM milestones WHERE id = ?').pluck();
	const remove = db.prepare('DELETE FROM issues WHERE id = ?');
	return {
		/** The repository's pinned issues, in the order pinned, each with who pinned it. */
		pinned: (repoId: number) => pinned.all(repoId) as Array<IssueRow & { pinned_by_id: number | null }>,
		isPinned: (issueId: number) => isPinned.get(issueId) === 1,
		/** Which of these issues are pinned. */
		pinnedAmong: (issueIds: readonly number[]) => new Set(pinnedIds.all(JSON.stringify(issueIds)) as number[]),
		/** @param now ISO timestamp */
		pin(issue: IssueRow, actorId: number | null, now: string): void {
			pin.run(issue.id, issue.repo_id, actorId, now);
		},
		unpin: (issueId: number) => void unpin.run(issueId),
		/** What an issue number no longer held leads to, if it was ever held. */
		tombstone: (repoId: number, number: number) => tombstone.get(repoId, number) as IssueTombstone | undefined,
		/**
		 * Moves an issue to another repository with its next number: comments, issue events and
		 * notification threads follow; labels are kept where the destination has one of the same
		 * name (case-insensitively), the milestone where it has one of the same title; the pin is
		 * dropped; the old number is left behind. @param now ISO timestamp @returns the new number
		 */
		transfer(issue: IssueRow, toRepoId: number, now: string): number {
			const number = nextNumber.get({ repo: toRepoId }) as number;
			const title = issue.milestone_id === null ? undefined : (milestoneTitle.get(issue.milestone_id) as string | undefined);
			const milestone = title === undefined ? null : ((milestoneByTitle.get(toRepoId, title) as number | undefined) ?? null);
			keepLabels.run({ issue: issue.id, repo: toRepoId });
			relabel.run({ issue: issue.id, repo: toRepoId });
			unpin.run(issue.id);
			moveIssue.run(toRepoId, number, milestone, now, issue.id);
			moveComments.run(toRepoId, issue.id);
			moveEvents.run(toRepoId, issue.id);
			moveSubjects.run({ repo: toRepoId, path: `/issues/${number}`, issue: issue.id });
			moveThreads.run(toRepoId, issue.id);
			bury.run(issue.repo_id, issue.number, issue.id, 1, now);
			return number;
		},
		/** Deletes an issue (its comments, reactions, events and notification threads with it), leaving its number behind. @param now ISO timestamp */
		delete(issue: IssueRow, now: string): void {
			dropSubjects.run(issue.id);
			remove.run(issue.id);
			bury.run(issue.repo_id, issue.number, null, 0, now);
		},
	};
}
