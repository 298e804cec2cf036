import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { profileBlobPrefix } from '../../src/blobs/blob-keys.ts';
import type { BlobStore } from '../../src/blobs/blob-store.ts';
import { EncryptedBlobStore } from '../../src/blobs/encrypted-blob-store.ts';
import { FsBlobStore } from '../../src/blobs/fs-blob-store.ts';
import { encodeId } from '../../src/lib/ids.ts';
import { profileDeletionJob } from '../../src/modules/profile/profile-deletion.job.ts';
import { Profile, type ProfileEntity } from '../../src/modules/profile/profile.entity.ts';
import { presentProfile } from '../../src/modules/profile/profile.presenter.ts';
import { ProfileService } from '../../src/modules/profile/profile.service.ts';
import { builders, type Builders } from '../support/builders.ts';
import { withServiceTier } from '../support/service-tier.ts';
import type { TestDatabase } from '../support/test-database.ts';

let db: TestDatabase;
let build: Builders;
let blobs: BlobStore;
const blobRoot = mkdtempSync(path.join(tmpdir(), 'tributary-blobs-'));

withServiceTier((tier) => {
  ({ db, build } = tier);
  blobs = new EncryptedBlobStore(new FsBlobStore(blobRoot), db.cipher);
});
afterAll(() => rmSync(blobRoot, { recursive: true, force: true }));

const profiles = (environmentId = db.environmentId) => new ProfileService(db.em(), db.cipher, environmentId);
const publicId = (profile: ProfileEntity) => encodeId('profile', profile.id);

describe('creating', () => {
  const attributes = {
    email: 'jane@example.com',
    phone: '+14155550123',
    dateOfBirth: '1987-06-15',
    address: { line1: '1 Market St', city: 'San Francisco' },
    names: { first: 'Jane' },
    metadata: { plan: 'gold' },
  };

  it('stores the sensitive fields only encrypted, for this row alone, and records profile.created without them', async () => {
    const profile = await profiles().create({ ...attributes, uuid: crypto.randomUUID().toUpperCase() });
    expect(profile.uuid).toBe(profile.uuid.toLowerCase());
    const [row] = await db.sql('select * from profile where id = $1', [profile.id]);
    const columns = JSON.stringify(row);
    for (const secret of ['jane@example.com', '+14155550123', '1987-06-15', 'Market']) expect(columns).not.toContain(secret);
    expect(presentProfile(db.em().map(Profile, row), db.cipher)).toMatchObject({
      email: 'jane@example.com',
      phone: '+14155550123',
      dateOfBirth: '1987-06-15',
      names: { first: 'Jane', middle: null, last: null },
      address: { line1: '1 Market St', line2: null, city: 'San Francisco', region: null, postalCode: null, country: null },
    });
    // Bound to its row: the same ciphertext under another profile's id does not decrypt.
    expect(() => db.cipher.decrypt('email', { id: crypto.randomUUID() }, row.email_encrypted)).toThrow(/cannot decrypt email/);
    const events = await db.sql('select type, payload from event where profile_id = $1', [profile.id]);
    expect(events).toEqual([{ type: 'profile.created', payload: expect.objectContaining({ record: expect.objectContaining({ id: publicId(profile), metadata: { plan: 'gold' } }) }) }]);
    expect(JSON.stringify(events)).not.toMatch(/jane@example|4155550123|1987-06-15|Market/);
  });

  it('refuses a uuid taken in its environment (409), not one taken in another', async () => {
    const taken = await build.profile();
    await expect(profiles().create({ uuid: taken.uuid.toUpperCase() })).rejects.toMatchObject({ status: 409, message: expect.stringContaining(taken.uuid) });
    const other = await build.environment();
    expect((await profiles(other.id).create({ uuid: taken.uuid })).uuid).toBe(taken.uuid);
  });

  it('reports every invalid attribute at once, and stores nothing', async () => {
    const uuid = crypto.randomUUID();
    const creating = profiles().create({ uuid, email: 'not-an-email', phone: '555-0100', dateOfBirth: '1899-12-31', metadata: { note: 'call +1 415 555 0100' } });
    await expect(creating).rejects.toMatchObject({ status: 422 });
    const { issues } = await creating.catch((error) => error);
    expect(issues.map((issue: { path: string[] }) => issue.path.join('.'))).toEqual(['email', 'phone', 'dateOfBirth', 'metadata.note']);
    expect(await db.sql('select 1 from profile where uuid = $1', [uuid])).toEqual([]);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    await expect(profiles().create({ dateOfBirth: tomorrow })).rejects.toMatchObject({ issues: [{ path: ['dateOfBirth'], message: expect.any(String) }] });
    await expect(profiles().create({ dateOfBirth: '2001-02-29' })).rejects.toMatchObject({ status: 422 });
  });
});

describe('reading and listing', () => {
  it('lists the environment\'s live profiles oldest first, with the total, and finds one by id or uuid', async () => {
    const environment = await build.environment();
    const scoped = builders({ ...db, environmentId: environment.id });
    const [first, second, third] = [await scoped.profile(), await scoped.profile(), await scoped.profile()];
    await scoped.profile({ deletingAt: new Date() });
    await build.profile();
    const service = profiles(environment.id);
    const page = await service.list({ page: 1 }, 2);
    expect({ ids: page.items.map((profile) => profile.id), total: page.total }).toEqual({ ids: [first!.id, second!.id], total: 3 });
    expect((await service.list({ page: 2 }, 2)).items.map((profile) => profile.id)).toEqual([third!.id]);
    expect((await service.get(publicId(second!))).id).toBe(second!.id);
    expect((await service.findByIdOrUuid(second!.uuid.toUpperCase()))?.id).toBe(second!.id);
    expect(await profiles().findByIdOrUuid(second!.uuid)).toBeNull();
    await expect(profiles().get(publicId(second!))).rejects.toMatchObject({ status: 404 });
  });
});

