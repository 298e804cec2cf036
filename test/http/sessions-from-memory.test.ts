import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialCounters } from '../../scripts/bench/credential-cache.ts';
import { EndedSessions } from '../../src/http/ended-sessions.ts';
import { listenForRevocations, RevocationFeed } from '../../src/http/revocation-feed.ts';
import { decodeId, uuidv7 } from '../../src/lib/ids.ts';
import { createLogger } from '../../src/logger.ts';
import { EVERY_SESSION_BEFORE } from '../../src/modules/session/removed-session.entity.ts';
import { SESSION_LIFETIME_MS } from '../../src/modules/session/session-token.ts';
import { endedSessionIds, holdsSession, sessionStatements } from '../../src/modules/session/session.store.ts';
import { createEnvironmentWithKey } from '../support/environments.ts';
import { createProfile } from '../support/factories.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { waitFor } from '../support/wait.ts';
import { asTestSql } from '../support/test-database.ts';

/**
 * Session tokens answered from memory by the ended sessions an instance keeps (src/http/ended-sessions.ts,
 * docs/decisions/credentials-sessions-ended-in-memory.md): a token never seen on an instance is
 * answered without a lookup, and a session that ended is refused, whether the instance learnt of it
 * from the feed's announcement or, started later, from the tables.
 */

const HOUR_MS = 3600_000;

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ METRICS_PORT: '0' });
});
afterAll(() => app?.stop());

/** Another instance of the same deployment, started now. */
const startInstance = () => startTestApp({ METRICS_PORT: '0' }, { shareDatabaseOf: app });

interface Issued {
  auth: string;
  sessionId: string;
  /** The profile's public id. */
  profileId: string;
}

/** A session token of a new profile of `apiKey`'s environment, issued through `app`. */
async function issue(apiKey = app.apiKey): Promise<Issued> {
  const profile = await createProfile(app, {}, apiKey);
  const issued = await app.http.post('/v1/users/sessions', { auth: apiKey, json: { userId: profile.id } });
  expect(issued.status).toBe(201);
  const [, payload] = (issued.body.token as string).split('.');
  const sessionId = decodeId('session', JSON.parse(Buffer.from(payload!, 'base64url').toString()).jti)!;
  return { auth: `Bearer ${issued.body.token}`, sessionId, profileId: profile.id };
}

/** GET /v1/users/session on `instance`, and whether its credential check was answered from memory or by a lookup. */
async function check(instance: TestApp, auth: string): Promise<{ status: number; answer: 'memory' | 'database' }> {
  const before = await credentialCounters(instance.service.metricsPort!);
  const { status } = await instance.http.get('/v1/users/session', { auth });
  const after = await credentialCounters(instance.service.metricsPort!);
  expect(after.sessionsFromMemory + after.sessionsFromDatabase - before.sessionsFromMemory - before.sessionsFromDatabase).toBe(1);
  return { status, answer: after.sessionsFromDatabase > before.sessionsFromDatabase ? 'database' : 'memory' };
}

/** Waits until `instance` answers a token it has never seen from memory (its ended sessions are loaded and the feed vouches). */
async function answeringFromMemory(instance: TestApp): Promise<void> {
  await waitFor(async () => ((await check(instance, (await issue()).auth)).answer === 'memory' ? true : undefined), 'ended sessions to vouch');
}

/** Removes an environment and everything of it (as an operator would, in SQL): its sessions' rows go with it. */
async function deleteEnvironment(environmentId: string): Promise<void> {
  const id = decodeId('environment', environmentId);
  await app.sql(
    `with events as (delete from event where environment_id = $1), sessions as (delete from session where environment_id = $1)
     select 1`,
    [id],
  );
  await app.sql('delete from profile where environment_id = $1', [id]);
  await app.sql('delete from api_key where environment_id = $1', [id]);
  await app.sql('delete from environment where id = $1', [id]);
}

