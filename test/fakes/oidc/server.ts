import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, request, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';
import { selfSignedLocalhost } from '../tls.ts';

/** Who can sign in at the fake provider, by the login typed on its sign-in page. */
export interface FakeAccount {
  email: string;
  emailVerified: boolean;
}

/** One answer of the provider, as a browser follows it. */
interface Answer {
  url: string;
  status: number;
  location: string | undefined;
  body: string;
}

/** The client the provider knows Tributary as. */
export interface RegisteredClient {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

/**
 * A real OpenID Connect provider (node-oidc-provider, its development sign-in pages) over loopback
 * HTTPS at https://127.0.0.1:<port> (another site than the service's localhost, as a real provider
 * is), with its own certificate. It listens first, so the service can be configured with its issuer
 * before the service's port (and so the redirect URI) is known; `register` then makes the provider.
 * Its ID tokens carry `email` and `email_verified` (scope `email`), as most providers' do; consent
 * is granted without asking, as a company's provider does for its own applications.
 */
export class FakeOidcProvider {
  readonly accounts = new Map<string, FakeAccount>();
  #server: Server | undefined;
  #handle: ((request: IncomingMessage, response: ServerResponse) => void) | undefined;
  #issuer = '';
  #ca = '';

  get issuer(): string {
    return this.#issuer;
  }

  /** The provider's certificate, for OIDC_CA_FILE. */
  get ca(): string {
    return this.#ca;
  }

  async start(): Promise<void> {
    const pems = await selfSignedLocalhost();
    this.#ca = pems.cert;
    this.#server = createServer({ cert: pems.cert, key: pems.key }, (request, response) => {
      if (this.#handle) this.#handle(request, response);
      else response.writeHead(503).end();
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.#issuer = `https://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  /** Registers the one client (a confidential client, authenticating with client_secret_basic), and starts answering. */
  register({ clientId, clientSecret, redirectUri }: RegisteredClient): void {
    const signingKey = { ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }), kid: 'fake-1', use: 'sig', alg: 'RS256' };
    const provider = new Provider(this.#issuer, {
      clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri], grant_types: ['authorization_code'], response_types: ['code'] }],
      jwks: { keys: [signingKey] },
      cookies: { keys: [randomBytes(32).toString('hex')] },
      claims: { openid: ['sub'], email: ['email', 'email_verified'] },
      conformIdTokenClaims: false,
      ttl: { Interaction: 600, Session: 600, Grant: 600, AuthorizationCode: 60, AccessToken: 600, IdToken: 600 },
      features: { devInteractions: { enabled: true } },
      findAccount: (_ctx, login) => {
        const account = this.accounts.get(login);
        return { accountId: login, claims: () => (account ? { sub: login, email: account.email, email_verified: account.emailVerified } : { sub: login }) };
      },
      loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
        const { Grant } = ctx.oidc.provider;
        const existing = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session!.grantIdFor(ctx.oidc.client!.clientId);
        if (existing) return Grant.find(existing);
        const grant = new Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId });
        grant.addOIDCScope('openid email');
        await grant.save();
        return grant;
      },
    });
    const handle = provider.callback();
    this.#handle = (request, response) => void handle(request, response);
  }

  /**
   * What a browser does at the provider, from the authorization URL the service sent it to: sign in
   * as `login` on the provider's page, and follow redirects until one leaves the provider. Returns
   * that URL: the service's callback with `code` and `state`.
   */
  signIn(authorizationUrl: string, login: string): Promise<string> {
    return this.#walk(authorizationUrl, (uid, cookies) => this.#send('POST', `${this.#issuer}/interaction/${uid}`, cookies, new URLSearchParams({ prompt: 'login', login, password: 'any' }).toString()));
  }

  /** As signIn, pressing the sign-in page's Cancel instead: the callback gets `error=access_denied`. */
  cancel(authorizationUrl: string): Promise<string> {
    return this.#walk(authorizationUrl, (uid, cookies) => this.#send('GET', `${this.#issuer}/interaction/${uid}/abort`, cookies));
  }

  async #walk(authorizationUrl: string, atSignInPage: (uid: string, cookies: Map<string, string>) => Promise<Answer>): Promise<string> {
    const cookies = new Map<string, string>();
    let answer = await this.#send('GET', authorizationUrl, cookies);
    for (let hops = 0; hops < 10; hops++) {
      if (answer.location && !answer.location.startsWith(this.#issuer)) return answer.location;
      if (answer.location) answer = await this.#send('GET', answer.location, cookies);
      else if (answer.status === 200 && /name="prompt" value="login"/.test(answer.body)) answer = await atSignInPage(new URL(answer.url).pathname.split('/').at(-1)!, cookies);
      else throw new Error(`the fake provider answered ${answer.status} at ${answer.url}: ${answer.body.slice(0, 300)}`);
    }
    throw new Error('the fake provider redirected too many times');
  }

  async close(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }

  #send(method: string, url: string, cookies: Map<string, string>, form?: string): Promise<Answer> {
    const absolute = new URL(url, this.#issuer).href;
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') };
      if (form) Object.assign(headers, { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(form)) });
      const outgoing = request(absolute, { method, headers, ca: this.#ca }, (response) => {
        for (const line of response.headers['set-cookie'] ?? []) {
          const [pair = ''] = line.split(';');
          const separator = pair.indexOf('=');
          cookies.set(pair.slice(0, separator), pair.slice(separator + 1));
        }
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const location = response.headers.location && new URL(response.headers.location, absolute).href;
          resolve({ url: absolute, status: response.statusCode!, location, body: Buffer.concat(chunks).toString('utf8') });
        });
      });
      outgoing.on('error', reject);
      outgoing.end(form);
    });
  }
}
