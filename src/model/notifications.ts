/**
 * What notification threads are made of, as the domain events describe them: GitHub's reasons
 * (GitHub's "About notification reasons"), the precedence
 * that keeps one reason per thread, subject types, and the part of a domain event the
 * notifications subscriber (src/events/notifications.ts) reads. No imports: the event log, the
 * events that fill these shapes and the notification routes all name them.
 */

/**
 * Every reason GitHub reports, weakest first. The spec: "The reason is kept per thread and changes
 * only when a later notification has a different reason (an author becomes mention after a mention
 * and stays mention)". A user's reason on a thread is what they are to it, and that accumulates: a
 * notification carries the strongest of what the user already is and what this change makes them,
 * so a reason never falls back to a weaker one (GitHub's example: after a mention, later
 * notifications still say mention). GitHub does not document the whole order; Gitstead's, by how
 * directly the thread asks for the user:
 * - subscribed (watching the repository) < manual (subscribed to the thread by hand): interest;
 * - comment < state_change < author: the user took part, changed the state, or wrote the subject
 *   (an author who comments on their own issue stays author, as GitHub's threads of one's own pull
 *   request say author whatever happens on them);
 * - assign < review_requested < team_mention < mention: the thread names the user (or their team);
 * - then the reasons of subjects other than issues, which do not meet on one thread (a check suite
 *   is ci_activity, an invitation is invitation): ci_activity, approval_requested, security_alert,
 *   security_advisory_credit, member_feature_requested, invitation.
 */
export const REASONS = [
	'subscribed',
	'manual',
	'comment',
	'state_change',
	'author',
	'assign',
	'review_requested',
	'team_mention',
	'mention',
	'ci_activity',
	'approval_requested',
	'security_alert',
	'security_advisory_credit',
	'member_feature_requested',
	'invitation',
] as const;

export type NotificationReason = (typeof REASONS)[number];

const RANK = new Map<string, number>(REASONS.map((reason, index) => [reason, index]));

/**
 * The strongest of the reasons given (REASONS order); nulls and undefined are skipped.
 * @returns null when none is given
 */
export function strongest(...reasons: Array<NotificationReason | null | undefined>): NotificationReason | null {
	let best: NotificationReason | null = null;
	for (const reason of reasons) {
		if (reason && (best === null || RANK.get(reason)! > RANK.get(best)!)) best = reason;
	}
	return best;
}

/**
 * Reasons that mean the user is not directly involved: they only watch the repository or
 * subscribed by hand. `participating=true` lists the other threads ("directly participating or
 * mentioned").
 */
export const NOT_PARTICIPATING: readonly NotificationReason[] = ['subscribed', 'manual'];

/**
 * GitHub's subject.type values. Issues and pull requests have threads today; the others name the
 * objects GitHub notifies about, for the events that will carry them (repository invitations,
 * workflow runs as check suites, releases, ...).
 */
export type SubjectType =
	| 'Issue'
	| 'PullRequest'
	| 'RepositoryInvitation'
	| 'CheckSuite'
	| 'Release'
	| 'Commit'
	| 'Discussion'
	| 'RepositoryVulnerabilityAlert'
	| 'RepositoryDependabotAlertsThread';

/** What a thread is about: one object of a repository. */
export interface NotificationSubject {
	type: SubjectType;
	/** The object's own id (issues.id for issues and pull requests), unique within its type. */
	id: number;
	/** subject.title: the title, or prose for subjects without one. */
	title: string;
	/**
	 * subject.url as a path below the repository's API address ('/issues/7', '/pulls/7'), so a
	 * renamed repository or a new external URL keeps it right; null: the subject has no API address.
	 */
	path: string | null;
	/**
	 * subject.latest_comment_url likewise ('/issues/comments/42'); GitHub points it at the subject
	 * itself when the latest activity was not a comment. Null: none; undefined leaves it as it was
	 * (an edit; a new subject then starts at `path`).
	 */
	latestCommentPath?: string | null;
	/** A comment that no longer exists: if latest_comment_url points at it, it points at the subject again. */
	withdrawnCommentPath?: string;
}

/** A user the change names, and why (mentioned in it, assigned by it, asked to review, ...). */
export interface Involvement {
	userId: number;
	reason: NotificationReason;
}

/**
 * What a domain event tells the notifications subscriber: the subject it changed and who it
 * concerns. The subscriber applies the recipient rule (src/events/recipients.ts):
 * never the actor, never a user who cannot read the repository, nobody who ignores the thread
 * (unless mentioned).
 */
export interface NotificationActivity {
	subject: NotificationSubject;
	/**
	 * True when the change reaches everyone following the thread: the repository's watchers (reason
	 * subscribed) and the thread's participants (a new issue, a comment, a state change). False
	 * when it reaches only the users in `involved` (an edit that adds a mention, an assignment).
	 */
	broadcast: boolean;
	/** Users the change names, with their reason (the actor among them is not notified). */
	involved: Involvement[];
	/** The reason the thread's participants are notified with by this change (state_change), if it has one. */
	participantReason?: NotificationReason;
	/**
	 * True when the change reports back to whoever caused it (a workflow run they triggered
	 * finished: ci_activity), so the actor is notified like anyone else; otherwise the actor never is.
	 */
	notifyActor?: boolean;
	/**
	 * What the change makes its actor (author, comment, state_change): kept on the actor's thread,
	 * subscribed, for their later notifications; the actor is not notified of their own change.
	 */
	actorReason?: NotificationReason;
}
