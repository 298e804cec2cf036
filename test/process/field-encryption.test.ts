import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profileBlobPrefix } from '../../src/blobs/blob-keys.ts';
import { EncryptedBlobStore } from '../../src/blobs/encrypted-blob-store.ts';
import { FsBlobStore } from '../../src/blobs/fs-blob-store.ts';
import { blobDirectory } from '../../src/blobs/open-blob-store.ts';
import { ENCRYPTED_COLUMNS, reencryptAll, type Queryable } from '../../src/db/reencrypt.ts';
import { DecryptionError, FieldCipher } from '../../src/lib/field-cipher.ts';
import { decodeId, uuidv7 } from '../../src/lib/ids.ts';
import { ProviderSettings } from '../../src/modules/environment/provider-settings.service.ts';
import { builders } from '../support/builders.ts';
import { basicAuth, createProfile } from '../support/factories.ts';
import { encryptV1 } from '../support/legacy-cipher.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { asTestSql } from '../support/test-database.ts';

const K1 = randomBytes(32).toString('base64');
const K2 = randomBytes(32).toString('base64');
const k1Only = `k1:${K1}`;
const cipher = FieldCipher.fromKeyList(k1Only);

let app: TestApp;
const others: TestApp[] = [];
beforeAll(async () => {
  app = await startTestApp({ ENCRYPTION_KEYS: k1Only });
});
afterAll(async () => {
  for (const other of others) await other.stop();
  await app?.stop();
});

interface StoredValue {
  table: string;
  column: string;
  field: string;
  id: string;
  value: string;
}

/** Every encrypted value in the database, in a stable order. */
async function storedValues(): Promise<StoredValue[]> {
  const values: StoredValue[] = [];
  for (const { table, column, field } of ENCRYPTED_COLUMNS) {
    const rows = await app.sql(`select id, ${column} as value from ${table} where ${column} is not null order by id`);
    values.push(...rows.map(({ id, value }) => ({ table, column, field, id, value })));
  }
  return values;
}

/** The app's blobs (BLOB_STORE=fs under its DATA_DIR) as a process with `keyList` reads and writes them. */
const blobsUnder = (keyList: string) => new EncryptedBlobStore(new FsBlobStore(blobDirectory(app.dataDir)), FieldCipher.fromKeyList(keyList));
const statementKey = (profileId: string) => `${profileBlobPrefix(profileId)}statements/s.pdf`;

const write = (target: Pick<StoredValue, 'table' | 'column' | 'id'>, value: string) =>
  app.sql(`update ${target.table} set ${target.column} = $1 where id = $2`, [value, target.id]);

/** Rewrites every stored value as an older Tributary would have stored it (v1, under k1); returns the plaintexts. */
async function downgradeAllToV1(): Promise<Map<string, string>> {
  const plaintexts = new Map<string, string>();
  for (const stored of await storedValues()) {
    const plaintext = cipher.decrypt(stored.field, stored, stored.value);
    plaintexts.set(`${stored.column}:${stored.id}`, plaintext);
    await write(stored, encryptV1(K1, 'k1', stored.field, plaintext));
  }
  return plaintexts;
}

/** `npm run cli -- encryption reencrypt` against this app's database, as an operator runs it. */
function reencrypt(encryptionKeys: string): Promise<{ code: number; stdout: string }> {
  const env = { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: app.databaseUrl, DATA_DIR: app.dataDir, ENCRYPTION_KEYS: encryptionKeys };
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['scripts/cli.ts', 'encryption', 'reencrypt'], { env, timeout: 120_000 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') reject(new Error(`cli failed: ${error.message} ${stderr}`));
      else resolve({ code: error ? Number(error.code) : 0, stdout });
    });
  });
}

