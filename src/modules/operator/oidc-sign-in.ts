import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { AppError } from '../../errors.ts';
import type { AuditOutcome } from './audit-entry.entity.ts';
import type { OidcAttempt } from './oidc-cookie.ts';
import { OidcSignInFailure, type OidcClient, type OidcFailure } from './oidc-client.ts';
import type { OperatorEntity, OperatorSessionEntity } from './operator.entity.ts';
import { normalEmail } from './operator.service.ts';
import { operatorByEmail } from './operator.store.ts';
import { accountLimit, addressLimit, auditSignIn, countSignInAttempt, type SignInDependencies, type SignInOrigin } from './sign-in.ts';

/** Why an OpenID Connect sign-in opened no session: the console's `sign_in_error` (contracts/rest.yaml, completeOidcSignIn). */
export type OidcRefusal = OidcFailure | 'expired' | 'rate_limited';

/** An OpenID Connect sign-in that opened no session. */
export class OidcSignInRefused extends Error {
  readonly refusal: OidcRefusal;
  constructor(refusal: OidcRefusal) {
    super(`OpenID Connect sign-in refused: ${refusal}`);
    this.refusal = refusal;
  }
}

/** The status a password sign-in would have answered, as the audit log records an OpenID Connect one (which always answers a redirect). */
const AUDITED: Record<OidcRefusal, [AuditOutcome, number]> = {
  refused: ['REFUSED', 401],
  expired: ['REFUSED', 401],
  cancelled: ['REFUSED', 401],
  rate_limited: ['REFUSED', 429],
  unavailable: ['FAILED', 503],
};

/**
 * Finishes a sign-in through the OpenID Connect provider (docs/decisions/operators-oidc-sign-in.md):
 * the provider's answer at `callbackUrl` is checked against the browser's `attempt`, and the ID
 * token's verified email must be an existing, enabled operator's, who then gets a session as with a
 * password (no TOTP code: the provider authenticated them). The attempt counts against the address
 * before anything is checked, and against the account once the ID token names one, under the
 * password sign-in's limits; every outcome goes to the audit log. Throws OidcSignInRefused.
 */
export async function oidcSignIn(
  em: EntityManager,
  { sessions, limiter, oidc, log }: Pick<SignInDependencies, 'sessions' | 'limiter'> & { oidc: OidcClient; log: Logger },
  { callbackUrl, attempt }: { callbackUrl: URL; attempt: OidcAttempt | undefined },
  origin: SignInOrigin,
): Promise<{ operator: OperatorEntity; token: string; session: OperatorSessionEntity }> {
  let operator: OperatorEntity | null = null;
  let email: string | null = null;
  const audit = (outcome: AuditOutcome, status: number) => auditSignIn(em, sessions, origin, 'completeOidcSignIn', { operator, email }, outcome, status);
  const refuse = async (refusal: OidcRefusal): Promise<never> => {
    await audit(...AUDITED[refusal]);
    throw new OidcSignInRefused(refusal);
  };
  await rateLimited(() => countSignInAttempt(limiter, [addressLimit(origin)], () => audit(...AUDITED.rate_limited)));
  if (!attempt) return refuse('expired');
  let identity;
  try {
    identity = await oidc.identify(callbackUrl, attempt);
  } catch (error) {
    if (!(error instanceof OidcSignInFailure)) throw error;
    log.info({ reason: error.message }, 'an OpenID Connect sign-in was not completed');
    return refuse(error.failure);
  }
  if (identity.email === undefined) return refuse('refused');
  email = normalEmail(identity.email);
  await rateLimited(() => countSignInAttempt(limiter, [accountLimit(email!)], () => audit(...AUDITED.rate_limited)));
  operator = await operatorByEmail(em, email);
  if (!operator || !identity.emailVerified || operator.disabledAt !== null) return refuse('refused');
  const { token, session } = sessions.open(em, operator);
  await em.flush();
  await audit('SUCCEEDED', 200);
  return { operator, token, session };
}

/** A RATE_LIMITED answer of the limits, as the refusal the callback redirects with (it was audited already). */
async function rateLimited(count: () => Promise<void>): Promise<void> {
  try {
    await count();
  } catch (error) {
    if (error instanceof AppError && error.code === 'RATE_LIMITED') throw new OidcSignInRefused('rate_limited');
    throw error;
  }
}
