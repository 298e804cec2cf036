import { describe, expect, it } from 'vitest';
import { encodeId } from '../../src/lib/ids.ts';
import { Profile } from '../../src/modules/profile/profile.entity.ts';
import { SessionService } from '../../src/modules/session/session.service.ts';
import { SessionKeyRing } from '../../src/lib/session-keys.ts';
import { SessionTokens } from '../../src/modules/session/session-token.ts';
import type { Builders } from '../support/builders.ts';
import { withServiceTier } from '../support/service-tier.ts';
import type { TestDatabase } from '../support/test-database.ts';

const HOUR = 3600_000;
const VERSION = '2026-04-01';
let db: TestDatabase;
let build: Builders;
const tokens = new SessionTokens(SessionKeyRing.ofSecret('a session secret of forty-eight characters, at least'));
const sessions = (environmentId = db.environmentId) => new SessionService(db.em(), db.cipher, tokens, environmentId);
const hoursAgo = (hours: number) => new Date(Date.now() - hours * HOUR);

withServiceTier((tier) => ({ db, build } = tier));

describe('issuing', () => {
  it('finds the profile by public id or uuid, merges the attributes given, and signs a token for the new session', async () => {
    const profile = await build.profile({ metadata: { plan: 'gold' } });
    const issued = await sessions().issue({ userId: encodeId('profile', profile.id), metadata: { channel: 'ios' }, name: 'Renamed' }, VERSION);
    expect(issued.profile.id).toBe(profile.id);
    expect(issued.session.expiresAt.getTime() - issued.session.createdAt.getTime()).toBe(24 * HOUR);
    expect(await tokens.verify(issued.token)).toEqual({
      sessionId: issued.session.id,
      profileId: profile.id,
      environmentId: db.environmentId,
      apiVersion: VERSION,
      // Whole seconds, never after the row's `created_at` (the ended sessions a token's issue time selects rely on it).
      issuedAt: Math.floor(issued.session.createdAt.getTime() / 1000) * 1000,
    });
    const [stored] = await db.sql('select name, metadata from profile where id = $1', [profile.id]);
    expect(stored).toEqual({ name: 'Renamed', metadata: { plan: 'gold', channel: 'ios' } });
    expect((await sessions().issue({ userId: profile.uuid.toUpperCase() }, VERSION)).profile.id).toBe(profile.id);
  });

  it('creates the profile, with the uuid given, when there is no userId', async () => {
    const uuid = crypto.randomUUID();
    const issued = await sessions().issue({ uuid, metadata: { source: 'signup' } }, VERSION);
    expect(issued.profile).toMatchObject({ uuid, metadata: { source: 'signup' } });
    expect(await db.sql('select type from event where profile_id = $1', [issued.profile.id])).toEqual([{ type: 'profile.created' }]);
  });

  it('refuses a profile that is unknown, of another environment (404) or being deleted (409), and keeps its attributes as they were', async () => {
    const other = await build.environment();
    const stranger = await build.profile({ environment: other.id });
    const deleting = await build.profile({ deletingAt: new Date(), metadata: { plan: 'gold' } });
    await expect(sessions().issue({ userId: encodeId('profile', crypto.randomUUID()) }, VERSION)).rejects.toMatchObject({ status: 404 });
    await expect(sessions().issue({ userId: encodeId('profile', stranger.id) }, VERSION)).rejects.toMatchObject({ status: 404 });
    await expect(sessions().issue({ userId: stranger.uuid }, VERSION)).rejects.toMatchObject({ status: 404 });
    await expect(sessions().issue({ userId: encodeId('profile', deleting.id), metadata: { plan: 'platinum' } }, VERSION)).rejects.toMatchObject({ status: 409 });
    expect((await db.em().findOneOrFail(Profile, { id: deleting.id })).metadata).toEqual({ plan: 'gold' });
    expect(await db.sql('select 1 from session where profile_id = any($1::uuid[])', [[stranger.id, deleting.id]])).toEqual([]);
  });

  it('refuses invalid attributes with every issue at once, and issues no session', async () => {
    const profile = await build.profile();
    await expect(sessions().issue({ userId: encodeId('profile', profile.id), email: 'nope', phone: '555', metadata: { email: 'a@b.co' } }, VERSION)).rejects.toMatchObject({
      status: 422,
      issues: expect.arrayContaining([expect.objectContaining({ path: ['email'] }), expect.objectContaining({ path: ['phone'] }), expect.objectContaining({ path: ['metadata', 'email'] })]),
    });
    expect(await db.sql('select 1 from session where profile_id = $1', [profile.id])).toEqual([]);
  });
});

