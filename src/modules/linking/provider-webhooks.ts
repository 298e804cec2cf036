import type { EntityManager } from '@mikro-orm/postgresql';
import { unauthorized } from '../../errors.ts';
import { jobsIn } from '../../jobs/in-transaction.ts';
import { decodeId } from '../../lib/ids.ts';
import { ProviderNotConfigured, type ProviderDirectory } from '../../providers/directory.ts';
import type { Provider, WebhookAction } from '../../providers/provider.ts';
import { WebhookUnverified } from '../../providers/provider-errors.ts';
import type { Handlers } from '../../api-kit/rest-handler.ts';
import { recordEvent } from '../event/event.service.ts';
import type { ConnectionEntity } from '../connection/connection.entity.ts';
import { liveConnectionOfLogin } from '../connection/connection.store.ts';
import type { ConnectionJobs } from '../sync/connection.jobs.ts';
import type { StatementJobs } from '../statement/statement.jobs.ts';
import { presentConnection } from '../connection/connection.presenter.ts';

export interface ProviderWebhookDeps {
  providers: ProviderDirectory;
  jobs: ConnectionJobs;
  statements: StatementJobs;
}

const unverified = () => unauthorized('The webhook could not be verified', { instruction: 'Only the provider, signing with its own keys, can call this endpoint.' });

/**
 * Inbound upstream webhooks. Nothing is read or changed before the provider's own scheme verifies
 * the request (with the keys of the environment named in the URL); every failure to verify is the
 * same 401, so the endpoint tells a forger nothing.
 */
export function providerWebhookHandlers({ providers, jobs, statements }: ProviderWebhookDeps): Handlers<'receiveProviderWebhook'> {
  return {
    async receiveProviderWebhook({ params, query, em, log, headers, rawBody }) {
      const environmentId = decodeId('environment', query.environment);
      if (!environmentId) throw unverified();
      const actions = await verified(providers, params.provider, environmentId, { headers: headers as Record<string, string | undefined>, body: rawBody ?? Buffer.alloc(0) });
      let applied = 0;
      for (const action of actions) if (await apply(em, { jobs, statements }, environmentId, params.provider, action)) applied++;
      log.info({ provider: params.provider, actions: actions.map((action) => action.kind), applied }, 'provider webhook');
      return { status: 200, body: { received: true, actions: applied } };
    },
  };
}

async function verified(providers: ProviderDirectory, name: string, environmentId: string, request: Parameters<Provider['receiveWebhook']>[0]): Promise<WebhookAction[]> {
  try {
    const provider = await providers.get(name, environmentId);
    if (!provider.capabilities.has('WEBHOOKS')) throw new WebhookUnverified(`${name} sends no webhooks`);
    return await provider.receiveWebhook(request);
  } catch (error) {
    if (error instanceof WebhookUnverified || error instanceof ProviderNotConfigured) throw unverified();
    throw error;
  }
}

/** Applies one action to the connection it names, with any job it needs in the same transaction; false when no live connection matches. */
async function apply(em: EntityManager, { jobs, statements }: Pick<ProviderWebhookDeps, 'jobs' | 'statements'>, environmentId: string, provider: string, action: WebhookAction): Promise<boolean> {
  return em.transactional(async (tx) => {
    const connection = await liveConnectionOfLogin(tx, { environmentId, provider, remoteId: action.remoteId });
    if (!connection || connection.profile.deletingAt) return false;
    switch (action.kind) {
      case 'SYNC':
        await jobs.sync(connection.id, { db: jobsIn(tx), profileId: connection.profile.id, trigger: 'WEBHOOK' });
        return true;
      case 'ERROR':
        if (connection.status !== action.state) {
          connection.status = action.state;
          connection.errorCode = null;
          record(tx, connection, `connection.synced.errored.${action.state}`);
        }
        return true;
      case 'NEW_ACCOUNTS':
        record(tx, connection, 'connection.accounts_available');
        return true;
      case 'CONSENT_EXPIRING':
        // The provider warned: the consent sweep keeps this end, and does not warn of it again.
        if (action.expiresAt) connection.consentExpiresAt = connection.consentWarnedFor = new Date(action.expiresAt);
        record(tx, connection, 'connection.consent_expiring');
        return true;
      case 'REVOKED':
        // Disconnected as if the app had asked: the upstream login is removed and the credential wiped.
        connection.status = 'DISCONNECTING';
        await tx.flush();
        await jobs.disconnect(connection.id, { db: jobsIn(tx), profileId: connection.profile.id });
        return true;
      case 'STATEMENTS':
        await statements.list(connection.id, connection.profile.id, jobsIn(tx));
        return true;
    }
  });
}

function record(tx: EntityManager, connection: ConnectionEntity, type: string): void {
  recordEvent(tx, connection.environment.id, type, connection.profile, presentConnection(connection));
}
