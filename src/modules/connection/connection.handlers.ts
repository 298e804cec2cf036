import type { EntityManager } from '@mikro-orm/postgresql';
import { forbidden } from '../../errors.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import type { Credential } from '../../api-kit/credential.ts';
import type { Handlers } from '../../api-kit/rest-handler.ts';
import { readEnvironment } from '../environment/environment.service.ts';
import { jobsIn } from '../../jobs/in-transaction.ts';
import type { ProviderDirectory } from '../../providers/directory.ts';
import { providerOffering } from './capabilities.ts';
import { assertBudgetLeft, budgetOf } from '../sync/request-budget.ts';
import type { ConnectionJobs } from '../sync/connection.jobs.ts';
import { presentConnection } from './connection.presenter.ts';
import { ConnectionService } from './connection.service.ts';

export interface ConnectionHandlerDeps {
  cipher: FieldCipher;
  jobs: ConnectionJobs;
  providers: ProviderDirectory;
}

/** REST handlers for /v1/connections: disconnection and the (beta) transactions refresh. */
export function connectionHandlers({ cipher, jobs, providers }: ConnectionHandlerDeps): Handlers<'disconnectConnection' | 'refreshConnectionTransactions'> {
  const service = (em: EntityManager, { environmentId }: Credential) => new ConnectionService(em, cipher, { environmentId });
  return {
    async disconnectConnection({ params, credential, em }) {
      const connections = service(em, credential);
      const connection = await connections.get(params.connectionId);
      await connections.disconnect(connection, (tx) => jobs.disconnect(connection.id, { db: jobsIn(tx), profileId: connection.profile.id }));
      return { status: 202, body: presentConnection(connection) };
    },
    async refreshConnectionTransactions({ params, body, credential, em }) {
      const connections = service(em, credential);
      const connection = await connections.get(params.connectionId);
      const environment = await readEnvironment(em, credential.environmentId);
      if (!environment.transactionsRefreshBeta) {
        throw forbidden('Transactions refresh is in beta and not enabled for this environment', {
          instruction: 'Ask the operator to enable it: npm run cli -- environments beta <environment id> transactions-refresh on',
        });
      }
      const provider = await providerOffering(providers, connection, 'TRANSACTIONS_REFRESH');
      const presence = body?.endUser ? { ...body.endUser, userAgent: body.endUser.userAgent ?? null } : undefined;
      assertBudgetLeft(connection, budgetOf(provider), presence);
      await connections.claimTransactionsRefresh(connection, presence, (tx) => jobs.syncNow(connection.id, { db: jobsIn(tx), profileId: connection.profile.id }));
      return { status: 202, body: { connectionId: params.connectionId, status: 'QUEUED' } };
    },
  };
}
