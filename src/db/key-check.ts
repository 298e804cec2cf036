import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ConfigError } from '../config.ts';
import { uuidv7 } from '../lib/ids.ts';
import type { Secrets } from '../secrets.ts';
import { KeyCheck, type CheckedSecret, type KeyCheckEntity } from './key-check.entity.ts';

/** This process's secrets differ from the ones recorded by the processes before it on this database. */
export class KeyMismatch extends ConfigError {}

const SAME_EVERYWHERE =
  'Every process on one database needs the same ENCRYPTION_KEYS, SESSION_KEYS and SESSION_SECRET (with none set, each DATA_DIR generates its own into secrets.json). Rotate keys by listing them (README: rotating encryption keys, rotating the session key); after replacing one on purpose, run `npm run cli -- secrets accept`.';

/**
 * Keys of which the first writes and all read: ENCRYPTION_KEYS (the first encrypts), and the session
 * keys (SESSION_KEYS, whose first signs, then SESSION_SECRET, which signs when no SESSION_KEYS is set).
 */
interface Ring {
  /** The `secret` column values of its rows. */
  secrets: CheckedSecret[];
  /** This process's keys, the writing one first. */
  held: Array<{ secret: CheckedSecret; keyId: string }>;
  /** The check value of the key recorded as `keyId` (SESSION_SECRET's is empty). */
  checkValueOf(keyId: string, salt: Buffer): Promise<string>;
  /** The refusal of a process without the key the others write with. */
  lacking(row: KeyCheckEntity): string;
}

/** ENCRYPTION_KEYS first: when both rings differ, theirs is the message that matters. */
function ringsOf(secrets: Secrets): Ring[] {
  const { cipher, sessionKeys } = secrets;
  return [
    {
      secrets: ['ENCRYPTION_KEYS'],
      held: cipher.keyIds.map((keyId) => ({ secret: 'ENCRYPTION_KEYS', keyId })),
      checkValueOf: (keyId, salt) => cipher.checkValueOf(keyId, salt),
      lacking: (row) => `ENCRYPTION_KEYS lacks key "${row.keyId}", which the other processes on this database encrypt with: this process could not read what they write.`,
    },
    {
      secrets: ['SESSION_KEYS', 'SESSION_SECRET'],
      held: [
        ...sessionKeys.keyIds.map((keyId) => ({ secret: 'SESSION_KEYS' as const, keyId })),
        ...(sessionKeys.hasUnnamed ? [{ secret: 'SESSION_SECRET' as const, keyId: '' }] : []),
      ],
      checkValueOf: (keyId, salt) => sessionKeys.checkValueOf(keyId, salt),
      lacking: (row) =>
        row.secret === 'SESSION_SECRET'
          ? 'SESSION_SECRET is not set, though the other processes on this database sign session tokens with it: the tokens they issue would not verify here.'
          : `SESSION_KEYS lacks key "${row.keyId}", which the other processes on this database sign session tokens with: the tokens they issue would not verify here.`,
    },
  ];
}

/**
 * Checks this process's secrets against the check values recorded in the database, then records
 * its own: refuses (KeyMismatch, naming the variable) a key whose id is recorded for another key
 * (SESSION_SECRET: another secret than the recorded one), and a ring without the key the last process
 * to start writes with (it could not read what is written now: values encrypted, tokens signed). Keys
 * rotate as the README says: a ring `k2,k1` after `k1` passes and makes k2 the writing key; `k2` alone
 * passes after it. SESSION_KEYS and SESSION_SECRET are one ring, SESSION_SECRET last: it writes only
 * when no SESSION_KEYS is set. The key that stops writing is stamped `retiredAt`. One transaction
 * under a table lock, so processes starting together check one after the other.
 */
export async function checkKeys(em: EntityManager, secrets: Secrets): Promise<void> {
  await em.transactional(async (tx) => {
    await tx.execute('lock table key_check in share row exclusive mode', [], 'run');
    const recorded = await tx.find(KeyCheck, {}, { orderBy: { secret: 'asc', keyId: 'asc' } });
    const rings = ringsOf(secrets);
    for (const ring of rings) {
      for (const row of recorded.filter(({ secret }) => ring.secrets.includes(secret))) {
        const held = ring.held.some(({ secret, keyId }) => secret === row.secret && keyId === row.keyId);
        if (held && (await ring.checkValueOf(row.keyId, Buffer.from(row.salt, 'base64url'))) !== row.checkValue) throw mismatch(row);
        if (!held && row.encrypts) throw new KeyMismatch(`${ring.lacking(row)} ${SAME_EVERYWHERE}`);
      }
    }
    for (const ring of rings) {
      for (const { secret, keyId } of ring.held) {
        if (recorded.some((row) => row.secret === secret && row.keyId === keyId)) continue;
        const salt = randomBytes(16);
        tx.create(KeyCheck, { id: uuidv7(), secret, keyId, salt: salt.toString('base64url'), checkValue: await ring.checkValueOf(keyId, salt), retiredAt: null });
      }
    }
    await tx.flush();
    for (const ring of rings) {
      const writer = ring.held[0]!;
      await tx.nativeUpdate(KeyCheck, { secret: { $in: ring.secrets }, encrypts: true, $not: writer }, { encrypts: false, retiredAt: new Date() });
      await tx.nativeUpdate(KeyCheck, writer, { encrypts: true, retiredAt: null });
    }
  });
}

/** Forgets every recorded check value, then records this process's (`secrets accept`): after a deliberate change. */
export async function acceptKeys(em: EntityManager, secrets: Secrets): Promise<void> {
  await em.transactional(async (tx) => {
    await tx.nativeDelete(KeyCheck, {});
    await checkKeys(tx, secrets);
  });
}

function mismatch(row: KeyCheckEntity): KeyMismatch {
  const which = row.secret === 'SESSION_SECRET' ? 'SESSION_SECRET differs from' : `${row.secret} holds another key under the id "${row.keyId}" than`;
  return new KeyMismatch(`${which} the one the other processes on this database use (recorded ${row.recordedAt.toISOString()}). ${SAME_EVERYWHERE}`);
}
