import {
  CountryCode,
  ItemRemoveReasonCode,
  LinkTokenCreateRequestAppearanceMode,
  PersonalFinanceCategoryVersion,
  Products,
  SandboxItemFireWebhookRequestWebhookCodeEnum,
  WebhookType,
  type AccountsBalanceGetRequest,
  type AccountsBalanceGetRequestOptions,
  type AccountsGetRequest,
  type AccountsGetRequestOptions,
  type AuthGetRequest,
  type AuthGetRequestOptions,
  type InvestmentHoldingsGetRequestOptions,
  type InvestmentsHoldingsGetRequest,
  type InvestmentsTransactionsGetRequest,
  type InvestmentsTransactionsGetRequestOptions,
  type ItemGetRequest,
  type ItemPublicTokenExchangeRequest,
  type ItemRemoveRequest,
  type ItemWebhookUpdateRequest,
  type LinkTokenCreateRequest,
  type LinkTokenCreateRequestUser,
  type LinkTokenTransactions,
  type IdentityGetRequest,
  type IdentityGetRequestOptions,
  type LiabilitiesGetRequest,
  type LiabilitiesGetRequestOptions,
  type SandboxItemFireWebhookRequest,
  type SandboxItemResetLoginRequest,
  type SandboxPublicTokenCreateRequest,
  type SandboxPublicTokenCreateRequestOptions,
  type SandboxPublicTokenCreateRequestOptionsTransactions,
  type SandboxPublicTokenCreateRequestOptionsStatements,
  type LinkTokenCreateRequestStatements,
  type StatementsDownloadRequest,
  type StatementsListRequest,
  type StatementsRefreshRequest,
  type TransactionsRefreshRequest,
  type TransactionsSyncRequest,
  type TransactionsSyncRequestOptions,
  type WebhookVerificationKeyGetRequest,
} from 'plaid';
import { anyObject, arrayOf, boolean, date, integer, object, required, string, type Shape } from './validation.ts';

// Request bodies of the endpoints the fake serves, field by field from the SDK's request types and
// the constraints of Plaid's OpenAPI description (2020-09-14). Objects the fake never reads (Link
// customisation, identity details) are accepted as any object.

const credentials = { client_id: string(), secret: string() };
const accessToken = required(string({ minLength: 1 }));
const products = arrayOf(string({ oneOf: Object.values(Products) }));
const accountIds = arrayOf(string());

const linkTokenUser: Shape<LinkTokenCreateRequestUser> = {
  client_user_id: required(string({ minLength: 1 })),
  legal_name: string(),
  name: anyObject(),
  phone_number: string(),
  phone_number_verified_time: string(),
  email_address: string(),
  email_address_verified_time: string(),
  ssn: string(),
  date_of_birth: string(),
  address: anyObject(),
  id_number: anyObject(),
};

/** A statements window: both dates required (Plaid's LinkTokenCreateRequestStatements and its sandbox twin). */
const statementsWindow = { start_date: required(date()), end_date: required(date()) };

const linkTokenCreate: Shape<LinkTokenCreateRequest> = {
  ...credentials,
  client_name: required(string({ minLength: 1 })),
  language: required(string({ minLength: 1 })),
  country_codes: required(arrayOf(string({ oneOf: Object.values(CountryCode) }), { minItems: 1 })),
  user: object<LinkTokenCreateRequestUser>(linkTokenUser),
  user_id: string(),
  products,
  required_if_supported_products: products,
  optional_products: products,
  additional_consented_products: products,
  webhook: string({ url: true }),
  access_token: string({ minLength: 1 }),
  access_tokens: arrayOf(string()),
  link_customization_name: string(),
  appearance_mode: string({ oneOf: Object.values(LinkTokenCreateRequestAppearanceMode) }),
  redirect_uri: string({ url: true }),
  android_package_name: string(),
  institution_data: anyObject(),
  card_switch: anyObject(),
  account_filters: anyObject(),
  eu_config: anyObject(),
  institution_id: string(),
  payment_configuration: anyObject(),
  payment_initiation: anyObject(),
  employment: anyObject(),
  income_verification: anyObject(),
  base_report: anyObject(),
  credit_partner_insights: anyObject(),
  cra_options: anyObject(),
  consumer_report_permissible_purpose: string(),
  auth: anyObject(),
  transfer: anyObject(),
  update: anyObject(),
  identity_verification: anyObject(),
  statements: object<LinkTokenCreateRequestStatements>(statementsWindow),
  third_party_user_token: string(),
  investments: anyObject(),
  investments_auth: anyObject(),
  hosted_link: anyObject(),
  transactions: object<LinkTokenTransactions>({ days_requested: integer(1, 730) }),
  cashflow_report: anyObject(),
  cra_enabled: boolean(),
  identity: anyObject(),
  financekit_supported: boolean(),
  enable_multi_item_link: boolean(),
  user_token: string(),
};

