import type { QueryResolvers, StatementConnectionResolvers, StatementResolvers } from '../../../generated/graphql.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import { encodeId } from '../../lib/ids.ts';
import type { AccountView } from '../account/account.entity.ts';
import { pageType } from '../transaction/transaction.resolvers.ts';
import { downloadUrl } from './statement-links.ts';
import { statementPage } from './statement.query.ts';
import type { StatementRecord } from './statement.store.ts';

const links = new WeakMap<StatementRecord, { url: string; expiresAt: Date } | null>();

/** A READY statement's download URL, signed once per record read (so `url` and `urlExpiresAt` agree); null otherwise. */
function linkOf(statement: StatementRecord, { cipher, origin, profileId }: { cipher: FieldCipher; origin: string; profileId: string }) {
  if (!links.has(statement)) links.set(statement, statement.status === 'READY' ? downloadUrl(cipher, origin, { id: statement.id, profileId }, new Date()) : null);
  return links.get(statement)!;
}

/** `Statement` fields from its row; its account comes through the request's loader. */
export const statementType: StatementResolvers = {
  id: (statement) => encodeId('statement', statement.id),
  accountId: (statement) => encodeId('account', statement.accountId),
  // Every statement has its account (a foreign key with a cascade).
  account: (statement, _args, { loaders }) => loaders.account.load(statement.accountId) as Promise<AccountView>,
  url: (statement, _args, context) => linkOf(statement, context)?.url ?? null,
  urlExpiresAt: (statement, _args, context) => linkOf(statement, context)?.expiresAt ?? null,
  at: (statement) => statement.createdAt,
};

export const statementConnectionType: StatementConnectionResolvers = pageType<StatementRecord>();

export const statementsQuery: NonNullable<QueryResolvers['statements']> = (_root, args, { em, profileId }) => statementPage(em, profileId, args);
