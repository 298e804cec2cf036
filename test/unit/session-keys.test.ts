import { randomBytes } from 'node:crypto';
import { decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import { parseSessionKeys, SessionKeyRing } from '../../src/lib/session-keys.ts';
import { SESSION_LIFETIME_MS, SessionTokens } from '../../src/modules/session/session-token.ts';

const secret = () => randomBytes(32).toString('base64url');
const [OLD_SECRET, K1, K2] = [secret(), secret(), secret()];
const claims = { sessionId: crypto.randomUUID(), profileId: crypto.randomUUID(), environmentId: crypto.randomUUID(), apiVersion: '2026-04-01' };

/** A token signed by `keys` now, as issuing signs it. */
function issue(keys: SessionKeyRing): Promise<string> {
  const now = new Date();
  return new SessionTokens(keys).sign(claims, now, new Date(now.getTime() + SESSION_LIFETIME_MS));
}

/** Whether `keys` (in a process that has not seen the token before) verifies `token`. */
async function verifies(keys: SessionKeyRing, token: string): Promise<boolean> {
  return (await new SessionTokens(keys).verify(token)) !== undefined;
}

describe('SESSION_KEYS', () => {
  it('reads <id>:<secret> entries, newest first, a secret keeping every character after its first colon', () => {
    expect(parseSessionKeys(`s2:${K2}, s1:${K1}:x`)).toEqual({ keys: [{ id: 's2', secret: K2 }, { id: 's1', secret: `${K1}:x` }], problems: [] });
  });

  it('names what is wrong by entry or id, never by secret', () => {
    const { problems } = parseSessionKeys(`${K1},s1:short,s2:${K2},s2:${K1},bad id:${K2}`);
    expect(problems).toEqual([
      'SESSION_KEYS entry 1 must be <id>:<secret>, the id 1-32 of [A-Za-z0-9_-]',
      'SESSION_KEYS key "s1" must be at least 32 characters',
      'SESSION_KEYS names the id "s2" twice',
      'SESSION_KEYS entry 5 must be <id>:<secret>, the id 1-32 of [A-Za-z0-9_-]',
    ]);
    for (const problem of problems) for (const key of [K1, K2]) expect(problem).not.toContain(key);
  });
});

describe('session tokens under a key ring', () => {
  it('SESSION_SECRET alone signs as before, naming no key, and verifies whatever key a token names, as before', async () => {
    const alone = SessionKeyRing.ofSecret(OLD_SECRET);
    const token = await issue(alone);
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(await verifies(alone, token)).toBe(true);
    // The secret named in SESSION_KEYS (the first step away from SESSION_SECRET) signs what an instance without SESSION_KEYS verifies.
    expect(await verifies(alone, await issue(new SessionKeyRing([{ id: 's1', secret: OLD_SECRET }], OLD_SECRET)))).toBe(true);
    expect(await verifies(alone, await issue(new SessionKeyRing([{ id: 's1', secret: K1 }], OLD_SECRET)))).toBe(false);
  });

  it('rotates without signing anyone out: every token verifies while its key is listed, by the key it names', async () => {
    const before = await issue(SessionKeyRing.ofSecret(OLD_SECRET));
    // The transition: SESSION_KEYS signs, SESSION_SECRET still verifies the tokens that name no key.
    const transition = new SessionKeyRing([{ id: 's1', secret: K1 }], OLD_SECRET);
    const first = await issue(transition);
    expect(decodeProtectedHeader(first).kid).toBe('s1');
    expect(await verifies(transition, before)).toBe(true);
    // A new key listed first signs; the older one verifies what it signed.
    const rotated = new SessionKeyRing([{ id: 's2', secret: K2 }, { id: 's1', secret: K1 }], undefined);
    const second = await issue(rotated);
    expect(decodeProtectedHeader(second).kid).toBe('s2');
    expect(await verifies(rotated, first)).toBe(true);
    expect(await verifies(rotated, second)).toBe(true);
    // Retired: a key no longer listed verifies nothing, nor does SESSION_SECRET once it is unset.
    const retired = new SessionKeyRing([{ id: 's2', secret: K2 }], undefined);
    expect(await verifies(retired, second)).toBe(true);
    expect(await verifies(retired, first)).toBe(false);
    expect(await verifies(retired, before)).toBe(false);
  });

  it('refuses a token naming a key it was not signed with, an unknown key, or no key but not signed by SESSION_SECRET', async () => {
    const ring = new SessionKeyRing([{ id: 's2', secret: K2 }, { id: 's1', secret: K1 }], OLD_SECRET);
    const signedBy = (id: string | undefined, key: string) => issue(id === undefined ? SessionKeyRing.ofSecret(key) : new SessionKeyRing([{ id, secret: key }], undefined));
    expect(await verifies(ring, await signedBy('s1', K1))).toBe(true);
    expect(await verifies(ring, await signedBy('s1', K2))).toBe(false);
    expect(await verifies(ring, await signedBy('s3', K1))).toBe(false);
    expect(await verifies(ring, await signedBy(undefined, K1))).toBe(false);
    expect(await verifies(new SessionKeyRing([{ id: 's1', secret: K1 }], undefined), await signedBy(undefined, K1))).toBe(false);
  });
});
