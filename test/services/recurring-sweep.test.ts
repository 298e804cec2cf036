import { beforeAll, describe, expect, it } from 'vitest';
import { encodeId } from '../../src/lib/ids.ts';
import { recomputeStreams } from '../../src/modules/recurring/recurring.service.ts';
import { sweepOverdueStreams } from '../../src/modules/recurring/stream-sweeper.ts';
import type { AccountEntity } from '../../src/modules/account/account.entity.ts';
import type { Builders } from '../support/builders.ts';
import { withServiceTier } from '../support/service-tier.ts';
import type { TestDatabase } from '../support/test-database.ts';

/*
 * The daily sweep ends streams whose account went quiet, with no sync in between: a biweekly pay
 * last seen on 2026-06-26 (next expected 07-10, grace 7 days) and a rent paid around the 16th, last
 * on 06-15 (next 07-16, grace 15 days). The sweep's `today` is the clock here: each step judges a later day.
 */

let db: TestDatabase;
let build: Builders;
let account: AccountEntity;
let other: AccountEntity;

withServiceTier((tier) => ({ db, build } = tier));

const PAYDAYS = ['2026-03-06', '2026-03-20', '2026-04-03', '2026-04-17', '2026-05-01', '2026-05-15', '2026-05-29', '2026-06-12', '2026-06-26'];
const RENT_DAYS = ['2026-02-16', '2026-03-16', '2026-04-15', '2026-05-15', '2026-06-15'];

async function streams(accountId: string) {
  return db.sql(`select id, description, status from recurring_stream where account_id = $1 order by description`, [accountId]);
}

async function endedEvents(accountId: string) {
  return db.sql(
    `select e.environment_id, e.profile_id, e.payload->'record'->>'id' as stream, e.payload->'record'->>'status' as status
       from event e where e.type = 'recurring_stream.ended' and e.payload->'record'->>'accountId' = $1 order by 3`,
    [encodeId('account', accountId)],
  );
}

beforeAll(async () => {
  account = await build.account();
  await build.transactions([...PAYDAYS.map((date) => ({ date, amount: '2310.55', description: 'INITECH PAYROLL' })), ...RENT_DAYS.map((date) => ({ date, amount: '-1725.00', description: 'OAKWOOD APTS RENT' }))], { account });
  await recomputeStreams(db.em(), { connectionId: account.connection.id, profileId: account.profile.id }, '2026-07-01');
  // Another connection's stream, in another environment, that is still going: no sweep touches it.
  other = await build.account({ connection: await build.connection({ profile: await build.profile({ environment: (await build.environment()).id }) }) });
  await build.transactions(['2026-05-20', '2026-06-20', '2026-07-20'].map((date) => ({ date, amount: '-15.49', description: 'NETFLIX.COM' })), { account: other });
  await recomputeStreams(db.em(), { connectionId: other.connection.id, profileId: other.profile.id }, '2026-07-21');
});

describe('the daily sweep of streams past their grace period', () => {
  it('leaves streams alone while they are within their grace period', async () => {
    expect((await streams(account.id)).map((stream) => stream.status)).toEqual(['MATURE', 'MATURE']);
    expect(await sweepOverdueStreams(db.em(), '2026-07-17')).toBe(0);
    expect((await streams(account.id)).map((stream) => stream.status)).toEqual(['MATURE', 'MATURE']);
    expect(await endedEvents(account.id)).toEqual([]);
  });

  it('ends each stream once its grace period is over, and records recurring_stream.ended once, in the connection’s environment and profile', async () => {
    expect(await sweepOverdueStreams(db.em(), '2026-07-18')).toBe(1);
    const [pay, rent] = await streams(account.id);
    expect([pay!.description, pay!.status, rent!.status]).toEqual(['INITECH PAYROLL', 'ENDED', 'MATURE']);
    // Rent due on the 15th (February's and March's fell on a Sunday, paid on the Monday): next on 07-15, over on 07-31.
    expect(await sweepOverdueStreams(db.em(), '2026-07-30')).toBe(0);
    expect(await sweepOverdueStreams(db.em(), '2026-07-31')).toBe(1);
    expect((await streams(account.id)).map((stream) => stream.status)).toEqual(['ENDED', 'ENDED']);
    const environmentId = (await db.sql('select environment_id from connection where id = $1', [account.connection.id]))[0]!.environment_id;
    expect(await endedEvents(account.id)).toEqual(
      [pay!, rent!].map((stream) => ({ environment_id: environmentId, profile_id: account.profile.id, stream: encodeId('recurringStream', stream.id), status: 'ENDED' })).sort((a, b) => a.stream.localeCompare(b.stream)),
    );
  });

  it('records no second ended event: not from a later sweep, nor from a recomputation that agrees the streams ended', async () => {
    expect(await sweepOverdueStreams(db.em(), '2026-09-01')).toBe(0);
    await recomputeStreams(db.em(), { connectionId: account.connection.id, profileId: account.profile.id }, '2026-09-01');
    expect((await streams(account.id)).map((stream) => stream.status)).toEqual(['ENDED', 'ENDED']);
    expect(await endedEvents(account.id)).toHaveLength(2);
  });

  it('ends another tenant’s stream only by its own dates', async () => {
    expect((await streams(other.id)).map((stream) => stream.status)).toEqual(['MATURE']);
    expect(await endedEvents(other.id)).toEqual([]);
    // Netflix next on 08-20 with 15 days' grace: over on 09-05, in that connection's environment.
    expect(await sweepOverdueStreams(db.em(), '2026-09-05')).toBe(1);
    expect(await endedEvents(other.id)).toHaveLength(1);
    expect((await endedEvents(other.id))[0]!.profile_id).toBe(other.profile.id);
  });
});
