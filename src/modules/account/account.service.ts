import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, notFound } from '../../errors.ts';
import { decodeId } from '../../lib/ids.ts';
import type { Product } from '../connection/connection.entity.ts';
import { Account, type AccountEntity } from './account.entity.ts';

/** Accounts of one environment; a profile being deleted reads as absent. */
export class AccountService {
  readonly #em: EntityManager;
  readonly #environmentId: string;

  constructor(em: EntityManager, environmentId: string) {
    this.#em = em;
    this.#environmentId = environmentId;
  }

  /** The account with this public id, with its connection; 404 when not in this environment. */
  async get(publicId: string): Promise<AccountEntity> {
    const id = decodeId('account', publicId);
    const account =
      id &&
      (await this.#em.findOne(
        Account,
        { id, connection: { environment: this.#environmentId }, profile: { deletingAt: null } },
        { populate: ['connection'] },
      ));
    if (!account) throw notFound('Account');
    return account;
  }

  /** A balance refresh needs a working connection with the BALANCES product. */
  assertRefreshable(account: AccountEntity): void {
    const { status } = account.connection;
    if (status.startsWith('ERROR_') || status === 'DISCONNECTING' || status === 'DISCONNECTED') {
      throw new AppError(403, status === 'ERROR_REPAIRABLE' ? 'REPAIR_REQUIRED' : 'CONNECTION_NOT_USABLE', `The account's connection is ${status}; its balance cannot be refreshed`, {
        instruction: status === 'ERROR_REPAIRABLE' ? 'Have the end-user reconnect the institution, then retry.' : 'Retry once the connection is SYNCED again.',
      });
    }
    requireProduct(account, 'BALANCES');
  }
}

export function requireProduct(account: AccountEntity, product: Product): void {
  if (!account.connection.products.includes(product)) {
    throw new AppError(403, 'PRODUCT_NOT_ENABLED', `The account's connection is not enabled with the ${product} product`, {
      instruction: `Connect the institution again with the ${product} product enabled.`,
    });
  }
}
