import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeId } from '../../src/lib/ids.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { waitFor } from '../support/wait.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.stop());

describe('npm run seed', () => {
  it('writes profiles with synced sandbox connections that keep syncing afterwards', async () => {
    const environmentId = app.service.bootstrap.created!.environmentId;
    const { stdout } = await promisify(execFile)(process.execPath, ['scripts/seed.ts', '--profiles', '12', '--transactions', '1000', '--environment', environmentId], {
      env: { ...process.env, DATABASE_URL: app.databaseUrl, DATA_DIR: app.dataDir, NODE_ENV: 'test' },
    });
    expect(stdout).toContain('seeded 12 profiles and 1000 transactions');
    const [counts] = await app.sql(
      `select (select count(*)::int from profile) as profiles, (select count(*)::int from transaction) as transactions,
              (select count(*)::int from connection where status = 'SYNCED') as connections,
              (select count(*)::int from account where latest_balance_id is null) as accounts_without_balance`,
    );
    expect(counts).toEqual({ profiles: 12, transactions: 1000, connections: 12, accounts_without_balance: 0 });

    // A seeded connection is an ordinary one: its stored cursor and credentials work for the next sync.
    const [connection] = await app.sql('select id from connection limit 1');
    const refresh = await app.http.post(`/v1/connections/${encodeId('connection', connection.id)}/transactions/refresh`, { auth: app.apiKey });
    expect(refresh.status).toBe(202);
    const settled = await waitFor(async () => {
      const [row] = await app.sql('select status, refresh_started_at from connection where id = $1', [connection.id]);
      return row.refresh_started_at === null ? row : undefined;
    }, 'the refresh to finish');
    expect(settled.status).toBe('SYNCED');
  });
});
