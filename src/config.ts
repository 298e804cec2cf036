import path from 'node:path';
import { MIN_SESSION_SECRET_LENGTH, parseSessionKeys, type NamedSessionKey } from './lib/session-keys.ts';

/**
 * The shortest LOG_RETENTION_DAYS: the longest a delivery's retries can stretch (RETRY_HORIZON_DAYS
 * of the webhook retry policy, held equal by its unit test), so that no event is dropped while an
 * attempt of it may still come.
 */
export const MIN_LOG_RETENTION_DAYS = 8;

/** API versions this build can serve, newest first. */
export const SUPPORTED_VERSIONS = ['2026-04-01'] as const;
export const CURRENT_VERSION = SUPPORTED_VERSIONS[0];

const ROLES = ['all', 'api', 'worker'] as const;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const NODE_ENVS = ['development', 'production', 'test'] as const;
const BLOB_DRIVERS = ['fs', 's3'] as const;
const OIDC_REQUIRED = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const;
const OIDC_OPTIONAL = ['OIDC_SCOPES', 'OIDC_NAME', 'OIDC_CA_FILE'] as const;
const S3_SETTINGS = ['S3_ENDPOINT', 'S3_REGION', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE', 'S3_CA_FILE'] as const;

export type LogLevel = (typeof LOG_LEVELS)[number];
/** `api` serves HTTPS and queues work; `worker` runs jobs, cron and the webhook relay; `all` does both. */
export type Role = (typeof ROLES)[number];
export type NodeEnv = (typeof NODE_ENVS)[number];

export interface Config {
  nodeEnv: NodeEnv;
  host: string;
  port: number;
  dataDir: string;
  /** Absent: start the embedded PostgreSQL under dataDir. */
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  tls: { certFile: string; keyFile: string } | undefined;
  trustProxy: boolean;
  /** Proxies in front of the service (TRUST_PROXY=true): the client address is the X-Forwarded-For entry this many from the right. */
  trustProxyHops: number;
  connections: ConnectionLimits;
  logLevel: LogLevel;
  /** `kid:base64key` pairs; the first encrypts, all decrypt. Absent: a generated key under dataDir. */
  encryptionKeys: string | undefined;
  /**
   * SESSION_KEYS: the session tokens' keys, newest first; the first signs, all verify the tokens that
   * name them. Absent: SESSION_SECRET signs.
   */
  sessionKeys: NamedSessionKey[] | undefined;
  /** SESSION_SECRET: verifies tokens that name no key, and signs while SESSION_KEYS is absent. Neither set: a generated secret under dataDir. */
  sessionSecret: string | undefined;
  /** Webhook targets may resolve to private, loopback or link-local addresses (default outside production). */
  webhookAllowPrivate: boolean;
  /** Extra CA certificates (PEM file) trusted for webhook targets, on top of the system's. */
  webhookCaFile: string | undefined;
  /** This service's public https origin (upstream providers send webhooks there). Absent: the listening URL. */
  publicUrl: string | undefined;
  /** Plaid Link's script, loaded by the connect page. */
  plaidLinkScriptUrl: string;
  /** Extra CA certificates (PEM file) trusted for upstream providers' APIs, besides the system's. */
  providerCaFile: string | undefined;
  recovery: RecoveryTimings;
  role: Role;
  /** How far back a new sandbox connection's history reaches (days). */
  sandboxHistoryDays: number;
  /** `connection.consent_expiring` goes out this many days before an end-user's consent ends. */
  consentWarningDays: number;
  /** Balances taken longer ago than this are removed daily, except each account's latest. */
  balanceRetentionDays: number;
  /** LOG_RETENTION_DAYS: how long the event log, webhook attempts and sync history keep an entry (dropped a week at a time). */
  logRetentionDays: number;
  /** Session rows are deleted this many days after they expire (docs/decisions/sessions-retention.md). */
  sessionRetentionDays: number;
  /** AUDIT_RETENTION_DAYS: how long the operators' audit log keeps an entry (dropped a week at a time). */
  auditRetentionDays: number;
  /** OPERATOR_EMAIL: the first operator's email, used once, when the database has no operator. */
  firstOperatorEmail: string;
  /** Apply pending migrations at start (under an advisory lock); off: refuse to start on an unmigrated database. */
  migrateOnStart: boolean;
  /** Reads that may lag a little (GraphQL queries, REST GETs) go here when set. */
  databaseReplicaUrl: string | undefined;
  pools: PoolSettings;
  /** Prometheus metrics on a plain-HTTP port of their own (METRICS_PORT); absent: not served. */
  metrics: MetricsSettings | undefined;
  /** Where statements (PDFs) are kept, encrypted: BLOB_STORE=fs under DATA_DIR/blobs (the default), or s3 (S3_*). */
  blobStore: { driver: 'fs' } | { driver: 's3'; s3: S3Settings };
  /** Operators' sign-in through an OpenID Connect provider (OIDC_*); absent: email and password only. */
  oidc: OidcSettings | undefined;
}

/** An OpenID Connect provider operators sign in through (docs/decisions/operators-oidc-sign-in.md). */
export interface OidcSettings {
  /** OIDC_ISSUER: the provider's issuer identifier (https), where its discovery document is read. */
  issuer: string;
  clientId: string;
  /** OIDC_CLIENT_SECRET: authenticates Tributary at the provider's token endpoint; never logged. */
  clientSecret: string;
  /** OIDC_SCOPES, space-separated; `openid` and `email` always among them. */
  scopes: string;
  /** OIDC_NAME: what the console's button calls the provider; default the issuer's host. */
  name: string;
  /** Extra CA certificates (PEM file) trusted for the provider, besides the system's. */
  caFile: string | undefined;
}

/** BLOB_STORE=s3: a bucket of an S3-compatible store (AWS, MinIO, Garage, Ceph, R2…). */
export interface S3Settings {
  /** S3_ENDPOINT, the store's URL; absent: AWS's own endpoint for the region. */
  endpoint: string | undefined;
  region: string;
  bucket: string;
  accessKeyId: string;
  /** S3_SECRET_ACCESS_KEY: signs requests; never logged. */
  secretAccessKey: string;
  /** The bucket in the path (`https://host/bucket/key`) rather than in the host name: what self-hosted stores serve. */
  forcePathStyle: boolean;
  /** Extra CA certificates (PEM file) trusted for S3_ENDPOINT, besides the system's. */
  caFile: string | undefined;
}

/** Where `GET /metrics` is served. */
export interface MetricsSettings {
  /** Loopback unless set; any other address needs a token. */
  host: string;
  port: number;
  /** When set, a scrape must send `Authorization: Bearer <token>`. */
  token: string | undefined;
}

/** PostgreSQL connections one process may open, and how long one statement may run. */
export interface PoolSettings {
  /** The ORM's pool: requests, webhook delivery, profile deletion. */
  orm: number;
  /** The sync ORM's pool: every statement of syncs, balance refreshes and disconnections. */
  sync: number;
  /** pg-boss's own pool (fetching, completing, sending jobs). */
  jobs: number;
  /** The read replica's pool, when one is configured. */
  replica: number;
  statementTimeoutMs: number;
}

/** How soon work interrupted by a crash is taken up again. */
export interface RecoveryTimings {
  /** A job whose worker has not reported for this long (its process died) is retried; workers report every half of it. */
  jobHeartbeatSeconds: number;
  /** A job still running after this long is taken as hung and retried, even while its worker reports. */
  jobTimeoutSeconds: number;
  /** Where a failed job's retries start backing off from: pg-boss roughly doubles the wait each time, with jitter. */
  jobRetryDelaySeconds: number;
  /** A connection left INITIALIZING, SYNCING or DISCONNECTING this long without a job for it is queued again. */
  stuckConnectionSeconds: number;
  /** How long start keeps retrying an embedded PostgreSQL that will not start yet (a killed predecessor's processes still exiting). */
  embeddedPostgresStartSeconds: number;
}

/** What a client gets before the service closes its connection, and how many it may hold open. */
export interface ConnectionLimits {
  /** From accepting the connection to its first byte, and then to the end of the TLS handshake. */
  handshakeTimeoutMs: number;
  /** From the start of a request to the end of its headers. */
  headersTimeoutMs: number;
  /** From the start of a request to the end of its body. */
  requestTimeoutMs: number;
  /** Idle time between requests on a kept-alive connection. */
  keepAliveTimeoutMs: number;
  /** Open connections one peer address may hold; 0: no cap. */
  maxPerAddress: number;
  /** A live-update WebSocket without a subscription this long is closed. */
  liveIdleTimeoutMs: number;
}

/** A configuration problem found at boot; the message names the variable. */
export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

/** Reads and validates the environment. The only reader of process.env in the service. */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const nodeEnv = oneOf(env, 'NODE_ENV', NODE_ENVS, 'development', problems);
  const certFile = env.TLS_CERT_FILE || undefined;
  const keyFile = env.TLS_KEY_FILE || undefined;
  if (Boolean(certFile) !== Boolean(keyFile)) {
    problems.push('TLS_CERT_FILE and TLS_KEY_FILE must be set together');
  }
  const trustProxy = boolean(env, 'TRUST_PROXY', false, problems);
  const config: Config = {
    nodeEnv,
    host: env.HOST || '127.0.0.1',
    port: integer(env, 'PORT', 8443, 0, 65535, problems),
    dataDir: path.resolve(env.DATA_DIR || '.data'),
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:'], problems),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:'], problems),
    tls: certFile && keyFile ? { certFile: path.resolve(certFile), keyFile: path.resolve(keyFile) } : undefined,
    trustProxy,
    trustProxyHops: integer(env, 'TRUST_PROXY_HOPS', 1, 1, 10, problems),
    connections: {
      handshakeTimeoutMs: integer(env, 'HANDSHAKE_TIMEOUT_MS', 10_000, 1_000, 600_000, problems),
      headersTimeoutMs: integer(env, 'HEADERS_TIMEOUT_MS', 10_000, 1_000, 600_000, problems),
      requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', 30_000, 1_000, 600_000, problems),
      keepAliveTimeoutMs: integer(env, 'KEEP_ALIVE_TIMEOUT_MS', 5_000, 1_000, 600_000, problems),
      // Behind a proxy every connection comes from the proxy: capping per client is the proxy's job.
      maxPerAddress: integer(env, 'MAX_CONNECTIONS_PER_ADDRESS', trustProxy ? 0 : 64, 0, 100_000, problems),
      liveIdleTimeoutMs: integer(env, 'LIVE_IDLE_TIMEOUT_MS', 60_000, 1_000, 3_600_000, problems),
    },
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, nodeEnv === 'test' ? 'silent' : 'info', problems),
    encryptionKeys: env.ENCRYPTION_KEYS || undefined,
    sessionKeys: env.SESSION_KEYS ? sessionKeys(env.SESSION_KEYS, problems) : undefined,
    sessionSecret: env.SESSION_SECRET || undefined,
    webhookAllowPrivate: boolean(env, 'WEBHOOK_ALLOW_PRIVATE', nodeEnv !== 'production', problems),
    webhookCaFile: env.WEBHOOK_CA_FILE ? path.resolve(env.WEBHOOK_CA_FILE) : undefined,
    publicUrl: url(env, 'PUBLIC_URL', ['https:'], problems)?.replace(/\/+$/, ''),
    plaidLinkScriptUrl: url(env, 'PLAID_LINK_SCRIPT_URL', ['https:'], problems) ?? 'https://cdn.plaid.com/link/v2/stable/link-initialize.js',
    providerCaFile: env.PROVIDER_CA_FILE ? path.resolve(env.PROVIDER_CA_FILE) : undefined,
    recovery: {
      // pg-boss accepts heartbeats of 10 s or more, and expiries of at most 24 hours.
      jobHeartbeatSeconds: integer(env, 'JOB_HEARTBEAT_SECONDS', 10, 10, 3600, problems),
      jobTimeoutSeconds: integer(env, 'JOB_TIMEOUT_SECONDS', 6 * 3600, 60, 24 * 3600, problems),
      jobRetryDelaySeconds: integer(env, 'JOB_RETRY_DELAY_SECONDS', 5, 1, 3600, problems),
      stuckConnectionSeconds: integer(env, 'STUCK_CONNECTION_SECONDS', 120, 1, 24 * 3600, problems),
      embeddedPostgresStartSeconds: integer(env, 'EMBEDDED_POSTGRES_START_SECONDS', 30, 1, 3600, problems),
    },
    role: oneOf(env, 'ROLE', ROLES, 'all', problems),
    sandboxHistoryDays: integer(env, 'SANDBOX_HISTORY_DAYS', 730, 7, 3650, problems),
    consentWarningDays: integer(env, 'CONSENT_WARNING_DAYS', 7, 1, 60, problems),
    balanceRetentionDays: integer(env, 'BALANCE_RETENTION_DAYS', 400, 1, 36_500, problems),
    sessionRetentionDays: integer(env, 'SESSION_RETENTION_DAYS', 30, 1, 3650, problems),
    logRetentionDays: integer(env, 'LOG_RETENTION_DAYS', 30, MIN_LOG_RETENTION_DAYS, 3650, problems),
    auditRetentionDays: integer(env, 'AUDIT_RETENTION_DAYS', 400, 30, 3650, problems),
    firstOperatorEmail: email(env, 'OPERATOR_EMAIL', 'admin@tributary.local', problems),
    migrateOnStart: boolean(env, 'MIGRATE_ON_START', true, problems),
    databaseReplicaUrl: url(env, 'DATABASE_REPLICA_URL', ['postgres:', 'postgresql:'], problems),
    // Defaults keep one `all` process under 20 connections: 8 + 4 + 4, plus pg-boss's LISTEN connection.
    pools: {
      orm: integer(env, 'DB_POOL_MAX', 8, 1, 200, problems),
      sync: integer(env, 'SYNC_POOL_MAX', 4, 1, 100, problems),
      jobs: integer(env, 'JOB_POOL_MAX', 4, 1, 100, problems),
      replica: integer(env, 'REPLICA_POOL_MAX', 8, 1, 200, problems),
      statementTimeoutMs: integer(env, 'STATEMENT_TIMEOUT_MS', 30_000, 1000, 3_600_000, problems),
    },
    metrics: env.METRICS_PORT
      ? { host: env.METRICS_HOST || '127.0.0.1', port: integer(env, 'METRICS_PORT', 0, 0, 65535, problems), token: env.METRICS_TOKEN || undefined }
      : undefined,
    blobStore: oneOf(env, 'BLOB_STORE', BLOB_DRIVERS, 'fs', problems) === 's3' ? { driver: 's3', s3: s3Settings(env, problems) } : { driver: 'fs' },
    oidc: oidcSettings(env, problems),
  };
  if (config.sessionSecret !== undefined && config.sessionSecret.length < MIN_SESSION_SECRET_LENGTH) {
    problems.push(`SESSION_SECRET must be at least ${MIN_SESSION_SECRET_LENGTH} characters`);
  }
  if (env.TRUST_PROXY_HOPS && !trustProxy) problems.push('TRUST_PROXY_HOPS applies only with TRUST_PROXY=true');
  problems.push(...metricsProblems(env, config));
  if (config.blobStore.driver === 'fs') problems.push(...S3_SETTINGS.filter((name) => env[name]).map((name) => `${name} applies only with BLOB_STORE=s3`));
  if (config.connections.headersTimeoutMs > config.connections.requestTimeoutMs) {
    problems.push('HEADERS_TIMEOUT_MS must not be longer than REQUEST_TIMEOUT_MS');
  }
  if (nodeEnv === 'production') {
    if (!env.ENCRYPTION_KEYS) problems.push('ENCRYPTION_KEYS is required when NODE_ENV=production');
    if (!env.SESSION_KEYS && !env.SESSION_SECRET) problems.push('SESSION_KEYS (or SESSION_SECRET) is required when NODE_ENV=production');
    if (!env.DATABASE_URL) problems.push('DATABASE_URL is required when NODE_ENV=production');
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  return config;
}

