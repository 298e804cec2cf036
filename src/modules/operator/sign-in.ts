import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../errors.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import type { FixedWindowLimiter } from '../../lib/fixed-window.ts';
import type { AuditOutcome } from './audit-entry.entity.ts';
import { recordAudit } from './audit.store.ts';
import type { OperatorEntity, OperatorSessionEntity } from './operator.entity.ts';
import { normalEmail, TOTP_FIELD } from './operator.service.ts';
import type { OperatorSessions } from './operator-sessions.ts';
import { operatorByEmail } from './operator.store.ts';
import { DECOY_HASH, hashPassword, needsRehash, verifyPassword } from './password.ts';
import { acceptedStep } from './totp.ts';

/** Sign-in attempts allowed in each window (SIGN_IN_WINDOW_MS): per account (email as given, normalised), and per client address. */
export const SIGN_IN_LIMITS = { perAccount: 10, perAddress: 30 } as const;
export const SIGN_IN_WINDOW_MS = 15 * 60_000;

/** Where a sign-in comes from, for the limits and the audit log. */
export interface SignInOrigin {
  /** The key the client's address is counted under (an IPv6 client's /64). */
  addressKey: string;
  clientAddress: string;
  userAgent: string | null;
}

export interface SignInDependencies {
  cipher: FieldCipher;
  sessions: OperatorSessions;
  /** Counts attempts in SIGN_IN_WINDOW_MS windows. */
  limiter: FixedWindowLimiter;
}

const refused = () =>
  new AppError(401, 'SIGN_IN_REFUSED', 'The email, password or TOTP code is not right, or the operator is disabled', {
    instruction: 'Check them and sign in again; an owner can reset a forgotten password (npm run cli -- operators reset).',
  });

/** A window counter and its limit: one account's sign-in attempts, or one address's. */
type AttemptLimit = readonly [key: string, limit: number];

export const accountLimit = (email: string): AttemptLimit => [`sign-in:account:${email}`, SIGN_IN_LIMITS.perAccount];
export const addressLimit = (origin: SignInOrigin): AttemptLimit => [`sign-in:address:${origin.addressKey}`, SIGN_IN_LIMITS.perAddress];

/**
 * Counts one sign-in attempt under each of `limits`; past one of them, `refused` runs (to audit it)
 * and the attempt is answered 429 RATE_LIMITED.
 */
export async function countSignInAttempt(limiter: FixedWindowLimiter, limits: AttemptLimit[], refused: () => Promise<void>): Promise<void> {
  for (const [key, limit] of limits) {
    const count = await limiter.hit(key, limit);
    if (count.allowed) continue;
    await refused();
    throw new AppError(429, 'RATE_LIMITED', `Too many sign-in attempts: at most ${SIGN_IN_LIMITS.perAccount} per account and ${SIGN_IN_LIMITS.perAddress} per address in ${SIGN_IN_WINDOW_MS / 60_000} minutes`, {
      instruction: `Wait ${count.resetSeconds} second(s) before trying again.`,
      headers: { 'Retry-After': String(count.resetSeconds) },
    });
  }
}

/** Writes one sign-in attempt (`action`: the operation that made it) to the audit log. */
export function auditSignIn(em: EntityManager, sessions: OperatorSessions, origin: SignInOrigin, action: string, who: { operator: OperatorEntity | null; email: string | null }, outcome: AuditOutcome, status: number): Promise<void> {
  return recordAudit(em, {
    at: sessions.now(),
    operatorId: who.operator?.id ?? null,
    email: who.email,
    environmentId: null,
    action,
    targetId: null,
    clientAddress: origin.clientAddress,
    userAgent: origin.userAgent,
    outcome,
    status,
  });
}

/**
 * Signs an operator in with email, password and (when they turned it on) a TOTP code, and opens a
 * session. Every attempt is counted against the account and the address before anything is checked
 * and is written to the audit log with its outcome. An unknown email costs a password check all the
 * same, and gets the same answer as a wrong password, a wrong code and a disabled operator.
 */
export async function signIn(
  em: EntityManager,
  { cipher, sessions, limiter }: SignInDependencies,
  attempt: { email: string; password: string; totpCode?: string },
  origin: SignInOrigin,
): Promise<{ operator: OperatorEntity; token: string; session: OperatorSessionEntity }> {
  const email = normalEmail(attempt.email);
  let operator: OperatorEntity | null = null;
  const audit = (outcome: AuditOutcome, status: number) => auditSignIn(em, sessions, origin, 'signInOperator', { operator, email }, outcome, status);
  await countSignInAttempt(limiter, [accountLimit(email), addressLimit(origin)], () => audit('REFUSED', 429));
  operator = await operatorByEmail(em, email);
  const passwordRight = await verifyPassword(attempt.password, operator?.passwordHash ?? DECOY_HASH);
  if (!operator || !passwordRight || operator.disabledAt !== null) {
    await audit('REFUSED', 401);
    throw refused();
  }
  const totpSecret = operator.totpSecretEncrypted;
  if (totpSecret) {
    if (attempt.totpCode === undefined) {
      await audit('REFUSED', 401);
      throw new AppError(401, 'TOTP_REQUIRED', 'This operator signs in with a TOTP code too', { instruction: 'Send the sign-in again with totpCode, the current code of your authenticator.' });
    }
    const step = acceptedStep(cipher.decrypt(TOTP_FIELD, operator, totpSecret), attempt.totpCode, sessions.now(), operator.totpLastStep ?? null);
    if (step === undefined) {
      await audit('REFUSED', 401);
      throw refused();
    }
    operator.totpLastStep = step;
  }
  if (needsRehash(operator.passwordHash)) operator.passwordHash = await hashPassword(attempt.password);
  const { token, session } = sessions.open(em, operator);
  await em.flush();
  await audit('SUCCEEDED', 200);
  return { operator, token, session };
}
