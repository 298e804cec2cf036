import type { EntityManager } from '@mikro-orm/postgresql';
import { unauthorized } from '../../errors.ts';
import { decodeId } from '../../lib/ids.ts';
import { ProviderNotConfigured, type ProviderDirectory } from '../../providers/directory.ts';
import { WebhookUnverified, type Provider, type WebhookAction } from '../../providers/provider.ts';
import type { Handlers } from '../../rest/types.ts';
import { recordEvent } from '../event/event.service.ts';
import { Connection, type ConnectionEntity } from './connection.entity.ts';
import type { ConnectionJobs } from './connection.jobs.ts';
import { presentConnection } from './connection.presenter.ts';

export interface ProviderWebhookDeps {
  providers: ProviderDirectory;
  jobs: ConnectionJobs;
}

const unverified = () => unauthorized('The webhook could not be verified', { instruction: 'Only the provider, signing with its own keys, can call this endpoint.' });

/**
 * Inbound upstream webhooks. Nothing is read or changed before the provider's own scheme verifies
 * the request (with the keys of the environment named in the URL); every failure to verify is the
 * same 401, so the endpoint tells a forger nothing.
 */
export function providerWebhookHandlers({ providers, jobs }: ProviderWebhookDeps): Handlers<'receiveProviderWebhook'> {
  return {
    async receiveProviderWebhook({ params, query, ctx }) {
      const environmentId = decodeId('environment', query.environment);
      if (!environmentId) throw unverified();
      const actions = await verified(providers, params.provider, environmentId, { headers: ctx.headers as Record<string, string | undefined>, body: ctx.state.rawBody ?? Buffer.alloc(0) });
      let applied = 0;
      for (const action of actions) {
        const job = await apply(ctx.state.em, environmentId, params.provider, action);
        if (!job) continue;
        applied++;
        // Queued once the change is committed, so the job sees it.
        if (job.queue === 'sync') await jobs.sync(job.connectionId);
        if (job.queue === 'disconnect') await jobs.disconnect(job.connectionId);
      }
      ctx.state.log.info({ provider: params.provider, actions: actions.map((action) => action.kind), applied }, 'provider webhook');
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

type Applied = { queue: 'sync' | 'disconnect' | null; connectionId: string } | undefined;

/** Applies one action to the connection it names (undefined when no live one matches), and says which job should follow. */
async function apply(em: EntityManager, environmentId: string, provider: string, action: WebhookAction): Promise<Applied> {
  return em.transactional(async (tx) => {
    const connection = await tx.findOne(
      Connection,
      { environment: environmentId, provider, remoteId: action.remoteId, status: { $nin: ['DISCONNECTING', 'DISCONNECTED'] } },
      { populate: ['profile'] },
    );
    if (!connection || connection.profile.deletingAt) return undefined;
    const done = (queue: 'sync' | 'disconnect' | null = null) => ({ queue, connectionId: connection.id });
    switch (action.kind) {
      case 'SYNC':
        return done('sync');
      case 'ERROR':
        if (connection.status !== action.state) {
          connection.status = action.state;
          record(tx, connection, `connection.synced.errored.${action.state}`);
        }
        return done();
      case 'NEW_ACCOUNTS':
        record(tx, connection, 'connection.accounts_available');
        return done();
      case 'CONSENT_EXPIRING':
        record(tx, connection, 'connection.consent_expiring', { consentExpiresAt: action.expiresAt });
        return done();
      case 'REVOKED':
        // Disconnected as if the app had asked: the upstream login is removed and the credential wiped.
        connection.status = 'DISCONNECTING';
        return done('disconnect');
    }
  });
}

function record(tx: EntityManager, connection: ConnectionEntity, type: string, extra: Record<string, unknown> = {}): void {
  recordEvent(tx, connection.environment.id, type, connection.profile, { ...presentConnection(connection), ...extra });
}
