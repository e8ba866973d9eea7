/**
 * Prometheus metrics of one application, served at GET /metrics (outside /api/v3; text exposition
 * format 0.0.4) when `[metrics] enabled`; `[metrics] token` makes it require
 * `Authorization: Bearer <token>`. Every metric lives in the application's own prom-client
 * Registry, never in prom-client's global one: tests run many servers in one process.
 *
 * The request path pays almost nothing: the server's one finish hook (src/server.ts, with the
 * request's record from src/http/access.ts, which the access log reads too) calls `observeRequest`
 * with the route template; the answer is counted in plain numbers of a series kept per route
 * template (a Map lookup of a constant string, a counter keyed by status × method, a bucket search
 * in a Float64Array), about 20 ns. prom-client's own `labels().inc()`/`observe()` build a label
 * string and objects on every call (about 1 µs measured): the request counter and histogram are
 * therefore read from those series at scrape time instead. Gauges (database and WAL size, free
 * disk, webhook queue, task backlog) are read at scrape time too, each a stat call or one count
 * over a partial index. Rare events (rate-limit rejections, webhook attempts) use prom-client's
 * metrics directly. Process and Node.js metrics (prom-client's collectDefaultMetrics, standard
 * unprefixed names) are registered on the application's registry at its first scrape, so servers
 * that are never scraped start no event-loop or GC monitors.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { statfsSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Counter, Histogram, Registry } from 'prom-client';
import type * as PromClient from 'prom-client';
import type { Config } from '../config';

/** Upper bounds (seconds) of the request duration histogram: 1 ms to 10 s. */
export const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Upper bounds (seconds) of the webhook delivery duration histogram (an attempt may take webhooks.timeout_seconds, at most 300). */
export const DELIVERY_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
/** The `route` label of answers no route or web path claimed (unknown paths, 413/414/431 refusals, preflight). */
export const UNMATCHED = 'unmatched';
/** `method` label values; any other method counts as "other". */
const METHODS = ['GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS', 'other'] as const;

function methodIndex(method: string | undefined): number {
	switch (method) {
		case 'GET':
			return 0;
		case 'HEAD':
			return 1;
		case 'POST':
			return 2;
		case 'PATCH':
			return 3;
		case 'PUT':
			return 4;
		case 'DELETE':
			return 5;
		case 'OPTIONS':
			return 6;
		default:
			return 7;
	}
}

/** The answers of one route template, counted in plain numbers (read by the scrape). */
class RouteSeries {
	/** status × 8 + method index → answers. */
	readonly answers = new Map<number, number>();
	/**
	 * Per method index: answers per REQUEST_BUCKETS bound (not cumulative), then those above the
	 * largest bound, then the sum of their seconds; null until the method is seen.
	 */
	readonly durations: (Float64Array | null)[] = [null, null, null, null, null, null, null, null];
	constructor(readonly route: string) {}
}

/** What the scrape-time gauges read. */
export interface MetricSources {
	/** The SQLite file; its size and its `-wal` file's are read with statSync at each scrape. */
	databaseFile: string;
	/** storage.data_dir: the free space of its disk (statfs). */
	dataDir: string;
	/** Webhook deliveries queued (new and awaiting a retry). */
	pendingDeliveries(): number;
	/** Background tasks queued, and those of them due now. */
	taskBacklog(): { queued: number; due: number };
}

/** One series of a histogram read at scrape: its labels and its counts (RouteSeries.durations layout). */
type Buckets = [labels: Record<string, string>, counts: Float64Array];

/**
 * A histogram whose counts its owner keeps (Buckets, see RouteSeries) and hands over at each scrape;
 * prom-client formats it like any histogram (cumulative `_bucket` series with `le`, `_sum`, `_count`).
 * A class made once prom-client is loaded (its base class is prom-client's).
 */