/** A profile, a connection (built: no sync reads its credential while it is rewritten) with a refresh's presence, a webhook subscription with a rotated secret and provider settings: every encrypted column filled. */
async function fillEveryEncryptedColumn() {
  const profile = await createProfile(app);
  const connection = await builders(app).connection({ profile: { id: decodeId('profile', profile.id)! } });
  // The end-user's address and user agent as a refresh they asked for stores them until its sync.
  await app.sql('update connection set refresh_presence_encrypted = $1 where id = $2', [
    cipher.encrypt('refreshPresence', connection, JSON.stringify({ ipAddress: '203.0.113.7', userAgent: 'Mozilla/5.0' })),
    connection.id,
  ]);
  const subscription = await app.http.post('/v1/webhooks/subscriptions', {
    auth: app.apiKey,
    json: { name: 'Ledger', targetUrl: 'https://127.0.0.1:9/hooks', disabled: true },
  });
  expect(subscription.status).toBe(201);
  expect((await app.http.post(`/v1/webhooks/subscriptions/${subscription.body.id}/rotate-secret`, { auth: app.apiKey })).status).toBe(200);
  const [{ environment_id: environmentId }] = await app.sql('select environment_id from profile where id = $1', [decodeId('profile', profile.id)]);
  await new ProviderSettings(app.service.orm.em.fork(), cipher).set(environmentId, 'plaid', { clientId: 'client-1', secret: randomBytes(12).toString('hex'), plaidEnv: 'sandbox' });
  return profile;
}

describe('field encryption bound to the row', () => {
  it('lists every encrypted column of the schema for re-encryption', async () => {
    const columns = await app.sql(`select table_name, column_name from information_schema.columns where table_schema = 'public' and column_name like '%\\_encrypted' order by 1, 2`);
    expect(columns.map((row) => `${row.table_name}.${row.column_name}`)).toEqual(ENCRYPTED_COLUMNS.map(({ table, column }) => `${table}.${column}`).sort());
  });

  it('answers a 500 with an errorId, never the other profile\'s data, when a ciphertext was copied from another row', async () => {
    const jane = await createProfile(app);
    const mallory = await createProfile(app);
    const [janes] = await app.sql('select email_encrypted from profile where id = $1', [decodeId('profile', jane.id)]);
    const [own] = await app.sql('select email_encrypted from profile where id = $1', [decodeId('profile', mallory.id)]);
    const target = { table: 'profile', column: 'email_encrypted', id: decodeId('profile', mallory.id)! };
    await write(target, janes.email_encrypted);
    try {
      const rest = await app.http.get(`/v1/profiles/${mallory.id}`, { auth: app.apiKey });
      expect(rest.status).toBe(500);
      expect(rest.body).toMatchObject({ message: expect.any(String), errorId: expect.stringMatching(/^err_/) });
      expect(rest.text).not.toContain(jane.email);
      expect(rest.text).not.toContain('decrypt');

      const graphql = await app.http.post('/v1/graphql', { auth: basicAuth(mallory.id, app.apiKey), json: { query: '{ profile { email phone } }' } });
      expect(graphql.body.data.profile).toEqual({ email: null, phone: mallory.phone });
      expect(graphql.body.errors).toEqual([expect.objectContaining({ path: ['profile', 'email'], extensions: expect.objectContaining({ code: 'INTERNAL_SERVER_ERROR', errorId: expect.stringMatching(/^err_/) }) })]);
      expect(graphql.text).not.toContain(jane.email);
      expect(graphql.text).not.toContain('decrypt');
    } finally {
      await write(target, own.email_encrypted);
    }
    expect((await app.http.get(`/v1/profiles/${mallory.id}`, { auth: app.apiKey })).body.email).toBe(mallory.email);
  });

  it('still reads values written before row binding (v1)', async () => {
    const profile = await createProfile(app);
    const id = decodeId('profile', profile.id)!;
    for (const { table, column, field } of ENCRYPTED_COLUMNS.filter((target) => target.table === 'profile')) {
      const [row] = await app.sql(`select ${column} as value from profile where id = $1`, [id]);
      await write({ table, column, id }, encryptV1(K1, 'k1', field, cipher.decrypt(field, { id }, row.value)));
    }
    const [row] = await app.sql('select email_encrypted from profile where id = $1', [id]);
    expect(row.email_encrypted).toMatch(/^v1\.k1\./);
    expect((await app.http.get(`/v1/profiles/${profile.id}`, { auth: app.apiKey })).body).toEqual(profile);
  });
});

