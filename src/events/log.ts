/**
 * The domain-event log: the one function every state change that GitHub reports (as an activity
 * event, a notification or a webhook) calls, inside the transaction of the change. It writes the
 * event row (the activity feeds read those rows) and hands the event to the subscribers that
 * derive from it in the same transaction: webhook deliveries for every hook whose events match,
 * the issue events of an issue's timeline, and the organization's audit-log entry
 * (src/events/audit.ts). Notification threads are derived from the row after the commit, from a
 * persisted watermark (src/events/notifications.ts).
 * A crash after the commit loses nothing: the derived rows were written with the change, and the
 * notification pass resumes from its watermark.
 *
 * Callers never write feed rows, deliveries or notifications themselves.
 */
import type { App } from '../app';
import type { TimelineEntry } from '../model/timeline';

export type { TimelineEntry };
import type { RepositoryRow, AccountRow } from '../model/rows';
import type { NotificationActivity } from '../model/notifications';
import { compactOrigin, payloadJson } from '../model/json';
import { isoSeconds } from '../time';
import { deriveAudit } from './audit';
import { deriveAutoMerge } from './auto-merge';
import { scheduleNotifications } from './notifications';

/** One thing that happened, as GitHub names it. */
export interface DomainEvent {
	/** GitHub's webhook event name: issues, issue_comment, push, create, delete, fork, member, repository, ... */
	event: string;
	/** Its action (opened, created, added, ...), or null for events without one (push, fork, create). */
	action: string | null;
	/** Who acted: a user, an app's bot account, or null (the command line). */
	actorId: number | null;
	/** The repository it happened in, if any. */
	repo?: RepositoryRow;
	/** The organization it concerns (an organization repository's owner, or the organization itself). */
	org?: AccountRow;
	/** The activity-feed entry GitHub shows for it (Event type and payload), if any. */
	feed?: { type: string; payload: Record<string, unknown> };
	/**
	 * The webhook payload without `action` (built only when a hook listens). GitHub's payloads carry
	 * repository, organization and sender themselves.
	 */
	webhook?: () => Record<string, unknown>;
	/**
	 * What notification threads derive from it (src/events/notifications.ts): the subject it
	 * changed (an issue, a pull request, ...) and the users it names (mentioned, assigned) with how
	 * it reaches the thread's followers; only for events in a repository.
	 */
	notification?: NotificationActivity;
	/**
	 * What the organization's audit-log entry says of an event GitHub delivers to no webhook (roles):
	 * `user` {id, login}, `team` (slug) and the action's own fields. Events with a webhook payload
	 * give the audit log their payload instead.
	 */
	audit?: Record<string, unknown>;
	/**
	 * An event about a GitHub App's installation itself (installation, installation_repositories):
	 * delivered to that app's hook only, whatever it subscribes to, with this payload (without
	 * `action`); no other hook receives it.
	 */
	toApp?: { appId: number; installationId: number; webhook: () => Record<string, unknown> };
	/**
	 * The issue events GitHub keeps for it (an issue's or pull request's timeline: labeled, closed,
	 * merged, review_requested, …; src/api/issues/timeline.ts), in the event's repository, by its
	 * actor, at its time.
	 */
	timeline?: TimelineEntry[];
}

/**
 * Records `event`: its row in the log, and what derives from it. Call inside the transaction of the
 * change (the pipeline's for a request; the service's own for the command line).
 * @returns the event's id
 */
export function record(app: App, event: DomainEvent): number {
	const { repo } = event;
	let org = event.org;
	let owner: AccountRow | undefined;
	if (repo) {
		owner = app.stores.accounts.byId(repo.owner_id);
		if (!org && owner?.type === 'Organization') org = owner;
	}
	// The feeds: a repository made private takes its past events out of the public feeds.
	if (repo && event.event === 'repository' && event.action === 'privatized') app.stores.events.hideRepository(repo.id);
	// Notification threads: derived by the pass at the end of the turn's group or after the commit
	// (src/events/notifications.ts), from the event handed to it or, failing that, the stored part.
	const notification = event.notification && repo ? JSON.stringify(event.notification) : null;
	const createdAt = isoSeconds(app.clock());
	if (event.timeline?.length && repo) {
		for (const entry of event.timeline)
			app.stores.issueEvents.insert({ ...entry, repoId: entry.repoId ?? repo.id, actorId: event.actorId, createdAt });
	}
	const repoId = repo && !(event.event === 'repository' && event.action === 'deleted') ? repo.id : null;
	const id = app.stores.events.insert({
		event: event.event,
		action: event.action,
		actor_id: event.actorId,
		// A deleted repository's own rows go with it (ON DELETE CASCADE); the event of its deletion
		// stays in the log, by name only.
		repo_id: repoId,
		repo_name: repo && owner ? `${owner.login}/${repo.name}` : null,
		org_id: org?.id ?? null,
		public: repo ? (repo.visibility === 'public' ? 1 : 0) : 0,
		feed_type: event.feed?.type ?? null,
		// Stored with its URLs' origin written once (src/model/json.ts): an issue's event row then fits
		// two to a database page instead of one.
		payload: event.feed ? compactOrigin(payloadJson(event.feed.payload), app.urls.origin) : null,
		created_at: createdAt,
		notification,
	});
	if (notification !== null)
		scheduleNotifications(app, { id, actor_id: event.actorId, repo_id: repoId, created_at: createdAt, activity: event.notification! });
	// The organization's audit log: administrative events, with the request that made them.
	if (org)
		deriveAudit(
			app,
			{
				id,
				event: event.event,
				action: event.action,
				actorId: event.actorId,
				repo,
				repoName: repo && owner ? `${owner.login}/${repo.name}` : null,
				org,
				webhook: event.webhook,
				audit: event.audit,
			},
			app.acting,
			app.clock(),
		);
	// Global hooks, the organization's hooks, the repository's hooks and the hooks of the apps
	// installed on the account, in this transaction.
	if (event.webhook)
		app.webhooks.emit(event.event, event.action, event.webhook, { repoId: repo?.id, orgId: org?.id, accountId: owner?.id ?? org?.id });
	// Pull requests waiting for auto-merge that this event may unblock.
	deriveAutoMerge(app, event);
	if (event.toApp) {
		const { appId, installationId, webhook } = event.toApp;
		app.webhooks.emitToApp(appId, installationId, event.event, event.action, () => ({ action: event.action, ...webhook() }));
	}
	return id;
}