function scrapedHistogram(prom: typeof PromClient) {
	return class ScrapedHistogram<T extends string> extends prom.Histogram<T> {
		readonly #spec: { name: string; help: string; bounds: number[] };
		readonly #read: () => Iterable<Buckets>;

		constructor(
			spec: { name: string; help: string; labelNames: T[]; buckets: number[]; registry: Registry },
			read: () => Iterable<Buckets>,
		) {
			super({ name: spec.name, help: spec.help, labelNames: spec.labelNames, buckets: spec.buckets, registers: [spec.registry] });
			this.#spec = { name: spec.name, help: spec.help, bounds: spec.buckets };
			this.#read = read;
		}

		/** The exposition form the registry reads: `le` apart from the series' own labels (sharedLabels). */
		async getForPromString() {
			const { name, help, bounds } = this.#spec;
			const values: {
				labels: Record<string, string | number>;
				sharedLabels: Record<string, string>;
				value: number;
				metricName: string;
			}[] = [];
			for (const [labels, counts] of this.#read()) {
				let cumulative = 0;
				for (let i = 0; i < bounds.length; i++) {
					cumulative += counts[i];
					values.push({ labels: { le: bounds[i] }, sharedLabels: labels, value: cumulative, metricName: `${name}_bucket` });
				}
				cumulative += counts[bounds.length];
				values.push({ labels: { le: '+Inf' }, sharedLabels: labels, value: cumulative, metricName: `${name}_bucket` });
				values.push({ labels: {}, sharedLabels: labels, value: counts[bounds.length + 1], metricName: `${name}_sum` });
				values.push({ labels: {}, sharedLabels: labels, value: cumulative, metricName: `${name}_count` });
			}
			return { name, help, type: 'histogram', values, aggregator: 'sum' };
		}

		/** prom-client's JSON form (Registry.getMetricsAsJSON): labels and `le` together. */
		override async get() {
			const data = await this.getForPromString();
			const values = data.values.map(({ labels, sharedLabels, value, metricName }) => ({
				labels: { ...sharedLabels, ...labels },
				value,
				metricName,
			}));
			return { ...data, values } as unknown as Awaited<ReturnType<Histogram<T>['get']>>;
		}
	};
}

/**
 * The metrics of one application (app.metrics; built by src/compose.ts). Metric names:
 * gitstead_http_requests_total{method,route,status}, gitstead_http_request_duration_seconds{method,route},
 * gitstead_rate_limit_rejections_total{resource}, gitstead_webhook_queue_depth,
 * gitstead_webhook_delivery_failures_total{final}, gitstead_webhook_delivery_duration_seconds{outcome},
 * gitstead_background_tasks_queued, gitstead_background_tasks_due, gitstead_database_size_bytes,
 * gitstead_database_wal_size_bytes, gitstead_data_disk_free_bytes, and prom-client's default
 * process_* and nodejs_* metrics.
 */
export class Metrics {
	/** `[metrics] enabled`: false → GET /metrics is not served and nothing is observed. */
	readonly enabled: boolean;
	/** SHA-256 of `[metrics] token`, or null when no token is required. */
	private readonly tokenDigest: Buffer | null;
	private readonly routes = new Map<string, RouteSeries>();
	private readonly sources: MetricSources;
	/** prom-client's part, made on first use (a scrape, a rejection, a webhook attempt): not at start. */
	private prom: PromMetrics | null = null;
	private defaultMetrics = false;

	constructor(settings: Config['metrics'], sources: MetricSources) {
		this.enabled = settings.enabled;
		this.tokenDigest = settings.token === '' ? null : sha256(settings.token);
		this.sources = sources;
	}

	/** This application's registry (never prom-client's global one), with every metric registered. */
	get registry(): Registry {
		return this.metrics().registry;
	}

