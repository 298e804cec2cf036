import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { acceptKeys, checkKeys } from '../../src/db/key-check.ts';
import { FieldCipher } from '../../src/lib/field-cipher.ts';
import { SessionKeyRing } from '../../src/lib/session-keys.ts';
import type { Secrets } from '../../src/secrets.ts';
import { processFixture, startServiceProcess } from '../support/service-process.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';

const K1 = randomBytes(32).toString('base64');
const K2 = randomBytes(32).toString('base64');
const SESSION_SECRET = randomBytes(32).toString('hex');
const secrets = (keys: string, sessionSecret = SESSION_SECRET): Secrets => ({ cipher: FieldCipher.fromKeyList(keys), sessionKeys: SessionKeyRing.ofSecret(sessionSecret) });

/** Secrets with ENCRYPTION_KEYS k1 and these session keys. */
const withSessionKeys = (named: Array<[string, string]>, unnamed?: string): Secrets => ({
  cipher: FieldCipher.fromKeyList(`k1:${K1}`),
  sessionKeys: new SessionKeyRing(
    named.map(([id, secret]) => ({ id, secret })),
    unnamed,
  ),
});

function runCli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['scripts/cli.ts', ...args], { env: { ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'warn', ...env }, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

describe('the key check of processes sharing a database', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(async () => {
    await db?.close();
  });
  beforeEach(async () => {
    await db.sql('delete from key_check');
  });

  it('follows a key rotation: k1, then k2,k1, then k2 alone; a ring without the encrypting key is refused', async () => {
    await checkKeys(db.em(), secrets(`k1:${K1}`));
    await checkKeys(db.em(), secrets(`k2:${K2},k1:${K1}`));
    await expect(checkKeys(db.em(), secrets(`k1:${K1}`))).rejects.toThrow(/^ENCRYPTION_KEYS lacks key "k2", which the other processes on this database encrypt with/);
    await checkKeys(db.em(), secrets(`k2:${K2}`));
    await checkKeys(db.em(), secrets(`k2:${K2},k1:${K1}`));
    expect(await db.sql(`select key_id, encrypts from key_check where secret = 'ENCRYPTION_KEYS' order by key_id`)).toEqual([
      { key_id: 'k1', encrypts: false },
      { key_id: 'k2', encrypts: true },
    ]);
  });

  it('refuses another key under a recorded id, and another SESSION_SECRET, naming the variable', async () => {
    await checkKeys(db.em(), secrets(`k1:${K1}`));
    await expect(checkKeys(db.em(), secrets(`k1:${K2}`))).rejects.toThrow(/^ENCRYPTION_KEYS holds another key under the id "k1" than the one the other processes on this database use/);
    await expect(checkKeys(db.em(), secrets(`k2:${K2},k1:${K2}`))).rejects.toThrow(/^ENCRYPTION_KEYS holds another key under the id "k1"/);
    await expect(checkKeys(db.em(), secrets(`k1:${K1}`, 'another secret of at least 32 characters'))).rejects.toThrow(/^SESSION_SECRET differs from the one the other processes on this database use/);
    // A refused process records nothing.
    expect(await db.sql('select key_id from key_check order by key_id')).toEqual([{ key_id: '' }, { key_id: 'k1' }]);
  });

  it('takes a deliberately changed SESSION_SECRET once accepted (`secrets accept`), and the old one no more', async () => {
    const changed = randomBytes(32).toString('hex');
    await checkKeys(db.em(), secrets(`k1:${K1}`));
    await acceptKeys(db.em(), secrets(`k1:${K1}`, changed));
    await checkKeys(db.em(), secrets(`k1:${K1}`, changed));
    await expect(checkKeys(db.em(), secrets(`k1:${K1}`))).rejects.toThrow(/^SESSION_SECRET differs/);
  });

  it('follows a session key rotation: SESSION_SECRET, then s1 signing beside it, s1 with s2 listed, s2 signing, s2 alone; a ring without the signing key is refused', async () => {
    const [S1, S2] = [randomBytes(32).toString('hex'), randomBytes(32).toString('hex')];
    const signing = () => db.sql(`select secret, key_id, retired_at is not null as retired from key_check where secret like 'SESSION%' and encrypts`);
    await checkKeys(db.em(), secrets(`k1:${K1}`));
    await checkKeys(db.em(), withSessionKeys([['s1', S1]], SESSION_SECRET));
    await expect(checkKeys(db.em(), secrets(`k1:${K1}`))).rejects.toThrow(/^SESSION_KEYS lacks key "s1", which the other processes on this database sign session tokens with/);
    await checkKeys(db.em(), withSessionKeys([['s1', S1], ['s2', S2]]));
    expect(await signing()).toEqual([{ secret: 'SESSION_KEYS', key_id: 's1', retired: false }]);
    await checkKeys(db.em(), withSessionKeys([['s2', S2], ['s1', S1]]));
    await expect(checkKeys(db.em(), withSessionKeys([['s1', S1]]))).rejects.toThrow(/^SESSION_KEYS lacks key "s2"/);
    await expect(checkKeys(db.em(), withSessionKeys([['s2', S1]]))).rejects.toThrow(/^SESSION_KEYS holds another key under the id "s2" than the one the other processes on this database use/);
    await checkKeys(db.em(), withSessionKeys([['s2', S2]]));
    expect(await signing()).toEqual([{ secret: 'SESSION_KEYS', key_id: 's2', retired: false }]);
    expect(await db.sql(`select secret, key_id, retired_at is not null as retired from key_check where secret like 'SESSION%' and not encrypts order by key_id`)).toEqual([
      { secret: 'SESSION_SECRET', key_id: '', retired: true },
      { secret: 'SESSION_KEYS', key_id: 's1', retired: true },
    ]);
  });

  it('refuses a process without SESSION_SECRET while the others sign with it', async () => {
    await checkKeys(db.em(), secrets(`k1:${K1}`));
    const named = { cipher: FieldCipher.fromKeyList(`k1:${K1}`), sessionKeys: new SessionKeyRing([{ id: 's1', secret: randomBytes(32).toString('hex') }], undefined) };
    await expect(checkKeys(db.em(), named)).rejects.toThrow(/^SESSION_SECRET is not set, though the other processes on this database sign session tokens with it/);
  });

  it('`secrets list` says what each key does and when an older session key can go; `secrets new-session-key` prints a new entry and the steps; neither prints a configured secret', { timeout: 120_000 }, async () => {
    const [S1, S2] = [randomBytes(32).toString('hex'), randomBytes(32).toString('hex')];
    await checkKeys(db.em(), secrets(`k1:${K1}`));
    await checkKeys(db.em(), withSessionKeys([['s1', S1]], SESSION_SECRET));
    await checkKeys(db.em(), withSessionKeys([['s2', S2], ['s1', S1]], SESSION_SECRET));
    const env = { DATABASE_URL: db.url, ENCRYPTION_KEYS: `k1:${K1}`, SESSION_KEYS: `s2:${S2},s1:${S1}`, SESSION_SECRET };

    const list = await runCli(['secrets', 'list'], env);
    expect(list.code, list.stderr).toBe(0);
    const when = '\\S+: remove it from SESSION_KEYS 24 h after the last instance restarted with the new first key, \\S+ at the earliest';
    expect(list.stdout).toMatch(/^SESSION_KEYS s2 +signs$/m);
    expect(list.stdout).toMatch(new RegExp(`^SESSION_KEYS s1 +verifies; stopped signing ${when}$`, 'm'));
    expect(list.stdout).toMatch(new RegExp(`^SESSION_SECRET +verifies the tokens that name no key; stopped signing ${when.replace('remove it from SESSION_KEYS', 'unset SESSION_SECRET')}$`, 'm'));
    expect(list.stdout).toMatch(/^ENCRYPTION_KEYS k1 +encrypts$/m);
    // Another s1 than the recorded one is named, not started with.
    const differing = await runCli(['secrets', 'list'], { ...env, SESSION_KEYS: `s2:${S2},s1:${K2}` });
    expect(differing.stdout).toMatch(/^SESSION_KEYS s1 +verifies; DIFFERS from the key the database records under this name/m);

    const fresh = await runCli(['secrets', 'new-session-key'], env);
    expect(fresh.code, fresh.stderr).toBe(0);
    const [, id] = /^ {2}(s\d{8}):[\w-]{64}$/m.exec(fresh.stdout) ?? [];
    expect(id).toBeDefined();
    expect(fresh.stdout).toContain(`SESSION_KEYS=s2:…,s1:…,${id}:…`);
    expect(fresh.stdout).toContain(`SESSION_KEYS=${id}:…,s2:…,s1:…`);
    const taken = await runCli(['secrets', 'new-session-key', '--name', 's1'], env);
    expect([taken.code, taken.stderr]).toEqual([1, 'error: a session key "s1" is configured or recorded already: choose another --name\n']);

    for (const secret of [K1, S1, S2, SESSION_SECRET]) expect(list.stdout + fresh.stdout).not.toContain(secret);
    // Reading changed nothing: s2 still signs.
    expect(await db.sql(`select key_id from key_check where secret like 'SESSION%' and encrypts`)).toEqual([{ key_id: 's2' }]);
  });

  it('stores neither a key nor the session secret', async () => {
    await checkKeys(db.em(), secrets(`k2:${K2},k1:${K1}`));
    const stored = JSON.stringify(await db.sql('select * from key_check'));
    for (const secret of [K1, K2, SESSION_SECRET]) {
      expect(stored).not.toContain(secret);
      expect(stored).not.toContain(Buffer.from(secret, 'base64').toString('base64url'));
    }
  });
});

