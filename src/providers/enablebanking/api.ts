/**
 * The parts of Enable Banking's API answers the adapter reads, after its reference
 * (https://enablebanking.com/docs/api/reference/, the `components.schemas` of its OpenAPI document).
 * Everything arrives as untrusted JSON: fields the reference marks optional are optional here, and
 * the transforms check what they use.
 */

export interface AmountType {
  currency: string;
  /** A decimal with `.` as separator, as text. */
  amount: string;
}

export interface AccountIdentification {
  iban?: string;
  other?: { identification: string; scheme_name: string };
}

/** An entry of `GET /aspsps`. */
export interface AspspData {
  name: string;
  country: string;
  logo?: string;
  psu_types?: string[];
  /** Seconds. */
  maximum_consent_validity?: number;
  beta?: boolean;
  bic?: string;
  required_psu_headers?: string[];
}

/** `POST /auth`'s answer. */
export interface StartAuthorizationResponse {
  url: string;
  authorization_id: string;
}

/** `POST /sessions`' answer. */
export interface AuthorizeSessionResponse {
  session_id: string;
  accounts: AccountResource[];
  aspsp: { name: string; country: string };
  access: { valid_until: string };
}

/** `GET /sessions/{id}`. */
export interface GetSessionResponse {
  status: 'INVALID' | 'PENDING_AUTHORIZATION' | 'RETURNED_FROM_BANK' | 'AUTHORIZED' | 'EXPIRED' | 'CLOSED' | 'REVOKED' | 'CANCELLED';
  accounts: string[];
  accounts_data?: { uid: string; identification_hash: string }[];
  aspsp: { name: string; country: string };
  access: { valid_until: string };
}

/** The holder's address on an account resource. */
export interface PostalAddress {
  street_name?: string;
  building_number?: string;
  post_code?: string;
  town_name?: string;
  country_sub_division?: string;
  country?: string;
  /** Unstructured lines, when the bank gives no parts. */
  address_line?: string[];
}

/** `GET /accounts/{uid}/details`. */
export interface AccountResource {
  account_id?: AccountIdentification;
  all_account_ids?: { identification: string; scheme_name: string }[];
  /** The account holder(s)' name: personal data, never the account's name. */
  name?: string;
  /** The end-user's relationship to the account, free text: `Account Holder`, `Co-account Holder`, `Attorney`. */
  psu_status?: string;
  postal_address?: PostalAddress;
  details?: string;
  cash_account_type?: 'CACC' | 'CASH' | 'CARD' | 'LOAN' | 'SVGS' | 'OTHR';
  product?: string;
  currency: string;
  credit_limit?: AmountType;
  uid?: string;
  identification_hash: string;
}

export type BalanceStatus = 'CLAV' | 'CLBD' | 'FWAV' | 'INFO' | 'ITAV' | 'ITBD' | 'OPAV' | 'OPBD' | 'PRCD' | 'OTHR' | 'VALU' | 'XPCD';

/** An entry of `GET /accounts/{uid}/balances`. */
export interface BalanceResource {
  name?: string;
  balance_amount: AmountType;
  balance_type: BalanceStatus;
  last_change_date_time?: string;
  reference_date?: string;
}

export interface PartyIdentification {
  name?: string;
}

/** An entry of `GET /accounts/{uid}/transactions`. */
export interface EbTransaction {
  entry_reference?: string;
  merchant_category_code?: string;
  transaction_amount: AmountType;
  creditor?: PartyIdentification;
  creditor_account?: AccountIdentification;
  debtor?: PartyIdentification;
  debtor_account?: AccountIdentification;
  bank_transaction_code?: { description?: string; code?: string; sub_code?: string };
  credit_debit_indicator: 'CRDT' | 'DBIT';
  status: 'BOOK' | 'CNCL' | 'HOLD' | 'OTHR' | 'PDNG' | 'RJCT' | 'SCHD';
  booking_date?: string;
  value_date?: string;
  transaction_date?: string;
  reference_number?: string;
  remittance_information?: string[];
  exchange_rate?: { unit_currency?: string; exchange_rate?: string; rate_type?: string; instructed_amount?: AmountType };
  note?: string;
  transaction_id?: string;
}

export interface HalTransactions {
  transactions: EbTransaction[];
  continuation_key?: string | null;
}

/** Every error answer. */
export interface ErrorResponse {
  message?: string;
  code?: number;
  error?: string;
  detail?: unknown;
}
