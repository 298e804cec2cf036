import { execFile, spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort, startEmbeddedPostgres } from '../../src/db/embedded-postgres.ts';
import { runOnce } from '../../src/db/scratch.ts';
import { createLogger } from '../../src/logger.ts';
import { waitFor } from './wait.ts';

export interface StreamingReplication {
  /** The database on the primary. */
  primaryUrl: string;
  /** The same database on the hot standby (read-only). */
  standbyUrl: string;
  /** Stops applying WAL on the standby (it keeps receiving it): its reads stay as they are now. */
  pauseReplay(): Promise<void>;
  /** Applies WAL again, and waits until the standby has caught up. */
  resumeReplay(): Promise<void>;
  /** Waits until the standby has replayed everything the primary has written so far. */
  caughtUp(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A PostgreSQL primary with a hot standby fed by streaming replication, both from the embedded-postgres
 * binaries (the package ships no pg_basebackup, and another version's cannot copy this one). The base
 * backup is taken cold, as PostgreSQL's documentation allows: the primary is stopped cleanly, its
 * cluster copied as it is, then both start and the copy follows the primary over a replication
 * connection (initdb's pg_hba.conf admits those from 127.0.0.1 for the superuser).
 */
export async function startStreamingReplication(database: string): Promise<StreamingReplication> {
  const dir = mkdtempSync(path.join(tmpdir(), 'tributary-replication-'));
  const logger = createLogger('warn');
  const primaryDir = path.join(dir, 'primary');
  const standbyDir = path.join(dir, 'standby');
  const cleanup: Array<() => Promise<unknown>> = [async () => rmSync(dir, { recursive: true, force: true })];
  const stopAll = async () => {
    for (const step of cleanup.reverse()) await step().catch(() => undefined);
  };
  try {
    const initial = await startEmbeddedPostgres(primaryDir, logger);
    try {
      await runOnce(initial.adminUrl, `create database ${database}`);
    } finally {
      await initial.stop();
    }
    // -a keeps owners and modes: the copy belongs to whoever runs the cluster (`postgres` when we are root).
    await promisify(execFile)('cp', ['-a', primaryDir, standbyDir]);
    const primary = await startEmbeddedPostgres(primaryDir, logger);
    cleanup.push(() => primary.stop());
    const standby = await startStandby(path.join(standbyDir, 'cluster'), new URL(primary.adminUrl));
    cleanup.push(() => standby.stop());
    const admin = (url: string) => {
      const client = new pg.Client({ connectionString: url });
      cleanup.push(() => client.end());
      return client.connect().then(() => client);
    };
    const onPrimary = await admin(primary.adminUrl);
    const onStandby = await admin(standby.urlFor('postgres'));
    const value = async (client: pg.Client, sql: string, values: unknown[] = []) => (await client.query(sql, values)).rows[0].value;
    const caughtUp = async () => {
      const written = await value(onPrimary, 'select pg_current_wal_lsn()::text as value');
      await waitFor(async () => ((await value(onStandby, 'select pg_last_wal_replay_lsn() >= $1::pg_lsn as value', [written])) ? true : undefined), 'the standby to catch up');
    };
    return {
      primaryUrl: primary.urlFor(database),
      standbyUrl: standby.urlFor(database),
      async pauseReplay() {
        await onStandby.query('select pg_wal_replay_pause()');
        await waitFor(async () => ((await value(onStandby, 'select pg_get_wal_replay_pause_state() as value')) === 'paused' ? true : undefined), 'WAL replay to pause');
      },
      async resumeReplay() {
        await onStandby.query('select pg_wal_replay_resume()');
        await caughtUp();
      },
      caughtUp,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** Starts the copied cluster as a hot standby of `primary` on a free port; resolves once it accepts read-only connections. */
async function startStandby(clusterDir: string, primary: URL) {
  writeFileSync(path.join(clusterDir, 'standby.signal'), '');
  const password = decodeURIComponent(primary.password);
  appendFileSync(path.join(clusterDir, 'postgresql.auto.conf'), `primary_conninfo = 'host=127.0.0.1 port=${primary.port} user=postgres password=${password}'\n`);
  const { postgres } = (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as { postgres: string };
  const port = await freePort();
  const owner = statSync(clusterDir);
  // PostgreSQL refuses to run as root: as root, run it as the cluster's owner, like embedded-postgres does.
  const child = spawn(postgres, ['-D', clusterDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='], {
    ...(process.getuid?.() === 0 ? { uid: owner.uid, gid: owner.gid } : {}),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const urlFor = (database: string) => `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
    await exited;
  };
  try {
    await waitFor(async () => {
      if (child.exitCode !== null) throw new Error(`the standby exited: ${log}`);
      const client = new pg.Client({ connectionString: urlFor('postgres') });
      try {
        await client.connect();
        return (await client.query('select pg_is_in_recovery() as standby')).rows[0].standby === true ? true : undefined;
      } catch {
        return undefined;
      } finally {
        await client.end().catch(() => undefined);
      }
    }, 'the standby to accept connections');
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}; its log: ${log}`);
  }
  return { urlFor, stop };
}