	private metrics(): PromMetrics {
		if (this.prom) return this.prom;
		const prom = require('prom-client') as typeof PromClient;
		const { Counter, Gauge, Histogram, Registry } = prom;
		const ScrapedHistogram = scrapedHistogram(prom);
		const registry = new Registry();
		const registers = [registry];
		const routes = this.routes;
		const sources = this.sources;

		new Counter({
			name: 'gitstead_http_requests_total',
			help: 'HTTP answers sent, by method, route template (unmatched: no route) and status code.',
			labelNames: ['method', 'route', 'status'],
			registers,
			collect() {
				this.reset();
				for (const series of routes.values()) {
					for (const [key, count] of series.answers)
						this.inc({ method: METHODS[key & 7], route: series.route, status: String(key >> 3) }, count);
				}
			},
		});
		new ScrapedHistogram(
			{
				name: 'gitstead_http_request_duration_seconds',
				help: 'Seconds from the request to its answer having been sent, by method and route template.',
				labelNames: ['method', 'route'],
				buckets: REQUEST_BUCKETS,
				registry,
			},
			function* () {
				for (const series of routes.values()) {
					for (let m = 0; m < METHODS.length; m++) {
						const counts = series.durations[m];
						if (counts) yield [{ method: METHODS[m], route: series.route }, counts];
					}
				}
			},
		);
		const rateLimitRejections = new Counter({
			name: 'gitstead_rate_limit_rejections_total',
			help: 'Requests refused because their rate limit was spent (403), by rate-limit resource.',
			labelNames: ['resource'],
			registers,
		});
		new Gauge({
			name: 'gitstead_webhook_queue_depth',
			help: 'Webhook deliveries waiting for an attempt (new, and failed ones awaiting their retry).',
			registers,
			collect() {
				this.set(sources.pendingDeliveries());
			},
		});
		const deliveryFailures = new Counter({
			name: 'gitstead_webhook_delivery_failures_total',
			help: 'Failed webhook delivery attempts (no 2xx answer); final="true" when no retry follows (the delivery failed for good).',
			labelNames: ['final'],
			registers,
		});
		const deliveryDurations = new Histogram({
			name: 'gitstead_webhook_delivery_duration_seconds',
			help: 'Seconds a webhook delivery attempt took (connecting, sending, reading the answer), by outcome (success: 2xx).',
			labelNames: ['outcome'],
			buckets: DELIVERY_BUCKETS,
			registers,
		});
		new Gauge({
			name: 'gitstead_background_tasks_queued',
			help: 'Background tasks queued (due now or waiting for a retry).',
			registers,
			collect() {
				this.set(sources.taskBacklog().queued);
			},
		});
		new Gauge({
			name: 'gitstead_background_tasks_due',
			help: 'Background tasks queued and due now (not yet run).',
			registers,
			collect() {
				this.set(sources.taskBacklog().due);
			},
		});
		new Gauge({
			name: 'gitstead_database_size_bytes',
			help: 'Size of the SQLite database file, in bytes.',
			registers,
			collect() {
				this.set(fileSize(sources.databaseFile));
			},
		});
		new Gauge({
			name: 'gitstead_database_wal_size_bytes',
			help: "Size of the database's write-ahead log (-wal file), in bytes; a checkpoint folds it back.",
			registers,
			collect() {
				this.set(fileSize(`${sources.databaseFile}-wal`));
			},
		});
		new Gauge({
			name: 'gitstead_data_disk_free_bytes',
			help: 'Bytes available to Gitstead on the disk holding the data folder.',
			registers,
			collect() {
				const stats = statfsSync(sources.dataDir);
				this.set(stats.bavail * stats.bsize);
			},
		});
		this.prom = { prom, registry, rateLimitRejections, deliveryFailures, deliveryDurations };
		return this.prom;
	}

