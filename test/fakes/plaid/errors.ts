import { randomBytes } from 'node:crypto';
import { PlaidErrorType, type PlaidError } from 'plaid';

const REQUEST_ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A request id in Plaid's form (15 alphanumerics, e.g. `m8MDnv9okwxFNBV`). */
export function newRequestId(): string {
  return [...randomBytes(15)].map((byte) => REQUEST_ID_ALPHABET[byte % REQUEST_ID_ALPHABET.length]).join('');
}

/** The body Plaid sends with an error, without the request id (added when it is answered). */
export type PlaidErrorBody = Omit<PlaidError, 'request_id'>;

/** A Plaid error answer: HTTP status plus Plaid's error body. Thrown by handlers, answered by the server. */
export class FakePlaidError extends Error {
  readonly status: number;
  readonly body: PlaidErrorBody;

  constructor(status: number, body: PlaidErrorBody) {
    super(`${body.error_type} ${body.error_code}: ${body.error_message}`);
    this.status = status;
    this.body = body;
  }
}

function plaidError(status: number, error_type: PlaidErrorType, error_code: string, error_message: string, display_message: string | null = null) {
  return new FakePlaidError(status, { error_type, error_code, error_message, display_message });
}

// Codes, statuses and messages as Plaid's error reference documents them (plaid.com/docs/errors).
export const errors = {
  invalidBody: () => plaidError(400, PlaidErrorType.InvalidRequest, 'INVALID_BODY', 'body could not be parsed as JSON'),
  invalidHeaders: (message: string) => plaidError(400, PlaidErrorType.InvalidRequest, 'INVALID_HEADERS', message),
  notFound: () => plaidError(404, PlaidErrorType.InvalidRequest, 'NOT_FOUND', 'not found'),
  missingFields: (fields: string[]) => plaidError(400, PlaidErrorType.InvalidRequest, 'MISSING_FIELDS', `the following required fields are missing: ${fields.join(', ')}`),
  unknownFields: (fields: string[]) => plaidError(400, PlaidErrorType.InvalidRequest, 'UNKNOWN_FIELDS', `the following fields are not recognized by this endpoint: ${fields.join(', ')}`),
  invalidField: (message: string) => plaidError(400, PlaidErrorType.InvalidRequest, 'INVALID_FIELD', message),
  invalidApiKeys: () => plaidError(400, PlaidErrorType.InvalidInput, 'INVALID_API_KEYS', 'invalid client_id or secret provided'),
  invalidAccessToken: () => plaidError(400, PlaidErrorType.InvalidInput, 'INVALID_ACCESS_TOKEN', 'could not find matching access token'),
  invalidPublicToken: () => plaidError(400, PlaidErrorType.InvalidInput, 'INVALID_PUBLIC_TOKEN', 'could not find matching public token'),
  invalidLinkToken: () => plaidError(400, PlaidErrorType.InvalidInput, 'INVALID_LINK_TOKEN', 'invalid link_token provided'),
  invalidInstitution: () => plaidError(400, PlaidErrorType.InvalidInput, 'INVALID_INSTITUTION', 'invalid institution_id provided'),
  invalidAccountId: () => plaidError(400, PlaidErrorType.InvalidInput, 'INVALID_ACCOUNT_ID', 'failed to find requested account ID for requested item'),
  invalidWebhookKeyId: () => plaidError(400, PlaidErrorType.InvalidInput, 'INVALID_WEBHOOK_VERIFICATION_KEY_ID', 'invalid key_id provided. note that key_ids are specific to Plaid environments, and verification requests must be made to the same environment that the webhook was sent from'),
  invalidCredentials: () => plaidError(400, PlaidErrorType.ItemError, 'INVALID_CREDENTIALS', 'the provided credentials were not correct', 'The provided credentials were not correct. Please try again.'),
  itemLoginRequired: () => plaidError(400, PlaidErrorType.ItemError, 'ITEM_LOGIN_REQUIRED', "the login details of this item have changed (credentials, MFA, or required user action) and a user login is required to update this information. use Link's update mode to restore the item to a good state"),
  noAuthAccounts: () => plaidError(400, PlaidErrorType.ItemError, 'NO_AUTH_ACCOUNTS', 'There are no valid checking or savings account(s) associated with this Item. See https://plaid.com/docs/api/#item-errors for more.'),
  noInvestmentAccounts: () => plaidError(400, PlaidErrorType.ItemError, 'NO_INVESTMENT_ACCOUNTS', 'There are no valid investment account(s) associated with this Item. See https://plaid.com/docs/api/#item-errors for more.'),
  productsNotSupported: () => plaidError(400, PlaidErrorType.ItemError, 'PRODUCTS_NOT_SUPPORTED', 'the provided item does not have the requested product, or the institution does not support it'),
  sandboxProductNotEnabled: () => plaidError(400, PlaidErrorType.SandboxError, 'SANDBOX_PRODUCT_NOT_ENABLED', 'the requested product is not enabled for this item'),
  sandboxWebhookInvalid: () => plaidError(400, PlaidErrorType.SandboxError, 'SANDBOX_WEBHOOK_INVALID', 'the webhook for this item is not set or is invalid'),
  mutationDuringPagination: () => plaidError(400, PlaidErrorType.TransactionsError, 'TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION', 'Underlying transaction data changed since last page was fetched. Please restart pagination from last update.'),
  rateLimit: (code: string) => plaidError(429, PlaidErrorType.RateLimitExceeded, code, 'rate limit exceeded for attempts to access this item. please try again later'),
  internalServerError: () => plaidError(500, PlaidErrorType.ApiError, 'INTERNAL_SERVER_ERROR', 'an unexpected error occurred', 'Something went wrong. Please try again later.'),
  institutionDown: () => plaidError(400, PlaidErrorType.InstitutionError, 'INSTITUTION_DOWN', 'this institution is not currently responding to this request. please try again soon', 'This financial institution is not currently responding to requests. We apologize for the inconvenience.'),
};