describe('updating', () => {
  it('merges metadata, leaves absent fields alone and clears fields set to null', async () => {
    const profile = await build.profile({ metadata: { plan: 'gold', channel: 'ios' }, email: 'old@example.com', phone: '+14155550199' });
    const updated = await profiles().updateById(publicId(profile), { metadata: { plan: null, tier: 2 }, email: null, name: 'Renamed' });
    expect(presentProfile(updated, db.cipher)).toMatchObject({ metadata: { channel: 'ios', tier: 2 }, email: null, phone: '+14155550199', name: 'Renamed' });
    expect((await profiles().updateById(publicId(profile), { metadata: { channel: null, tier: null } })).metadata).toBeNull();
  });

  it('lands every one of concurrent metadata merges, and checks the key limit against what is stored', async () => {
    const profile = await build.profile({ metadata: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, i])) });
    await Promise.all(Array.from({ length: 10 }, (_, i) => profiles().updateById(publicId(profile), { metadata: { [`new${i}`]: true } })));
    const [{ metadata }] = await db.sql('select metadata from profile where id = $1', [profile.id]);
    expect(Object.keys(metadata)).toHaveLength(50);
    await expect(profiles().updateById(publicId(profile), { metadata: { one: 'too many' } })).rejects.toMatchObject({
      status: 422,
      issues: [{ path: ['metadata'], message: expect.stringContaining('would leave 51') }],
    });
  });

  it('does not update a profile of another environment or one being deleted', async () => {
    const other = await build.environment();
    const stranger = await build.profile({ environment: other.id, name: 'Stranger' });
    const deleting = await build.profile({ deletingAt: new Date(), name: 'Leaving' });
    for (const profile of [stranger, deleting]) await expect(profiles().updateById(publicId(profile), { name: 'x' })).rejects.toMatchObject({ status: 404 });
    expect(await db.sql('select name from profile where id = any($1::uuid[]) order by name', [[stranger.id, deleting.id]])).toEqual([{ name: 'Leaving' }, { name: 'Stranger' }]);
  });
});

describe('deleting (202, then removed in the background)', () => {
  /** A profile with a connection, two accounts, balances, transactions, a session and two statements' blobs. */
  async function withData() {
    const profile = await build.profile();
    const connection = await build.connection({ profile });
    const [checking, card] = [await build.account({ connection }), await build.account({ connection, kind: 'CREDIT', subtype: 'credit card' })];
    await build.balance({ account: checking! });
    await build.balance({ account: card!, current: '-2134.34', limit: '-5000.00' });
    await build.transactions(Array.from({ length: 30 }, () => ({})), { account: checking! });
    await build.transactions([{ amount: '-56.78' }], { account: card! });
    await build.session(profile);
    for (const name of ['a', 'b']) await blobs.put(`${profileBlobPrefix(profile.id)}statements/${name}.pdf`, Buffer.from(`%PDF ${name}`));
    return profile;
  }
  const blobsOf = async (profileId: string) => Promise.all(['a', 'b'].map(async (name) => (await blobs.get(`${profileBlobPrefix(profileId)}statements/${name}.pdf`))?.toString()));
  const rowsOf = async (profileId: string) => {
    const counts: Record<string, number> = {};
    for (const table of ['profile', 'connection', 'account', 'balance', 'transaction', 'session']) {
      const column = table === 'profile' ? 'id' : 'profile_id';
      counts[table] = (await db.sql(`select count(*)::int as n from ${table} where ${column} = $1`, [profileId]))[0].n;
    }
    return counts;
  };

  it('reads as absent once marked, then the job removes every row and blob of it with profile.deleted, and nothing of another profile', async () => {
    const doomed = await withData();
    const kept = await withData();
    await profiles().markDeleting(publicId(doomed));
    await expect(profiles().get(publicId(doomed))).rejects.toMatchObject({ status: 404 });
    await expect(profiles().markDeleting(publicId(doomed))).rejects.toMatchObject({ status: 404 });
    expect((await profiles().list({ page: 1 }, 100)).items.map((profile) => profile.id)).not.toContain(doomed.id);

    await profileDeletionJob(db.orm, blobs).handle({ profileId: doomed.id });
    expect(await rowsOf(doomed.id)).toEqual({ profile: 0, connection: 0, account: 0, balance: 0, transaction: 0, session: 0 });
    expect(await rowsOf(kept.id)).toEqual({ profile: 1, connection: 1, account: 2, balance: 2, transaction: 31, session: 1 });
    expect(await blobsOf(doomed.id)).toEqual([undefined, undefined]);
    expect(await blobsOf(kept.id)).toEqual(['%PDF a', '%PDF b']);
    const events = await db.sql(`select payload from event where profile_id = $1 and type = 'profile.deleted'`, [doomed.id]);
    expect(events).toEqual([{ payload: expect.objectContaining({ record: expect.objectContaining({ id: publicId(doomed), uuid: doomed.uuid }) }) }]);
  });

  it('sweeps every profile left marked when the job runs without one (an enqueue lost in a crash)', async () => {
    const [first, second] = [await build.profile({ deletingAt: new Date() }), await build.profile({ deletingAt: new Date() })];
    await profileDeletionJob(db.orm, blobs).handle({});
    expect(await db.sql('select 1 from profile where id = any($1::uuid[])', [[first.id, second.id]])).toEqual([]);
    expect(await db.sql(`select count(*)::int as n from event where type = 'profile.deleted' and profile_id = any($1::uuid[])`, [[first.id, second.id]])).toEqual([{ n: 2 }]);
  });
});