	/**
	 * Counts one answer: gitstead_http_requests_total and gitstead_http_request_duration_seconds.
	 * @param route a route template (e.g. /repos/{owner}/{repo}/issues) or UNMATCHED
	 * @param seconds from the request's arrival to its answer having been sent
	 */
	observeRequest(method: string | undefined, route: string, status: number, seconds: number): void {
		let series = this.routes.get(route);
		if (series === undefined) this.routes.set(route, (series = new RouteSeries(route)));
		const m = methodIndex(method);
		const key = status * 8 + m;
		series.answers.set(key, (series.answers.get(key) ?? 0) + 1);
		const counts = series.durations[m] ?? (series.durations[m] = new Float64Array(REQUEST_BUCKETS.length + 2));
		let i = 0;
		while (i < REQUEST_BUCKETS.length && seconds > REQUEST_BUCKETS[i]) i++;
		counts[i]++;
		counts[REQUEST_BUCKETS.length + 1] += seconds;
	}

	/** Counts a request refused because its rate limit is spent (src/http/pipeline.ts). */
	rateLimitRejected(resource: string): void {
		if (this.enabled) this.metrics().rateLimitRejections.inc({ resource });
	}

	/**
	 * Counts a webhook delivery attempt (src/webhooks/index.ts WebhookDeps.observeAttempt).
	 * @param seconds its duration
	 * @param ok the receiver answered 2xx
	 * @param final a failure after which no retry follows
	 */
	deliveryAttempt(seconds: number, ok: boolean, final: boolean): void {
		if (!this.enabled) return;
		const { deliveryDurations, deliveryFailures } = this.metrics();
		deliveryDurations.observe({ outcome: ok ? 'success' : 'failure' }, seconds);
		if (!ok) deliveryFailures.inc({ final: final ? 'true' : 'false' });
	}

	/** Whether an Authorization header satisfies `[metrics] token` (constant-time comparison of digests). */
	authorized(header: string | undefined): boolean {
		if (this.tokenDigest === null) return true;
		const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
		return match !== null && timingSafeEqual(sha256(match[1]), this.tokenDigest);
	}

	/** Every metric in Prometheus' text format (prom-client's defaults registered on the first call). */
	async render(): Promise<string> {
		const { prom, registry } = this.metrics();
		if (!this.defaultMetrics) {
			this.defaultMetrics = true;
			prom.collectDefaultMetrics({ register: registry });
		}
		return registry.metrics();
	}

	/**
	 * Answers GET or HEAD /metrics: 200 in Prometheus' text format, 401 with `WWW-Authenticate:
	 * Bearer` when a token is configured and the request does not carry it, 500 when a gauge cannot
	 * be read (e.g. the database is closed).
	 */
	serve(req: IncomingMessage, res: ServerResponse): void {
		const headers: Record<string, string> = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };
		if (!this.authorized(req.headers.authorization)) {
			headers['WWW-Authenticate'] = 'Bearer realm="gitstead metrics"';
			return answerText(req, res, 401, headers, 'GET /metrics requires Authorization: Bearer <token> ([metrics] token).\n');
		}
		this.render().then(
			(text) => answerText(req, res, 200, { ...headers, 'Content-Type': this.registry.contentType }, text),
			(error: unknown) => answerText(req, res, 500, headers, `metrics unavailable: ${(error as Error).message}\n`),
		);
	}
}

/** The prom-client metrics of one application (Metrics.metrics()). */
interface PromMetrics {
	prom: typeof PromClient;
	registry: Registry;
	rateLimitRejections: Counter<'resource'>;
	deliveryFailures: Counter<'final'>;
	deliveryDurations: Histogram<'outcome'>;
}

/** A text answer (HEAD: the same headers, no body). */
function answerText(req: IncomingMessage, res: ServerResponse, status: number, headers: Record<string, string>, text: string): void {
	if (res.headersSent) return;
	res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers, 'Content-Length': String(Buffer.byteLength(text)) });
	res.end(req.method === 'HEAD' ? undefined : text);
}

function sha256(text: string): Buffer {
	return createHash('sha256').update(text).digest();
}

/** A file's size in bytes; 0 when it does not exist (no WAL file between checkpoints on some systems). */
function fileSize(path: string): number {
	try {
		return statSync(path).size;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
		throw error;
	}
}
