import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobsIn } from '../../src/jobs/in-transaction.ts';
import { decodeId } from '../../src/lib/ids.ts';
import { ConnectionService } from '../../src/modules/connection/connection.service.ts';
import { SandboxProvider } from '../../src/providers/sandbox/sandbox-provider.ts';
import { createProfile } from '../support/factories.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { waitFor } from '../support/wait.ts';

let app: TestApp;
let connections: () => ConnectionService;
const sandbox = new SandboxProvider();

beforeAll(async () => {
  app = await startTestApp();
  const { cipher } = app;
  const environmentId = decodeId('environment', app.service.bootstrap.created!.environmentId)!;
  connections = () => new ConnectionService(app.service.orm.em.fork(), cipher, { environmentId });
});
afterAll(() => app?.stop());

const link = () => sandbox.completeLink({ institutionId: 'ins_houndstooth', username: 'user_good', password: 'pass_good', products: undefined, webhookUrl: '' });
const jobsFor = (connectionId: string) => app.sql(`select state from pgboss.job where name = 'connection.sync' and data->>'connectionId' = $1`, [connectionId]);

describe('jobs are part of the transaction that needs them', () => {
  it('a connection and its first sync commit together: when the transaction fails after the send, neither exists', async () => {
    const profile = await createProfile(app);
    const service = connections();
    let sentFor: string | undefined;
    await expect(
      service.create(await service.profileFor(profile.id), 'sandbox', await link(), async (connection, tx) => {
        await app.service.connectionJobs.sync(connection.id, { db: jobsIn(tx) });
        sentFor = connection.id;
        throw new Error('the process died right after the send');
      }),
    ).rejects.toThrow('died');
    expect(sentFor).toBeDefined();
    expect(await app.sql('select 1 from connection where id = $1', [sentFor])).toHaveLength(0);
    expect(await jobsFor(sentFor!)).toHaveLength(0);
  });

  it('commits both otherwise, and the worker syncs the connection', async () => {
    const profile = await createProfile(app);
    const service = connections();
    const connection = await service.create(await service.profileFor(profile.id), 'sandbox', await link(), (created, tx) => app.service.connectionJobs.sync(created.id, { db: jobsIn(tx) }));
    expect((await jobsFor(connection.id)).length).toBe(1);
    await waitFor(async () => ((await app.sql('select status from connection where id = $1', [connection.id]))[0].status === 'SYNCED' ? true : undefined), 'the sync');
  });

  it('a second sync sent while one is queued joins it: one sync per connection at a time', async () => {
    const profile = await createProfile(app);
    const service = connections();
    const connection = await service.create(await service.profileFor(profile.id), 'sandbox', await link());
    await Promise.all(Array.from({ length: 10 }, () => app.service.connectionJobs.sync(connection.id)));
    const queued = (await jobsFor(connection.id)).filter((job) => job.state === 'created' || job.state === 'active' || job.state === 'retry');
    expect(queued.length).toBeLessThanOrEqual(2);
    await waitFor(async () => ((await app.sql('select status from connection where id = $1', [connection.id]))[0].status === 'SYNCED' ? true : undefined), 'the sync');
  });
});
