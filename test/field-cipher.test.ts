import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FieldCipher } from '../src/lib/field-cipher.ts';

const key = () => randomBytes(32).toString('base64');

describe('column-level encryption', () => {
  it('encrypts with a fresh IV each time and decrypts back', () => {
    const cipher = FieldCipher.fromKeyList(`k1:${key()}`);
    const a = cipher.encrypt('email', 'jane@example.com')!;
    const b = cipher.encrypt('email', 'jane@example.com')!;
    expect(a).not.toBe(b);
    expect(a).not.toContain('jane');
    expect(cipher.decrypt('email', a)).toBe('jane@example.com');
    expect(cipher.encrypt('email', null)).toBeNull();
  });

  it('rotates: a new first key encrypts, older keys still decrypt', () => {
    const old = `k1:${key()}`;
    const before = FieldCipher.fromKeyList(old).encrypt('phone', '+14155550123')!;
    const rotated = FieldCipher.fromKeyList(`k2:${key()},${old}`);
    expect(rotated.decrypt('phone', before)).toBe('+14155550123');
    expect(rotated.encrypt('phone', 'x')!.split('.')[1]).toBe('k2');
  });

  it('binds a ciphertext to its field and detects tampering', () => {
    const cipher = FieldCipher.fromKeyList(`k1:${key()}`);
    const stored = cipher.encrypt('email', 'jane@example.com')!;
    expect(() => cipher.decrypt('phone', stored)).toThrow();
    const parts = stored.split('.');
    parts[4] = Buffer.from('tampered').toString('base64url');
    expect(() => cipher.decrypt('email', parts.join('.'))).toThrow();
  });

  it('refuses keys of the wrong size', () => {
    expect(() => FieldCipher.fromKeyList(`k1:${randomBytes(16).toString('base64')}`)).toThrow(/32 bytes/);
  });
});
