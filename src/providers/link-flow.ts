/** How an end-user links a login through a provider: the institutions offered, the provider's UI opened, and what it hands back. */

export type ProductName = 'TRANSACTIONS' | 'BALANCES' | 'ACCOUNT_NUMBERS' | 'INVESTMENTS' | 'LIABILITIES' | 'ACCOUNT_OWNERS' | 'STATEMENTS';

export interface Institution {
  id: string;
  name: string;
  products: ProductName[];
  description: string;
  /** Countries the institution serves (ISO 3166 alpha-2), when the provider says. */
  countries?: string[];
  /** The institution's logo, when the provider gives one. */
  logoUrl?: string | null;
}

export interface InstitutionQuery {
  /** ISO 3166 alpha-2; absent: every country the provider serves. */
  country?: string;
  /** A case-insensitive fragment of the institution's name. */
  name?: string;
}

export interface LinkStart {
  /** The profile's public id (Plaid's `client_user_id`). */
  profileId: string;
  products: ProductName[];
  /** Where the upstream should send webhooks about this login; null when this service cannot be reached from outside. */
  webhookUrl: string | null;
  /** Update mode: the credential of the login being repaired. */
  existingCredential?: string;
  /** REDIRECT providers: the institution the end-user chose (from `searchInstitutions`). */
  institutionId?: string;
  /** REDIRECT providers: Tributary's callback, where the institution sends the end-user back with `state`. */
  redirectUrl?: string;
  /** REDIRECT providers: the one-time value the callback must receive back unchanged. */
  state?: string;
}

/** What the connect page opens: a credential form over institutions, or the provider's own script. */
export type LinkSession =
  | { kind: 'CREDENTIALS'; institutions: Institution[] }
  | { kind: 'PLAID_LINK'; linkToken: string; scriptUrl: string; expiresAt: string }
  | { kind: 'SETUP_TOKEN'; createUrl: string }
  /** The end-user leaves for the institution's own sign-in at `url`, which sends them back to `redirectUrl`. */
  | { kind: 'REDIRECT'; url: string; expiresAt: string };

/** What the provider's UI handed back; each provider reads the fields it defines. */
export interface LinkCompletion {
  institutionId?: string;
  username?: string;
  password?: string;
  publicToken?: string;
  /** SimpleFIN: the Setup Token the end-user pasted. */
  setupToken?: string;
  /** REDIRECT providers: the authorization code the institution sent back to the callback. */
  authorizationCode?: string;
  products: ProductName[] | undefined;
  /** Where the upstream should send webhooks about this login; null when this service cannot be reached from outside. */
  webhookUrl: string | null;
  /** Update mode: the credential of the login being repaired. */
  existingCredential?: string;
}

export interface LinkedLogin {
  credential: string;
  /** The upstream's id of the login (Plaid's item_id), to route its webhooks. */
  remoteId: string | null;
  institution: { id: string; name: string };
  products: ProductName[];
  /** When the end-user's consent ends (PSD2: 90 to 180 days after it was given); null or absent: no known end. */
  consentExpiresAt?: string | null;
}
