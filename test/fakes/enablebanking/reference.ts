/**
 * Enable Banking's API shapes the fake serves, vendored from the types generated from its OpenAPI
 * reference (https://enablebanking.com/docs/api/reference/) as Actual Budget ships them
 * (github.com/actualbudget/actual, packages/sync-server/src/app-enablebanking/models/
 * enablebanking-openapi.ts, `components.schemas`), trimmed to what the fake answers.
 */

export type PSUType = 'business' | 'personal';
export type CashAccountType = 'CACC' | 'CASH' | 'CARD' | 'LOAN' | 'SVGS' | 'OTHR';
export type BalanceStatus = 'CLAV' | 'CLBD' | 'FWAV' | 'INFO' | 'ITAV' | 'ITBD' | 'OPAV' | 'OPBD' | 'PRCD' | 'OTHR' | 'VALU' | 'XPCD';
export type TransactionStatus = 'BOOK' | 'CNCL' | 'HOLD' | 'OTHR' | 'PDNG' | 'RJCT' | 'SCHD';
export type SessionStatus = 'INVALID' | 'PENDING_AUTHORIZATION' | 'RETURNED_FROM_BANK' | 'AUTHORIZED' | 'EXPIRED' | 'CLOSED' | 'REVOKED' | 'CANCELLED';
export type ErrorCode =
  | 'ACCESS_DENIED'
  | 'ALREADY_AUTHORIZED'
  | 'ASPSP_RATE_LIMIT_EXCEEDED'
  | 'AUTHORIZATION_NOT_PROVIDED'
  | 'CLOSED_SESSION'
  | 'DATE_TO_WITHOUT_DATE_FROM'
  | 'DATE_FROM_IN_FUTURE'
  | 'EXPIRED_AUTHORIZATION_CODE'
  | 'EXPIRED_SESSION'
  | 'INVALID_ACCOUNT_ID'
  | 'REDIRECT_URI_NOT_ALLOWED'
  | 'SESSION_DOES_NOT_EXIST'
  | 'UNAUTHORIZED_ACCESS'
  | 'WRONG_ASPSP_PROVIDED'
  | 'WRONG_AUTHORIZATION_CODE'
  | 'WRONG_REQUEST_PARAMETERS'
  | 'WRONG_CONTINUATION_KEY'
  | 'PSU_HEADER_NOT_PROVIDED'
  | 'PSU_HEADER_INVALID';

export interface AmountType {
  currency: string;
  amount: string;
}

export interface ASPSP {
  name: string;
  country: string;
}

export interface ASPSPData extends ASPSP {
  logo: string;
  psu_types: PSUType[];
  auth_methods: { name?: string; psu_type: PSUType; approach: 'REDIRECT' | 'DECOUPLED' | 'EMBEDDED'; hidden_method: boolean }[];
  /** Seconds. */
  maximum_consent_validity: number;
  beta: boolean;
  bic?: string;
  required_psu_headers?: string[];
}

export interface AccountIdentification {
  iban?: string;
  other?: { identification: string; scheme_name: string };
}

export interface Access {
  accounts?: AccountIdentification[];
  balances: boolean;
  transactions: boolean;
  valid_until: string;
}

export interface StartAuthorizationRequest {
  access: Access;
  aspsp: ASPSP;
  state: string;
  redirect_url: string;
  psu_type?: PSUType;
  auth_method?: string;
  credentials?: Record<string, string>;
  credentials_autosubmit?: boolean;
  language?: string;
  psu_id?: string;
}

export interface StartAuthorizationResponse {
  url: string;
  authorization_id: string;
  psu_id_hash: string;
}

export interface PostalAddress {
  address_type?: string;
  street_name?: string;
  building_number?: string;
  post_code?: string;
  town_name?: string;
  country_sub_division?: string;
  country?: string;
  address_line?: string[];
}

export interface AccountResource {
  account_id?: AccountIdentification;
  all_account_ids?: { identification: string; scheme_name: string }[];
  /** Account holder(s) name. */
  name?: string;
  details?: string;
  usage?: 'PRIV' | 'ORGA';
  /** Relationship between the PSU and the account: Account Holder, Co-account Holder, Attorney. */
  psu_status?: string;
  /** Postal address of the account holder. */
  postal_address?: PostalAddress;
  cash_account_type: CashAccountType;
  product?: string;
  currency: string;
  credit_limit?: AmountType;
  uid?: string;
  identification_hash: string;
  identification_hashes: string[];
}

export interface AuthorizeSessionResponse {
  session_id: string;
  accounts: AccountResource[];
  aspsp: ASPSP;
  psu_type: PSUType;
  access: Access;
}

export interface GetSessionResponse {
  status: SessionStatus;
  accounts: string[];
  accounts_data: { uid: string; identification_hash: string; identification_hashes: string[] }[];
  aspsp: ASPSP;
  psu_type: PSUType;
  psu_id_hash: string;
  access: Access;
  created: string;
  authorized?: string;
  closed?: string;
}

export interface BalanceResource {
  name: string;
  balance_amount: AmountType;
  balance_type: BalanceStatus;
  last_change_date_time?: string;
  reference_date?: string;
}

export interface Transaction {
  entry_reference?: string;
  merchant_category_code?: string;
  transaction_amount: AmountType;
  creditor?: { name?: string };
  creditor_account?: AccountIdentification;
  debtor?: { name?: string };
  debtor_account?: AccountIdentification;
  bank_transaction_code?: { description?: string; code?: string; sub_code?: string };
  credit_debit_indicator: 'CRDT' | 'DBIT';
  status: TransactionStatus;
  booking_date?: string;
  value_date?: string;
  transaction_date?: string;
  reference_number?: string;
  remittance_information?: string[];
  exchange_rate?: { unit_currency?: string; exchange_rate?: string; rate_type?: 'SPOT' | 'SALE' | 'AGRD'; instructed_amount?: AmountType };
  transaction_id?: string;
}

export interface HalTransactions {
  transactions: Transaction[];
  continuation_key?: string;
}

export interface ErrorResponse {
  message: string;
  code?: number;
  error?: ErrorCode;
  detail?: unknown;
}
