/**
 * Change counters: which repositories' rows and content this process's connection changed, noticed
 * by SQLite itself. TEMP triggers (this connection only, no schema change) call a JavaScript
 * function for every row written to the tables below, whoever writes it: a store's statement, a
 * counter trigger (open_issues_count, stargazers_count …), a foreign key's cascade. So in-memory
 * caches of repository rows and ETag validators stay correct without every write path having to
 * remember them.
 *
 * - a `repositories` row inserted, updated or deleted: its cached row is dropped (rowListeners) and
 *   its content counter moves; an update of nothing but its counters (COUNTER_COLUMNS, which the
 *   triggers on issues, stars, subscriptions and forks keep) moves the content counter and hands the
 *   new values to counterListeners, which update the cached row instead of dropping it (opening an
 *   issue then costs no re-read of the repository row);
 * - what an issue or pull request answer renders (issues, their labels and assignees, labels,
 *   milestones, pull_requests, direct collaborators: author_association): the repository's content
 *   counter moves (not an issue body's rendering kept on its first read: KEPT_RENDERINGS);
 * - an organization's memberships (author_association): the owner's counter moves;
 * - an account's rendered fields (login, avatar, type, site administrator) or its deletion: the
 *   accounts counter moves.
 *
 * Commits by other connections (a `gitstead admin` command, a restore) and rolled-back writes are
 * not seen here: the app calls clear() then (ExternalChanges, the transaction's rollback hook),
 * which moves the epoch, so every validator built from these counters changes.
 */
import { randomBytes } from 'node:crypto';
import type { DB } from './open';

/** TEMP triggers: table, events, and the SQL that reports the change (kind, id). */
const TRIGGERS: Array<[table: string, events: string[], report: (row: 'NEW' | 'OLD') => string[]]> = [
	['repositories', ['INSERT', 'DELETE'], (r) => [`'row', ${r}.id`]],
	['issues', ['INSERT', 'UPDATE', 'DELETE'], (r) => [`'repo', ${r}.repo_id`]],
	['issue_labels', ['INSERT', 'DELETE'], (r) => [`'repo', (SELECT repo_id FROM issues WHERE id = ${r}.issue_id)`]],
	['issue_assignees', ['INSERT', 'UPDATE', 'DELETE'], (r) => [`'repo', (SELECT repo_id FROM issues WHERE id = ${r}.issue_id)`]],
	['labels', ['UPDATE', 'DELETE'], (r) => [`'repo', ${r}.repo_id`]],
	['milestones', ['INSERT', 'UPDATE', 'DELETE'], (r) => [`'repo', ${r}.repo_id`]],
	['pull_requests', ['INSERT', 'UPDATE', 'DELETE'], (r) => [`'repo', ${r}.repo_id`]],
	['repository_collaborators', ['INSERT', 'UPDATE', 'DELETE'], (r) => [`'repo', ${r}.repo_id`]],
	['org_memberships', ['INSERT', 'UPDATE', 'DELETE'], (r) => [`'owner', ${r}.org_id`]],
	['accounts', ['DELETE'], () => [`'accounts', 0`]],
];

/**
 * Columns that keep a rendering of the row's own source (an issue body's HTML and text, written on
 * its first read): writing them alone changes nothing an answer shows, so counts as no change.
 */
const KEPT_RENDERINGS: Record<string, readonly string[]> = { issues: ['body_html', 'body_text'] };

/** The repositories columns kept by counter triggers: written alone, they update a cached row in place. */
export const COUNTER_COLUMNS = ['open_issues_count', 'stargazers_count', 'subscribers_count', 'forks_count'] as const;
export type CounterColumn = (typeof COUNTER_COLUMNS)[number];

export class ChangeCounters {
	/** Random per process: counters restart with every process, so an old validator never matches. */
	private readonly instance = randomBytes(4).toString('hex');
	private epoch = 0;
	private accounts = 0;
	private readonly repos = new Map<number, number>();
	private readonly owners = new Map<number, number>();
	private readonly rowListeners: Array<(repoId: number) => void> = [];
	private readonly counterListeners: Array<(repoId: number, column: CounterColumn, value: number) => void> = [];

