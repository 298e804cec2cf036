import { ProviderBusy, ProviderError, ProviderMisconfigured } from '../provider-errors.ts';
import type { ErrorResponse } from './api.ts';
import type { EbAnswer } from './enablebanking-client.ts';

const RETRY_SECONDS = 900;
/** EB's error codes that say the end-user's session (their consent) is over or unusable. */
const CONSENT_ENDED = new Set(['EXPIRED_SESSION', 'REVOKED_SESSION', 'CLOSED_SESSION', 'SESSION_DOES_NOT_EXIST', 'WRONG_SESSION_STATUS', 'ACCESS_DENIED', 'ASPSP_PSU_ACTION_REQUIRED']);
/** EB's error codes that say it refused the application itself (its key, its IP, its host). */
const APPLICATION_REFUSED = new Set(['UNAUTHORIZED_ACCESS', 'AUTHORIZATION_NOT_PROVIDED', 'UNAUTHORIZED_IP', 'INVALID_HOST']);

/** The `error` code of an EB error answer, if it has one. */
export function errorCode(answer: EbAnswer): string | undefined {
  try {
    const body = JSON.parse(answer.body) as ErrorResponse;
    return typeof body?.error === 'string' ? body.error : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A failed EB answer as what Tributary does about it: the consent ended (a session expired, revoked
 * or closed, or a 401/403 about it) is the end-user's to renew; rate limits wait; the bank's own
 * failures and EB's are retried later; anything else is Tributary's request refused.
 */
export function failure(answer: EbAnswer): Error {
  const code = errorCode(answer);
  if (answer.status === 429 || code === 'ASPSP_RATE_LIMIT_EXCEEDED') {
    const retryAfter = Number(answer.headers['retry-after']);
    return new ProviderBusy("the bank's limit on reads without the end-user present is reached", Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : 3600);
  }
  if (code && CONSENT_ENDED.has(code)) return consentEnded(code);
  if (code && APPLICATION_REFUSED.has(code)) {
    return new ProviderMisconfigured(`Enable Banking refused the application (${code})`, "check the application's id and private key (npm run cli -- providers set <env> enablebanking), and its allowed IP addresses and hosts in Enable Banking's control panel");
  }
  if (answer.status === 401 || answer.status === 403) return consentEnded(code ?? String(answer.status));
  if (code === 'ASPSP_ERROR' || code === 'ASPSP_TIMEOUT') return new ProviderError('ERROR_INSTITUTION', `the bank did not answer Enable Banking (${code})`, { retryAfterSeconds: RETRY_SECONDS });
  if (answer.status >= 500 || answer.status === 408) return new ProviderError('ERROR_PROVIDER', `Enable Banking answered ${answer.status}`, { retryAfterSeconds: RETRY_SECONDS });
  return new ProviderError('ERROR_SERVICE', `Enable Banking refused the request (${answer.status}${code ? ` ${code}` : ''})`);
}

/** The consent is over; `EXPIRED_SESSION` (or a session EXPIRED) says it reached its `valid_until`, which the connection then shows. */
export function consentEnded(why: string): ProviderError {
  return new ProviderError('ERROR_REPAIRABLE', `the end-user's consent at the bank ended (${why}): connect the bank again to give a new one`, { consentExpired: why === 'EXPIRED_SESSION' || why === 'session EXPIRED' });
}
