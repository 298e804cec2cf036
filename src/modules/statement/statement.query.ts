import type { EntityManager } from '@mikro-orm/postgresql';
import type { QueryStatementsArgs } from '../../../generated/graphql.ts';
import { keysetPage, type KeysetPage } from '../transaction/transaction.query.ts';
import { countStatements, statementRecords, statementsExist, statementWhere, type StatementRecord } from './statement.store.ts';

export type StatementPage = KeysetPage<StatementRecord>;

/** One page of the profile's statements, newest period first (keyed on the period's end and the id), as `transactions` pages. */
export function statementPage(em: EntityManager, profileId: string, args: QueryStatementsArgs): Promise<StatementPage> {
  const where = statementWhere(profileId, args.filter ?? {});
  return keysetPage({ ...args, sort: 'DATE_DESC' }, {
    records: (bound, order, limit) => statementRecords(em, where, bound, order, limit),
    exists: (bound) => statementsExist(em, where, bound),
    count: () => countStatements(em, where),
    positionOf: (statement) => statement,
  });
}
