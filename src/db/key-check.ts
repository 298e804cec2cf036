import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ConfigError } from '../config.ts';
import { uuidv7 } from '../lib/ids.ts';
import { secretCheckValue } from '../lib/secret-check-value.ts';
import type { Secrets } from '../secrets.ts';
import { KeyCheck, type CheckedSecret, type KeyCheckEntity } from './key-check.entity.ts';

/** This process's secrets differ from the ones recorded by the processes before it on this database. */
export class KeyMismatch extends ConfigError {}

const SAME_EVERYWHERE =
  'Every process on one database needs the same ENCRYPTION_KEYS and SESSION_SECRET (unset, each DATA_DIR generates its own into secrets.json). After changing SESSION_SECRET on purpose, run `npm run cli -- secrets accept`.';

/**
 * Checks this process's secrets against the check values recorded in the database, then records
 * its own: refuses (KeyMismatch, naming the variable) a SESSION_SECRET other than the recorded one,
 * an encryption key whose id is recorded for another key, and a key ring without the key the last
 * process to start encrypts with (it could not read what is written now). Keys rotate as the README
 * says: a ring `k2,k1` after `k1` passes and makes k2 the encrypting key; `k2` alone passes after it.
 * One transaction under a table lock, so processes starting together check one after the other.
 */
export async function checkKeys(em: EntityManager, secrets: Secrets): Promise<void> {
  await em.transactional(async (tx) => {
    await tx.execute('lock table key_check in share row exclusive mode', [], 'run');
    // The encryption keys first: when both differ, theirs is the message that matters.
    const recorded = await tx.find(KeyCheck, {}, { orderBy: { secret: 'asc', keyId: 'asc' } });
    const keyIds = secrets.cipher.keyIds;
    const valueOf = (secret: CheckedSecret, keyId: string) => (salt: Buffer) =>
      secret === 'SESSION_SECRET' ? secretCheckValue(secrets.sessionSecret, salt) : secrets.cipher.checkValueOf(keyId, salt);
    for (const row of recorded) {
      const held = row.secret === 'SESSION_SECRET' || keyIds.includes(row.keyId);
      if (held && (await valueOf(row.secret, row.keyId)(Buffer.from(row.salt, 'base64url'))) !== row.checkValue) throw mismatch(row);
      if (!held && row.encrypts) {
        throw new KeyMismatch(`ENCRYPTION_KEYS lacks key "${row.keyId}", which the other processes on this database encrypt with: this process could not read what they write. ${SAME_EVERYWHERE}`);
      }
    }
    const wanted: Array<[CheckedSecret, string]> = [['SESSION_SECRET', ''], ...keyIds.map((keyId): [CheckedSecret, string] => ['ENCRYPTION_KEYS', keyId])];
    for (const [secret, keyId] of wanted) {
      if (recorded.some((row) => row.secret === secret && row.keyId === keyId)) continue;
      const salt = randomBytes(16);
      tx.create(KeyCheck, { id: uuidv7(), secret, keyId, salt: salt.toString('base64url'), checkValue: await valueOf(secret, keyId)(salt) });
    }
    await tx.flush();
    await tx.nativeUpdate(KeyCheck, { secret: 'ENCRYPTION_KEYS' }, { encrypts: false });
    await tx.nativeUpdate(KeyCheck, { secret: 'ENCRYPTION_KEYS', keyId: keyIds[0]! }, { encrypts: true });
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
  const which = row.secret === 'SESSION_SECRET' ? 'SESSION_SECRET differs from' : `ENCRYPTION_KEYS holds another key under the id "${row.keyId}" than`;
  return new KeyMismatch(`${which} the one the other processes on this database use (recorded ${row.recordedAt.toISOString()}). ${SAME_EVERYWHERE}`);
}
