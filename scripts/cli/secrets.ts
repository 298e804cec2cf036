import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { KeyCheck, type CheckedSecret, type KeyCheckEntity } from '../../src/db/key-check.entity.ts';
import { SESSION_LIFETIME_MS } from '../../src/modules/session/session-token.ts';
import { OperatorError } from '../../src/modules/environment/environment.service.ts';
import type { Secrets } from '../../src/secrets.ts';

/** A key as this configuration holds it, or as the database records it. */
interface Listed {
  secret: CheckedSecret;
  keyId: string;
  configured: boolean;
  /** Whether it writes (encrypts, signs) in this configuration; for a key configured nowhere here, false. */
  writes: boolean;
}

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * `secrets list`: every key of this configuration and every key the database records (never a
 * secret): what it does here, whether it matches what the other processes hold, and for a session
 * key that stopped signing, when every token it signed has expired, so it can go.
 */
export async function listSecrets(em: EntityManager, secrets: Secrets, now = new Date()): Promise<void> {
  const recorded = await em.find(KeyCheck, {}, { orderBy: { secret: 'asc', keyId: 'asc' } });
  const { cipher, sessionKeys } = secrets;
  const listed: Listed[] = [
    ...sessionKeys.keyIds.map((keyId, index) => ({ secret: 'SESSION_KEYS' as const, keyId, configured: true, writes: index === 0 })),
    ...(sessionKeys.hasUnnamed ? [{ secret: 'SESSION_SECRET' as const, keyId: '', configured: true, writes: sessionKeys.keyIds.length === 0 }] : []),
    ...cipher.keyIds.map((keyId, index) => ({ secret: 'ENCRYPTION_KEYS' as const, keyId, configured: true, writes: index === 0 })),
  ];
  for (const row of recorded) {
    if (!listed.some((key) => key.secret === row.secret && key.keyId === row.keyId)) listed.push({ secret: row.secret, keyId: row.keyId, configured: false, writes: false });
  }
  for (const key of listed) {
    const row = recorded.find(({ secret, keyId }) => secret === key.secret && keyId === key.keyId);
    const checkValue = row && key.configured ? await checkValueOf(secrets, key, Buffer.from(row.salt, 'base64url')) : undefined;
    console.log(`${`${key.secret} ${key.keyId}`.padEnd(34)} ${[role(key), record(key, row, checkValue), retirement(key, row, now)].filter(Boolean).join('; ')}`);
  }
}

/**
 * `secrets new-session-key`: a new SESSION_KEYS entry, printed once, and the steps that rotate to it
 * without signing anyone out. The id defaults to `s` and today's date (UTC), and must be new to this
 * configuration and to the database.
 */
export async function newSessionKey(em: EntityManager, secrets: Secrets, name: string | undefined, now = new Date()): Promise<void> {
  const taken = new Set([...secrets.sessionKeys.keyIds, ...(await em.find(KeyCheck, { secret: 'SESSION_KEYS' })).map((row) => row.keyId)]);
  const base = name ?? `s${now.toISOString().slice(0, 10).replaceAll('-', '')}`;
  if (!KEY_ID.test(base)) throw new OperatorError('--name must be 1-32 of [A-Za-z0-9_-]');
  if (name !== undefined && taken.has(name)) throw new OperatorError(`a session key "${name}" is configured or recorded already: choose another --name`);
  let id = base;
  for (let suffix = 2; taken.has(id); suffix++) id = `${base}-${suffix}`;
  const entry = `${id}:${randomBytes(48).toString('base64url')}`;
  const current = secrets.sessionKeys.keyIds;
  // A deployment on SESSION_SECRET alone names it first: it keeps signing, under a name its instances still verify.
  const older = current.length > 0 ? current.map((keyId) => `${keyId}:…`).join(',') : 's0:<your SESSION_SECRET>';
  const hours = SESSION_LIFETIME_MS / 3_600_000;
  console.log(`New session key (shown this once; store it now):

  ${entry}

Rotate to it, restarting every instance after each step (README: rotating the session key):
  1. List it last, so every instance verifies it before any signs with it:
       SESSION_KEYS=${older},${id}:…${current.length > 0 ? '' : '   (keep SESSION_SECRET set)'}
  2. Move it first: it signs, the older keys verify what they signed.
       SESSION_KEYS=${id}:…,${older}
  3. ${hours} hours after step 2 (the longest a token lives), remove the older keys${current.length > 0 ? '' : ' and SESSION_SECRET'}:
       SESSION_KEYS=${id}:…
     \`npm run cli -- secrets list\` says when each older key's tokens have all expired.
If a key leaked, skip the wait: remove it at step 2, which signs out the sessions it signed.`);
}

function checkValueOf({ cipher, sessionKeys }: Secrets, key: Listed, salt: Buffer): Promise<string> {
  return key.secret === 'ENCRYPTION_KEYS' ? cipher.checkValueOf(key.keyId, salt) : sessionKeys.checkValueOf(key.keyId, salt);
}

function role(key: Listed): string {
  if (!key.configured) return 'recorded, not configured here';
  if (key.secret === 'ENCRYPTION_KEYS') return key.writes ? 'encrypts' : 'decrypts (`encryption reencrypt` says when it can go)';
  if (key.secret === 'SESSION_SECRET') return key.writes ? 'signs (naming no key)' : 'verifies the tokens that name no key';
  return key.writes ? 'signs' : 'verifies';
}

function record(key: Listed, row: KeyCheckEntity | undefined, checkValue: string | undefined): string {
  if (!row) return 'not recorded yet (a process starting with it records it)';
  if (checkValue !== undefined && checkValue !== row.checkValue) return 'DIFFERS from the key the database records under this name';
  if (row.encrypts && !key.writes) return `the processes on this database ${key.secret === 'ENCRYPTION_KEYS' ? 'encrypt' : 'sign'} with it`;
  return '';
}

/**
 * For a session key that stopped signing: from when its tokens may all have expired. `retiredAt` is
 * when the first process started with another first key; the others signed with it until they restarted.
 */
function retirement(key: Listed, row: KeyCheckEntity | undefined, now: Date): string {
  if (key.secret === 'ENCRYPTION_KEYS' || !row?.retiredAt || row.encrypts) return '';
  const earliest = new Date(row.retiredAt.getTime() + SESSION_LIFETIME_MS);
  const hours = SESSION_LIFETIME_MS / 3_600_000;
  const remove = key.secret === 'SESSION_SECRET' ? 'unset SESSION_SECRET' : 'remove it from SESSION_KEYS';
  return `stopped signing ${row.retiredAt.toISOString()}: ${remove} ${hours} h after the last instance restarted with the new first key, ${earliest.toISOString()} at the earliest${earliest <= now ? ' (passed)' : ''}`;
}
