import type { PgBoss } from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { DatabaseOutage } from '../../src/db/database-outage.ts';
import { jobsIn } from '../../src/jobs/in-transaction.ts';
import { startQueue } from '../../src/jobs/queue.ts';
import { createLogger } from '../../src/logger.ts';
import { Metrics } from '../../src/metrics/metrics.ts';
import { ConnectionJobs } from '../../src/modules/sync/connection.jobs.ts';
import { ConnectionService } from '../../src/modules/connection/connection.service.ts';
import { SandboxProvider } from '../../src/providers/sandbox/sandbox-provider.ts';
import type { Builders } from '../support/builders.ts';
import { withServiceTier } from '../support/service-tier.ts';
import type { TestDatabase } from '../support/test-database.ts';
import { waitFor } from '../support/wait.ts';

let db: TestDatabase;
let build: Builders;
let jobs: ConnectionJobs;
let boss: PgBoss | undefined;
const sandbox = new SandboxProvider();

withServiceTier((tier) => ({ db, build } = tier));

// The connection jobs on a queue that works them, as a worker process runs them (after the database is open; stopped before it closes).
beforeAll(async () => {
  jobs = new ConnectionJobs({ orm: db.orm, cipher: db.cipher, provider: async () => sandbox });
  const { recovery } = loadConfig({ NODE_ENV: 'test' });
  boss = await startQueue(db.url, jobs.definitions(), createLogger('silent'), recovery, { work: true, poolMax: 2, migrate: false, metrics: new Metrics(), outage: new DatabaseOutage(async () => {}, createLogger('silent')) });
  jobs.attach(boss);
});
afterAll(() => boss?.stop({ graceful: false, close: true }));

const connections = () => new ConnectionService(db.em(), db.cipher, { environmentId: db.environmentId });
const link = () => sandbox.completeLink({ institutionId: 'ins_houndstooth', username: 'user_good', password: 'pass_good', products: undefined, webhookUrl: '' });
const jobsFor = (connectionId: string) => db.sql(`select state from pgboss.job where name = 'connection.sync' and data->>'connectionId' = $1`, [connectionId]);
const synced = async (connectionId: string) => ((await db.sql('select status from connection where id = $1', [connectionId]))[0].status === 'SYNCED' ? true : undefined);

describe('jobs are part of the transaction that needs them', () => {
  it('a connection and its first sync commit together: when the transaction fails after the send, neither exists', async () => {
    let sentFor: string | undefined;
    await expect(
      connections().create(await build.profile(), 'sandbox', await link(), async (connection, tx) => {
        await jobs.sync(connection.id, { db: jobsIn(tx) });
        sentFor = connection.id;
        throw new Error('the process died right after the send');
      }),
    ).rejects.toThrow('died');
    expect(sentFor).toBeDefined();
    expect(await db.sql('select 1 from connection where id = $1', [sentFor])).toHaveLength(0);
    expect(await jobsFor(sentFor!)).toHaveLength(0);
  });

  it('commits both otherwise, and the worker syncs the connection', async () => {
    const connection = await connections().create(await build.profile(), 'sandbox', await link(), (created, tx) => jobs.sync(created.id, { db: jobsIn(tx) }));
    expect((await jobsFor(connection.id)).length).toBe(1);
    await waitFor(() => synced(connection.id), 'the sync');
  });

  it('a second sync sent while one is queued joins it: one sync per connection at a time', async () => {
    const connection = await connections().create(await build.profile(), 'sandbox', await link());
    await Promise.all(Array.from({ length: 10 }, () => jobs.sync(connection.id)));
    const queued = (await jobsFor(connection.id)).filter((job) => job.state === 'created' || job.state === 'active' || job.state === 'retry');
    expect(queued.length).toBeLessThanOrEqual(2);
    await waitFor(() => synced(connection.id), 'the sync');
  });
});
