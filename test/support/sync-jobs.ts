import { decodeId } from '../../src/lib/ids.ts';
import type { TestApp } from './test-app.ts';
import { waitFor } from './wait.ts';

/**
 * Waits until no sync job of the connection (its public id) is queued or running: a refused one is
 * over, and a finished one has done what its job does after the sync's outcome commits (forgetting
 * a link's presence, ending a refresh), which a status read as SYNCED may come before.
 */
export async function syncJobsDone(app: TestApp, connectionId: string): Promise<void> {
  await waitFor(async () => {
    const [row] = await app.sql(`select count(*)::int as open from pgboss.job where name = 'connection.sync' and singleton_key = $1 and state in ('created', 'retry', 'active')`, [decodeId('connection', connectionId)]);
    return row.open === 0 ? true : undefined;
  }, `the sync jobs of ${connectionId} to end`, 60_000);
}
