import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, badRequest, conflict } from '../../errors.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import type { ProviderDirectory } from '../../providers/directory.ts';
import { ProviderError } from '../../providers/provider-errors.ts';
import type { Credential } from '../../api-kit/credential.ts';
import type { Handlers } from '../../api-kit/rest-handler.ts';
import { providerOffering, upstreamFailure } from '../connection/capabilities.ts';
import type { ConnectionJobs } from '../sync/connection.jobs.ts';
import { AccountService, requireProduct } from './account.service.ts';

export interface AccountHandlerDeps {
  cipher: FieldCipher;
  providers: ProviderDirectory;
  jobs: ConnectionJobs;
}

/** REST handlers for /v1/accounts: real-time balance refresh and ACH numbers (API key only). */
export function accountHandlers({ cipher, providers, jobs }: AccountHandlerDeps): Handlers<'refreshAccountBalance' | 'getAchNumbers'> {
  const service = (em: EntityManager, { environmentId }: Credential) => new AccountService(em, environmentId);
  return {
    async refreshAccountBalance({ params, credential, em }) {
      const accounts = service(em, credential);
      const account = await accounts.get(params.accountId);
      accounts.assertRefreshable(account);
      await providerOffering(providers, account.connection, 'BALANCE_REFRESH');
      await jobs.refreshBalance(account.id, account.profile.id);
      return { status: 202, body: { accountId: params.accountId, status: 'QUEUED' } };
    },
    async getAchNumbers({ params, credential, em }) {
      const account = await service(em, credential).get(params.accountId);
      if (account.kind !== 'DEPOSITORY') {
        throw badRequest(`ACH numbers are not available for ${account.kind} accounts`, {
          instruction: 'Ask for the ACH numbers of a DEPOSITORY (checking or savings) account.',
        });
      }
      requireProduct(account, 'ACCOUNT_NUMBERS');
      const provider = await providerOffering(providers, account.connection, 'ACCOUNT_NUMBERS');
      if (!account.verified) throw notVerified();
      const { connection } = account;
      const numbers = await upstreamAnswer(() => provider.accountNumbers(cipher.decrypt('credential', connection, connection.credentialEncrypted), account.remoteId));
      // The provider no longer offers numbers for it: the next sync leaves it unverified.
      if (!numbers) throw notVerified();
      return { status: 200, body: { accountId: params.accountId, ...numbers } };
    },
  };
}

function notVerified(): AppError {
  return conflict('The account is not verified', {
    instruction:
      'Wait for the account.verified event, then retry. A depository account the provider offers no ACH numbers for (with Plaid: any but checking, savings and cash management accounts) is never verified.',
  });
}

/** ACH numbers are read from the upstream while the caller waits: its failures answer 403 or 503, never 500. */
async function upstreamAnswer<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ProviderError && error.status === 'ERROR_REPAIRABLE') {
      throw new AppError(403, 'REPAIR_REQUIRED', 'The institution needs the end-user to sign in again', { instruction: 'Open the connect page in repair mode for this connection, then retry.' });
    }
    throw upstreamFailure(error, 'read the account numbers');
  }
}