const sandboxTransactionsOptions: Shape<SandboxPublicTokenCreateRequestOptionsTransactions> = {
  start_date: string(),
  end_date: string(),
  days_requested: integer(1, 730),
};

const sandboxOptions: Shape<SandboxPublicTokenCreateRequestOptions> = {
  webhook: string({ url: true }),
  override_username: string(),
  override_password: string(),
  transactions: object<SandboxPublicTokenCreateRequestOptionsTransactions>(sandboxTransactionsOptions),
  statements: object<SandboxPublicTokenCreateRequestOptionsStatements>(statementsWindow),
  income_verification: anyObject(),
};

const sandboxPublicTokenCreate: Shape<SandboxPublicTokenCreateRequest> = {
  ...credentials,
  institution_id: required(string({ minLength: 1 })),
  initial_products: required(arrayOf(string({ oneOf: Object.values(Products) }), { minItems: 1 })),
  options: object<SandboxPublicTokenCreateRequestOptions>(sandboxOptions),
  user_token: string(),
  user_id: string(),
};

const syncOptions: Shape<TransactionsSyncRequestOptions> = {
  include_original_description: boolean(),
  include_personal_finance_category: boolean(),
  include_logo_and_counterparty_beta: boolean(),
  personal_finance_category_version: string({ oneOf: Object.values(PersonalFinanceCategoryVersion) }),
  days_requested: integer(1, 730),
  account_id: string(),
};

const transactionsSync: Shape<TransactionsSyncRequest> = {
  ...credentials,
  access_token: accessToken,
  cursor: string(),
  count: integer(1, 500),
  options: object<TransactionsSyncRequestOptions>(syncOptions),
};

const itemPublicTokenExchange: Shape<ItemPublicTokenExchangeRequest> = { ...credentials, public_token: required(string({ minLength: 1 })) };
const itemGet: Shape<ItemGetRequest> = { ...credentials, access_token: accessToken };
const itemRemove: Shape<ItemRemoveRequest> = {
  ...credentials,
  access_token: accessToken,
  reason_code: string({ oneOf: Object.values(ItemRemoveReasonCode) }),
  reason_note: string(),
};
const itemWebhookUpdate: Shape<ItemWebhookUpdateRequest> = { ...credentials, access_token: accessToken, webhook: string({ url: true }) };
const accountsGet: Shape<AccountsGetRequest> = { ...credentials, access_token: accessToken, options: object<AccountsGetRequestOptions>({ account_ids: accountIds }) };
const accountsBalanceGet: Shape<AccountsBalanceGetRequest> = {
  ...credentials,
  access_token: accessToken,
  options: object<AccountsBalanceGetRequestOptions>({ account_ids: accountIds, min_last_updated_datetime: string() }),
};
const authGet: Shape<AuthGetRequest> = { ...credentials, access_token: accessToken, options: object<AuthGetRequestOptions>({ account_ids: accountIds }) };
const transactionsRefresh: Shape<TransactionsRefreshRequest> = { ...credentials, access_token: accessToken };
const webhookVerificationKeyGet: Shape<WebhookVerificationKeyGetRequest> = { ...credentials, key_id: required(string({ minLength: 1 })) };
const sandboxItemFireWebhook: Shape<SandboxItemFireWebhookRequest> = {
  ...credentials,
  access_token: accessToken,
  webhook_type: string({ oneOf: Object.values(WebhookType) }),
  webhook_code: required(string({ oneOf: Object.values(SandboxItemFireWebhookRequestWebhookCodeEnum) })),
};
const sandboxItemResetLogin: Shape<SandboxItemResetLoginRequest> = { ...credentials, access_token: accessToken };
const investmentsHoldingsGet: Shape<InvestmentsHoldingsGetRequest> = {
  ...credentials,
  access_token: accessToken,
  options: object<InvestmentHoldingsGetRequestOptions>({ account_ids: accountIds }),
};
const investmentsTransactionsGet: Shape<InvestmentsTransactionsGetRequest> = {
  ...credentials,
  access_token: accessToken,
  start_date: required(date()),
  end_date: required(date()),
  options: object<InvestmentsTransactionsGetRequestOptions>({ account_ids: accountIds, count: integer(1, 500), offset: integer(0, Number.MAX_SAFE_INTEGER), async_update: boolean() }),
};
const liabilitiesGet: Shape<LiabilitiesGetRequest> = { ...credentials, access_token: accessToken, options: object<LiabilitiesGetRequestOptions>({ account_ids: accountIds }) };
const identityGet: Shape<IdentityGetRequest> = { ...credentials, access_token: accessToken, options: object<IdentityGetRequestOptions>({ account_ids: accountIds }) };

