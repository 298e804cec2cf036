import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { rootCertificates } from 'node:tls';
import * as client from 'openid-client';
import type { OidcSettings } from '../../config.ts';
import { OIDC_ATTEMPT_TTL_MS, type OidcAttempt } from './oidc-cookie.ts';

/** How long one request to the provider may take (discovery, token exchange, its keys). */
const TIMEOUT_S = 10;
/** The largest answer read from the provider (a discovery document or its keys are a few KB). */
const MAX_RESPONSE_BYTES = 1024 * 1024;

/** Why the provider's answer signs no one in (contracts/rest.yaml, completeOidcSignIn's `sign_in_error`). */
export type OidcFailure = 'cancelled' | 'unavailable' | 'refused';

/** The provider could not be reached, or did not answer in time. */
class OidcUnreachable extends Error {}

/** Who the provider says signed in, from an ID token that verified. */
export interface OidcIdentity {
  email: string | undefined;
  emailVerified: boolean;
}

/**
 * Tributary as a relying party of the configured OpenID Connect provider (openid-client): the
 * provider's metadata is discovered on first use and kept (a failed discovery is tried again on the
 * next sign-in, so the service starts whatever the provider's state), the authorization code flow
 * runs with PKCE (S256), `state` and `nonce`, and the client authenticates with its secret in HTTP
 * Basic (the method every provider must support). The secret goes only to the token endpoint.
 */
export class OidcClient {
  readonly name: string;
  readonly #settings: OidcSettings;
  readonly #fetch: client.CustomFetch;
  #configuration: Promise<client.Configuration> | undefined;

  constructor(settings: OidcSettings) {
    this.name = settings.name;
    this.#settings = settings;
    this.#fetch = providerFetch(settings.caFile);
  }

  /** Where to send the browser, and the attempt the callback checks the answer against. */
  async authorization(redirectUri: string, now: Date): Promise<{ url: string; attempt: OidcAttempt }> {
    const configuration = await this.#discovered();
    const attempt = { state: client.randomState(), nonce: client.randomNonce(), codeVerifier: client.randomPKCECodeVerifier(), expiresAt: now.getTime() + OIDC_ATTEMPT_TTL_MS };
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      scope: this.#settings.scopes,
      state: attempt.state,
      nonce: attempt.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(attempt.codeVerifier),
      code_challenge_method: 'S256',
    });
    return { url: url.href, attempt };
  }

  /**
   * Checks the provider's answer at `callbackUrl` (the redirect URI with the query it came with)
   * against `attempt`, exchanges its code, and verifies the ID token (signature, issuer, audience,
   * expiry, nonce). Throws an OidcFailure when it signs no one in.
   */
  async identify(callbackUrl: URL, attempt: OidcAttempt): Promise<OidcIdentity> {
    try {
      const tokens = await client.authorizationCodeGrant(await this.#discovered(), callbackUrl, {
        expectedState: attempt.state,
        expectedNonce: attempt.nonce,
        pkceCodeVerifier: attempt.codeVerifier,
        idTokenExpected: true,
      });
      const claims = tokens.claims()!;
      // A few providers (AWS Cognito) send the boolean as a string.
      return { email: typeof claims.email === 'string' ? claims.email : undefined, emailVerified: claims.email_verified === true || claims.email_verified === 'true' };
    } catch (error) {
      throw new OidcSignInFailure(failureOf(error), error);
    }
  }

  /** The provider's configuration, discovered on first use and kept once read. */
  #discovered(): Promise<client.Configuration> {
    this.#configuration ??= client
      .discovery(new URL(this.#settings.issuer), this.#settings.clientId, undefined, client.ClientSecretBasic(this.#settings.clientSecret), {
        [client.customFetch]: this.#fetch,
        timeout: TIMEOUT_S,
      })
      .catch((error: unknown) => {
        this.#configuration = undefined;
        throw error;
      });
    return this.#configuration;
  }
}

/** A provider answer that signs no one in, and why; its message names the cause, never a code or token. */
export class OidcSignInFailure extends Error {
  readonly failure: OidcFailure;
  constructor(failure: OidcFailure, cause: unknown) {
    super(`OpenID Connect sign-in ${failure}: ${describe(cause)}`);
    this.failure = failure;
  }
}

function failureOf(error: unknown): OidcFailure {
  if (error instanceof client.AuthorizationResponseError) return error.error === 'access_denied' ? 'cancelled' : 'unavailable';
  if (causes(error).some((cause) => cause instanceof OidcUnreachable)) return 'unavailable';
  // The token endpoint failing (a 5xx, not an OAuth error answer) is the provider's failure too.
  if (error instanceof client.ClientError && ['OAUTH_RESPONSE_IS_NOT_CONFORM', 'OAUTH_RESPONSE_IS_NOT_JSON', 'OAUTH_TIMEOUT'].includes(error.code ?? '')) return 'unavailable';
  return 'refused';
}

/** What went wrong, for the log: the OAuth error code or the check that failed (error_description and bodies stay out). */
function describe(error: unknown): string {
  if (error instanceof client.AuthorizationResponseError || error instanceof client.ResponseBodyError) return `the provider answered ${error.error}`;
  if (error instanceof client.ClientError) return `${error.message} (${error.code ?? 'no code'})${error.cause instanceof Error ? `: ${error.cause.message}` : ''}`;
  return error instanceof Error ? error.message : String(error);
}

function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let cause = error; cause !== undefined && chain.length < 10; cause = cause instanceof Error ? cause.cause : undefined) chain.push(cause);
  return chain;
}

/**
 * Requests to the provider: Node's fetch, or with OIDC_CA_FILE an HTTPS request trusting that CA
 * besides the system's; answers are bounded, and a provider that cannot be reached is an
 * OidcUnreachable (so the operator is told "unavailable", not "refused").
 */
function providerFetch(caFile: string | undefined): client.CustomFetch {
  const ca = caFile ? [...rootCertificates, readFileSync(caFile, 'utf8')] : undefined;
  return async (url, options) => {
    try {
      return ca ? await withCa(url, options, ca) : await fetch(url, options as RequestInit);
    } catch (error) {
      throw new OidcUnreachable(`the OpenID Connect provider could not be reached (${url.split('?')[0]})`, { cause: error });
    }
  };
}

function withCa(url: string, { method, headers, body, signal }: client.CustomFetchOptions, ca: string[]): Promise<Response> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined || body === null ? undefined : typeof body === 'string' || body instanceof URLSearchParams ? Buffer.from(body.toString()) : body instanceof ArrayBuffer || body instanceof Uint8Array ? Buffer.from(body as Uint8Array) : undefined;
    if (body && !payload) return reject(new Error('a streamed request body is not supported'));
    const outgoing = request(url, { method, headers: payload ? { ...headers, 'content-length': String(payload.length) } : headers, ca, signal }, (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_RESPONSE_BYTES) outgoing.destroy(new Error('the provider answered more than 1 MiB'));
        else chunks.push(chunk);
      });
      response.on('end', () => {
        const status = response.statusCode ?? 0;
        const answer = [204, 205, 304].includes(status) ? null : Buffer.concat(chunks);
        const answerHeaders = new Headers();
        for (const [name, value] of Object.entries(response.headers)) for (const one of [value ?? []].flat()) answerHeaders.append(name, one);
        resolve(new Response(answer, { status, headers: answerHeaders }));
      });
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}
