import { describe, expect, it } from 'vitest';
import { ENRICHMENT_VERSION } from '../../src/enrichment/pipeline.ts';
import { enricherFor, retrain } from '../../src/modules/categorization/learning.ts';
import { FIRST_ROW, reenrichBehind, reenrichProfile } from '../../src/modules/categorization/reenrichment.ts';
import { sourcesBehind, writeEnrichments, type RowPosition } from '../../src/modules/transaction/transaction-enrichment.store.ts';
import { applyTransactionPages } from '../../src/modules/transaction/transaction-sync.store.ts';
import type { ProviderTransaction } from '../../src/providers/provider-records.ts';
import type { Builders } from '../support/builders.ts';
import { withServiceTier } from '../support/service-tier.ts';
import type { TestDatabase } from '../support/test-database.ts';

let db: TestDatabase;
let build: Builders;
withServiceTier((tier) => ({ db, build } = tier));

const COFFEE = { primary: 'FOOD_AND_DRINK', detailed: 'FOOD_AND_DRINK_COFFEE' };
const GAS = { primary: 'TRANSPORTATION', detailed: 'TRANSPORTATION_GAS' };
/** A bank's raw line the built-in rules categorise through the merchant directory (Shell, gas, 0.9). */
const SHELL = { description: 'SHELL OIL 57444417', enrichment: null };

/** A connection with one card account, and a way to write pages of reported transactions to it as the sync does. */
async function card() {
  const connection = await build.connection();
  const account = await build.account({ connection, remoteId: 'card', kind: 'CREDIT' });
  const owner = { connectionId: connection.id, profileId: connection.profile.id, provider: 'sandbox' };
  const sync = (reported: ProviderTransaction[]) =>
    db.em().transactional((tx) => applyTransactionPages(tx, owner, [{ reported, removals: [] }], () => enricherFor(tx, owner.profileId)));
  return { connection, account, profileId: owner.profileId, sync };
}

function reported(remoteId: string, overrides: Partial<ProviderTransaction> = {}): ProviderTransaction {
  return {
    remoteId,
    accountRemoteId: 'card',
    pendingRemoteId: null,
    date: '2026-05-01',
    description: 'BLUE BOTTLE #12',
    amount: '-4.50',
    status: 'POSTED',
    raw: { timestamp: '2026-05-01T10:00:00Z' },
    enrichment: { categories: [COFFEE.primary, COFFEE.detailed], counterpartyName: 'Blue Bottle Coffee', logo: 'https://logos.example/bb.png', website: 'bluebottlecoffee.com', timestamp: '2026-05-01T10:00:00Z' },
    ...overrides,
  };
}

async function rowOf(profileId: string, remoteId: string) {
  const [row] = await db.sql(
    `select id, description, clean_description, merchant_name, merchant_website, merchant_source, merchant_confidence, category_primary, category_detailed, category_source, category_confidence, payment_channel, enrichment_version, remote_id, status
       from transaction where profile_id = $1 and remote_id = $2`,
    [profileId, remoteId],
  );
  return row;
}

/** The user's own category, as transactionUpdate stores it. */
async function setByUser(id: string, category: { primary: string; detailed: string }) {
  await db.sql(`update transaction set category_primary = $2, category_detailed = $3, category_source = 'USER', category_confidence = 1 where id = $1`, [id, category.primary, category.detailed]);
}

describe('enrichment in the sync', () => {
  it('stores the provider hints enriched with the row, at the current version', async () => {
    const { profileId, sync } = await card();
    await sync([reported('t1')]);
    expect(await rowOf(profileId, 't1')).toMatchObject({
      description: 'BLUE BOTTLE #12',
      clean_description: 'BLUE BOTTLE',
      merchant_name: 'Blue Bottle Coffee',
      merchant_website: 'bluebottlecoffee.com',
      category_primary: COFFEE.primary,
      category_detailed: COFFEE.detailed,
      category_source: 'PROVIDER',
      category_confidence: '0.900',
      enrichment_version: ENRICHMENT_VERSION,
    });
  });

  it("finds merchant and category in a raw bank line without hints (built-in RULES), and keeps the provider's category over them", async () => {
    const { profileId, sync } = await card();
    await sync([reported('raw-1', SHELL), reported('hinted-1', { description: SHELL.description, enrichment: { categories: [COFFEE.primary, COFFEE.detailed] } })]);
    expect(await rowOf(profileId, 'raw-1')).toMatchObject({
      clean_description: 'SHELL OIL',
      merchant_name: 'Shell',
      merchant_website: null,
      category_detailed: GAS.detailed,
      category_source: 'RULES',
      category_confidence: '0.900',
    });
    expect(await rowOf(profileId, 'hinted-1')).toMatchObject({ merchant_name: 'Shell', category_detailed: COFFEE.detailed, category_source: 'PROVIDER', category_confidence: '0.900' });
  });

  it("keeps a user's category when the transaction is modified, and when its posted twin takes the pending row over", async () => {
    const { profileId, sync } = await card();
    await sync([reported('pending-1', { status: 'PENDING' })]);
    const pending = await rowOf(profileId, 'pending-1');
    await setByUser(pending.id, GAS);

    await sync([reported('pending-1', { status: 'PENDING', description: 'BLUE BOTTLE #12 SF', amount: '-4.75' })]);
    expect(await rowOf(profileId, 'pending-1')).toMatchObject({ description: 'BLUE BOTTLE #12 SF', category_source: 'USER', category_detailed: GAS.detailed });

    await sync([reported('posted-1', { pendingRemoteId: 'pending-1', amount: '-5.25', enrichment: { categories: [], counterpartyName: 'Blue Bottle', logo: null, website: null } })]);
    expect(await rowOf(profileId, 'posted-1')).toMatchObject({ id: pending.id, status: 'POSTED', merchant_name: 'Blue Bottle', category_source: 'USER', category_primary: GAS.primary, category_detailed: GAS.detailed });
  });
});

