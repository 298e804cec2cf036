import { publicOrigin } from '../../lib/public-origin.ts';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { components } from '../../../generated/rest.ts';
import { AppError, forbidden, notFound, ValidationError } from '../../errors.ts';
import { jobsIn } from '../../jobs/in-transaction.ts';
import { encodeId } from '../../lib/ids.ts';
import { providerWebhookUrl } from '../../lib/provider-webhook-url.ts';
import { ProviderNotConfigured, type ProviderDirectory } from '../../providers/directory.ts';
import type { EndUserPresence, Provider } from '../../providers/provider.ts';
import type { InstitutionQuery, LinkCompletion, LinkSession } from '../../providers/link-flow.ts';
import { LinkRefused, ProviderError, ProviderMisconfigured } from '../../providers/provider-errors.ts';
import { readEnvironment } from '../environment/environment.service.ts';
import { upstreamFailure } from '../connection/capabilities.ts';
import type { ConnectionJobs } from '../sync/connection.jobs.ts';
import type { ConnectionEntity } from '../connection/connection.entity.ts';
import { presentConnection } from '../connection/connection.presenter.ts';
import type { ConnectionService } from '../connection/connection.service.ts';
import { sessionIsLive } from '../session/session.store.ts';
import { CALLBACK_PATH, hashOf, matchesHash, newSecret } from './link-cookie.ts';
import { consumeLink, insertLinkState, linkByState } from './link-state.store.ts';

export interface LinkingDeps {
  providers: ProviderDirectory;
  jobs: ConnectionJobs;
  /** This service's public https origin (PUBLIC_URL): upstreams send their webhooks there. */
  publicUrl: string | undefined;
  logger: Logger;
}

/** What the end-user's side of a link handed back (the connect page, a server in a sandbox, or a bank to the callback). */
type LinkInput = components['schemas']['ConnectInstitution'] & { authorizationCode?: string };

/** Whom a link step acts for: the environment, with the EntityManager of the request. */
interface Caller {
  em: EntityManager;
  environmentId: string;
}

/** The end-user's connect page: its session, and the Host it was served from. */
type PageCaller = Caller & { profileId: string; sessionId: string; host: string | undefined };

/** What startLink answers, and for a REDIRECT the browser binding to set as the link cookie. */
export interface StartedLink {
  session: components['schemas']['LinkSession'];
  browserSecret?: string;
}

/** What the bank sent back to the callback (contracts/rest.yaml, completeLinkRedirect). */
export interface RedirectReturn {
  state?: string;
  code?: string;
  error?: string;
  error_description?: string;
}

/** The end-user's browser at the callback: its link cookie, and its address and user agent (the first read's PSU headers). */
export interface ReturningBrowser {
  browserSecret: string | undefined;
  presence: EndUserPresence | undefined;
}

/** The institutions found, and the providers that could not be asked this time. */
export interface InstitutionSearch {
  institutions: components['schemas']['Institution'][];
  unavailable: string[];
}

/** How a redirect link ended, for the connect page. */
export type RedirectOutcome = { connectionId: string; institutionName: string } | { error: 'cancelled' | 'bank_error' | 'expired' | 'invalid' };

/** How long a redirect link's state stays good: time to sign in at the bank, not to linger. */
export const LINK_STATE_TTL_MS = 15 * 60_000;

const DEFAULT_PRODUCTS: components['schemas']['Product'][] = ['TRANSACTIONS', 'BALANCES', 'ACCOUNT_NUMBERS'];
/** A misconfigured provider is worth asking again after this long: the operator's fix takes effect within a minute. */
const MISCONFIGURED_RETRY_SECONDS = 300;
/** How long an institution search waits for one provider: a slower one is left out, not allowed to hold up the others. */
export const SEARCH_DEADLINE_MS = 5_000;

/**
 * Connecting an institution through a provider's own UI, for the connect page and the sandbox API:
 * start (what the page opens), complete (a new connection, first sync queued), and repair (update
 * mode: the same two steps on an existing connection). The provider is the one asked for, else the
 * environment's link provider; the built-in sandbox serves SANDBOX environments only.
 */
export class Linking {
  readonly #deps: LinkingDeps;
  /** Providers whose webhooks were said to be off: said once per process. */
  readonly #webhooksOffSaid = new Set<string>();

  constructor(deps: LinkingDeps) {
    this.#deps = deps;
  }