/** Metrics are never public by default: off unless METRICS_PORT is set, and off loopback only with a token. */
function metricsProblems(env: Env, config: Config): string[] {
  const { metrics } = config;
  if (!metrics) return ['METRICS_HOST', 'METRICS_TOKEN'].filter((name) => env[name]).map((name) => `${name} applies only with METRICS_PORT set`);
  const problems: string[] = [];
  if (metrics.token !== undefined && metrics.token.length < 32) problems.push('METRICS_TOKEN must be at least 32 characters');
  const loopback = metrics.host === 'localhost' || metrics.host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(metrics.host);
  if (!loopback && metrics.token === undefined) problems.push('METRICS_TOKEN is required when METRICS_HOST is not a loopback address');
  if (metrics.port !== 0 && metrics.port === config.port) problems.push('METRICS_PORT must differ from PORT');
  return problems;
}

/** Off unless OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are all set; one without the others, or an option without them, stops the start. */
function oidcSettings(env: Env, problems: string[]): OidcSettings | undefined {
  const set = OIDC_REQUIRED.filter((name) => env[name]);
  if (set.length === 0) {
    problems.push(...OIDC_OPTIONAL.filter((name) => env[name]).map((name) => `${name} applies only with OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET set`));
    return undefined;
  }
  problems.push(...OIDC_REQUIRED.filter((name) => !env[name]).map((name) => `${name} is required when ${set.join(' and ')} ${set.length > 1 ? 'are' : 'is'} set`));
  const issuer = url(env, 'OIDC_ISSUER', ['https:'], problems) ?? '';
  const scopes = new Set((env.OIDC_SCOPES || 'openid email').split(/\s+/).filter(Boolean));
  for (const needed of ['openid', 'email']) scopes.add(needed);
  return {
    issuer,
    clientId: env.OIDC_CLIENT_ID ?? '',
    clientSecret: env.OIDC_CLIENT_SECRET ?? '',
    scopes: [...scopes].join(' '),
    name: env.OIDC_NAME || (issuer ? new URL(issuer).host : ''),
    caFile: env.OIDC_CA_FILE ? path.resolve(env.OIDC_CA_FILE) : undefined,
  };
}

