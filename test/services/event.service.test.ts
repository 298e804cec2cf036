import { describe, expect, it } from 'vitest';
import { encodeId } from '../../src/lib/ids.ts';
import { presentEvent } from '../../src/modules/event/event.presenter.ts';
import { recordEvent } from '../../src/modules/event/event.service.ts';
import type { Builders } from '../support/builders.ts';
import { withServiceTier } from '../support/service-tier.ts';
import type { TestDatabase } from '../support/test-database.ts';

let db: TestDatabase;
let build: Builders;

withServiceTier((tier) => ({ db, build } = tier));

describe('recording an event (the outbox)', () => {
  it('writes the public envelope: public ids, the profile\'s uuid and metadata, an empty metadata object, in the outbox', async () => {
    const profile = await build.profile({ metadata: { plan: 'gold' } });
    const em = db.em();
    const event = recordEvent(em, db.environmentId, 'balance.created', profile, { id: 'bal_x', current: -2134.34 });
    await em.flush();
    const [row] = await db.sql('select * from event where id = $1', [event.id]);
    expect(row).toMatchObject({ environment_id: db.environmentId, profile_id: profile.id, type: 'balance.created' });
    expect(await db.sql('select event_id from event_outbox where event_id = $1', [event.id])).toEqual([{ event_id: event.id }]);
    expect(presentEvent(event)).toEqual({
      id: encodeId('event', event.id),
      at: event.at.toISOString(),
      type: 'balance.created',
      profile: { id: encodeId('profile', profile.id), uuid: profile.uuid, metadata: { plan: 'gold' } },
      record: { id: 'bal_x', current: -2134.34 },
      metadata: {},
    });
  });

  it('records an event of no profile with a null profile', async () => {
    const em = db.em();
    const event = recordEvent(em, db.environmentId, 'connection.consent_expiring', null, { id: 'conn_x' });
    await em.flush();
    expect(await db.sql('select profile_id, payload->\'profile\' as profile from event where id = $1', [event.id])).toEqual([{ profile_id: null, profile: null }]);
  });

  it('commits with the change that caused it, or not at all', async () => {
    const profile = await build.profile();
    await expect(
      db.em().transactional(async (tx) => {
        recordEvent(tx, db.environmentId, 'profile.ready', profile, { id: encodeId('profile', profile.id) });
        await tx.flush();
        throw new Error('the change failed after the event was written');
      }),
    ).rejects.toThrow();
    expect(await db.sql('select 1 from event where profile_id = $1', [profile.id])).toEqual([]);
  });

  it('orders events by recording: ids made later sort later', async () => {
    const em = db.em();
    const events = Array.from({ length: 20 }, (_, i) => recordEvent(em, db.environmentId, 'profile.created', null, { i }));
    await em.flush();
    const rows = await db.sql('select payload->\'record\'->>\'i\' as i from event where id = any($1::uuid[]) order by id', [events.map((event) => event.id)]);
    expect(rows.map((row) => Number(row.i))).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });
});
