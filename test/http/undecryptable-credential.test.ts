import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FieldCipher } from '../../src/lib/field-cipher.ts';
import { createLogger } from '../../src/logger.ts';
import { syncConnection } from '../../src/modules/sync/sync-engine.ts';
import { SandboxProvider } from '../../src/providers/sandbox/sandbox-provider.ts';
import { builders } from '../support/builders.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { waitFor } from '../support/wait.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.stop();
});

/** A connection whose credential was written under a key this service does not have (another process's generated secrets). */
const undecryptableConnection = () => builders({ ...app, cipher: new FieldCipher([{ id: app.cipher.keyIds[0]!, key: randomBytes(32) }]) }).connection({ status: 'INITIALIZING' });

const statusOf = async (connectionId: string) => (await app.sql('select status from connection where id = $1', [connectionId]))[0]!.status as string;

it('ends a sync whose credential does not decrypt in ERROR_SERVICE after one attempt: the job completes, nothing is retried', async () => {
  const connection = await undecryptableConnection();
  await app.service.connectionJobs.sync(connection.id);
  const [job] = await waitFor(async () => {
    const jobs = await app.sql(`select state, retry_count from pgboss.job where name = 'connection.sync' and data->>'connectionId' = $1`, [connection.id]);
    return jobs.some(({ state }) => state !== 'created' && state !== 'active') ? jobs : undefined;
  }, 'the sync job to settle');
  expect(job).toEqual({ state: 'completed', retry_count: 0 });
  expect(await statusOf(connection.id)).toBe('ERROR_SERVICE');
  const events = await app.sql(`select type from event where profile_id = $1`, [connection.profile.id]);
  expect(events.map(({ type }) => type)).toEqual(['connection.synced.errored.ERROR_SERVICE']);
});

it('logs one error line naming the connection (never the credential) when the connection enters ERROR_SERVICE, none on later attempts', async () => {
  const connection = await undecryptableConnection();
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line)) });
  const deps = { orm: app.orm, cipher: app.cipher, provider: async () => new SandboxProvider(), logger };
  await syncConnection(deps, connection.id);
  await syncConnection(deps, connection.id);
  expect(await statusOf(connection.id)).toBe('ERROR_SERVICE');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatchObject({ level: 50, connectionId: connection.id, msg: expect.stringMatching(/stored credential does not decrypt with this ENCRYPTION_KEYS/) });
  expect(lines[0]!.reason).toMatch(new RegExp(`^cannot decrypt credential of record ${connection.id}: authentication failed`));
  expect(JSON.stringify(lines[0])).not.toContain(connection.credentialEncrypted);
});
