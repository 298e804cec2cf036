import { describe, expect, it } from 'vitest';
import { recordEvent, takeUndispatched } from '../../src/modules/event/event.service.ts';
import { builders, type Builders } from '../support/builders.ts';
import { withServiceTier } from '../support/service-tier.ts';
import type { TestDatabase } from '../support/test-database.ts';
import { controlledDeliveries } from '../support/webhook-deliveries.ts';

let db: TestDatabase;
let build: Builders;

withServiceTier((tier) => ({ db, build } = tier));

/** `count` new events of a fresh environment, each in the outbox. */
async function outboxEvents(count: number, environmentId?: string): Promise<string[]> {
  const environment = environmentId ?? (await build.environment()).id;
  const em = db.orm.em.fork();
  const events = Array.from({ length: count }, (_, i) => recordEvent(em, environment, 'profile.created', null, { id: `p_${i}` }));
  await em.flush();
  return events.map((event) => event.id);
}

const inOutbox = async (ids: string[]) => (await db.sql('select event_id from event_outbox where event_id = any($1::uuid[]) order by event_id', [ids])).map((row) => row.event_id as string);

describe('the event log is insert-only: the relay deletes from the outbox', () => {
  it('relays each event out of the outbox and never writes the event row again', async () => {
    const environment = await build.environment();
    await builders({ ...db, environmentId: environment.id }).webhookSubscription({ createdAt: new Date(Date.now() - 60_000) });
    const ids = await outboxEvents(3, environment.id);
    expect(await inOutbox(ids)).toEqual(ids);
    // xmin names the transaction that wrote a row version, ctid where it lies: an UPDATE changes both.
    const versions = () => db.sql('select id, xmin::text, ctid::text from event where id = any($1::uuid[]) order by id', [ids]);
    const written = await versions();

    await controlledDeliveries(db).deliveries.relay();
    expect(await db.sql('select count(*)::int as n from webhook_delivery where event_id = any($1::uuid[])', [ids])).toEqual([{ n: 3 }]);
    expect(await inOutbox(ids)).toEqual([]);
    expect(await versions()).toEqual(written);
  });

  it('two relays side by side take disjoint events, and a relay that fails puts its events back', async () => {
    const ids = await outboxEvents(5);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let taken!: () => void;
    const tookFirst = new Promise<void>((resolve) => (taken = resolve));
    // The first relay holds its two rows locked while the second takes what is left.
    const first = db.orm.em.fork().transactional(async (tx) => {
      const events = await takeUndispatched(tx, 2);
      taken();
      await held;
      return events.map((event) => event.id);
    });
    await tookFirst;
    const second = await db.orm.em.fork().transactional(async (tx) => (await takeUndispatched(tx, 10)).map((event) => event.id));
    release();
    const firstIds = await first;
    expect(firstIds).toHaveLength(2);
    expect([...firstIds, ...second].filter((id) => ids.includes(id)).sort()).toEqual(ids);

    const more = await outboxEvents(2);
    await expect(
      db.orm.em.fork().transactional(async (tx) => {
        expect((await takeUndispatched(tx, 10)).map((event) => event.id)).toEqual(more);
        throw new Error('the deliveries could not be written');
      }),
    ).rejects.toThrow('the deliveries could not be written');
    expect(await inOutbox(more)).toEqual(more);
  });
});
