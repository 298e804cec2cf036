import { PlaidErrorType, type PlaidError } from 'plaid';
import { ProviderBusy, ProviderError, SyncRestart } from '../provider-errors.ts';

/** Item errors the end-user fixes by signing in again (Link's update mode). */
const REPAIRABLE = new Set([
  'ITEM_LOGIN_REQUIRED',
  'INVALID_CREDENTIALS',
  'INVALID_MFA',
  'INVALID_UPDATED_USERNAME',
  'INSUFFICIENT_CREDENTIALS',
  'ITEM_LOCKED',
  'USER_SETUP_REQUIRED',
  'MFA_NOT_SUPPORTED',
  'NO_ACCOUNTS',
  'PASSWORD_RESET_REQUIRED',
  'ACCESS_NOT_GRANTED',
]);
const DEFAULT_RETRY_SECONDS = { rateLimited: 60, upstream: 300 };

interface AxiosLike {
  response?: { status: number; data?: unknown; headers?: Record<string, unknown> };
  code?: string;
}

/**
 * Turns a failed Plaid call into what Tributary does about it: a connection state (repairable login,
 * institution down, Plaid failing, or our own mistake), a retry later (rate limits and hiccups, with
 * Plaid's delay when it gives one), or a restart of the sync walk.
 */
export function mapPlaidError(thrown: unknown): Error {
  const { response, code } = (thrown ?? {}) as AxiosLike;
  if (!response) {
    return new ProviderError('ERROR_PROVIDER', `Plaid could not be reached (${code ?? 'network error'})`, { retryAfterSeconds: DEFAULT_RETRY_SECONDS.upstream });
  }
  const error = (response.data ?? {}) as Partial<PlaidError>;
  const what = `Plaid ${error.error_type ?? response.status} ${error.error_code ?? ''}`.trim();
  const retryAfter = retryAfterOf(response.headers);
  // Plaid's id of the failed request: what its support asks for.
  const upstreamRequestId = typeof error.request_id === 'string' ? error.request_id : undefined;
  if (error.error_code === 'TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION') return new SyncRestart(what);
  if (error.error_type === PlaidErrorType.RateLimitExceeded || response.status === 429) return new ProviderBusy(what, retryAfter ?? DEFAULT_RETRY_SECONDS.rateLimited);
  if (error.error_code === 'PRODUCT_NOT_READY') return new ProviderBusy(what, retryAfter ?? DEFAULT_RETRY_SECONDS.rateLimited);
  if (error.error_type === PlaidErrorType.ItemError && REPAIRABLE.has(error.error_code ?? '')) return new ProviderError('ERROR_REPAIRABLE', what, { upstreamRequestId });
  const upstreamRetry = { retryAfterSeconds: retryAfter ?? DEFAULT_RETRY_SECONDS.upstream, upstreamRequestId };
  if (error.error_type === PlaidErrorType.InstitutionError) return new ProviderError('ERROR_INSTITUTION', what, upstreamRetry);
  if (error.error_type === PlaidErrorType.ApiError || response.status >= 500) return new ProviderError('ERROR_PROVIDER', what, upstreamRetry);
  if (error.error_type === PlaidErrorType.ItemError) return new ProviderError('ERROR_PROVIDER', what, { upstreamRequestId });
  // INVALID_REQUEST, INVALID_INPUT (keys, access token), … : Tributary's side of the conversation is
  // wrong, and sending it again cannot help.
  return new ProviderError('ERROR_SERVICE', what, { upstreamRequestId });
}

/** Plaid's error code of a failed SDK call, if Plaid answered with one. */
export function plaidErrorCode(thrown: unknown): string | undefined {
  const data = ((thrown ?? {}) as AxiosLike).response?.data as Partial<PlaidError> | undefined;
  return data?.error_code;
}

function retryAfterOf(headers: Record<string, unknown> | undefined): number | undefined {
  const value = Number(headers?.['retry-after']);
  return Number.isFinite(value) && value > 0 ? Math.ceil(value) : undefined;
}
