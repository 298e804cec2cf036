import { expect } from 'vitest';
import { decodeId } from '../../src/lib/ids.ts';
import { negate } from '../../src/providers/plaid/money.ts';
import { INSTITUTIONS, type FakePlaid } from '../fakes/plaid/index.ts';
import { basicAuth, createProfile } from './factories.ts';
import type { TestApp } from './test-app.ts';
import { waitFor } from './wait.ts';

/** A decimal without trailing fraction zeros: `-20.50` → `-20.5`, `-20.00` → `-20`. */
function canonical(decimal: string): string {
  return decimal.includes('.') ? decimal.replace(/0+$/, '').replace(/\.$/, '') : decimal;
}

/**
 * What the Plaid tests do with the service and the fake Plaid behind it; `started` gives both once
 * the test file's beforeAll started them (so the helpers can be taken at module level).
 */
export function plaidConnections(started: () => { app: TestApp; plaid: FakePlaid }) {
  async function connectionRow(connectionId: string) {
    const { app } = started();
    const [row] = await app.sql('select * from connection where id = $1', [decodeId('connection', connectionId)]);
    return row;
  }

  /**
   * Waits until the connection is in `status` with no sync running or queued to run now: a webhook
   * that arrived during a sync queues another, which would start right after the status reads SYNCED.
   */
  async function settled(connectionId: string, status = 'SYNCED') {
    const { app } = started();
    return waitFor(async () => {
      const row = await connectionRow(connectionId);
      if (row.status !== status || row.refresh_started_at) return undefined;
      const [{ open }] = await app.sql(
        `select count(*)::int as open from pgboss.job where name = 'connection.sync' and singleton_key = $1 and state in ('created', 'retry', 'active') and start_after <= now()`,
        [row.id],
      );
      return open === 0 ? row : undefined;
    }, `connection ${connectionId} to be ${status} with no sync to come`, 60_000);
  }

  /** A Plaid connection made server-to-server (Plaid's sandbox public token, exchanged), fully synced. */
  async function connectPlaid(overrides: Record<string, unknown> = {}) {
    const { app } = started();
    const profile = await createProfile(app);
    const response = await app.http.post('/v1/sandbox/connections', {
      auth: app.apiKey,
      json: { profileId: profile.id, provider: 'plaid', institutionId: INSTITUTIONS[0]!.id, username: 'user_good', password: 'pass_good', ...overrides },
    });
    expect(response.status).toBe(201);
    expect(response.body.provider).toBe('plaid');
    const row = await settled(response.body.id);
    return { profile, connection: response.body, itemId: row.remote_id as string, row };
  }

  async function stored(connectionId: string) {
    const { app } = started();
    return app.sql<{ id: string; remote_id: string; amount: string; status: string; metadata: unknown; remote_data: { plaid: unknown; enrichment?: { categories?: unknown[] } }; date: string }>(
      "select id, remote_id, amount::text, status, metadata, remote_data, to_char(date, 'YYYY-MM-DD') as date from transaction where connection_id = $1",
      [decodeId('connection', connectionId)],
    );
  }

  /** Stored transactions equal the institution's view: each once, Plaid's sign flipped exactly, same status. */
  async function expectSameAsInstitution(connectionId: string, itemId: string) {
    const { plaid } = started();
    const view = plaid.currentTransactions(itemId);
    const rows = await stored(connectionId);
    expect(new Set(rows.map((row) => row.remote_id)).size).toBe(rows.length);
    const byRemote = new Map(rows.map((row) => [row.remote_id, row]));
    expect(rows.length).toBe(view.length);
    for (const transaction of view) {
      const row = byRemote.get(transaction.transaction_id);
      expect(row, transaction.transaction_id).toBeDefined();
      expect(Number(row!.amount)).toBe(-transaction.amount);
      expect(canonical(row!.amount)).toBe(canonical(negate(String(transaction.amount))));
      expect(row!.status).toBe(transaction.pending ? 'PENDING' : 'POSTED');
      expect(row!.date).toBe(transaction.date);
    }
  }

  async function eventsOf(profileId: string, type: string) {
    const { app } = started();
    return app.sql('select payload from event where profile_id = $1 and type = $2 order by id', [decodeId('profile', profileId), type]);
  }

  async function graphqlResponse(profileId: string, query: string, variables: Record<string, unknown>) {
    const { app } = started();
    const response = await app.http.post('/v1/graphql', { auth: basicAuth(profileId, app.apiKey), json: { query, variables } });
    expect(response.status).toBe(200);
    return response;
  }

  async function graphql(profileId: string, query: string, variables: Record<string, unknown> = {}) {
    return (await graphqlResponse(profileId, query, variables)).body;
  }

  /**
   * Like `graphql`, every JSON number read as its text: a Decimal's digits exactly as sent
   * (`"0.0000005"`, not the float `5e-7`), to compare and add without floating point; no errors.
   */
  async function exactGraphql(profileId: string, query: string, variables: Record<string, unknown> = {}) {
    const { text } = await graphqlResponse(profileId, query, variables);
    const body = JSON.parse(text, (_key, value: unknown, context?: { source?: string }) => (typeof value === 'number' ? context!.source : value));
    expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
    return body;
  }

  async function sessionToken(profileId: string): Promise<string> {
    const { app } = started();
    const response = await app.http.post('/v1/users/sessions', { auth: app.apiKey, json: { userId: profileId } });
    expect(response.status).toBe(201);
    return `Bearer ${response.body.token}`;
  }

  return { connectionRow, settled, connectPlaid, stored, expectSameAsInstitution, eventsOf, graphql, exactGraphql, sessionToken };
}
