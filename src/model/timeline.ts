/**
 * What a domain event writes into an issue's timeline (src/events/log.ts record, src/api/issues/timeline.ts).
 */

/**
 * One issue event to write with a domain event (the issue's timeline: labeled, merged,
 * review_requested, …): its actor and time are the event's, its repository too unless it names
 * its own (a pull request into another repository than the pushed branch's).
 */
export interface TimelineEntry {
	issueId: number;
	event: string;
	commitId?: string | null;
	details?: Record<string, unknown>;
	repoId?: number;
}
