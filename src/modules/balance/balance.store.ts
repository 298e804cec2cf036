import { col, table } from '../../db/table.ts';
import { BALANCE_SOURCES } from './balance.entity.ts';

/**
 * The balance table as plain SQL writes it (the seed's COPY); checked against the entity by
 * test/stores.test.ts. The service writes balances through the ORM.
 */
export const BALANCE = table('balance', {
  id: col.uuid(),
  accountId: col.uuid(),
  profileId: col.uuid(),
  at: col.timestamp(),
  source: col.oneOf(BALANCE_SOURCES),
  available: col.money().orNull(),
  current: col.money().orNull(),
  limit: col.money().orNull(),
  currencyCode: col.text(),
});