  /**
   * Started by the end-user's connect page, for the session's profile. A provider that lists
   * institutions (searchInstitutions) is asked nothing until the end-user has picked one. When the
   * provider answers REDIRECT, the one-time state it was given is recorded (hashed) with the session
   * and a browser binding that the caller sets as the link cookie.
   */
  async start(caller: PageCaller, connections: ConnectionService, request: components['schemas']['LinkStart']): Promise<StartedLink> {
    const profileId = encodeId('profile', caller.profileId);
    const repairing = request.connectionId ? await connections.get(request.connectionId) : undefined;
    if (repairing) connections.assertRepairable(repairing);
    const name = repairing?.provider ?? (await this.#providerName(caller, request.provider));
    const provider = await this.#provider(caller, name);
    const providerName = name as components['schemas']['ProviderName'];
    const institutionId = repairing?.institutionId ?? request.institutionId;
    if (!institutionId && provider.searchInstitutions) return { session: { provider: providerName, kind: 'INSTITUTION_SEARCH' } };
    const state = newSecret();
    const session: LinkSession = await this.#upstream(name, () =>
      provider.startLink({
        profileId,
        products: repairing?.products ?? request.products ?? DEFAULT_PRODUCTS,
        webhookUrl: this.#webhookUrl(caller, provider, name),
        existingCredential: repairing ? connections.credentialOf(repairing) : undefined,
        institutionId,
        redirectUrl: `${this.#origin(caller.host)}${CALLBACK_PATH}`,
        state,
      }),
    );
    const institution = repairing ? { institution: { id: repairing.institutionId, name: repairing.institutionName } } : {};
    if (session.kind !== 'REDIRECT') return { session: { provider: providerName, ...session, ...institution } };
    const browserSecret = newSecret();
    const expiresAt = new Date(Math.min(Date.parse(session.expiresAt) || Infinity, Date.now() + LINK_STATE_TTL_MS));
    await insertLinkState(caller.em, {
      environmentId: caller.environmentId,
      profileId: caller.profileId,
      sessionId: caller.sessionId,
      stateHash: hashOf(state),
      browserHash: hashOf(browserSecret),
      provider: name,
      institutionId: institutionId ?? null,
      connectionId: repairing?.id ?? null,
      products: repairing?.products ?? request.products ?? null,
      expiresAt,
    });
    return { session: { provider: providerName, kind: 'REDIRECT', url: session.url, expiresAt: expiresAt.toISOString(), ...institution }, browserSecret };
  }

  /**
   * The callback: the bank sent the end-user back. Only a known, unused, unexpired state of this
   * browser (`browserSecret`, the link cookie) whose session is still live goes on, and it is used
   * up first, whatever the bank said; then the authorization code completes the link as
   * connect/reconnect do. Nothing here says whether a state exists for another browser. The
   * end-user is at their browser now: the first sync reads with their presence (kept encrypted on
   * the connection until that read), so it spends none of the bank's unattended reads.
   */
  async finishRedirect(em: EntityManager, returned: RedirectReturn, browser: ReturningBrowser, connectionsOf: (scope: { environmentId: string; profileId: string }) => ConnectionService, log: Logger): Promise<RedirectOutcome> {
    const link = returned.state ? await linkByState(em, hashOf(returned.state)) : null;
    if (!link || !matchesHash(browser.browserSecret, link.browserHash)) return { error: 'invalid' };
    if (link.usedAt || link.expiresAt.getTime() <= Date.now() || !(await sessionIsLive(em, link.sessionId))) return { error: 'expired' };
    if (!(await consumeLink(em, link))) return { error: 'expired' };
    const said = { provider: link.provider, institutionId: link.institutionId };
    if (returned.error || !returned.code) {
      log.info({ ...said, error: returned.error ?? 'no code', description: returned.error_description }, 'the bank sent the end-user back without an authorization code');
      return { error: returned.error === 'access_denied' ? 'cancelled' : 'bank_error' };
    }
    const caller = { em, environmentId: link.environmentId };
    const connections = connectionsOf({ environmentId: link.environmentId, profileId: link.profileId });
    const input: LinkInput = {
      provider: link.provider as LinkInput['provider'],
      institutionId: link.institutionId ?? undefined,
      products: (link.products ?? undefined) as LinkInput['products'],
      authorizationCode: returned.code,
    };
    try {
      const connection = link.connectionId
        ? await this.#relink(caller, connections, await connections.get(encodeId('connection', link.connectionId)), input, browser.presence)
        : await this.#link(caller, connections, encodeId('profile', link.profileId), input, browser.presence);
      return { connectionId: connection.id, institutionName: connection.institution.name };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      log.warn({ ...said, code: error.code, err: error }, 'the redirect link could not be completed');
      return { error: 'bank_error' };
    }
  }

