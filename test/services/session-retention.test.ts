import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { uuidv7, uuidv7Edge } from '../../src/lib/ids.ts';
import { applySessionRetention } from '../../src/modules/session/session-retention.ts';
import { SESSION_LIFETIME_MS } from '../../src/modules/session/session-token.ts';
import { endedSessionIds, holdsSession } from '../../src/modules/session/session.store.ts';
import type { Builders } from '../support/builders.ts';
import { withServiceTier } from '../support/service-tier.ts';
import type { TestDatabase } from '../support/test-database.ts';

const DAY = 86_400_000;
let db: TestDatabase;
let build: Builders;
withServiceTier((tier) => ({ db, build } = tier));

/** A UUIDv7 of millisecond `ms`, as issuing at that time makes (uuidv7() never goes back in time). */
const idIssuedAt = (ms: number) => `${uuidv7Edge(ms, 'first').slice(0, 14)}7000-8000-${randomBytes(6).toString('hex')}`;

/** Stores `count` sessions of a new profile issued `ago` ms before `now`, expiring a lifetime later (as issuing does); returns their ids. */
async function storeSessions(now: Date, ago: number, count = 1, revoked = false): Promise<string[]> {
  const profile = await build.profile();
  const issuedAt = new Date(now.getTime() - ago);
  const ids = Array.from({ length: count }, () => idIssuedAt(issuedAt.getTime()));
  await db.sql(
    `insert into session (id, environment_id, profile_id, api_version, created_at, expires_at, revoked_at)
     select id, $1, $2, '2026-04-01', $3, $4, case when $5 then $3::timestamptz end from unnest($6::uuid[]) as id`,
    [db.environmentId, profile.id, issuedAt, new Date(issuedAt.getTime() + SESSION_LIFETIME_MS), revoked, ids],
  );
  return ids;
}

/** Stores a console session of a new operator signed in `ago` ms before `now` (its absolute end 12 hours later), ended at sign-in when `ended`; returns its id. */
async function storeOperatorSession(now: Date, ago: number, ended = false): Promise<string> {
  const operatorId = uuidv7();
  await db.sql(`insert into operator (id, email, password_hash, created_at) values ($1, $2, 'not-a-hash', now())`, [operatorId, `${operatorId}@example.com`]);
  const signedInAt = new Date(now.getTime() - ago);
  const id = idIssuedAt(signedInAt.getTime());
  await db.sql(
    `insert into operator_session (id, operator_id, token_hash, created_at, last_seen_at, expires_at, ended_at) values ($1, $2, $3, $4, $4, $5, case when $6 then $4::timestamptz end)`,
    [id, operatorId, randomBytes(32).toString('hex'), signedInAt, new Date(signedInAt.getTime() + 12 * 3600_000), ended],
  );
  return id;
}

const stored = async (ids: string[]) => (await db.sql<{ id: string }>('select id from session where id = any($1::uuid[])', [ids])).map((row) => row.id).sort();

describe('session retention', () => {
  it('deletes the sessions that expired over the retention ago, revoked or not, and keeps the rest', async () => {
    const now = new Date();
    const old = await storeSessions(now, 40 * DAY + SESSION_LIFETIME_MS, 2);
    const oldRevoked = await storeSessions(now, 40 * DAY + SESSION_LIFETIME_MS, 1, true);
    const withinRetention = await storeSessions(now, 20 * DAY);
    const recentRevoked = await storeSessions(now, 3600_000, 1, true);
    const live = await storeSessions(now, 3600_000);
    const deleted = await applySessionRetention({ orm: db.orm, retentionDays: 30 }, now);
    expect(deleted.sessions).toBe(3);
    expect(await stored([...old, ...oldRevoked])).toEqual([]);
    expect(await stored([...withinRetention, ...recentRevoked, ...live])).toEqual([...withinRetention, ...recentRevoked, ...live].sort());
    // An expiry moved later by hand keeps a session past its issue's bound.
    const [extended] = await storeSessions(now, 40 * DAY + SESSION_LIFETIME_MS);
    await db.sql(`update session set expires_at = $2 where id = $1`, [extended, now]);
    expect(await applySessionRetention({ orm: db.orm, retentionDays: 30 }, now)).toMatchObject({ sessions: 0 });
    expect(await stored([extended!])).toEqual([extended]);
    // Their tokens expired long ago: their removal leaves no tombstone.
    expect(await db.sql('select id from removed_session where id = any($1::uuid[])', [[...old, ...oldRevoked]])).toEqual([]);
  });

  it("deletes the operators' console sessions that expired over the retention ago, signed out or not, and keeps the rest", async () => {
    const now = new Date();
    const old = [await storeOperatorSession(now, 40 * DAY), await storeOperatorSession(now, 40 * DAY, true)];
    const kept = [await storeOperatorSession(now, 20 * DAY), await storeOperatorSession(now, 3600_000, true), await storeOperatorSession(now, 60_000)];
    const deleted = await applySessionRetention({ orm: db.orm, retentionDays: 30 }, now);
    expect(deleted.operatorSessions).toBe(2);
    const left = async (ids: string[]) => (await db.sql<{ id: string }>('select id from operator_session where id = any($1::uuid[])', [ids])).map((row) => row.id).sort();
    expect(await left(old)).toEqual([]);
    expect(await left(kept)).toEqual([...kept].sort());
    expect(await applySessionRetention({ orm: db.orm, retentionDays: 30 }, now)).toMatchObject({ operatorSessions: 0 });
  });

  it('works off a backlog in bounded batches, a bounded number per run', async () => {
    const now = new Date(Date.now() + 1000 * DAY);
    await db.sql('delete from session');
    const backlog = await storeSessions(now, 40 * DAY, 25);
    expect(await applySessionRetention({ orm: db.orm, retentionDays: 30 }, now, { batch: 10, batches: 2 })).toMatchObject({ sessions: 20 });
    expect(await stored(backlog)).toHaveLength(5);
    expect(await applySessionRetention({ orm: db.orm, retentionDays: 30 }, now, { batch: 10, batches: 2 })).toMatchObject({ sessions: 5 });
    expect(await stored(backlog)).toEqual([]);
  });

  it('keeps the credential checks right: a session removed within a token lifetime still reads as ended, and only tombstones past it are pruned', async () => {
    const now = new Date();
    const [removedRecently] = await storeSessions(now, 3600_000);
    // An operator's delete (or a profile's removal) of a session whose token is still good: its tombstone stands for it.
    await db.sql('delete from session where id = $1', [removedRecently]);
    const oldTombstone = uuidv7();
    await db.sql('insert into removed_session (id, issued_at) values ($1, $2)', [oldTombstone, new Date(now.getTime() - SESSION_LIFETIME_MS - 3600_000)]);
    const [revoked] = await storeSessions(now, 3600_000, 1, true);

    const deleted = await applySessionRetention({ orm: db.orm, retentionDays: 1 }, now);
    expect(deleted.tombstones).toBeGreaterThanOrEqual(1);
    expect(await db.sql('select id from removed_session where id = any($1::uuid[])', [[removedRecently, oldTombstone]])).toEqual([{ id: removedRecently }]);
    const ended = await endedSessionIds(db.em(), new Date(now.getTime() - SESSION_LIFETIME_MS), now);
    expect([holdsSession(ended.ids, removedRecently!), holdsSession(ended.ids, revoked!)]).toEqual([true, true]);
  });
});