	constructor(db: DB) {
		db.function('gitstead_changed', { deterministic: false, directOnly: true }, (kind: unknown, id: unknown) => {
			this.changed(String(kind), Number(id));
			return null;
		});
		db.function('gitstead_counter', { deterministic: false, directOnly: true }, (id: unknown, column: unknown, value: unknown) => {
			this.counted(Number(id), column as CounterColumn, Number(value));
			return null;
		});
		const statements: string[] = [];
		// A repositories update: any column but the counters drops the cached row (OLD.id and NEW.id:
		// an id never changes, but a row listener must not miss one); each counter alone updates it.
		// The columns are read here, when the stores open, after the migrations have run.
		const columns = (db.prepare("SELECT name FROM pragma_table_info('repositories')").pluck().all() as string[]).filter(
			(name) => !(COUNTER_COLUMNS as readonly string[]).includes(name),
		);
		statements.push(
			`CREATE TEMP TRIGGER IF NOT EXISTS gitstead_changed_repositories_row AFTER UPDATE OF ${columns.join(', ')} ON main.repositories ` +
				"BEGIN SELECT gitstead_changed('row', OLD.id); SELECT gitstead_changed('row', NEW.id); END;",
		);
		for (const column of COUNTER_COLUMNS) {
			statements.push(
				`CREATE TEMP TRIGGER IF NOT EXISTS gitstead_changed_repositories_${column} AFTER UPDATE OF ${column} ON main.repositories ` +
					`BEGIN SELECT gitstead_counter(NEW.id, '${column}', NEW.${column}); END;`,
			);
		}
		for (const [table, events, report] of TRIGGERS) {
			for (const event of events) {
				const rows: Array<'NEW' | 'OLD'> = event === 'INSERT' ? ['NEW'] : event === 'DELETE' ? ['OLD'] : ['OLD', 'NEW'];
				const calls = rows.flatMap((row) => report(row).map((args) => `SELECT gitstead_changed(${args});`));
				const kept = KEPT_RENDERINGS[table];
				const of =
					event === 'UPDATE' && kept
						? ` OF ${(db.prepare(`SELECT name FROM pragma_table_info('${table}')`).pluck().all() as string[]).filter((name) => !kept.includes(name)).join(', ')}`
						: '';
				statements.push(
					`CREATE TEMP TRIGGER IF NOT EXISTS gitstead_changed_${table}_${event.toLowerCase()} AFTER ${event}${of} ON main.${table} BEGIN ${calls.join(' ')} END;`,
				);
			}
		}
		// Only the columns a rendered user shows (simpleUser): logins last used, counters … do not count.
		statements.push(
			'CREATE TEMP TRIGGER IF NOT EXISTS gitstead_changed_accounts_update AFTER UPDATE OF login, avatar_url, type, site_admin, name ON main.accounts ' +
				"BEGIN SELECT gitstead_changed('accounts', 0); END;",
		);
		db.exec(statements.join('\n'));
	}

	/** Registers a callback for a repository row written on this connection (to drop a cached copy). */
	onRepositoryRow(listener: (repoId: number) => void): void {
		this.rowListeners.push(listener);
	}

	/**
	 * Registers a callback for a counter column of a repository row written alone on this connection
	 * (to update a cached copy); `value` is the column's new value.
	 */
	onRepositoryCounter(listener: (repoId: number, column: CounterColumn, value: number) => void): void {
		this.counterListeners.push(listener);
	}

	private counted(id: number, column: CounterColumn, value: number): void {
		this.repos.set(id, (this.repos.get(id) ?? 0) + 1);
		for (const listener of this.counterListeners) listener(id, column, value);
	}

	private changed(kind: string, id: number): void {
		if (kind === 'accounts') {
			this.accounts++;
			return;
		}
		if (kind === 'owner') {
			this.owners.set(id, (this.owners.get(id) ?? 0) + 1);
			return;
		}
		if (!Number.isFinite(id)) return; // a row of an issue already gone
		this.repos.set(id, (this.repos.get(id) ?? 0) + 1);
		if (kind === 'row') for (const listener of this.rowListeners) listener(id);
	}

	/**
	 * A string that changes whenever anything an issue of the repository renders may have changed:
	 * its rows, the owner's memberships, rendered account fields, or (clear()) anything at all.
	 * `INSTANCE:EPOCH:ACCOUNTS:OWNER:REPOSITORY`.
	 */
	repositoryVersion(repoId: number, ownerId: number): string {
		return `${this.instance}:${this.epoch}:${this.accounts}:${this.owners.get(ownerId) ?? 0}:${this.repos.get(repoId) ?? 0}`;
	}

	/** Forgets every counter and moves the epoch (another connection committed, or writes rolled back). */
	clear(): void {
		this.epoch++;
		this.repos.clear();
		this.owners.clear();
		for (const listener of this.rowListeners) listener(-1);
	}
}
