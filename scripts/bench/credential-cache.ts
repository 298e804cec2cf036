import { request } from 'node:http';
import type pg from 'pg';
import { CURRENT_VERSION } from '../../src/config.ts';
import { uuidv7 } from '../../src/lib/ids.ts';
import type { SessionKeyRing } from '../../src/lib/session-keys.ts';
import { SESSION_LIFETIME_MS, SessionTokens } from '../../src/modules/session/session-token.ts';
import type { BenchSession } from './requests.ts';

/**
 * Sessions for the seeded profiles, `count` of them, stored as issuing stores them and signed with
 * the service's signing key: many more tokens than the issuing limit lets the bench ask for, to load one
 * instance the way a fleet's share of traffic does (every token seen rarely by any one instance).
 */
export async function mintSessions(
  db: pg.Client,
  sessionKeys: SessionKeyRing,
  environmentId: string,
  profiles: string[],
  count: number,
): Promise<{ sessions: BenchSession[]; discard(): Promise<void> }> {
  const tokens = new SessionTokens(sessionKeys);
  const now = new Date();
  const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS);
  const sessions = Array.from({ length: count }, (_, i) => ({ id: uuidv7(), profile: profiles[i % profiles.length]! }));
  await db.query(
    `insert into session (id, environment_id, profile_id, api_version, created_at, expires_at)
     select id, $2, profile_id, $3, $4, $5 from unnest($1::uuid[], $6::uuid[]) as s(id, profile_id)`,
    [sessions.map((session) => session.id), environmentId, CURRENT_VERSION, now, expiresAt, sessions.map((session) => session.profile)],
  );
  return {
    sessions: await Promise.all(
      sessions.map(async ({ id, profile }) => ({
        profile,
        token: await tokens.sign({ sessionId: id, profileId: profile, environmentId, apiVersion: CURRENT_VERSION }, now, expiresAt),
      })),
    ),
    discard: async () => {
      await db.query('delete from session where id = any($1::uuid[])', [sessions.map((session) => session.id)]);
    },
  };
}

/** Session checks answered from memory and from the database, and ORM statements, from Tributary's /metrics. */
export async function credentialCounters(metricsPort: number): Promise<Record<string, number>> {
  const text = await new Promise<string>((resolve, reject) => {
    request({ host: '127.0.0.1', port: metricsPort, path: '/metrics' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    })
      .on('error', reject)
      .end();
  });
  const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? 0);
  return {
    sessionsFromMemory: value(/^tributary_credential_checks_total\{kind="session",answer="memory"\} (\d+)/m),
    sessionsFromDatabase: value(/^tributary_credential_checks_total\{kind="session",answer="database"\} (\d+)/m),
    statements: value(/^tributary_db_statements_total (\d+)/m),
  };
}
