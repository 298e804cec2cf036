import { describe, expect, it } from 'vitest';
import { sweepConsents } from '../../src/modules/connection/consent-sweeper.ts';
import type { Builders } from '../support/builders.ts';
import { withServiceTier } from '../support/service-tier.ts';
import type { TestDatabase } from '../support/test-database.ts';

const DAY = 86_400_000;
const RULES = { warningDays: 7 };

let db: TestDatabase;
let build: Builders;
withServiceTier((tier) => ({ db, build } = tier));

/** A connection of a profile of its own, whose consent ends `endsIn` after `now`. */
async function withConsent(now: Date, endsIn: number, columns: Parameters<Builders['connection']>[0] = {}) {
  const profile = await build.profile();
  return build.connection({ profile, consentExpiresAt: new Date(now.getTime() + endsIn), ...columns });
}

async function state(connectionId: string) {
  const [row] = await db.sql('select status, error_code, profile_id from connection where id = $1', [connectionId]);
  const events = await db.sql('select type from event where profile_id = $1 order by id', [row.profile_id]);
  return { status: row.status, errorCode: row.error_code, events: events.map((event) => event.type as string) };
}

describe('the consent sweep', () => {
  it('warns once per consent end within the warning period, and again for a new end', async () => {
    const now = new Date('2026-12-01T12:00:00Z');
    const soon = await withConsent(now, 3 * DAY);
    const later = await withConsent(now, 30 * DAY);
    const sweep = () => sweepConsents({ orm: db.orm, ...RULES }, now);
    expect(await sweep()).toContain(soon.id);
    await sweep();
    expect(await state(soon.id)).toEqual({ status: 'SYNCED', errorCode: null, events: ['connection.consent_expiring'] });
    expect((await state(later.id)).events).toEqual([]);

    // The provider moved the end (a renewal that still ends soon): a new consent, a new warning.
    await db.sql('update connection set consent_expires_at = $2 where id = $1', [soon.id, new Date(now.getTime() + 5 * DAY)]);
    await sweep();
    expect((await state(soon.id)).events).toEqual(['connection.consent_expiring', 'connection.consent_expiring']);
  });

  it('turns an ended consent ERROR_REPAIRABLE with CONSENT_EXPIRED once, and leaves disconnected connections alone', async () => {
    const now = new Date('2026-12-01T12:00:00Z');
    const ended = await withConsent(now, -60_000);
    const repairable = await withConsent(now, -DAY, { status: 'ERROR_REPAIRABLE' });
    const gone = await withConsent(now, -DAY, { status: 'DISCONNECTED' });
    const sweep = () => sweepConsents({ orm: db.orm, ...RULES }, now);
    await sweep();
    await sweep();
    expect(await state(ended.id)).toEqual({ status: 'ERROR_REPAIRABLE', errorCode: 'CONSENT_EXPIRED', events: ['connection.synced.errored.ERROR_REPAIRABLE'] });
    // Already waiting for the end-user: now it says why, and no state was entered, so no event.
    expect(await state(repairable.id)).toEqual({ status: 'ERROR_REPAIRABLE', errorCode: 'CONSENT_EXPIRED', events: [] });
    expect(await state(gone.id)).toEqual({ status: 'DISCONNECTED', errorCode: null, events: [] });
    expect(await sweep()).not.toContain(ended.id);
  });
});