describe('session tokens answered from memory', () => {
  it('a fresh instance answers a valid token it has never seen from memory', async () => {
    const { auth } = await issue();
    const fresh = await startInstance();
    try {
      await answeringFromMemory(fresh);
      expect(await check(fresh, auth)).toEqual({ status: 200, answer: 'memory' });
    } finally {
      await fresh.stop();
    }
  });

  it('a session revoked, one whose profile is marked deleting, one whose profile row is removed, and one of a deleted environment: refused by an instance running during the change and, from memory, by one started after it', async () => {
    const other = await createEnvironmentWithKey(app);
    const [revoked, deleting, removed, ofDeletedEnvironment] = [await issue(), await issue(), await issue(), await issue(other.apiKey)];
    const ended = [revoked, deleting, removed, ofDeletedEnvironment];
    await answeringFromMemory(app);
    for (const { auth } of ended) expect((await check(app, auth)).status).toBe(200);

    // Each as SQL or the API writes it, none through `app`'s own revocation path: `app` learns of them from the feed.
    await app.sql('update session set revoked_at = now() where id = $1', [revoked.sessionId]);
    expect((await app.http.delete(`/v1/profiles/${deleting.profileId}`, { auth: app.apiKey })).status).toBe(202);
    await app.sql('delete from profile where id = $1', [decodeId('profile', removed.profileId)]);
    await deleteEnvironment(other.environmentId);
    const changed = Date.now();

    // Within the second a credential may be trusted without the feed.
    await sleep(Math.max(0, changed + 1000 - Date.now()));
    for (const { auth } of ended) expect((await check(app, auth)).status).toBe(401);

    const later = await startInstance();
    try {
      await answeringFromMemory(later);
      for (const { auth } of ended) expect(await check(later, auth)).toEqual({ status: 401, answer: 'memory' });
    } finally {
      await later.stop();
    }
  });

  it('after the listener is killed, the set is loaded again: a revocation made meanwhile is refused from memory, and unseen tokens are answered from memory again', { timeout: 60_000 }, async () => {
    const { auth, sessionId } = await issue();
    expect((await check(app, auth)).status).toBe(200);
    const listeners = async () =>
      (await app.sql<{ pid: number }>(`select pid from pg_stat_activity where application_name = 'tributary-revocations' and datname = current_database()`)).map((row) => row.pid);
    const before = await listeners();
    expect(before).toHaveLength(1);
    // The revocation commits while no instance listens: its announcement is lost to every instance.
    await app.sql(
      `with gone as (select pg_terminate_backend(pid, 5000) from unnest($1::int[]) as pid) update session set revoked_at = now() where id = $2 and (select count(*) from gone) >= 0`,
      [before, sessionId],
    );
    await waitFor(async () => ((await listeners()).some((pid) => !before.includes(pid)) ? true : undefined), 'the feed to listen again');
    await answeringFromMemory(app);
    expect(await check(app, auth)).toEqual({ status: 401, answer: 'memory' });
  });
});