  /**
   * The institutions end-users can pick, across the environment's providers (the sandbox too in a
   * SANDBOX environment), or of `query.provider` only; sorted by name. Providers without
   * searchInstitutions have their own pickers (Plaid Link, the SimpleFIN Bridge) and list none. A
   * provider that fails, or has not answered within SEARCH_DEADLINE_MS, is left out, named in
   * `unavailable` and logged in one line; only when every provider asked failed does the search
   * fail, with the first one's error.
   */
  async institutions(caller: Caller, query: InstitutionQuery & { provider?: string }): Promise<InstitutionSearch> {
    const { country, name } = query;
    const names = query.provider ? [query.provider] : await this.#searchable(caller);
    const lists = await Promise.allSettled(
      names.map(async (providerName) => {
        const provider = await this.#provider(caller, providerName);
        if (!provider.searchInstitutions) return [];
        const found = await this.#upstream(providerName, () => withinDeadline(provider.searchInstitutions!({ country, name })), 'search institutions');
        return found.map((institution) => ({
          id: institution.id,
          name: institution.name,
          provider: providerName as components['schemas']['ProviderName'],
          countries: institution.countries ?? [],
          logoUrl: institution.logoUrl ?? null,
          products: institution.products,
        }));
      }),
    );
    const failed = lists.flatMap((list, index) => (list.status === 'rejected' ? [{ provider: names[index]!, error: list.reason as unknown }] : []));
    // What is not the provider's own failure (a provider not configured, the database) fails the search as before.
    const foreign = failed.find(({ error }) => !providerDown(error));
    if (foreign || (failed.length > 0 && failed.length === names.length)) throw (foreign ?? failed[0]!).error;
    for (const { provider, error } of failed) {
      // A misconfigured provider was logged as it failed, with the setting to fix.
      if (providerDown(error) && error.code === 'PROVIDER_UNAVAILABLE') this.#deps.logger.warn({ provider, reason: error.message }, `institution search: ${provider} left out, it could not answer`);
    }
    const institutions = lists.flatMap((list) => (list.status === 'fulfilled' ? list.value : []));
    return {
      institutions: institutions.sort((a, b) => a.name.localeCompare(b.name) || a.provider.localeCompare(b.provider) || a.id.localeCompare(b.id)),
      unavailable: failed.map(({ provider }) => provider),
    };
  }

