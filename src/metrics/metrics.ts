import type pg from 'pg';
import type { components } from '../../generated/rest.ts';
import { queryStats } from '../db/query-stats.ts';
import { encodeId } from '../lib/ids.ts';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What one database pool holds right now; pg's Pool and pg-boss's poolCounts() both give these. */
export interface PoolCounts {
  /** Connections open, busy or idle. */
  total: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
  max: number;
}

/** Jobs of one pg-boss queue by state, as pg-boss last counted them. */
export interface QueueCounts {
  name: string;
  readyCount: number;
  deferredCount: number;
  activeCount: number;
}

/** What the console's health page shows (contracts/rest.yaml, MetricsSummary). */
export type MetricsSummary = components['schemas']['MetricsSummary'];
type SyncRunTally = components['schemas']['SyncRunTally'];

/** Sync runs of one environment, provider and outcome (`SUCCEEDED`…) that started in the last hour and the last day and have ended. */
export interface SyncRunCount {
  environmentId: string;
  provider: string;
  outcome: string;
  lastHour: number;
  lastDay: number;
}

/** One environment's webhook attempts owed: due now, and scheduled for later. */
export interface WebhookBacklog {
  environmentId: string;
  due: number;
  scheduled: number;
}

/**
 * The figures every process reads from the database alike (so every process's `/metrics` and every
 * summary agree, whichever answers): of one environment (its internal id) or, without one, of all.
 */
export interface SharedFigures {
  syncRuns(now: Date, environmentId?: string): Promise<SyncRunCount[]>;
  webhookBacklog(now: Date, environmentId?: string): Promise<WebhookBacklog[]>;
}

/** How one webhook attempt ended. */
export type WebhookOutcome = 'succeeded' | 'failed' | 'gone' | 'unreachable' | 'refused' | 'disabled';
/** Which attempt of a delivery: its first, a scheduled retry, or a redelivery someone asked for. */
export type WebhookAttemptKind = 'first' | 'retry' | 'redelivery';
/** Which kind of credential was checked. */
export type CredentialKind = 'api_key' | 'basic' | 'session' | 'operator';
/** Whose one-second window refused a request (100/s per credential, 25/s per address). */
export type RateLimitSubject = 'address' | 'api_key' | 'basic' | 'session' | 'operator' | 'credential_lookup';

/** GraphQL operation names are the client's choice: this many distinct ones are kept, later ones count as "other". */
export const MAX_OPERATION_NAMES = 100;
const MAX_OPERATION_NAME_LENGTH = 64;
const HTTP_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const LONG_SECONDS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900, 3600];
const LAG_SECONDS = [0.1, 0.5, 1, 2, 5, 10, 30, 60, 300, 1800, 3600, 6 * 3600, 24 * 3600, 3 * 24 * 3600];
const COSTS = [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000];

/**
 * The service's Prometheus metrics, in a registry of its own (several services in one process, as in
 * tests, never share one). The parts that do the work record through these methods, which keep every
 * label bounded: routes are the contract's path templates, names are capped, outcomes are fixed lists.
 * Pool and queue gauges are read when scraped. README.md ("Metrics") documents each metric.
 */
export class Metrics {
  readonly #registry = new Registry();
  readonly #since = new Date();
  readonly #operationNames = new Set<string>();
  readonly #pools = new Map<string, () => PoolCounts | null>();
  #queues: (() => Promise<QueueCounts[]>) | undefined;
  #shared: SharedFigures | undefined;
  readonly #now: () => Date;

