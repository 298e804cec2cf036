import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo, Server } from 'node:net';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { GraphQLSchema } from 'graphql';
import type { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { resolveDatabase } from './db/database.ts';
import { checkKeys } from './db/key-check.ts';
import { closeWithin, migrate, openDatabase, openReplica, openSyncDatabase, underStartupLock } from './orm/orm.ts';
import { buildSchema, graphqlApi } from './graphql/server.ts';
import { DocumentCache } from './graphql/documents.ts';
import { LIVE_LIMITS, liveSockets, type LiveSockets } from './graphql/live-sockets.ts';
import { LiveSeats } from './graphql/live-seats.ts';
import { CredentialWatch } from './graphql/credential-watch.ts';
import { liveStream } from './graphql/live-stream.ts';
import type { Middleware } from 'koa';
import type { AppState } from './http/state.ts';
import { NotificationChannel } from './db/notification-channel.ts';
import { eventById } from './modules/event/event.store.ts';
import { EVENTS_CHANNEL, LiveEvents } from './modules/event/live-events.ts';
import { createApp } from './http/app.ts';
import { createListener } from './http/listener.ts';
import { DatabaseOutage, takesWrites } from './db/database-outage.ts';
import { loadTls, type TlsMaterial } from './http/tls.ts';
import { startQueue } from './jobs/queue.ts';
import { requestClientAddress } from './http/client-address.ts';
import { CredentialResolver } from './http/credentials.ts';
import { admitCredentialLookup } from './http/rate-limit.ts';
import { EndedSessions } from './http/ended-sessions.ts';
import { listenForRevocations, RevocationFeed } from './http/revocation-feed.ts';
import { FixedWindowLimiter, MemoryCounterStore, RedisCounterStore, type CounterMode } from './lib/fixed-window.ts';
import type { FieldCipher } from './lib/field-cipher.ts';
import { SessionTokens } from './modules/session/session-token.ts';
import { sessionHandlers } from './modules/session/session.handlers.ts';
import { endedSessionIds } from './modules/session/session.store.ts';
import { bootstrap, type BootstrapResult } from './modules/environment/bootstrap.ts';
import { healthHandlers } from './http/health/health.handlers.ts';
import { environmentHandlers } from './modules/environment/environment.handlers.ts';
import { PROFILE_DELETION, profileDeletionJob } from './modules/profile/profile-deletion.job.ts';
import { balanceRetentionJob } from './modules/balance/balance-retention.ts';
import { profileHandlers } from './modules/profile/profile.handlers.ts';
import { accountHandlers } from './modules/account/account.handlers.ts';
import { connectionHandlers } from './modules/connection/connection.handlers.ts';
import { connectionSyncHandlers } from './modules/sync/connection-sync.handlers.ts';
import { ConnectionJobs } from './modules/sync/connection.jobs.ts';
import { StatementJobs } from './modules/statement/statement.jobs.ts';
import { statementHandlers } from './modules/statement/statement.handlers.ts';
import { CategorizationJobs } from './modules/categorization/categorization.jobs.ts';
import { categorizationHandlers } from './modules/categorization/categorization.handlers.ts';
import { connectionSweepJob } from './modules/sync/connection-sweeper.ts';
import { consentSweepJob } from './modules/connection/consent-sweeper.ts';
import { sessionRetentionJob } from './modules/session/session-retention.ts';
import { ATTEMPT_LOG, EVENT_LOG } from './modules/webhook/attempt-retention.ts';
import { SYNC_HISTORY_LOG, syncRunCounts } from './modules/sync/connection-sync.store.ts';
import { webhookBacklog } from './modules/webhook/webhook-backlog.ts';
import { logRetentionJob } from './db/log-retention.ts';
import { linkingHandlers } from './modules/linking/linking.handlers.ts';
import { connectorPage } from './pages/connector/connector-page.ts';
import { sandboxBankPage } from './pages/sandbox-bank/sandbox-bank-page.ts';
import { consolePages } from './pages/console/console-pages.ts';
import { sandboxHandlers } from './modules/linking/sandbox.handlers.ts';
import { ProviderDirectory } from './providers/directory.ts';
import { providerFactories } from './providers/factories.ts';
import { ProviderSettings } from './modules/environment/provider-settings.service.ts';
import { Linking } from './modules/linking/linking.ts';
import { providerWebhookHandlers } from './modules/linking/provider-webhooks.ts';
import { SandboxProvider } from './providers/sandbox/sandbox-provider.ts';
import { eventHandlers } from './modules/event/event.handlers.ts';
import { openAttemptQueue } from './modules/webhook/attempt-queue.ts';
import { WebhookDeliveries } from './modules/webhook/delivery.ts';
import { webhookHandlers } from './modules/webhook/webhook.handlers.ts';
import { restApi, type HandlerTable } from './rest/dispatch.ts';
import { operatorHandlers } from './modules/operator/operator.handlers.ts';
import { OperatorSessions } from './modules/operator/operator-sessions.ts';
import { createFirstOperator, type FirstOperator } from './modules/operator/first-operator.ts';
import { auditLog } from './modules/operator/audit.store.ts';
import { SIGN_IN_WINDOW_MS } from './modules/operator/sign-in.ts';
import { OidcClient } from './modules/operator/oidc-client.ts';
import { clientAddressKey } from './http/client-address.ts';
import { loadSecrets, type Secrets } from './secrets.ts';
import type { BlobStore } from './blobs/blob-store.ts';
import { EncryptedBlobStore } from './blobs/encrypted-blob-store.ts';
import { openBlobDriver } from './blobs/open-blob-store.ts';
import { Metrics, pgPoolCounts } from './metrics/metrics.ts';
import { startMetricsServer } from './metrics/metrics-server.ts';

export interface RunningService {
  /** Where it serves HTTPS; empty for a `worker`. */
  url: string;
  port: number;
  orm: MikroORM;
  boss: PgBoss;
  tls: TlsMaterial;
  bootstrap: BootstrapResult;
  /** The first operator's sign-in: present only on the start that created them (shown this once). */
  firstOperator: FirstOperator | undefined;
  /** Provider-facing background work (syncs, refreshes), for operators' tools and tests. */
  connectionJobs: ConnectionJobs;
  /** Webhook relay and delivery attempts. */
  webhooks: WebhookDeliveries;
  /** Where `GET /metrics` is served (plain HTTP); undefined unless METRICS_PORT is set. */
  metricsPort: number | undefined;
  /** Statements' bytes (BLOB_STORE): plaintext in and out, encrypted at rest under the field keys. */
  blobs: BlobStore;
  /** Graceful stop: refuse new connections, drain requests, stop jobs, close the database. */
  stop(): Promise<void>;
}

/** The composition root: database, migrations, bootstrap, jobs, and the HTTPS listener. */
export interface ServiceOptions {
  /** The sandbox institutions' clock (tests move it to make new activity appear). */
  sandboxNow?: () => Date;
  /** The sandbox's seed for a new connection (tests fix it to get a known household); random by default. */
  sandboxSeed?: () => string;
  /**
   * The operator console's built files (scripts/console-build.ts); by default dist/console, which
   * `npm run build` writes beside the compiled service.
   */
  consoleDir?: string;
  /** The service's clock: the console's sessions and every rate limit's windows (tests move it past lifetimes and windows). */
  now?: () => Date;
}

const BUILT_CONSOLE = fileURLToPath(new URL('../console/', import.meta.url));

export async function startService(config: Config, logger: Logger, options: ServiceOptions = {}): Promise<RunningService> {
  const secrets = loadSecrets(config);
  const serving = config.role !== 'worker';
  const blobDriver = await openBlobDriver(config);
  const blobs = new EncryptedBlobStore(blobDriver, secrets.cipher);
  const databases = await openDatabases(config, logger, serving, secrets);
  const { orm } = databases;
  const sandbox = new SandboxProvider({ now: options.sandboxNow, seed: options.sandboxSeed, historyDays: config.sandboxHistoryDays });
  const providers = new ProviderDirectory({
    builtIn: [sandbox],
    factories: providerFactories(config),
    settingsOf: (environmentId, name) => new ProviderSettings(orm.em.fork(), secrets.cipher).read(environmentId, name),
    configured: (environmentId) => new ProviderSettings(orm.em.fork(), secrets.cipher).configured(environmentId),
  });
  // Recorded whether or not they are served: a registry nobody scrapes costs next to nothing.
  const metrics = new Metrics({ processMetrics: config.metrics !== undefined, now: options.now });
  await watchPools(metrics, databases);
  const outage = new DatabaseOutage(() => takesWrites(orm), logger);
  const work = await startBackgroundWork({ config, logger, databases, cipher: secrets.cipher, blobs, providers, metrics, outage });
  const tls = await loadTls(config);
  const counters = config.redisUrl ? await RedisCounterStore.open(config.redisUrl, logger, () => metrics.rateLimitFallback()) : new MemoryCounterStore();
  const tokens = new SessionTokens(secrets.sessionKeys);
  // Only a serving process checks credentials, so only it listens for their revocations.
  const revocations = serving ? new RevocationFeed() : undefined;
  // Loaded from the primary, like every credential lookup: a replica's lag would hide what the feed announced.
  const ended = revocations && new EndedSessions(revocations, (issuedAfter, now) => endedSessionIds(orm.em.fork(), issuedAfter, now), logger);
  const operatorSessions = new OperatorSessions(options.now);
  const credentials = new CredentialResolver(tokens, metrics, revocations, ended, operatorSessions);
  const revocationFeed = revocations && (await listenForRevocations(databases.database.url, revocations, logger));
  const linking = new Linking({ providers, jobs: work.connectionJobs, publicUrl: config.publicUrl, logger });
  const schema = buildSchema();
  const hideSuggestions = config.nodeEnv !== 'development';
  // Every limit's windows follow the service's clock (ServiceOptions.now), as the console's sessions do.
  const clockMs = () => operatorSessions.now().getTime();
  const limiter = new FixedWindowLimiter(counters, 1000, clockMs);
  // One credential-lookup budget per client address for every door: HTTP counts it in `identify`, a WebSocket's connection_init here.
  const admitLookup = (request: IncomingMessage) => admitCredentialLookup(limiter, metrics, requestClientAddress(request, config.trustProxy, config.trustProxyHops));
  const live = serving ? await startLiveUpdates({ config, logger, databases, metrics, credentials, admitLookup, cipher: secrets.cipher, schema, hideSuggestions, outage }) : undefined;
  const operatorConsole = consolePages(options.consoleDir ?? BUILT_CONSOLE);
  if (serving && operatorConsole.missing) logger.info('the operator console is not built (npm run build): /console answers 404');
  const signInLimiter = new FixedWindowLimiter(counters, SIGN_IN_WINDOW_MS, clockMs);
  const oidc = config.oidc && new OidcClient(config.oidc);
  const operators = operatorHandlers({ cipher: secrets.cipher, sessions: operatorSessions, signInLimiter, addressKey: clientAddressKey, auditRetentionDays: config.auditRetentionDays, oidc, publicUrl: config.publicUrl });
  const handlers = restHandlers({ config, cipher: secrets.cipher, blobs, providers, sandbox, linking, work, tokens, credentials, outage, metrics, rateLimits: () => counters.mode, operators });
  const app = createApp({
    logger,
    orm,
    replica: databases.replica,
    trustProxy: config.trustProxy,
    trustProxyHops: config.trustProxyHops,
    credentials,
    limiter,
    graphql: graphqlApi({ cipher: secrets.cipher, publicUrl: config.publicUrl, logger, hideSuggestions, metrics, schema, corrections: work.categorizationJobs, outage }),
    graphqlStream: live?.stream,
    rest: restApi(handlers),
    metrics,
    outage,
    operatorConsole: operatorConsole.middleware,
    publicUrl: config.publicUrl,
    now: operatorSessions.now,
  });
  // A `worker` serves nothing: it runs jobs, cron and the webhook relay. Koa answers every error
  // itself (ctx.onerror), so the promise its request handler returns never rejects.
  const handle = app.callback();
  const listener = serving ? createListener(tls, (req, res) => void handle(req, res), config.connections, live?.sockets.upgrade) : undefined;
  const address = listener ? await listen(listener.server, config) : { url: '', port: 0 };
  const metricsServer = config.metrics ? await startMetricsServer(metrics, config.metrics, logger) : undefined;

  return {
    ...address,
    orm,
    boss: work.boss,
    tls,
    bootstrap: databases.bootstrapped,
    firstOperator: databases.firstOperator,
    connectionJobs: work.connectionJobs,
    webhooks: work.webhooks,
    metricsPort: metricsServer?.port,
    blobs,
    async stop() {
      await metricsServer?.close();
      // Upgraded sockets hold the listener open: they close first.
      await live?.stop();
      ended?.stop();
      await revocationFeed?.stop();
      if (listener) {
        await new Promise<void>((resolve) => {
          listener.server.close(() => resolve());
          listener.closeIdle();
        });
      }
      await work.webhooks.stop();
      await work.boss.stop({ graceful: true, timeout: 10_000 });
      // A job still running past the graceful stop (a long first sync) is cut off by the databases
      // closing; pg-boss runs it again after its heartbeat lapses, on whichever process is up.
      outage.closing();
      await counters.close();
      blobDriver.close?.();
      await closeDatabases(databases, logger);
    },
  };
}

interface Databases {
  database: { url: string; stop(): Promise<void> };
  /** The primary's ORM, for requests and most jobs. */
  orm: MikroORM;
  /** The sync jobs' own pool, so long syncs cannot starve requests. */
  syncOrm: MikroORM;
  /** The read replica's ORM, when DATABASE_REPLICA_URL is set and this process serves requests. */
  replica: MikroORM | undefined;
  bootstrapped: BootstrapResult;
  firstOperator: FirstOperator | undefined;
}

/** The database (migrated under the startup lock when asked), its ORMs, and the bootstrap environment. */
async function openDatabases(config: Config, logger: Logger, serving: boolean, secrets: Secrets): Promise<Databases> {
  const database = await resolveDatabase(config, logger);
  const { orm, bootstrapped, firstOperator } = await underStartupLock(database.url, async () => {
    if (config.migrateOnStart) await migrate(database.url, logger);
    const opened = await openDatabase(database.url, { poolMax: config.pools.orm, statementTimeoutMs: config.pools.statementTimeoutMs });
    try {
      await checkKeys(opened.em.fork(), secrets);
    } catch (error) {
      await opened.close();
      throw error;
    }
    // Only a process that serves creates the bootstrap environment: it is the one that prints the key.
    if (!serving) return { orm: opened, bootstrapped: { file: path.join(config.dataDir, 'bootstrap.json') }, firstOperator: undefined };
    return { orm: opened, bootstrapped: await bootstrap(opened, config.dataDir), firstOperator: await createFirstOperator(opened, secrets.cipher, config.firstOperatorEmail) };
  }).catch(async (error: unknown) => {
    // A process that refuses to start leaves no embedded PostgreSQL behind.
    await database.stop();
    throw error;
  });
  // Only requests read the replica: a `worker` never opens it.
  const replica =
    serving && config.databaseReplicaUrl ? await openReplica(config.databaseReplicaUrl, { poolMax: config.pools.replica, statementTimeoutMs: config.pools.statementTimeoutMs }) : undefined;
  const syncOrm = await openSyncDatabase(database.url, { poolMax: config.pools.sync, statementTimeoutMs: config.pools.statementTimeoutMs });
  return { database, orm, syncOrm, replica, bootstrapped, firstOperator };
}

async function closeDatabases({ database, orm, syncOrm, replica }: Databases, logger: Logger): Promise<void> {
  await closeWithin(syncOrm, 'sync', logger);
  if (replica) await closeWithin(replica, 'replica', logger);
  await closeWithin(orm, 'orm', logger);
  await database.stop();
}

/** Each ORM's connection pool, as gauges. */
async function watchPools(metrics: Metrics, { orm, syncOrm, replica }: Databases): Promise<void> {
  const pools: Array<[string, MikroORM | undefined]> = [
    ['orm', orm],
    ['sync', syncOrm],
    ['replica', replica],
  ];
  for (const [name, opened] of pools) {
    if (!opened) continue;
    const pool = await opened.em.getConnection().getNativeClient();
    metrics.watchPool(name, () => pgPoolCounts(pool));
  }
}

interface BackgroundWork {
  boss: PgBoss;
  connectionJobs: ConnectionJobs;
  statementJobs: StatementJobs;
  categorizationJobs: CategorizationJobs;
  webhooks: WebhookDeliveries;
}

/** The job queue with every job, and webhook delivery; jobs run only in a process that works (not `api`). */
async function startBackgroundWork(deps: {
  config: Config;
  logger: Logger;
  databases: Databases;
  cipher: FieldCipher;
  blobs: BlobStore;
  providers: ProviderDirectory;
  metrics: Metrics;
  outage: DatabaseOutage;
}): Promise<BackgroundWork> {
  const { config, logger, databases, cipher, blobs, providers, metrics, outage } = deps;
  const { orm } = databases;
  const working = config.role !== 'api';
  const provider = (name: string, environmentId: string) => providers.get(name, environmentId);
  const statementJobs = new StatementJobs({ orm, cipher, blobs, logger, provider });
  const connectionJobs = new ConnectionJobs({ orm: databases.syncOrm, cipher, provider, metrics, logger, queueStatementFetches: statementJobs.queueFetches });
  const sweep = connectionSweepJob({ orm, jobs: connectionJobs, logger, stuckAfterSeconds: config.recovery.stuckConnectionSeconds });
  const categorizationJobs = new CategorizationJobs(orm, logger);
  const logRetention = logRetentionJob({ orm, logger, retentionDays: config.logRetentionDays, logs: [EVENT_LOG, ATTEMPT_LOG, SYNC_HISTORY_LOG, auditLog(config.auditRetentionDays)] });
  const jobs = [
    profileDeletionJob(orm, blobs),
    ...connectionJobs.definitions(),
    ...statementJobs.definitions(),
    sweep,
    ...categorizationJobs.definitions(),
    consentSweepJob({ orm, warningDays: config.consentWarningDays }),
    sessionRetentionJob({ orm, retentionDays: config.sessionRetentionDays }),
    balanceRetentionJob(orm, config.balanceRetentionDays),
    logRetention,
  ];
  const boss = await startQueue(databases.database.url, jobs, logger, config.recovery, {
    work: working,
    poolMax: config.pools.jobs,
    migrate: config.migrateOnStart,
    metrics,
    outage,
  });
  metrics.watchPool('jobs', () => boss.getDb().poolCounts?.() ?? null);
  metrics.watchQueues(() => boss.getQueues());
  // From the primary, as every process writes them: a replica's lag would set two processes' figures apart.
  metrics.watchSharedFigures({
    syncRuns: (now, environmentId) => syncRunCounts(orm.em.fork(), now, environmentId),
    webhookBacklog: (now, environmentId) => webhookBacklog(orm.em.fork(), now, environmentId),
  });
  connectionJobs.attach(boss);
  statementJobs.attach(boss);
  categorizationJobs.attach(boss);
  if (working) await categorizationJobs.reenrichIfBehind();
  // No singleton key: the cron's runs have none, and the queue's policy keeps one run at a time among those.
  if (working) await boss.send(logRetention.name, {});
  const attemptQueue = await openAttemptQueue(boss);
  const webhooks = new WebhookDeliveries({ orm, cipher, logger, allowPrivate: config.webhookAllowPrivate, caFile: config.webhookCaFile, enqueue: attemptQueue.add, metrics, outage });
  if (working) webhooks.start(attemptQueue);
  return { boss, connectionJobs, statementJobs, categorizationJobs, webhooks };
}

/** Every REST operation's handler, each module's given what it needs. */
function restHandlers(deps: {
  config: Config;
  cipher: FieldCipher;
  blobs: BlobStore;
  providers: ProviderDirectory;
  sandbox: SandboxProvider;
  linking: Linking;
  work: BackgroundWork;
  tokens: SessionTokens;
  credentials: CredentialResolver;
  outage: DatabaseOutage;
  metrics: Metrics;
  rateLimits: () => CounterMode;
  operators: ReturnType<typeof operatorHandlers>;
}): HandlerTable {
  const { config, cipher, blobs, providers, sandbox, linking, work, tokens, credentials, outage, metrics, rateLimits, operators } = deps;
  const jobs = work.connectionJobs;
  return {
    ...healthHandlers({ rateLimits, outage, metrics }),
    ...environmentHandlers({ cipher, factories: providerFactories(config), publicUrl: config.publicUrl }),
    ...profileHandlers({
      cipher,
      scheduleDeletion: async (profileId, db) => {
        await work.boss.send(PROFILE_DELETION, { profileId }, { db });
      },
    }),
    ...sessionHandlers({ cipher, tokens, credentials }),
    ...accountHandlers({ cipher, providers, jobs }),
    ...connectionHandlers({ cipher, jobs, providers }),
    ...connectionSyncHandlers({ cipher }),
    ...sandboxHandlers({ cipher, sandbox, linking, consentRules: { warningDays: config.consentWarningDays } }),
    ...linkingHandlers({ cipher, linking }),
    ...connectorPage({ plaidLinkScriptUrl: config.plaidLinkScriptUrl }),
    ...sandboxBankPage({ sandbox }),
    ...providerWebhookHandlers({ providers, jobs, statements: work.statementJobs }),
    ...statementHandlers({ cipher, blobs, providers, jobs: work.statementJobs }),
    ...eventHandlers({ retentionDays: config.logRetentionDays }),
    ...webhookHandlers({ cipher, allowPrivate: config.webhookAllowPrivate, deliveries: work.webhooks }),
    ...categorizationHandlers({ jobs: work.categorizationJobs }),
    ...operators,
  };
}

interface LiveUpdates {
  sockets: LiveSockets;
  stream: Middleware<AppState>;
  stop(): Promise<void>;
}

/**
 * Subscriptions' feed and transports: the database's announcements of committed events, fanned out
 * to this process's subscribers (docs/decisions/live-updates-postgres-notify.md), over graphql-ws
 * and graphql-sse.
 */
async function startLiveUpdates(deps: {
  config: Config;
  logger: Logger;
  databases: Databases;
  metrics: Metrics;
  credentials: CredentialResolver;
  admitLookup: (request: IncomingMessage) => Promise<void>;
  cipher: FieldCipher;
  schema: GraphQLSchema;
  hideSuggestions: boolean;
  outage: DatabaseOutage;
}): Promise<LiveUpdates> {
  const { config, logger, databases, metrics, credentials, admitLookup, cipher, schema, hideSuggestions, outage } = deps;
  const { orm } = databases;
  const events = new LiveEvents({ load: (eventId) => eventById(orm.em.fork(), eventId), logger, lost: () => metrics.liveFeedOutage() });
  const channel = new NotificationChannel(databases.database.url, { channel: EVENTS_CHANNEL, applicationName: 'tributary-live', label: 'Live-update' }, events, logger);
  await channel.open();
  const documents = new DocumentCache(schema, { hideSuggestions });
  const watch = new CredentialWatch(credentials, orm, logger);
  const seats = new LiveSeats(LIVE_LIMITS.connectionsPerProfile);
  const sockets = liveSockets({ schema, documents, orm, live: events, cipher, logger, outage, publicUrl: config.publicUrl, credentials, admitLookup, watch, seats, metrics, capPerAddress: !config.trustProxy, idleMs: config.connections.liveIdleTimeoutMs });
  const stream = liveStream({ schema, documents, orm, live: events, cipher, logger, outage, publicUrl: config.publicUrl, watch, seats, metrics });
  return {
    sockets,
    stream: stream.middleware,
    async stop() {
      watch.stop();
      stream.close();
      await sockets.close();
      await channel.close();
    },
  };
}

/** Listens on HOST:PORT; the URL names localhost for a loopback or wildcard host. */
async function listen(server: Server, config: Config): Promise<{ url: string; port: number }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, resolve);
  });
  const port = (server.address() as AddressInfo).port;
  const host = config.host === '127.0.0.1' || config.host === '0.0.0.0' ? 'localhost' : config.host;
  return { url: `https://${host}:${port}`, port };
}
