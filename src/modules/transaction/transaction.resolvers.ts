import type { MutationResolvers, PageInfoResolvers, QueryResolvers, TransactionConnectionResolvers, TransactionResolvers } from '../../../generated/graphql.ts';
import { notFound } from '../../errors.ts';
import { mutationPayload, RecordNotFound } from '../../api-kit/mutation-payload.ts';
import { decodeId, encodeId } from '../../lib/ids.ts';
import type { PlainFields } from '../../api-kit/plain-fields.ts';
import type { AccountView } from '../account/account.entity.ts';
import { mergeMetadata } from '../metadata/metadata.ts';
import { transactionPage, type KeysetPage, type TransactionPage } from './transaction.query.ts';
import { PAGE_FIELDS, RECORD, type PageField, type TransactionRecord } from './transaction.store.ts';
import { selectedFields, type SelectionInfo } from '../../api-kit/selection.ts';
import { lockedTransaction, transactionById } from './transaction.store.ts';
import { checkedCategory, correctCategory } from '../categorization/correction.ts';
import { categoryV2Of } from '../../enrichment/taxonomy-v2.ts';

/** `Transaction` fields computed from its row alone, served as plain properties (src/graphql/plain-fields.ts); `entryType` follows the sign of the exact amount. */
export const transactionPlainFields: PlainFields<TransactionRecord> = {
  id: (transaction) => encodeId('transaction', transaction.id),
  entryType: (transaction) => (transaction.amount.startsWith('-') ? 'DEBIT' : 'CREDIT'),
  at: (transaction) => transaction.createdAt,
  merchant: (transaction) =>
    transaction.merchantName === null
      ? null
      : {
          name: transaction.merchantName,
          website: transaction.merchantWebsite,
          logoUrl: transaction.merchantLogoUrl,
          source: transaction.merchantSource,
          confidence: transaction.merchantConfidence === null ? null : Number(transaction.merchantConfidence),
        },
  category: (transaction) =>
    transaction.categoryPrimary === null || transaction.categoryDetailed === null || transaction.categorySource === null
      ? null
      : { primary: transaction.categoryPrimary, detailed: transaction.categoryDetailed, source: transaction.categorySource, confidence: Number(transaction.categoryConfidence ?? 1) },
  categoryV2: (transaction) =>
    transaction.categoryPrimary === null || transaction.categoryDetailed === null || transaction.categorySource === null
      ? null
      : { ...categoryV2Of({ primary: transaction.categoryPrimary, detailed: transaction.categoryDetailed }), source: transaction.categorySource, confidence: Number(transaction.categoryConfidence ?? 1) },
};

/**
 * `Transaction` fields from other records, through the request's loaders. `account` has no resolver:
 * whatever hands transactions to GraphQL hands each its account (a page reads them in its own
 * statement, a transaction read alone through `withAccounts`), so a page's edges
 * read a property instead of each running a resolver with its own resolve info, path, closures and
 * promise (most of what a page allocated per edge after its leaves).
 */
export const transactionType: TransactionResolvers = {
  // Read with a page that selects it; a transaction read alone loads it.
  remoteData: (transaction, _args, { loaders }) => transaction.remoteData ?? loaders.remoteData.load(transaction.id),
};

/** The request's account loader (src/graphql/loaders.ts), as far as `withAccounts` uses it. */
interface AccountLoader {
  load(id: string): Promise<AccountView | null>;
}

/**
 * Sets each record's `account` (what `Transaction.account` reads), from the request's account loader,
 * for transactions read alone (a page's records read theirs with them); a failed query fails the
 * read. Every transaction has its account (a foreign key within the profile).
 */
export async function withAccounts<R extends TransactionRecord>(records: R[], loaders: { account: AccountLoader }): Promise<R[]> {
  const ids = [...new Set(records.map((record) => record.accountId))];
  const accounts = new Map(await Promise.all(ids.map(async (id) => [id, await loaders.account.load(id)] as const)));
  for (const record of records) record.account = accounts.get(record.accountId) ?? undefined;
  return records;
}

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

export const transactionQuery: NonNullable<QueryResolvers['transaction']> = async (_root, { id }, { sql, profileId, loaders }) => {
  const uuid = decodeId('transaction', id);
  const transaction = uuid && (await transactionById(sql, profileId, uuid));
  if (!transaction) throw notFound('Transaction');
  return (await withAccounts([transaction], loaders))[0]!;
};

/**
 * The columns each `Transaction` field reads. A page always reads `id` and `date` (its cursors and the
 * row after the page); a field missing here (a new one) makes a page read every column of a record
 * (not the remote data, which `remoteData` then loads).
 */