describe('re-enrichment', () => {
  it('brings rows at an old version up to the current one, keeping USER categories', async () => {
    const { profileId, sync } = await card();
    await sync([reported('old-1'), reported('old-2'), reported('old-3', SHELL)]);
    const corrected = await rowOf(profileId, 'old-2');
    await setByUser(corrected.id, GAS);
    // As a row written before this enrichment version was deployed.
    await db.sql(`update transaction set enrichment_version = 0, merchant_name = null, merchant_website = null, payment_channel = 'OTHER',
        category_primary = case when category_source = 'USER' then category_primary end, category_detailed = case when category_source = 'USER' then category_detailed end,
        category_confidence = case when category_source = 'USER' then category_confidence end, category_source = case when category_source = 'USER' then 'USER' end
      where profile_id = $1`, [profileId]);

    // Small runs, so the keyset goes on from where each stopped.
    let next: RowPosition | undefined = FIRST_ROW;
    while (next) ({ next } = await reenrichBehind(db.em(), next, 1));

    expect(await rowOf(profileId, 'old-1')).toMatchObject({ merchant_name: 'Blue Bottle Coffee', category_source: 'PROVIDER', category_detailed: COFFEE.detailed, enrichment_version: ENRICHMENT_VERSION });
    expect(await rowOf(profileId, 'old-2')).toMatchObject({ merchant_name: 'Blue Bottle Coffee', category_source: 'USER', category_detailed: GAS.detailed, enrichment_version: ENRICHMENT_VERSION });
    expect(await rowOf(profileId, 'old-3')).toMatchObject({ merchant_name: 'Shell', category_source: 'RULES', category_detailed: GAS.detailed, enrichment_version: ENRICHMENT_VERSION });
    expect(await sourcesBehind(db.em(), ENRICHMENT_VERSION, FIRST_ROW, 10)).toEqual([]);
  });

  it("re-enriches the previous version's rows after a bump: a name read from the line now, with its source, and the user's category as the user set it", async () => {
    const { profileId, sync } = await card();
    await sync([
      reported('previous-1', { description: 'SQ *HARBOR LIGHT DONUTS', enrichment: null }),
      reported('previous-2', { description: 'NORTHWIND TRADERS LLC PAYROLL', amount: '2875.00', enrichment: null }),
    ]);
    await setByUser((await rowOf(profileId, 'previous-2')).id, { primary: 'INCOME', detailed: 'INCOME_OTHER_INCOME' });
    // As the previous version stored them: no name for a merchant the directory does not know, no source.
    await db.sql(`update transaction set enrichment_version = $2, merchant_name = null, merchant_source = null, merchant_confidence = null where profile_id = $1`, [profileId, ENRICHMENT_VERSION - 1]);

    let next: RowPosition | undefined = FIRST_ROW;
    while (next) ({ next } = await reenrichBehind(db.em(), next, 1));

    expect(await rowOf(profileId, 'previous-1')).toMatchObject({ merchant_name: 'Harbor Light Donuts', merchant_source: 'DESCRIPTION', merchant_confidence: '0.600', enrichment_version: ENRICHMENT_VERSION });
    expect(await rowOf(profileId, 'previous-2')).toMatchObject({
      merchant_name: 'Northwind Traders',
      merchant_source: 'DESCRIPTION',
      category_source: 'USER',
      category_detailed: 'INCOME_OTHER_INCOME',
      category_confidence: '1.000',
      enrichment_version: ENRICHMENT_VERSION,
    });
  });

  it("walks every profile's rows behind the version once, by profile and id, however the pages fall", async () => {
    const cards = [await card(), await card(), await card()];
    // The last profile's rows written first: their ids are below the first profile's, which a walk by id alone would pass over.
    for (const [index, { sync }] of [...cards.entries()].reverse()) await sync([reported(`walk-${index}-1`), reported(`walk-${index}-2`), reported(`walk-${index}-3`)]);
    const profiles = cards.map(({ profileId }) => profileId);
    await db.sql('update transaction set enrichment_version = 0 where profile_id = any($1)', [profiles]);

    const walked: string[] = [];
    for (let after: RowPosition = FIRST_ROW; ; ) {
      const page = await sourcesBehind(db.em(), ENRICHMENT_VERSION, after, 2);
      if (page.length === 0) break;
      walked.push(...page.filter(({ profileId }) => profiles.includes(profileId)).map(({ profileId, id }) => `${profileId}/${id}`));
      after = { profileId: page.at(-1)!.profileId, id: page.at(-1)!.id };
    }

    const rows = await db.sql('select profile_id, id from transaction where profile_id = any($1) order by profile_id, id', [profiles]);
    expect(walked).toEqual(rows.map(({ profile_id, id }) => `${profile_id}/${id}`));
    expect(walked).toHaveLength(9);
  });

  it('leaves a row as a sync rewrote it between the batch read and its write', async () => {
    const { profileId, sync } = await card();
    await sync([reported('raced-1'), reported('raced-2')]);
    await db.sql('update transaction set enrichment_version = 0, merchant_name = null where profile_id = $1', [profileId]);
    const enricher = await enricherFor(db.em(), profileId);
    const sources = (await sourcesBehind(db.em(), ENRICHMENT_VERSION, FIRST_ROW, 1000)).filter((source) => source.profileId === profileId);
    expect(sources).toHaveLength(2);

    // The sync lands after the batch read: a new description and merchant for raced-1.
    await sync([reported('raced-1', { description: 'SQ *TARTINE BAKERY', enrichment: { categories: [], counterpartyName: 'Tartine Bakery', logo: null, website: null } })]);
    const written = await writeEnrichments(db.em(), sources.map((source) => ({ source, enrichment: enricher(source.input) })));

    expect(written).toBe(1);
    // The bakery's word gives it the built-in rule's category; the stale batch would have written Blue Bottle's.
    expect(await rowOf(profileId, 'raced-1')).toMatchObject({
      description: 'SQ *TARTINE BAKERY',
      clean_description: 'TARTINE BAKERY',
      merchant_name: 'Tartine Bakery',
      category_detailed: 'FOOD_AND_DRINK_OTHER_FOOD_AND_DRINK',
      category_source: 'RULES',
      enrichment_version: ENRICHMENT_VERSION,
    });
    expect(await rowOf(profileId, 'raced-2')).toMatchObject({ merchant_name: 'Blue Bottle Coffee', enrichment_version: ENRICHMENT_VERSION });
  });
});