/** S3_BUCKET and the access key are required; the region defaults to us-east-1, which most self-hosted stores accept. */
function s3Settings(env: Env, problems: string[]): S3Settings {
  for (const name of ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY']) {
    if (!env[name]) problems.push(`${name} is required when BLOB_STORE=s3`);
  }
  const bucket = env.S3_BUCKET ?? '';
  if (bucket && !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) problems.push(`S3_BUCKET must be 3-63 lowercase letters, digits, "." and "-", got "${bucket}"`);
  const region = env.S3_REGION || 'us-east-1';
  if (!/^[A-Za-z0-9-]{1,64}$/.test(region)) problems.push(`S3_REGION must be letters, digits and "-", got "${region}"`);
  return {
    endpoint: url(env, 'S3_ENDPOINT', ['https:', 'http:'], problems)?.replace(/\/+$/, ''),
    region,
    bucket,
    accessKeyId: env.S3_ACCESS_KEY_ID ?? '',
    secretAccessKey: env.S3_SECRET_ACCESS_KEY ?? '',
    forcePathStyle: boolean(env, 'S3_FORCE_PATH_STYLE', true, problems),
    caFile: env.S3_CA_FILE ? path.resolve(env.S3_CA_FILE) : undefined,
  };
}

function sessionKeys(list: string, problems: string[]): NamedSessionKey[] {
  const parsed = parseSessionKeys(list);
  problems.push(...parsed.problems);
  return parsed.keys;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number, problems: string[]): number {
  const raw = env[name];
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    problems.push(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

function boolean(env: Env, name: string, fallback: boolean, problems: string[]): boolean {
  const raw = env[name];
  if (!raw) return fallback;
  if (raw !== 'true' && raw !== 'false') problems.push(`${name} must be "true" or "false", got "${raw}"`);
  return raw === 'true';
}

function oneOf<T extends string>(env: Env, name: string, values: readonly T[], fallback: T, problems: string[]): T {
  const raw = env[name];
  if (!raw) return fallback;
  if (!values.includes(raw as T)) problems.push(`${name} must be one of ${values.join(', ')}, got "${raw}"`);
  return raw as T;
}

function email(env: Env, name: string, fallback: string, problems: string[]): string {
  const value = env[name] || fallback;
  if (!/^[^\s@]+@[^\s@]+$/.test(value)) problems.push(`${name} must be an email address`);
  return value.toLowerCase();
}

function url(env: Env, name: string, protocols: string[], problems: string[]): string | undefined {
  const raw = env[name];
  if (!raw) return undefined;
  try {
    if (protocols.includes(new URL(raw).protocol)) return raw;
  } catch {
    // reported below
  }
  problems.push(`${name} must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`);
  return undefined;
}
