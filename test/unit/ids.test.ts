import { describe, expect, it } from 'vitest';
import { decodeId, encodeId, firstUuidv7At, uuidv7 } from '../../src/lib/ids.ts';

describe('public identifiers', () => {
  it('round-trips a uuid through its prefixed form', () => {
    const uuid = uuidv7();
    const id = encodeId('profile', uuid);
    expect(id).toMatch(/^p_[0-9a-hjkmnp-tv-z]{26}$/);
    expect(decodeId('profile', id)).toBe(uuid);
  });

  it('is time-ordered', () => {
    const earlier = encodeId('transaction', uuidv7());
    const later = encodeId('transaction', uuidv7(Date.now() + 1000));
    expect(earlier < later).toBe(true);
  });

  it('orders ids made within the same millisecond by creation', () => {
    const ids = Array.from({ length: 5000 }, () => uuidv7());
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('refuses ids of another resource or garbled ones', () => {
    const id = encodeId('account', uuidv7());
    expect(decodeId('profile', id)).toBeUndefined();
    expect(decodeId('account', `${id}x`)).toBeUndefined();
    expect(decodeId('account', id.replace(/.$/, 'u'))).toBeUndefined();
    expect(decodeId('account', `acct_8${'0'.repeat(25)}`)).toBeUndefined();
  });
});

describe('firstUuidv7At', () => {
  it('bounds ids by time: made before the millisecond, smaller; at or after it, not smaller', () => {
    const ms = Date.now() + 60_000;
    const bound = firstUuidv7At(ms);
    expect(uuidv7() < bound).toBe(true);
    expect(bound.slice(14, 15)).toBe('7');
    expect(uuidv7(ms) >= bound && uuidv7(ms + 1) > bound).toBe(true);
  });
});
