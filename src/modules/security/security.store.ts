import type { EntityManager } from '@mikro-orm/postgresql';
import { run } from '../../db/statement.ts';
import { col, table, type ReadRow, type Row } from '../../db/table.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { SECURITY_TYPES, type ProviderSecurity } from '../../providers/provider-investments.ts';
import { securityIdentity } from './security-identity.ts';

/** The security table as its SQL reads and writes it (checked against the entity by test/stores.test.ts). */
export const SECURITY = table('security', {
  id: col.uuid(),
  identity: col.text(),
  name: col.text().orNull(),
  tickerSymbol: col.text().orNull(),
  isin: col.text().orNull(),
  cusip: col.text().orNull(),
  type: col.oneOf(SECURITY_TYPES),
  currencyCode: col.text(),
  closePrice: col.money().orNull(),
  closePriceDate: col.date().orNull(),
  updatedAt: col.timestamp(),
});

const REPORTED = ['identity', 'name', 'tickerSymbol', 'isin', 'cusip', 'type', 'currencyCode', 'closePrice', 'closePriceDate'] as const;
const RECORD = ['id', 'name', 'tickerSymbol', 'isin', 'cusip', 'type', 'currencyCode', 'closePrice', 'closePriceDate'] as const;

/** A security as GraphQL reads it. */
export type SecurityRecord = ReadRow<typeof SECURITY, (typeof RECORD)[number]>;

/** The statements of the security table; test/stores.test.ts prepares each. */
export const securityStatements = {
  // What a provider leaves out keeps what another reported; an older close price never replaces a newer one.
  upsert: `insert into security (${SECURITY.list(['id', ...REPORTED, 'updatedAt'])})
     select r.id, ${REPORTED.map((field) => `r."${field}"`).join(', ')}, now()
       from jsonb_to_recordset($1::jsonb) as r(${SECURITY.recordset(['id', ...REPORTED])})
      order by r.identity
     on conflict (identity) do update
        set name = coalesce(excluded.name, security.name), ticker_symbol = coalesce(excluded.ticker_symbol, security.ticker_symbol),
            isin = coalesce(excluded.isin, security.isin), cusip = coalesce(excluded.cusip, security.cusip), type = excluded.type,
            close_price = case when security.close_price_date > excluded.close_price_date then security.close_price else coalesce(excluded.close_price, security.close_price) end,
            close_price_date = greatest(security.close_price_date, excluded.close_price_date), updated_at = now()
     returning id, identity`,
  byIds: `select ${SECURITY.select(RECORD, 's')} from security s where s.id = any($1::uuid[])`,
};

/**
 * Stores what a provider reports of securities (one row per instrument, whoever reports it), in the
 * caller's transaction; returns the stored id of each reported `remoteId`. Rows are written in
 * identity order, so two syncs writing the same securities never deadlock.
 */
export async function upsertSecurities(tx: EntityManager, provider: string, reported: ProviderSecurity[]): Promise<Map<string, string>> {
  if (reported.length === 0) return new Map();
  const identities = new Map(reported.map((security) => [security.remoteId, securityIdentity(provider, security)]));
  const rows = new Map<string, Row<typeof SECURITY, 'id' | (typeof REPORTED)[number]>>();
  for (const security of reported) {
    const identity = identities.get(security.remoteId)!;
    const { name, tickerSymbol, isin, cusip, type, currencyCode, closePrice, closePriceDate } = security;
    rows.set(identity, { id: uuidv7(), identity, name, tickerSymbol, isin, cusip, type, currencyCode, closePrice, closePriceDate });
  }
  const { rows: stored } = await run<{ id: string; identity: string }>(tx, securityStatements.upsert, [JSON.stringify([...rows.values()])]);
  const ids = new Map(stored.map((row) => [row.identity, row.id]));
  return new Map([...identities].map(([remoteId, identity]) => [remoteId, ids.get(identity)!]));
}

/** Securities by stored id (reference data: any profile may read any), in no particular order. */
export async function securitiesByIds(em: EntityManager, ids: readonly string[]): Promise<SecurityRecord[]> {
  return (await run<SecurityRecord>(em, securityStatements.byIds, [ids])).rows;
}