  readonly #http = new Histogram({
    name: 'tributary_http_request_duration_seconds',
    help: 'HTTP requests by method, route (the contract path template) and status, and how long they took',
    labelNames: ['method', 'route', 'status'],
    buckets: SECONDS,
    registers: [this.#registry],
  });
  readonly #graphqlOperations = new Counter({
    name: 'tributary_graphql_operations_total',
    help: 'GraphQL operations run, by type and operation name',
    labelNames: ['type', 'name'],
    registers: [this.#registry],
  });
  readonly #graphqlCost = new Histogram({
    name: 'tributary_graphql_operation_cost',
    help: 'Cost of GraphQL operations run (the measure the cost limit applies to), by type and operation name',
    labelNames: ['type', 'name'],
    buckets: COSTS,
    registers: [this.#registry],
  });
  readonly #graphqlRefusals = new Counter({
    name: 'tributary_graphql_refusals_total',
    help: 'GraphQL operations refused before running: invalid documents, documents over a limit, and unknown operation names',
    registers: [this.#registry],
  });
  readonly #rateLimited = new Counter({
    name: 'tributary_rate_limit_refusals_total',
    help: 'Requests refused with 429 by the per-second rate limits, by whose window refused them',
    labelNames: ['subject'],
    registers: [this.#registry],
  });
  readonly #rateLimitFallbacks = new Counter({
    name: 'tributary_rate_limit_fallbacks_total',
    help: 'Times the rate limits fell back from windows shared in Redis to counting in this process (Redis unreachable, erring or slower than 1 s)',
    registers: [this.#registry],
  });
  readonly #jobs = new Histogram({
    name: 'tributary_job_duration_seconds',
    help: 'Background jobs run by this process, by queue and outcome, and how long they took',
    labelNames: ['queue', 'outcome'],
    buckets: LONG_SECONDS,
    registers: [this.#registry],
  });
  readonly #syncs = new Histogram({
    name: 'tributary_sync_duration_seconds',
    help: 'Connection syncs by provider and outcome, and how long they took',
    labelNames: ['provider', 'outcome'],
    buckets: LONG_SECONDS,
    registers: [this.#registry],
  });
  readonly #syncPages = new Counter({
    name: 'tributary_sync_pages_total',
    help: 'Pages of transactions applied by syncs, by provider',
    labelNames: ['provider'],
    registers: [this.#registry],
  });
  readonly #syncTransactions = new Counter({
    name: 'tributary_sync_transactions_total',
    help: 'Transactions changed by syncs, by provider and change (added, modified, removed)',
    labelNames: ['provider', 'change'],
    registers: [this.#registry],
  });
  readonly #droppedTransactions = new Counter({
    name: 'tributary_sync_transactions_dropped_total',
    help: 'Transactions a sync could not store because the connection has no such account (each drop is logged), by provider',
    labelNames: ['provider'],
    registers: [this.#registry],
  });
  readonly #unmatchedInvestments = new Counter({
    name: 'tributary_sync_investments_unmatched_total',
    help:
      'Holdings and investment transactions a sync found naming an account the connection does not have or a security the snapshot does not describe (each sync with any is logged), ' +
      'by provider, record (holding, investment_transaction) and what is missing (account, security): all are left out but investment transactions of an unknown security, kept without it',
    labelNames: ['provider', 'record', 'missing'],
    registers: [this.#registry],
  });
  readonly #leftOut = new Counter({
    name: 'tributary_sync_left_out_total',
    help: 'Values a sync left out because the upstream reported them in a form Tributary cannot store exactly (each logged), by provider and what: a transaction, a balance figure, an original amount',
    labelNames: ['provider', 'what'],
    registers: [this.#registry],
  });
  readonly #webhookAttempts = new Counter({
    name: 'tributary_webhook_attempts_total',
    help: 'Webhook delivery attempts by outcome',
    labelNames: ['outcome'],
    registers: [this.#registry],
  });
  readonly #webhookLag = new Histogram({
    name: 'tributary_webhook_delivery_lag_seconds',
    help: 'Time from an event to an attempt to deliver it, by attempt kind (first, retry, redelivery)',
    labelNames: ['attempt'],
    buckets: LAG_SECONDS,
    registers: [this.#registry],
  });
  readonly #credentialChecks = new Counter({
    name: 'tributary_credential_checks_total',
    help: 'Credentials checked, by kind and by what answered: memory (this process knew the answer) or database (a lookup ran)',
    labelNames: ['kind', 'answer'],
    registers: [this.#registry],
  });

  readonly #liveFeedOutages = new Counter({
    name: 'tributary_live_feed_outages_total',
    help: "Times this process lost its live-update feed (the database's LISTEN connection); its subscriptions were ended",
    registers: [this.#registry],
  });
  readonly #liveSockets = new Gauge({
    name: 'tributary_live_sockets',
    help: 'Live-update connections (WebSocket and SSE) this process holds',
    registers: [this.#registry],
  });
  readonly #liveCutOffs = new Counter({
    name: 'tributary_live_cut_offs_total',
    help: 'Live-update connections this process closed, by reason (credential, limit, slow consumer, feed outage)',
    labelNames: ['reason'],
    registers: [this.#registry],
  });

  /** With `processMetrics`, also Node's own (CPU, memory, event loop lag, GC: prom-client's defaults, unprefixed). */
  /** `now`: the service's clock, which the sync-run windows and the webhook backlog are read at. */
  constructor(options: { processMetrics?: boolean; now?: () => Date } = {}) {
    const now = options.now ?? (() => new Date());
    this.#now = now;
    const pools = this.#pools;
    new Gauge({
      name: 'tributary_db_pool_connections',
      help: 'Connections of each PostgreSQL pool of this process, by state (busy, idle)',
      labelNames: ['pool', 'state'],
      registers: [this.#registry],
      collect() {
        this.reset();
        for (const [pool, counts] of readPools(pools)) {
          this.set({ pool, state: 'busy' }, counts.total - counts.idle);
          this.set({ pool, state: 'idle' }, counts.idle);
        }
      },
    });
    new Gauge({
      name: 'tributary_db_pool_waiting',
      help: 'Queries waiting for a connection of each PostgreSQL pool of this process',
      labelNames: ['pool'],
      registers: [this.#registry],
      collect() {
        this.reset();
        for (const [pool, counts] of readPools(pools)) this.set({ pool }, counts.waiting);
      },
    });
    new Gauge({
      name: 'tributary_db_pool_max',
      help: 'Connections each PostgreSQL pool of this process may open',
      labelNames: ['pool'],
      registers: [this.#registry],
      collect() {
        this.reset();
        for (const [pool, counts] of readPools(pools)) this.set({ pool }, counts.max);
      },
    });
    // A scrape that failed would hide every other metric too (say while the database is down): the queue counts are left out instead.
    const queues = () => (this.#queues?.() ?? Promise.resolve([])).catch(() => []);
    new Gauge({
      name: 'tributary_job_queue_jobs',
      help: "Jobs waiting or running in each queue (cluster-wide), by state (ready, deferred, active), as of pg-boss's last count",
      labelNames: ['queue', 'state'],
      registers: [this.#registry],
      async collect() {
        this.reset();
        for (const queue of await queues()) {
          this.set({ queue: queue.name, state: 'ready' }, queue.readyCount);
          this.set({ queue: queue.name, state: 'deferred' }, queue.deferredCount);
          this.set({ queue: queue.name, state: 'active' }, queue.activeCount);
        }
      },
    });
    // Read from the database at each scrape (the same in every process): left out, like the queues, when that fails.
    const shared = <T>(read: (figures: SharedFigures) => Promise<T[]>): Promise<T[]> => (this.#shared ? read(this.#shared) : Promise.resolve([])).catch(() => []);
    new Gauge({
      name: 'tributary_sync_runs',
      help: 'Sync runs that started in the last hour or day (window 1h, 24h) and have ended, by environment, provider and outcome, from the sync history (cluster-wide, as of this scrape)',
      labelNames: ['environment', 'provider', 'outcome', 'window'],
      registers: [this.#registry],
      async collect() {
        this.reset();
        for (const row of await shared((figures) => figures.syncRuns(now()))) {
          const labels = { environment: encodeId('environment', row.environmentId), provider: row.provider, outcome: row.outcome.toLowerCase() };
          this.set({ ...labels, window: '1h' }, row.lastHour);
          this.set({ ...labels, window: '24h' }, row.lastDay);
        }
      },
    });
    new Gauge({
      name: 'tributary_webhook_backlog',
      help: 'Webhook attempts owed, by environment and state (due: waiting for a worker; scheduled: retries set for later), from the delivery log (cluster-wide, as of this scrape)',
      labelNames: ['environment', 'state'],
      registers: [this.#registry],
      async collect() {
        this.reset();
        for (const row of await shared((figures) => figures.webhookBacklog(now()))) {
          const environment = encodeId('environment', row.environmentId);
          this.set({ environment, state: 'due' }, row.due);
          this.set({ environment, state: 'scheduled' }, row.scheduled);
        }
      },
    });
    new Counter({
      name: 'tributary_db_statements_total',
      help: 'SQL statements sent through the ORMs by this process (requests, syncs and their page writes, jobs, the webhook relay; not pg-boss)',
      registers: [this.#registry],
      collect() {
        this.reset();
        this.inc(queryStats.statements);
      },
    });
    if (options.processMetrics) collectDefaultMetrics({ register: this.#registry });
  }

  /**
   * What the console's health page shows of one environment (its internal id), read by the same
   * functions as the gauges a scrape collects (so the two never disagree): its sync runs of the last
   * hour and day by provider, its webhook backlog, the job queues, and this process's rate-limit
   * fallbacks. Unlike a scrape, a failed read fails the summary.
   */
  async summary(environmentId: string): Promise<MetricsSummary> {
    if (!this.#shared) throw new Error('the shared figures are not being watched');
    const at = this.#now();
    const [runs, backlog, queues, fallbacks] = await Promise.all([
      this.#shared.syncRuns(at, environmentId),
      this.#shared.webhookBacklog(at, environmentId),
      this.#queues?.() ?? [],
      this.#rateLimitFallbacks.get(),
    ]);
    const syncs = new Map<string, MetricsSummary['syncs'][number]>();
    for (const row of runs) {
      const entry = syncs.get(row.provider) ?? { provider: row.provider, lastHour: noRuns(), lastDay: noRuns() };
      const outcome = row.outcome.toLowerCase() as keyof SyncRunTally;
      entry.lastHour[outcome] += row.lastHour;
      entry.lastDay[outcome] += row.lastDay;
      syncs.set(row.provider, entry);
    }
    return {
      at: at.toISOString(),
      syncs: [...syncs.values()].sort((a, b) => (a.provider < b.provider ? -1 : 1)),
      webhookBacklog: { due: backlog[0]?.due ?? 0, scheduled: backlog[0]?.scheduled ?? 0 },
      queues: queues.map((queue) => ({ name: queue.name, ready: queue.readyCount, deferred: queue.deferredCount, active: queue.activeCount })),
      rateLimitFallbacks: { count: fallbacks.values.reduce((sum, { value }) => sum + value, 0), since: this.#since.toISOString() },
    };
  }

  /** The registry in Prometheus's text format. */
  scrape(): Promise<string> {
    return this.#registry.metrics();
  }

  get contentType(): string {
    return this.#registry.contentType;
  }

  /** Reads this pool's counts on every scrape (null: the pool is closed). */
  watchPool(name: string, counts: () => PoolCounts | null): void {
    this.#pools.set(name, counts);
  }

  /** Reads the sync runs and webhook backlog from the database on every scrape and summary. */
  watchSharedFigures(figures: SharedFigures): void {
    this.#shared = figures;
  }

  /** Reads the job queues' counts on every scrape. */
  watchQueues(counts: () => Promise<QueueCounts[]>): void {
    this.#queues = counts;
  }

  /** `route`: the contract's path template, or undefined for a path outside the contract. */
  httpRequest(method: string, route: string | undefined, status: number, seconds: number): void {
    this.#http.observe({ method: HTTP_METHODS.has(method) ? method : 'other', route: route ?? 'unmatched', status: String(status) }, seconds);
  }

  /** An operation about to run (`type`: query, mutation or subscription); `name` undefined for an anonymous one. */
  graphqlOperation(type: string, name: string | undefined, cost: number): void {
    const labels = { type, name: this.#operationName(name) };
    this.#graphqlOperations.inc(labels);
    this.#graphqlCost.observe(labels, cost);
  }

  graphqlRefusal(): void {
    this.#graphqlRefusals.inc();
  }

  rateLimitRefusal(subject: RateLimitSubject): void {
    this.#rateLimited.inc({ subject });
  }

  liveFeedOutage(): void {
    this.#liveFeedOutages.inc();
  }

  /** A live-update connection opened (+1) or closed (-1). */
  liveSocket(change: 1 | -1): void {
    this.#liveSockets.inc(change);
  }

  liveCutOff(reason: 'credential' | 'limit' | 'slow_consumer' | 'feed_outage'): void {
    this.#liveCutOffs.inc({ reason });
  }

  rateLimitFallback(): void {
    this.#rateLimitFallbacks.inc();
  }

  jobFinished(queue: string, outcome: 'completed' | 'failed', seconds: number): void {
    this.#jobs.observe({ queue, outcome }, seconds);
  }

  /** `outcome`: synced, failed (the connection went to an error state, or Tributary failed) or deferred (the upstream is busy). */
  syncFinished(provider: string, outcome: 'synced' | 'failed' | 'deferred', seconds: number): void {
    this.#syncs.observe({ provider, outcome }, seconds);
  }

  pageApplied(provider: string, changes: { added: number; modified: number; removed: number }): void {
    this.#syncPages.inc({ provider });
    for (const change of ['added', 'modified', 'removed'] as const) this.#syncTransactions.inc({ provider, change }, changes[change]);
  }

  /** Transactions of a page left out: the upstream named an account the connection does not have. */
  transactionsDropped(provider: string, count: number): void {
    this.#droppedTransactions.inc({ provider }, count);
  }

  /** Holdings or investment transactions of a snapshot that name an account or a security it cannot be matched to. */
  investmentsUnmatched(provider: string, record: 'holding' | 'investment_transaction', missing: 'account' | 'security', count: number): void {
    this.#unmatchedInvestments.inc({ provider, record, missing }, count);
  }

  /** Values of a sync's snapshot left out: the upstream reported them in a form Tributary cannot store exactly. */
  leftOut(provider: string, what: 'transaction' | 'balance' | 'original_amount', count: number): void {
    this.#leftOut.inc({ provider, what }, count);
  }

  /** `lagSeconds`: from the event to this attempt; undefined when nothing was sent (the subscription is disabled). */
  webhookAttempt(outcome: WebhookOutcome, attempt: WebhookAttemptKind, lagSeconds: number | undefined): void {
    this.#webhookAttempts.inc({ outcome });
    if (lagSeconds !== undefined) this.#webhookLag.observe({ attempt }, lagSeconds);
  }

  credentialCheck(kind: CredentialKind, answer: 'memory' | 'database'): void {
    this.#credentialChecks.inc({ kind, answer });
  }

  #operationName(name: string | undefined): string {
    if (name === undefined) return 'anonymous';
    if (this.#operationNames.has(name)) return name;
    if (name.length > MAX_OPERATION_NAME_LENGTH || this.#operationNames.size >= MAX_OPERATION_NAMES) return 'other';
    this.#operationNames.add(name);
    return name;
  }
}

function noRuns(): SyncRunTally {
  return { succeeded: 0, failed: 0, deferred: 0, cancelled: 0 };
}

function readPools(pools: Map<string, () => PoolCounts | null>): Array<[string, PoolCounts]> {
  return [...pools].flatMap(([name, counts]) => {
    const read = counts();
    return read ? [[name, read] as [string, PoolCounts]] : [];
  });
}

/** A pg Pool's counts, for watchPool. */
export function pgPoolCounts(pool: pg.Pool): PoolCounts | null {
  return pool.ended ? null : { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max ?? 10 };
}