describe('a process started with other secrets than the processes already on its database', () => {
  /** What a process that should refuse to start printed, with its exit code; a process that starts is stopped and fails the test. */
  async function refusal(fixture: { databaseUrl: string; dataDir: string }, env: Record<string, string> = {}): Promise<string> {
    try {
      const service = await startServiceProcess(fixture, env);
      service.child.kill('SIGTERM');
      await service.exited;
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error('the process started');
  }

  // Four processes start one after the other.
  it('exits 78 naming ENCRYPTION_KEYS or SESSION_SECRET, and starts once it has them (a rotated ring too)', { timeout: 120_000 }, async () => {
    const fixture = await processFixture();
    const otherDataDir = mkdtempSync(path.join(tmpdir(), 'tributary-process-'));
    try {
      const first = await startServiceProcess(fixture);
      const generated = JSON.parse(readFileSync(path.join(fixture.dataDir, 'secrets.json'), 'utf8')) as { encryptionKeys: string; sessionSecret: string };
      const other = { databaseUrl: fixture.databaseUrl, dataDir: otherDataDir };

      // Its own DATA_DIR: its own generated secrets.
      expect(await refusal(other)).toMatch(/exited early \(code 78\):[^]*ENCRYPTION_KEYS holds another key under the id "dev1" than the one the other processes on this database use/);
      expect(await refusal(other, { ENCRYPTION_KEYS: generated.encryptionKeys })).toMatch(/exited early \(code 78\):[^]*SESSION_SECRET differs/);

      // The CLI writes encrypted values too (`providers set`): it checks before it writes.
      const cli = await runCli(['providers', 'list', 'env_none'], { DATABASE_URL: fixture.databaseUrl, DATA_DIR: otherDataDir });
      expect(cli.code).toBe(1);
      expect(cli.stderr).toMatch(/^error: ENCRYPTION_KEYS holds another key under the id "dev1"/);
      expect(cli.stderr).not.toMatch(/^\s+at /m);

      const rotated = await startServiceProcess(other, { ENCRYPTION_KEYS: `k2:${K2},${generated.encryptionKeys}`, SESSION_SECRET: generated.sessionSecret });
      rotated.child.kill('SIGTERM');
      expect(await rotated.exited).toBe(0);
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
    } finally {
      rmSync(otherDataDir, { recursive: true, force: true });
      await fixture.cleanup();
    }
  });
});
