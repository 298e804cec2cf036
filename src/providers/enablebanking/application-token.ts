import { createPrivateKey, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';

/** Enable Banking accepts an application JWT valid at most a day; Tributary signs one for this long. */
export const TOKEN_LIFETIME_SECONDS = 23 * 3600;
/** A cached token is replaced this long before it ends, so no request carries one about to lapse. */
const RENEW_BEFORE_SECONDS = 3600;

/** The operator's private key (PEM) as a signing key; throws when it is not an RSA private key. */
export function rsaPrivateKey(pem: string): KeyObject {
  const key = createPrivateKey(pem);
  if (key.asymmetricKeyType !== 'rsa') throw new Error('the key is not an RSA private key');
  return key;
}

/**
 * The application's bearer token (https://enablebanking.com/docs/api/reference/#authorization): a JWT
 * signed RS256 with the application's private key, `kid` = the application id, issued by
 * `enablebanking.com` for `api.enablebanking.com`. Signed once and reused until an hour before it ends.
 */
export class ApplicationToken {
  readonly #applicationId: string;
  readonly #key: KeyObject;
  readonly #now: () => number;
  #current: { jwt: string; renewAt: number } | undefined;

  /** `now` is the clock in milliseconds (tests move it). */
  constructor(applicationId: string, privateKeyPem: string, now: () => number = Date.now) {
    this.#applicationId = applicationId;
    this.#key = rsaPrivateKey(privateKeyPem);
    this.#now = now;
  }

  async bearer(): Promise<string> {
    const now = Math.floor(this.#now() / 1000);
    if (this.#current && now < this.#current.renewAt) return this.#current.jwt;
    const jwt = await new SignJWT({})
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: this.#applicationId })
      .setIssuer('enablebanking.com')
      .setAudience('api.enablebanking.com')
      .setIssuedAt(now)
      .setExpirationTime(now + TOKEN_LIFETIME_SECONDS)
      .sign(this.#key);
    this.#current = { jwt, renewAt: now + TOKEN_LIFETIME_SECONDS - RENEW_BEFORE_SECONDS };
    return jwt;
  }
}