const COLUMNS_OF_FIELD: Partial<Record<string, readonly PageField[]>> = {
  id: [],
  date: [],
  description: ['description'],
  amount: ['amount'],
  entryType: ['amount'],
  status: ['status'],
  currencyCode: ['currencyCode'],
  originalAmount: ['originalAmount'],
  originalCurrencyCode: ['originalCurrencyCode'],
  account: ['accountId'],
  metadata: ['metadata'],
  merchant: ['merchantName', 'merchantWebsite', 'merchantLogoUrl', 'merchantSource', 'merchantConfidence'],
  category: ['categoryPrimary', 'categoryDetailed', 'categorySource', 'categoryConfidence'],
  categoryV2: ['categoryPrimary', 'categoryDetailed', 'categorySource', 'categoryConfidence'],
  paymentChannel: ['paymentChannel'],
  remoteData: ['remoteData'],
  at: ['createdAt'],
  __typename: [],
};
const PAGE_NODES = [['edges', 'node'], ['nodes']] as const;
const columnsOfSelection = new WeakMap<ReadonlySet<string>, readonly PageField[]>();

/** The columns a page must read for the fields its document selects on its transactions. */
export function columnsOfPage(info: SelectionInfo): readonly PageField[] {
  const fields = selectedFields(info, PAGE_NODES);
  let columns = columnsOfSelection.get(fields);
  if (!columns) {
    const needed = [...fields].map((field) => COLUMNS_OF_FIELD[field]);
    columns = needed.includes(undefined) ? RECORD : PAGE_FIELDS.filter((column) => column === 'id' || column === 'date' || needed.some((list) => list!.includes(column)));
    columnsOfSelection.set(fields, columns);
  }
  return columns;
}

/**
 * A page of transactions read for the fields its document selects (`read` gets the columns; with
 * `account` selected, its records hold their accounts, read in the same statement): the root
 * `transactions` and `RecurringStream.transactions`.
 */
export function selectedPage(read: (columns: readonly PageField[]) => Promise<TransactionPage>, info: SelectionInfo): Promise<TransactionPage> {
  return read(columnsOfPage(info));
}

/** Plain statements only (a page, its flags and count): on the unforked `sql`. */
export const transactionsQuery: NonNullable<QueryResolvers['transactions']> = (_root, args, { sql, profileId }, info) =>
  selectedPage((columns) => transactionPage(sql, profileId, { ...args, sort: args.sort ?? 'DATE_DESC' }, columns), info);

/**
 * Merges metadata and sets or clears the category, under the row's lock so concurrent updates all
 * land; remote data is neither read nor written. Every field is checked before anything is written.
 */
export const transactionUpdate: NonNullable<MutationResolvers['transactionUpdate']> = (_root, { input }, { em, profileId, corrections, loaders }) =>
  mutationPayload(input, async () => {
    const id = decodeId('transaction', input.id);
    if (!id) throw new RecordNotFound('Transaction');
    const category = input.category === undefined ? undefined : checkedCategory(input.category);
    const updated = await em.transactional(async (tx): Promise<TransactionRecord> => {
      const transaction = await lockedTransaction(tx, profileId, id);
      if (!transaction) throw new RecordNotFound('Transaction');
      transaction.metadata = mergeMetadata(transaction.metadata, input.metadata);
      if (category !== undefined) await correctCategory(tx, transaction, category, corrections!);
      return {
        id: transaction.id,
        accountId: transaction.account.id,
        date: transaction.date,
        description: transaction.description,
        amount: transaction.amount,
        status: transaction.status,
        currencyCode: transaction.currencyCode,
        originalAmount: transaction.originalAmount ?? null,
        originalCurrencyCode: transaction.originalCurrencyCode ?? null,
        metadata: transaction.metadata,
        createdAt: transaction.createdAt,
        merchantName: transaction.merchantName ?? null,
        merchantWebsite: transaction.merchantWebsite ?? null,
        merchantLogoUrl: transaction.merchantLogoUrl ?? null,
        merchantSource: transaction.merchantSource ?? null,
        merchantConfidence: transaction.merchantConfidence ?? null,
        categoryPrimary: transaction.categoryPrimary ?? null,
        categoryDetailed: transaction.categoryDetailed ?? null,
        categorySource: transaction.categorySource ?? null,
        categoryConfidence: transaction.categoryConfidence ?? null,
        paymentChannel: transaction.paymentChannel,
      };
    });
    return (await withAccounts([updated], loaders))[0]!;
  });