const statementsList: Shape<StatementsListRequest> = { ...credentials, access_token: accessToken };
const statementsDownload: Shape<StatementsDownloadRequest> = { ...credentials, access_token: accessToken, statement_id: required(string({ minLength: 1 })) };
const statementsRefresh: Shape<StatementsRefreshRequest> = { ...credentials, access_token: accessToken, ...statementsWindow };

/** The request shape of every endpoint the fake serves, by path. */
export const requestShapes = {
  '/link/token/create': linkTokenCreate,
  '/sandbox/public_token/create': sandboxPublicTokenCreate,
  '/item/public_token/exchange': itemPublicTokenExchange,
  '/item/get': itemGet,
  '/item/remove': itemRemove,
  '/item/webhook/update': itemWebhookUpdate,
  '/accounts/get': accountsGet,
  '/accounts/balance/get': accountsBalanceGet,
  '/transactions/sync': transactionsSync,
  '/transactions/refresh': transactionsRefresh,
  '/auth/get': authGet,
  '/webhook_verification_key/get': webhookVerificationKeyGet,
  '/sandbox/item/fire_webhook': sandboxItemFireWebhook,
  '/sandbox/item/reset_login': sandboxItemResetLogin,
  '/investments/holdings/get': investmentsHoldingsGet,
  '/investments/transactions/get': investmentsTransactionsGet,
  '/liabilities/get': liabilitiesGet,
  '/identity/get': identityGet,
  '/statements/list': statementsList,
  '/statements/download': statementsDownload,
  '/statements/refresh': statementsRefresh,
} as const;

export type Endpoint = keyof typeof requestShapes;

/** Request type of each endpoint, so handlers receive the SDK's own type after validation. */
export interface RequestOf {
  '/link/token/create': LinkTokenCreateRequest;
  '/sandbox/public_token/create': SandboxPublicTokenCreateRequest;
  '/item/public_token/exchange': ItemPublicTokenExchangeRequest;
  '/item/get': ItemGetRequest;
  '/item/remove': ItemRemoveRequest;
  '/item/webhook/update': ItemWebhookUpdateRequest;
  '/accounts/get': AccountsGetRequest;
  '/accounts/balance/get': AccountsBalanceGetRequest;
  '/transactions/sync': TransactionsSyncRequest;
  '/transactions/refresh': TransactionsRefreshRequest;
  '/auth/get': AuthGetRequest;
  '/webhook_verification_key/get': WebhookVerificationKeyGetRequest;
  '/sandbox/item/fire_webhook': SandboxItemFireWebhookRequest;
  '/sandbox/item/reset_login': SandboxItemResetLoginRequest;
  '/investments/holdings/get': InvestmentsHoldingsGetRequest;
  '/investments/transactions/get': InvestmentsTransactionsGetRequest;
  '/liabilities/get': LiabilitiesGetRequest;
  '/identity/get': IdentityGetRequest;
  '/statements/list': StatementsListRequest;
  '/statements/download': StatementsDownloadRequest;
  '/statements/refresh': StatementsRefreshRequest;
}