  async #searchable({ em, environmentId }: Caller): Promise<string[]> {
    const configured = await this.#deps.providers.configured(environmentId);
    const environment = await readEnvironment(em, environmentId);
    return environment.mode === 'SANDBOX' ? ['sandbox', ...configured] : configured;
  }

  async connect(caller: Caller, connections: ConnectionService, profilePublicId: string, input: LinkInput) {
    return this.#link(caller, connections, profilePublicId, input);
  }

  async reconnect(caller: Caller, connections: ConnectionService, connectionId: string, input: LinkInput) {
    return this.#relink(caller, connections, await connections.get(connectionId), input);
  }

  async #link(caller: Caller, connections: ConnectionService, profilePublicId: string, input: LinkInput, presence?: EndUserPresence) {
    const profile = await connections.profileFor(profilePublicId);
    const name = await this.#providerName(caller, input.provider);
    const provider = await this.#provider(caller, name);
    const linked = await this.#upstream(name, () => provider.completeLink(this.#completion(caller, provider, name, input)));
    const connection = await connections.create(profile, name, linked, (created, tx) => this.#deps.jobs.sync(created.id, { db: jobsIn(tx), profileId: profile.id }), presence);
    return presentConnection(connection);
  }

  async #relink(caller: Caller, connections: ConnectionService, connection: ConnectionEntity, input: LinkInput, presence?: EndUserPresence) {
    connections.assertRepairable(connection);
    const provider = await this.#provider(caller, connection.provider);
    const linked = await this.#upstream(connection.provider, () =>
      provider.completeLink({ ...this.#completion(caller, provider, connection.provider, input), products: connection.products, existingCredential: connections.credentialOf(connection) }),
    );
    await connections.relink(connection, linked, (tx) => this.#deps.jobs.sync(connection.id, { db: jobsIn(tx), profileId: connection.profile.id }), presence);
    return presentConnection(connection);
  }

  #completion(caller: Caller, provider: Provider, name: string, input: LinkInput): LinkCompletion {
    const { institutionId, username, password, publicToken, setupToken, authorizationCode, products } = input;
    return { institutionId, username, password, publicToken, setupToken, authorizationCode, products, webhookUrl: this.#webhookUrl(caller, provider, name) };
  }

  /** Where end-users reach this service: PUBLIC_URL, else the origin the connect page was served from (where the link cookie lives). */
  #origin(host: string | undefined): string {
    return publicOrigin(this.#deps.publicUrl, host);
  }

  async #providerName({ environmentId }: Caller, requested: string | undefined): Promise<string> {
    return requested ?? (await this.#deps.providers.linkProviderName(environmentId));
  }

  async #provider({ em, environmentId }: Caller, name: string): Promise<Provider> {
    if (name === 'sandbox') await requireSandboxEnvironment(em, environmentId);
    try {
      return await this.#deps.providers.get(name, environmentId);
    } catch (error) {
      if (!(error instanceof ProviderNotConfigured)) throw error;
      throw new ValidationError([{ path: ['provider'], message: `${name} is not configured for this environment (npm run cli -- providers set)` }]);
    }
  }

  /**
   * Runs a link step of `provider`; what the provider refuses is the caller's input (a sign-in the
   * institution rejects too, before any connection exists), what fails upstream (or is rate limited)
   * is a 503, settings of the operator's that the provider refuses a 503 PROVIDER_MISCONFIGURED
   * (logged at once, naming the setting to fix), a request of ours it refuses a 500 (upstreamFailure).
   */
  async #upstream<T>(provider: string, step: () => Promise<T>, doing = 'complete the link'): Promise<T> {
    try {
      return await step();
    } catch (error) {
      if (error instanceof LinkRefused) {
        if (error.reason === 'NOT_FOUND') throw notFound(error.message);
        if (error.reason === 'CREDENTIALS') throw new AppError(422, 'INVALID_CREDENTIALS', error.message, { instruction: 'Nothing was connected: sign in again with the right username and password.' });
        throw new ValidationError([{ path: [error.field], message: error.message }]);
      }
      if (error instanceof ProviderMisconfigured) {
        this.#deps.logger.error({ provider, setting: error.setting }, `${provider} refuses the operator's settings (${error.message}): ${error.setting}`);
        throw new AppError(503, 'PROVIDER_MISCONFIGURED', `Connecting through ${provider} is unavailable until the operator fixes its settings`, {
          instruction: 'Nothing was connected. Tell the end-user connecting is unavailable for now; the operator finds what to fix in the server log.',
          headers: { 'Retry-After': String(MISCONFIGURED_RETRY_SECONDS) },
        });
      }
      // A rate limit (ProviderBusy) too: 503 with the upstream's delay, never a 500.
      throw upstreamFailure(error, doing);
    }
  }

  /** Where `provider` should send webhooks about a login; null (and said once) when nothing outside can reach this service. */
  #webhookUrl({ environmentId }: Caller, provider: Provider, name: string): string | null {
    const url = providerWebhookUrl(this.#deps.publicUrl, name, environmentId);
    if (url === null && provider.capabilities.has('WEBHOOKS') && !this.#webhooksOffSaid.has(name)) {
      this.#webhooksOffSaid.add(name);
      this.#deps.logger.warn({ provider: name }, `${name} webhooks are off until PUBLIC_URL is set to this service's public https origin; connections sync on schedule and on refresh only`);
    }
    return url;
  }
}

/** A provider's own failure while the caller waited: it is unavailable (or misconfigured), not the search broken. */
function providerDown(error: unknown): error is AppError {
  return error instanceof AppError && (error.code === 'PROVIDER_UNAVAILABLE' || error.code === 'PROVIDER_MISCONFIGURED');
}

/** `work`, or a provider failure once SEARCH_DEADLINE_MS passed (what it answers later is dropped; adapters may cache it). */
async function withinDeadline<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new ProviderError('ERROR_PROVIDER', `no answer within ${SEARCH_DEADLINE_MS / 1000} s`, { retryAfterSeconds: 30 })), SEARCH_DEADLINE_MS);
  });
  work.catch(() => undefined);
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** The redirect link `state` belongs to while the end-user is at the bank (unused, unexpired); null otherwise. */
export async function pendingLink(em: EntityManager, state: string): Promise<{ environmentId: string; provider: string; institutionId: string | null } | null> {
  const link = await linkByState(em, hashOf(state));
  return link && !link.usedAt && link.expiresAt.getTime() > Date.now() ? link : null;
}

/** The built-in sandbox institutions are for SANDBOX environments only. */
export async function requireSandboxEnvironment(em: EntityManager, environmentId: string): Promise<void> {
  const environment = await readEnvironment(em, environmentId);
  if (environment.mode !== 'SANDBOX') {
    throw forbidden('Sandbox connections can only be made in SANDBOX environments', { instruction: 'Use an API key of a SANDBOX environment, or a real provider.' });
  }
}

