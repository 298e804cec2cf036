import { defineEntity, p } from '@mikro-orm/core';

export const CHECKED_SECRETS = ['ENCRYPTION_KEYS', 'SESSION_KEYS', 'SESSION_SECRET'] as const;
export type CheckedSecret = (typeof CHECKED_SECRETS)[number];

/**
 * What every process on this database checks its secrets against at start (src/db/key-check.ts):
 * one row per encryption key id, per session key id, and one for the session secret (`keyId` empty).
 * `checkValue` is scrypt of the secret under `salt`, never the secret. `encrypts` marks the key that
 * writes in its ring, as the last process to start has it: the key it encrypts with among
 * ENCRYPTION_KEYS, and the key it signs session tokens with among SESSION_KEYS and SESSION_SECRET. A
 * process must hold it to read what is written now. `retiredAt`: when the key last stopped writing
 * (a process started with another first key), so an operator knows when what it wrote has expired.
 */
export const KeyCheck = defineEntity({
  name: 'KeyCheck',
  properties: {
    id: p.uuid().primary(),
    secret: p.enum(CHECKED_SECRETS),
    keyId: p.text(),
    salt: p.text(),
    checkValue: p.text(),
    encrypts: p.boolean().default(false),
    recordedAt: p.datetime().onCreate(() => new Date()),
    retiredAt: p.datetime().nullable(),
  },
  uniques: [{ properties: ['secret', 'keyId'] }],
});

export type KeyCheckEntity = InstanceType<typeof KeyCheck.class>;