describe('the set of ended sessions', () => {
  const logger = createLogger('silent');

  /** Stores a session of a new profile as issuing does, issued `ago` ms ago, and returns its id and its profile's. */
  async function storeSession(ago: number): Promise<{ id: string; profileId: string }> {
    const profileId = decodeId('profile', (await createProfile(app)).id)!;
    const id = uuidv7();
    const issuedAt = new Date(Date.now() - ago);
    await app.sql(`insert into session (id, environment_id, profile_id, api_version, created_at, expires_at) values ($1, $2, $3, '2026-01-01', $4, $5)`, [
      id,
      app.environmentId,
      profileId,
      issuedAt,
      new Date(issuedAt.getTime() + SESSION_LIFETIME_MS),
    ]);
    return { id, profileId };
  }

  it('holds only sessions issued within a token lifetime: older ended ones, and their tombstones, leave; announced ones leave at the next load unless it finds them ended', async () => {
    const feed = new RevocationFeed();
    const set = new EndedSessions(feed, (issuedAfter, now) => endedSessionIds(app.orm.em.fork(), issuedAfter, now), logger);
    // As the service's credential resolver passes them on.
    feed.onRevoked((revocation) => set.revoked(revocation));
    const listening = await listenForRevocations(app.databaseUrl, feed, logger);
    try {
      // A lifetime after the upgrade that began keeping tombstones: the one standing for every earlier session is pruned.
      await app.sql('delete from removed_session where id = $1', [EVERY_SESSION_BEFORE]);
      await set.reload();
      const loaded = set.size();
      const [recentRevoked, oldRevoked, recentRemoved, oldRemoved] = [
        await storeSession(HOUR_MS),
        await storeSession(SESSION_LIFETIME_MS + HOUR_MS),
        await storeSession(HOUR_MS),
        await storeSession(SESSION_LIFETIME_MS + HOUR_MS),
      ];
      await app.sql('update session set revoked_at = now() where id = any($1::uuid[])', [[recentRevoked.id, oldRevoked.id]]);
      await app.sql('delete from session where id = any($1::uuid[])', [[recentRemoved.id, oldRemoved.id]]);
      // Three announcements, each held until the next load: the session removed over a lifetime after
      // its issue (as the retention job removes them) had only expired tokens, so its removal
      // announces nothing and leaves no tombstone.
      await waitFor(async () => (set.size() === loaded + 3 ? true : undefined), 'the announcements');
      expect((await app.sql('select id from removed_session where id = any($1::uuid[])', [[recentRemoved.id, oldRemoved.id]])).map((row) => row.id)).toEqual([recentRemoved.id]);
      await set.reload();
      expect(set.size()).toBe(loaded + 2);
      const claims = (session: { id: string; profileId: string }, issuedAgo: number) => ({
        sessionId: session.id,
        profileId: session.profileId,
        environmentId: app.environmentId,
        apiVersion: '2026-01-01',
        issuedAt: Math.floor((Date.now() - issuedAgo) / 1000) * 1000,
      });
      await waitFor(async () => (feed.current() !== undefined ? true : undefined), 'the feed to vouch');
      expect([set.answer(claims(recentRevoked, HOUR_MS)), set.answer(claims(recentRemoved, HOUR_MS))]).toEqual(['ended', 'ended']);
      // A token issued over a lifetime ago is not the set's to answer (it has expired; verifying refuses it first).
      expect(set.answer(claims(oldRevoked, SESSION_LIFETIME_MS + HOUR_MS))).toBeUndefined();

      // Issuing prunes the tombstones no token can need any more (such as an earlier version left for an old session).
      await app.sql(`insert into removed_session (id, issued_at) values ($1, now() - interval '25 hours')`, [oldRemoved.id]);
      await issue();
      expect((await app.sql('select id from removed_session where id = any($1::uuid[])', [[recentRemoved.id, oldRemoved.id]])).map((row) => row.id)).toEqual([recentRemoved.id]);
    } finally {
      set.stop();
      await listening.stop();
    }
  });

  /** Whether `ids` (as `EndedSessionIds.ids`) is strictly ascending, as the binary search over them needs: no id twice. */
  function strictlyAscending(ids: Buffer): boolean {
    const count = ids.length / 16;
    return Array.from({ length: count - 1 }, (_, i) => ids.compare(ids, (i + 1) * 16, (i + 2) * 16, i * 16, (i + 1) * 16)).every((order) => order < 0);
  }

  it('are read once each, however many ways a session ended, an expiry moved before now by hand among them', async () => {
    const [moved, extended, revokedAndDeleting, movedAndDeleting, live] = [
      await storeSession(HOUR_MS),
      await storeSession(HOUR_MS),
      await storeSession(HOUR_MS),
      await storeSession(HOUR_MS),
      await storeSession(HOUR_MS),
    ];
    await app.sql(`update session set expires_at = now() - interval '1 minute' where id = any($1::uuid[])`, [[moved.id, movedAndDeleting.id]]);
    await app.sql(`update session set expires_at = expires_at + interval '1 day' where id = $1`, [extended.id]);
    await app.sql('update session set revoked_at = now() where id = $1', [revokedAndDeleting.id]);
    await app.sql('update profile set deleting_at = now() where id = any($1::uuid[])', [[revokedAndDeleting.profileId, movedAndDeleting.profileId]]);
    const ended = await endedSessionIds(app.orm.em.fork(), new Date(Date.now() - SESSION_LIFETIME_MS), new Date());
    expect([moved, extended, revokedAndDeleting, movedAndDeleting, live].map((session) => holdsSession(ended.ids, session.id))).toEqual([true, false, true, true, false]);
    expect(strictlyAscending(ended.ids)).toBe(true);
  });

  it('are read through indexes that hold only what ended, not a lifetime of sessions', async () => {
    // A plan, not a timing: with sequential scans priced out (a table this small would be read whole),
    // the planner takes a partial index only where the statement's conditions imply its predicate, so
    // this fails when the statement and the indexes' predicates drift apart.
    const client = new pg.Client({ connectionString: asTestSql(app.databaseUrl) });
    await client.connect();
    try {
      await client.query('set enable_seqscan = off');
      const now = new Date();
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(`explain (costs off) ${sessionStatements.ended}`, [
        new Date(now.getTime() - SESSION_LIFETIME_MS),
        now,
        null,
        20_000,
      ]);
      const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
      // What each scan reads: an index, or (a sequential scan) a whole table.
      const scans = [...plan.matchAll(/(?:Scan using|Bitmap Index Scan on|Seq Scan on) (\w+)/g)].map((match) => match[1]);
      expect(scans.sort()).toEqual([
        'profile_deleting_index',
        'removed_session_issued_at_index',
        'session_expiry_moved_created_at_index',
        'session_profile_id_created_at_index',
        'session_revoked_created_at_index',
      ]);
    } finally {
      await client.end();
    }
  });

  it('are read in full whatever their number (page by page), with the time before which every session counts as ended', async () => {
    const marked = new Date(Date.now() - 2 * HOUR_MS);
    await app.sql('insert into removed_session (id, issued_at) values ($1, $2) on conflict (id) do update set issued_at = excluded.issued_at', [EVERY_SESSION_BEFORE, marked]);
    const removed = (
      await app.sql<{ id: string }>(`insert into removed_session (id, issued_at) select gen_random_uuid(), now() - interval '1 hour' from generate_series(1, 5001) returning id`)
    ).map((row) => row.id);
    const ended = await endedSessionIds(app.orm.em.fork(), new Date(Date.now() - SESSION_LIFETIME_MS), new Date());
    expect(ended.allIssuedBefore).toEqual(marked);
    expect(removed.filter((id) => !holdsSession(ended.ids, id))).toEqual([]);
    expect(holdsSession(ended.ids, uuidv7())).toBe(false);
    expect(strictlyAscending(ended.ids)).toBe(true);
  });

  // Last in this file: it empties the session table.
  it('after a TRUNCATE, which names no row, an instance started later looks up every token issued before it', async () => {
    const { auth } = await issue();
    await app.sql('truncate session cascade');
    const later = await startInstance();
    try {
      await answeringFromMemory(later);
      expect(await check(later, auth)).toEqual({ status: 401, answer: 'database' });
    } finally {
      await later.stop();
    }
  });
});
