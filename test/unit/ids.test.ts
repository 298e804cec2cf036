import { describe, expect, it } from 'vitest';
import { decodeId, encodeId, uuidv7, uuidv7Edge } from '../../src/lib/ids.ts';

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

  it('brackets the ids of one millisecond between its first and last uuid (time ranges as id ranges)', () => {
    const ms = Date.now() + 10_000;
    const ids = Array.from({ length: 100 }, () => uuidv7(ms));
    const inMs = ids.filter((id) => id.startsWith(uuidv7Edge(ms, 'first').slice(0, 13)));
    expect(inMs.length).toBeGreaterThan(0);
    for (const id of inMs) expect(uuidv7Edge(ms, 'first') <= id && id <= uuidv7Edge(ms, 'last')).toBe(true);
    expect(uuidv7Edge(ms - 1, 'last') < uuidv7Edge(ms, 'first')).toBe(true);
    expect(uuidv7Edge(-62_135_596_800_000, 'first')).toBe('00000000-0000-0000-0000-000000000000');
    expect(uuidv7Edge(Number.MAX_SAFE_INTEGER, 'last')).toBe('ffffffff-ffff-ffff-ffff-ffffffffffff');
  });
});
