/**
 * Lazy statement preparation: the stores declare hundreds of prepared statements when the app
 * opens, and most requests use a handful of them. Preparing each one when it first runs instead
 * takes that work (about a tenth of the server's start) off the path to its first answer.
 */
import type { Statement } from 'better-sqlite3';
import type { DB } from './open';

/** A statement prepared on its first use; pluck() and raw() given before then apply once it is. */
class LazyStatement {
	private statement: Statement | null = null;
	private modes: Array<['pluck' | 'raw', boolean]> = [];

	constructor(
		private readonly db: DB,
		readonly source: string,
	) {}

	private real(): Statement {
		if (this.statement) return this.statement;
		const statement = this.db.prepare(this.source);
		for (const [mode, on] of this.modes) statement[mode](on);
		this.statement = statement;
		return statement;
	}

	pluck(on = true): this {
		if (this.statement) this.statement.pluck(on);
		else this.modes.push(['pluck', on]);
		return this;
	}

	raw(on = true): this {
		if (this.statement) this.statement.raw(on);
		else this.modes.push(['raw', on]);
		return this;
	}

	get reader(): boolean {
		return this.real().reader;
	}

	get(...params: unknown[]) {
		return this.real().get(...params);
	}

	all(...params: unknown[]) {
		return this.real().all(...params);
	}

	run(...params: unknown[]) {
		return this.real().run(...params);
	}

	iterate(...params: unknown[]) {
		return this.real().iterate(...params);
	}

	columns() {
		return this.real().columns();
	}
}

/**
 * `db` whose prepare() returns statements prepared on first use (same methods: get, all, run,
 * iterate, pluck, raw, columns); every other property is the database's own. A statement with an
 * SQL error throws when it first runs instead of when it is declared.
 */
export function lazyPreparing(db: DB): DB {
	const bound = new Map<PropertyKey, unknown>();
	const prepare = (source: string) => new LazyStatement(db, source) as unknown as Statement;
	return new Proxy(db, {
		get(target, property) {
			if (property === 'prepare') return prepare;
			const value = Reflect.get(target, property, target);
			if (typeof value !== 'function') return value;
			let method = bound.get(property);
			if (method === undefined) bound.set(property, (method = value.bind(target)));
			return method;
		},
	});
}

/**
 * An object whose properties `factories` make at their first read, once each; from then on they are
 * plain (writable) properties. For registries of which a process uses a few (the stores).
 */
export function lazyObject<T extends object>(factories: { [K in keyof T]: () => T[K] }): T {
	const out = {} as T;
	for (const key of Object.keys(factories) as Array<keyof T>) {
		Object.defineProperty(out, key, {
			configurable: true,
			enumerable: true,
			get() {
				const value = factories[key]();
				Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
				return value;
			},
		});
	}
	return out;
}
