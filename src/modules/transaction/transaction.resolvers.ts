import type { MutationResolvers, PageInfoResolvers, QueryResolvers, TransactionConnectionResolvers, TransactionResolvers } from '../../../generated/graphql.ts';
import { updateLocked } from '../../db/locked-update.ts';
import { notFound } from '../../errors.ts';
import { mutationPayload, RecordNotFound } from '../../api-kit/mutation-payload.ts';
import { decodeId, encodeId } from '../../lib/ids.ts';
import type { PlainFields } from '../../api-kit/plain-fields.ts';
import type { AccountView } from '../account/account.entity.ts';
import { mergeMetadata } from '../metadata/metadata.ts';
import { Transaction } from './transaction.entity.ts';
import { transactionPage, type KeysetPage } from './transaction.query.ts';
import type { TransactionRecord } from './transaction.store.ts';
import { transactionById } from './transaction.store.ts';

/** `Transaction` fields computed from its row alone, served as plain properties (src/graphql/plain-fields.ts); `entryType` follows the sign of the exact amount. */
export const transactionPlainFields: PlainFields<TransactionRecord> = {
  id: (transaction) => encodeId('transaction', transaction.id),
  entryType: (transaction) => (transaction.amount.startsWith('-') ? 'DEBIT' : 'CREDIT'),
  at: (transaction) => transaction.createdAt,
};

/** `Transaction` fields from other records, through the request's loaders. */
export const transactionType: TransactionResolvers = {
  // The loader's own promise, not an async wrapper's: one fewer promise per edge. Every transaction has its account.
  account: (transaction, _args, { loaders }) => loaders.account.load(transaction.accountId) as Promise<AccountView>,
  remoteData: (transaction, _args, { loaders }) => loaders.remoteData.load(transaction.id),
};

/** One edge of a page, all of one shape (a page builds up to 100); its cursor is computed only when `cursor` is selected. */
class PageEdge<R> {
  readonly node: R;
  readonly page: KeysetPage<R>;

  constructor(node: R, page: KeysetPage<R>) {
    this.node = node;
    this.page = page;
  }

  get cursor(): string {
    return this.page.cursorOf(this.node);
  }
}

/** The fields of any Relay page (`…Connection`): its count and page flags cost queries of their own, so they run only when selected. */
export function pageType<R>() {
  return {
    count: (page: KeysetPage<R>) => page.count(),
    edges: (page: KeysetPage<R>) => page.records.map((node) => new PageEdge(node, page)),
    nodes: (page: KeysetPage<R>) => page.records,
    pageInfo: (page: KeysetPage<R>) => page,
  };
}

export const transactionConnectionType: TransactionConnectionResolvers = pageType<TransactionRecord>();

export const pageInfoType: PageInfoResolvers = {
  hasNextPage: (page) => page.hasNextPage(),
  hasPreviousPage: (page) => page.hasPreviousPage(),
  startCursor: (page) => (page.records.length > 0 ? page.cursorOf(page.records[0]!) : null),
  endCursor: (page) => (page.records.length > 0 ? page.cursorOf(page.records.at(-1)!) : null),
};

export const transactionQuery: NonNullable<QueryResolvers['transaction']> = async (_root, { id }, { em, profileId }) => {
  const uuid = decodeId('transaction', id);
  const transaction = uuid && (await transactionById(em, profileId, uuid));
  if (!transaction) throw notFound('Transaction');
  return transaction;
};

export const transactionsQuery: NonNullable<QueryResolvers['transactions']> = (_root, args, { em, profileId }) =>
  transactionPage(em, profileId, { ...args, sort: args.sort ?? 'DATE_DESC' });

/** Merges metadata under the row's lock, so concurrent merges all land; remote data is neither read nor written. */
export const transactionUpdate: NonNullable<MutationResolvers['transactionUpdate']> = (_root, { input }, { em, profileId }) =>
  mutationPayload(input, () => {
    const id = decodeId('transaction', input.id);
    if (!id) throw new RecordNotFound('Transaction');
    const options = { missing: () => new RecordNotFound('Transaction'), exclude: ['remoteData'] };
    return updateLocked(em, Transaction, { id, profile: profileId }, options, (transaction): TransactionRecord => {
      transaction.metadata = mergeMetadata(transaction.metadata, input.metadata);
      return {
        id: transaction.id,
        accountId: transaction.account.id,
        date: transaction.date,
        description: transaction.description,
        amount: transaction.amount,
        status: transaction.status,
        currencyCode: transaction.currencyCode,
        metadata: transaction.metadata,
        createdAt: transaction.createdAt,
      };
    });
  });
