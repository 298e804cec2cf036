import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { components } from '../../../generated/rest.ts';
import { AppError, forbidden, notFound, ValidationError } from '../../errors.ts';
import { jobsIn } from '../../jobs/in-transaction.ts';
import { encodeId } from '../../lib/ids.ts';
import { isLoopbackUrl } from '../../lib/loopback.ts';
import { ProviderNotConfigured, type ProviderDirectory } from '../../providers/directory.ts';
import { LinkRefused, type LinkCompletion, type LinkSession, type Provider } from '../../providers/provider.ts';
import { readEnvironment } from '../environment/environment.service.ts';
import { upstreamFailure } from '../connection/capabilities.ts';
import type { ConnectionJobs } from '../sync/connection.jobs.ts';
import { presentConnection } from '../connection/connection.presenter.ts';
import type { ConnectionService } from '../connection/connection.service.ts';

export interface LinkingDeps {
  providers: ProviderDirectory;
  jobs: ConnectionJobs;
  /** This service's public https origin (PUBLIC_URL): upstreams send their webhooks there. */
  publicUrl: string | undefined;
  logger: Logger;
}

/** What the end-user's side of a link handed back (the connect page, or a server in a sandbox). */
type LinkInput = components['schemas']['ConnectInstitution'];

/** Whom a link step acts for: the environment, with the EntityManager of the request. */
interface Caller {
  em: EntityManager;
  environmentId: string;
}

/**
 * Connecting an institution through a provider's own UI, for the connect page and the sandbox API:
 * start (what the page opens), complete (a new connection, first sync queued), and repair (update
 * mode: the same two steps on an existing connection). The provider is the one asked for, else the
 * environment's link provider; the built-in sandbox serves SANDBOX environments only.
 */
export class Linking {
  readonly #deps: LinkingDeps;
  /** Where upstreams can reach this service from outside; null without PUBLIC_URL, or with a loopback one. */
  readonly #webhookOrigin: string | null;
  /** Providers whose webhooks were said to be off: said once per process. */
  readonly #webhooksOffSaid = new Set<string>();

  constructor(deps: LinkingDeps) {
    this.#deps = deps;
    this.#webhookOrigin = deps.publicUrl && !isLoopbackUrl(deps.publicUrl) ? deps.publicUrl : null;
  }

  /** Started by the end-user's connect page, for the session's profile. */
  async start(caller: Caller & { profileId: string }, connections: ConnectionService, request: components['schemas']['LinkStart']) {
    const profileId = encodeId('profile', caller.profileId);
    const repairing = request.connectionId ? await connections.get(request.connectionId) : undefined;
    if (repairing) connections.assertRepairable(repairing);
    const name = repairing?.provider ?? (await this.#providerName(caller, request.provider));
    const provider = await this.#provider(caller, name);
    const session: LinkSession = await upstream(() =>
      provider.startLink({
        profileId,
        products: repairing?.products ?? request.products ?? ['TRANSACTIONS', 'BALANCES', 'ACCOUNT_NUMBERS'],
        webhookUrl: this.#webhookUrl(caller, provider, name),
        existingCredential: repairing ? connections.credentialOf(repairing) : undefined,
      }),
    );
    const institution = repairing ? { institution: { id: repairing.institutionId, name: repairing.institutionName } } : {};
    return { provider: name as components['schemas']['ProviderName'], ...session, ...institution };
  }

  async connect(caller: Caller, connections: ConnectionService, profilePublicId: string, input: LinkInput) {
    const profile = await connections.profileFor(profilePublicId);
    const name = await this.#providerName(caller, input.provider);
    const provider = await this.#provider(caller, name);
    const linked = await upstream(() => provider.completeLink(this.#completion(caller, provider, name, input)));
    const connection = await connections.create(profile, name, linked, (created, tx) => this.#deps.jobs.sync(created.id, { db: jobsIn(tx) }));
    return presentConnection(connection);
  }

  async reconnect(caller: Caller, connections: ConnectionService, connectionId: string, input: LinkInput) {
    const connection = await connections.get(connectionId);
    connections.assertRepairable(connection);
    const provider = await this.#provider(caller, connection.provider);
    const linked = await upstream(() =>
      provider.completeLink({ ...this.#completion(caller, provider, connection.provider, input), products: connection.products, existingCredential: connections.credentialOf(connection) }),
    );
    await connections.relink(connection, linked, (tx) => this.#deps.jobs.sync(connection.id, { db: jobsIn(tx) }));
    return presentConnection(connection);
  }

  #completion(caller: Caller, provider: Provider, name: string, input: LinkInput): LinkCompletion {
    const { institutionId, username, password, publicToken, setupToken, products } = input;
    return { institutionId, username, password, publicToken, setupToken, products, webhookUrl: this.#webhookUrl(caller, provider, name) };
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

  /** Where `provider` should send webhooks about a login; null (and said once) when nothing outside can reach this service. */
  #webhookUrl({ environmentId }: Caller, provider: Provider, name: string): string | null {
    if (this.#webhookOrigin === null) {
      if (provider.capabilities.has('WEBHOOKS') && !this.#webhooksOffSaid.has(name)) {
        this.#webhooksOffSaid.add(name);
        this.#deps.logger.warn({ provider: name }, `${name} webhooks are off until PUBLIC_URL is set to this service's public https origin; connections sync on schedule and on refresh only`);
      }
      return null;
    }
    return `${this.#webhookOrigin}/v1/providers/${name}/webhooks?environment=${encodeId('environment', environmentId)}`;
  }
}

/** The built-in sandbox institutions are for SANDBOX environments only. */
export async function requireSandboxEnvironment(em: EntityManager, environmentId: string): Promise<void> {
  const environment = await readEnvironment(em, environmentId);
  if (environment.mode !== 'SANDBOX') {
    throw forbidden('Sandbox connections can only be made in SANDBOX environments', { instruction: 'Use an API key of a SANDBOX environment, or a real provider.' });
  }
}

/**
 * Runs a link step; what the provider refuses is the caller's input (a sign-in the institution
 * rejects too, before any connection exists), what fails upstream (or is rate limited) is a 503, a
 * request of ours it refuses a 500 (upstreamFailure).
 */
async function upstream<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof LinkRefused) {
      if (error.reason === 'NOT_FOUND') throw notFound(error.message);
      if (error.reason === 'CREDENTIALS') throw new AppError(422, 'INVALID_CREDENTIALS', error.message, { instruction: 'Nothing was connected: sign in again with the right username and password.' });
      throw new ValidationError([{ path: [error.field], message: error.message }]);
    }
    // A rate limit (ProviderBusy) too: 503 with the upstream's delay, never a 500.
    throw upstreamFailure(error, 'complete the link');
  }
}
