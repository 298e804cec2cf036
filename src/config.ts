import path from 'node:path';

/** API versions this build can serve, newest first. */
export const SUPPORTED_VERSIONS = ['2026-04-01'] as const;
export const CURRENT_VERSION = SUPPORTED_VERSIONS[0];

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const NODE_ENVS = ['development', 'production', 'test'] as const;

export type LogLevel = (typeof LOG_LEVELS)[number];
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
  logLevel: LogLevel;
  /** `kid:base64key` pairs; the first encrypts, all decrypt. Absent: a generated key under dataDir. */
  encryptionKeys: string | undefined;
  /** Absent: a generated secret under dataDir. */
  sessionSecret: string | undefined;
  /** Webhook targets may resolve to private, loopback or link-local addresses (default outside production). */
  webhookAllowPrivate: boolean;
  /** Extra CA certificates (PEM file) trusted for webhook targets, on top of the system's. */
  webhookCaFile: string | undefined;
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
  const config: Config = {
    nodeEnv,
    host: env.HOST || '127.0.0.1',
    port: integer(env, 'PORT', 8443, 0, 65535, problems),
    dataDir: path.resolve(env.DATA_DIR || '.data'),
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:'], problems),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:'], problems),
    tls: certFile && keyFile ? { certFile: path.resolve(certFile), keyFile: path.resolve(keyFile) } : undefined,
    trustProxy: boolean(env, 'TRUST_PROXY', false, problems),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, nodeEnv === 'test' ? 'silent' : 'info', problems),
    encryptionKeys: env.ENCRYPTION_KEYS || undefined,
    sessionSecret: env.SESSION_SECRET || undefined,
    webhookAllowPrivate: boolean(env, 'WEBHOOK_ALLOW_PRIVATE', nodeEnv !== 'production', problems),
    webhookCaFile: env.WEBHOOK_CA_FILE ? path.resolve(env.WEBHOOK_CA_FILE) : undefined,
  };
  if (config.sessionSecret !== undefined && config.sessionSecret.length < 32) {
    problems.push('SESSION_SECRET must be at least 32 characters');
  }
  if (nodeEnv === 'production') {
    for (const name of ['ENCRYPTION_KEYS', 'SESSION_SECRET', 'DATABASE_URL'] as const) {
      if (!env[name]) problems.push(`${name} is required when NODE_ENV=production`);
    }
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  return config;
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
