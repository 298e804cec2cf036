import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as every authenticator app reads it by default: SHA-1, 6 digits, 30-second steps. */
const PERIOD_S = 30;
/** A code of the step before or after the current one is accepted too (a phone's clock a little off). */
const WINDOW = 1;

/** A new TOTP secret (160 random bits, base32) and its `otpauth://` URI for `email`. */
export function newTotpSecret(email: string): { secret: string; uri: string } {
  const secret = new Secret({ size: 20 }).base32;
  return { secret, uri: totpOf(secret, email).toString() };
}

/**
 * The time step `code` is valid for under `secret` at `now`, if it is valid and later than
 * `lastStep` (a code is accepted once: a code seen over a shoulder or replayed is refused).
 */
export function acceptedStep(secret: string, code: string, now: Date, lastStep: number | null): number | undefined {
  const delta = totpOf(secret, '').validate({ token: code, timestamp: now.getTime(), window: WINDOW });
  if (delta === null) return undefined;
  const step = Math.floor(now.getTime() / 1000 / PERIOD_S) + delta;
  return lastStep !== null && step <= lastStep ? undefined : step;
}

function totpOf(secret: string, email: string): TOTP {
  return new TOTP({ issuer: 'Tributary', label: email, algorithm: 'SHA1', digits: 6, period: PERIOD_S, secret: Secret.fromBase32(secret) });
}