describe('the issuing limit (10 an hour, 20 a day)', () => {
  it('allows 10 active tokens per rolling hour, and says when the oldest frees a slot', async () => {
    const profile = await build.profile();
    for (let i = 0; i < 9; i++) await build.session(profile, { createdAt: new Date(Date.now() - (50 - i) * 60_000) });
    await sessions().issue({ userId: encodeId('profile', profile.id) }, VERSION);
    const refused = sessions().issue({ userId: encodeId('profile', profile.id) }, VERSION);
    await expect(refused).rejects.toMatchObject({ status: 429, code: 'SESSION_LIMIT', message: expect.stringContaining('10 active session tokens issued in the last hour') });
    // The oldest was issued 50 minutes ago: a slot frees in about 10 minutes.
    const retryAfter = Number((await refused.catch((error) => error)).headers['Retry-After']);
    expect(retryAfter).toBeGreaterThan(9 * 60);
    expect(retryAfter).toBeLessThanOrEqual(10 * 60);
  });

  it('does not count revoked tokens, nor tokens issued over an hour ago against the hourly limit', async () => {
    const profile = await build.profile();
    for (let i = 0; i < 10; i++) await build.session(profile, { revokedAt: new Date() });
    for (let i = 0; i < 9; i++) await build.session(profile, { createdAt: hoursAgo(2) });
    for (let i = 0; i < 10; i++) await sessions().issue({ userId: encodeId('profile', profile.id) }, VERSION);
    await expect(sessions().issue({ userId: encodeId('profile', profile.id) }, VERSION)).rejects.toMatchObject({ status: 429, message: expect.stringContaining('last hour') });
  });

  it('allows 20 active tokens per rolling day', async () => {
    const profile = await build.profile();
    for (let i = 0; i < 19; i++) await build.session(profile, { createdAt: hoursAgo(23) });
    await build.session(profile, { createdAt: hoursAgo(25) });
    await sessions().issue({ userId: encodeId('profile', profile.id) }, VERSION);
    const refused = sessions().issue({ userId: encodeId('profile', profile.id) }, VERSION);
    await expect(refused).rejects.toMatchObject({ status: 429, message: expect.stringContaining('in the last day (at most 20)') });
    const retryAfter = Number((await refused.catch((error) => error)).headers['Retry-After']);
    expect(retryAfter).toBeGreaterThan(0.9 * HOUR / 1000);
    expect(retryAfter).toBeLessThanOrEqual(HOUR / 1000);
  });

  it('holds under concurrent issuing: exactly 10 of 15 simultaneous requests get a token', async () => {
    const profile = await build.profile();
    const outcomes = await Promise.allSettled(Array.from({ length: 15 }, () => sessions().issue({ userId: encodeId('profile', profile.id) }, VERSION)));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(10);
    expect(outcomes.filter((outcome) => outcome.status === 'rejected').map((outcome) => (outcome as PromiseRejectedResult).reason.status)).toEqual(Array(5).fill(429));
    expect(await db.sql('select count(*)::int as n from session where profile_id = $1', [profile.id])).toEqual([{ n: 10 }]);
  });
});

describe('liveness and revocation', () => {
  it('is live until revoked (idempotently), expired, or its profile is being deleted; never read or revoked from another environment', async () => {
    const profile = await build.profile();
    const active = await build.session(profile);
    const expired = await build.session(profile, { createdAt: hoursAgo(25), expiresAt: hoursAgo(1) });
    expect((await sessions().live(active.id))?.profile.id).toBe(profile.id);
    expect(await sessions().live(expired.id)).toBeNull();
    const other = await build.environment();
    expect(await sessions(other.id).live(active.id)).toBeNull();

    await sessions(other.id).revoke(active.id);
    expect(await db.sql('select revoked_at from session where id = $1', [active.id])).toEqual([{ revoked_at: null }]);
    await sessions().revoke(active.id);
    const [{ revoked_at: revokedAt }] = await db.sql('select revoked_at from session where id = $1', [active.id]);
    expect(revokedAt).toBeInstanceOf(Date);
    await sessions().revoke(active.id);
    expect(await db.sql('select revoked_at from session where id = $1', [active.id])).toEqual([{ revoked_at: revokedAt }]);
    expect(await sessions().live(active.id)).toBeNull();

    const deleting = await build.profile({ deletingAt: new Date() });
    expect(await sessions().live((await build.session(deleting)).id)).toBeNull();
  });
});