describe('learned categories', () => {
  it("recategorizes a profile's similar transactions from its own corrections only, over the built-in rules, and never its USER ones", async () => {
    const mine = await card();
    const theirs = await card();
    const shell = (remoteId: string) => reported(remoteId, SHELL);
    const automatic = { category_source: 'RULES', category_detailed: GAS.detailed, category_confidence: '0.900' };
    await mine.sync(['m1', 'm2', 'm3'].map(shell));
    await theirs.sync(['s1', 's2'].map(shell));
    expect(await rowOf(mine.profileId, 'm3')).toMatchObject(automatic);
    for (const remoteId of ['s1', 's2']) await setByUser((await rowOf(theirs.profileId, remoteId)).id, COFFEE);
    await db.em().transactional((tx) => retrain(tx, theirs.profileId));

    // Another profile's corrections change nothing here.
    await reenrichProfile(db.em(), mine.profileId);
    expect(await rowOf(mine.profileId, 'm3')).toMatchObject(automatic);

    await setByUser((await rowOf(mine.profileId, 'm1')).id, COFFEE);
    await db.em().transactional((tx) => retrain(tx, mine.profileId));
    await reenrichProfile(db.em(), mine.profileId);
    // One correction is not enough to learn from, and the other profile's two do not count towards it.
    expect(await rowOf(mine.profileId, 'm3')).toMatchObject(automatic);

    await setByUser((await rowOf(mine.profileId, 'm2')).id, COFFEE);
    await db.em().transactional((tx) => retrain(tx, mine.profileId));
    await reenrichProfile(db.em(), mine.profileId);
    // LEARNED outranks the built-in rule's gas station.
    expect(await rowOf(mine.profileId, 'm3')).toMatchObject({ merchant_name: 'Shell', category_source: 'LEARNED', category_detailed: COFFEE.detailed });
    expect(Number((await rowOf(mine.profileId, 'm3')).category_confidence)).toBeGreaterThanOrEqual(0.9);
    expect(await rowOf(mine.profileId, 'm1')).toMatchObject({ category_source: 'USER', category_detailed: COFFEE.detailed, category_confidence: '1.000' });
    // A new transaction of the sync gets it too.
    await mine.sync([shell('m4')]);
    expect(await rowOf(mine.profileId, 'm4')).toMatchObject({ category_source: 'LEARNED', category_detailed: COFFEE.detailed });
  });
});