// Each run of the command starts a Node process; on a loaded machine that takes seconds.
describe('npm run cli -- encryption reencrypt', { timeout: 120_000 }, () => {
  it('rewrites every v1 value of every encrypted column as v2 bound to its row, and a second run changes nothing', async () => {
    const profile = await fillEveryEncryptedColumn();
    const plaintexts = await downgradeAllToV1();
    const columns = new Set((await storedValues()).map((stored) => stored.column));
    expect(columns).toEqual(new Set(ENCRYPTED_COLUMNS.map((target) => target.column)));

    const first = await reencrypt(k1Only);
    expect(first.code, first.stdout).toBe(0);
    expect(first.stdout).toContain('Every encrypted value is v2 under key k1.');
    const after = await storedValues();
    expect(after).toHaveLength(plaintexts.size);
    for (const stored of after) {
      expect(stored.value).toMatch(/^v2\.k1\./);
      expect(cipher.decrypt(stored.field, stored, stored.value)).toBe(plaintexts.get(`${stored.column}:${stored.id}`));
      expect(() => cipher.decrypt(stored.field, { id: uuidv7() }, stored.value)).toThrow(DecryptionError);
    }
    expect((await app.http.get(`/v1/profiles/${profile.id}`, { auth: app.apiKey })).body).toEqual(profile);

    const second = await reencrypt(k1Only);
    expect(second.code, second.stdout).toBe(0);
    expect(second.stdout).not.toMatch(/[1-9]\d* re-encrypted/);
    expect(await storedValues()).toEqual(after);
  });

  it('reports the rows it cannot decrypt and exits 1, rewriting the others and leaving those untouched', async () => {
    const broken = await createProfile(app);
    const fine = await createProfile(app);
    const brokenTarget = { table: 'profile', column: 'email_encrypted', id: decodeId('profile', broken.id)! };
    const fineTarget = { table: 'profile', column: 'email_encrypted', id: decodeId('profile', fine.id)! };
    const [original] = await app.sql('select email_encrypted from profile where id = $1', [brokenTarget.id]);
    const underRemovedKey = encryptV1(randomBytes(32).toString('base64'), 'k0', 'email', broken.email);
    await write(brokenTarget, underRemovedKey);
    await write(fineTarget, encryptV1(K1, 'k1', 'email', fine.email));
    const brokenBlobs = blobsUnder(`k0:${randomBytes(32).toString('base64')}`);
    await brokenBlobs.put(statementKey(brokenTarget.id), Buffer.from('%PDF under a removed key'));

    const run = await reencrypt(k1Only);
    expect(run.code, run.stdout).toBe(1);
    expect(run.stdout).toContain(brokenTarget.id);
    expect(run.stdout).toMatch(new RegExp(`blobs \\(statements\\) +0 re-encrypted; does not decrypt .*: ${statementKey(brokenTarget.id)}`));
    expect(String(await brokenBlobs.get(statementKey(brokenTarget.id)))).toBe('%PDF under a removed key');
    expect(run.stdout).toContain('Not done');
    const [brokenNow] = await app.sql('select email_encrypted from profile where id = $1', [brokenTarget.id]);
    expect(brokenNow.email_encrypted).toBe(underRemovedKey);
    expect((await app.http.get(`/v1/profiles/${fine.id}`, { auth: app.apiKey })).body.email).toBe(fine.email);
    const [fineNow] = await app.sql('select email_encrypted from profile where id = $1', [fineTarget.id]);
    expect(fineNow.email_encrypted).toMatch(/^v2\.k1\./);

    await write(brokenTarget, original.email_encrypted);
    await brokenBlobs.deletePrefix(profileBlobPrefix(brokenTarget.id));
    expect((await reencrypt(k1Only)).code).toBe(0);
  });

  it('works in batches and never overwrites a value the service changed between its read and its write', async () => {
    const profiles = [];
    for (let i = 0; i < 5; i++) profiles.push(await createProfile(app));
    const ids = profiles.map((profile) => decodeId('profile', profile.id)!);
    for (const [index, id] of ids.entries()) await write({ table: 'profile', column: 'email_encrypted', id }, encryptV1(K1, 'k1', 'email', profiles[index]!.email));
    const [changed] = ids;
    const pool = new pg.Pool({ connectionString: asTestSql(app.databaseUrl), max: 1 });
    let reads = 0;
    // The service updates the first profile's email right after the command has read its old value.
    const db: Queryable = {
      async query(text, values) {
        const result = await pool.query(text, values);
        if (text.startsWith('select id, email_encrypted') && reads++ === 0) {
          await pool.query('update profile set email_encrypted = $1 where id = $2', [cipher.encrypt('email', { id: changed! }, 'changed@example.com'), changed]);
        }
        return result;
      },
    };
    try {
      const [email] = await reencryptAll(db, cipher, 2);
      expect(reads).toBeGreaterThanOrEqual(3);
      expect(email).toMatchObject({ column: 'email_encrypted', rewritten: 4, remaining: 0, failedIds: [] });
    } finally {
      await pool.end();
    }
    expect((await app.http.get(`/v1/profiles/${profiles[0]!.id}`, { auth: app.apiKey })).body.email).toBe('changed@example.com');
    for (const profile of profiles.slice(1)) expect((await app.http.get(`/v1/profiles/${profile.id}`, { auth: app.apiKey })).body.email).toBe(profile.email);
  });

  it('rotates keys: under a new first key every value and blob moves to it, and a service with only the new key reads them', async () => {
    const profile = await fillEveryEncryptedColumn();
    await write({ table: 'profile', column: 'phone_encrypted', id: decodeId('profile', profile.id)! }, encryptV1(K1, 'k1', 'phone', profile.phone));
    const before = await storedValues();
    const rotated = FieldCipher.fromKeyList(`k2:${K2}`);
    await app.service.blobs.put(statementKey(decodeId('profile', profile.id)!), Buffer.from('%PDF kept'));
    // A profile whose deletion ran between the command's read of its blob and its write: the rewritten blob must not outlive it.
    const deletedProfileId = uuidv7();
    await app.service.blobs.put(statementKey(deletedProfileId), Buffer.from('%PDF of a deleted profile'));

    const run = await reencrypt(`k2:${K2},k1:${K1}`);
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toMatch(/blobs \(statements\) +2 re-encrypted/);
    expect(run.stdout).toContain('No value uses k1 any more: remove it from ENCRYPTION_KEYS and restart.');
    const blobs = new FsBlobStore(blobDirectory(app.dataDir));
    expect(rotated.blobKeyId((await blobs.get(statementKey(decodeId('profile', profile.id)!)))!)).toBe('k2');
    expect(String(await blobsUnder(`k2:${K2}`).get(statementKey(decodeId('profile', profile.id)!)))).toBe('%PDF kept');
    expect(await blobs.get(statementKey(deletedProfileId))).toBeNull();
    const after = await storedValues();
    expect(after.map(({ column, id }) => `${column}:${id}`)).toEqual(before.map(({ column, id }) => `${column}:${id}`));
    after.forEach((stored, index) => {
      expect(stored.value).toMatch(/^v2\.k2\./);
      expect(rotated.decrypt(stored.field, stored, stored.value)).toBe(cipher.decrypt(stored.field, stored, before[index]!.value));
    });

    const newKeyOnly = await startTestApp({ ENCRYPTION_KEYS: `k2:${K2}` }, { shareDatabaseOf: app });
    others.push(newKeyOnly);
    expect((await newKeyOnly.http.get(`/v1/profiles/${profile.id}`, { auth: app.apiKey })).body).toEqual(profile);
  });
});
