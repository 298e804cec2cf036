import { beforeAll, describe, expect, it } from 'vitest';
import { encodeId } from '../../src/lib/ids.ts';
import { ConnectionService } from '../../src/modules/connection/connection.service.ts';
import { dueForSync } from '../../src/modules/connection/connection.store.ts';
import { ConnectionJobs, SYNC, SYNC_INTERVAL_HOURS } from '../../src/modules/sync/connection.jobs.ts';
import { budgetOf, BudgetUsedUp } from '../../src/modules/sync/request-budget.ts';
import { syncConnection, type SyncDependencies } from '../../src/modules/sync/sync-engine.ts';
import type { EndUserPresence } from '../../src/providers/provider.ts';
import { ProviderError } from '../../src/providers/provider-errors.ts';
import type { WindowSnapshot } from '../../src/providers/provider-records.ts';
import type { Builders } from '../support/builders.ts';
import { ModelInstitution } from '../support/model-institution.ts';
import { ModelWindowProvider, modelLogin } from '../support/model-providers.ts';
import { withServiceTier } from '../support/service-tier.ts';
import type { TestDatabase } from '../support/test-database.ts';

/*
 * The scheduler against a provider's daily request budget, on a clock that moves 15 minutes a tick:
 * each tick does what the sync-due cron does (the connections due, then their syncs), and the model
 * bank counts every read it serves and whether the end-user was present.
 */

const DAY = 86_400_000;
const TICK = 15 * 60_000;
const PRESENT: EndUserPresence = { ipAddress: '203.0.113.7', userAgent: 'Mozilla/5.0' };

let db: TestDatabase;
let build: Builders;
let profileId: string;
withServiceTier((tier) => ({ db, build } = tier));
beforeAll(async () => {
  profileId = (await build.profile()).id;
});

/** The model bank behind a budgeted upstream; every third read fails after it was made (an upstream error), as real reads may. */
class BudgetedBank extends ModelWindowProvider {
  readonly requestBudgetPerDay: number;
  readonly budgetsUnattendedOnly: boolean;
  readonly reads: Array<{ at: number; presence: EndUserPresence | undefined }> = [];
  readonly #clock: () => Date;
  #failEvery: number;

  constructor(budget: { perDay: number; unattendedOnly: boolean; failEvery?: number }, clock: () => Date) {
    super(new ModelInstitution('WINDOW', { accounts: 1, pageSize: 10, today: clock().toISOString().slice(0, 10) }));
    this.requestBudgetPerDay = budget.perDay;
    this.budgetsUnattendedOnly = budget.unattendedOnly;
    this.#failEvery = budget.failEvery ?? 0;
    this.#clock = clock;
  }

  override async readWindow(credential: string, start: string, presence?: EndUserPresence): Promise<WindowSnapshot> {
    this.reads.push({ at: this.#clock().getTime(), presence });
    if (this.#failEvery && this.reads.length % this.#failEvery === 0) throw new ProviderError('ERROR_PROVIDER', 'the upstream failed');
    return super.readWindow(credential, start);
  }
}

async function newConnection(): Promise<string> {
  const service = new ConnectionService(db.em(), db.cipher, { environmentId: db.environmentId });
  return (await service.create(await service.profileFor(encodeId('profile', profileId)), 'model', modelLogin())).id;
}

/** A connection to a budgeted bank, first synced at `start`, with the clock the test moves. */
async function budgeted(budget: { perDay: number; unattendedOnly: boolean; failEvery?: number }, start: string) {
  const clock = { now: new Date(start) };
  const bank = new BudgetedBank(budget, () => clock.now);
  const deps: SyncDependencies = { orm: db.orm, cipher: db.cipher, provider: async () => bank, now: () => clock.now };
  const connectionId = await newConnection();
  await syncConnection(deps, connectionId);
  return { clock, bank, deps, connectionId };
}

/** One cron tick at the clock's time: the connection's scheduled sync when it is due. */
async function tick({ clock, deps, connectionId }: Awaited<ReturnType<typeof budgeted>>): Promise<void> {
  if (!(await dueForSync(db.em(), SYNC_INTERVAL_HOURS, clock.now)).some((due) => due.id === connectionId)) return;
  await syncConnection(deps, connectionId).catch((error) => {
    if (!(error instanceof ProviderError) && !(error instanceof BudgetUsedUp)) throw error;
  });
}

describe('request budgets', () => {
  for (const budget of [
    { perDay: 24, unattendedOnly: false, failEvery: 3, name: 'SimpleFIN-like (24 a day per login), through upstream errors' },
    { perDay: 4, unattendedOnly: true, failEvery: 0, name: 'PSD2-like (4 unattended reads a day)' },
    { perDay: 4, unattendedOnly: true, failEvery: 2, name: 'PSD2-like, retrying an upstream that fails every other read' },
  ]) {
    it(`keeps scheduled reads within the budget and spread over the day: ${budget.name}`, async () => {
      const run = await budgeted(budget, '2026-12-01T09:10:00Z');
      for (let t = 0; t < (3 * DAY) / TICK; t++) {
        run.clock.now = new Date(run.clock.now.getTime() + TICK);
        await tick(run);
      }
      const { reserve, spacingMs } = budgetOf(run.bank)!;
      const perDay = Map.groupBy(run.bank.reads, (read) => new Date(read.at).toISOString().slice(0, 10));
      for (const [day, reads] of perDay) expect(reads.length, day).toBeLessThanOrEqual(budget.perDay - reserve);
      for (let i = 1; i < run.bank.reads.length; i++) expect(run.bank.reads[i]!.at - run.bank.reads[i - 1]!.at).toBeGreaterThanOrEqual(spacingMs);
      // Spread, not starved: the login is read through every whole day.
      for (const day of ['2026-12-02', '2026-12-03']) expect(perDay.get(day)?.length ?? 0, day).toBeGreaterThanOrEqual(3);
      expect(run.bank.reads.every((read) => read.presence === undefined)).toBe(true);
    });
  }

  it('lets the end-user read a PSD2-like login once its unattended reads are used, and passes them on', async () => {
    const run = await budgeted({ perDay: 4, unattendedOnly: true }, '2026-12-01T00:30:00Z');
    for (let i = 1; i < 4; i++) await syncConnection(run.deps, run.connectionId);
    await expect(syncConnection(run.deps, run.connectionId)).rejects.toBeInstanceOf(BudgetUsedUp);
    const [before] = await db.sql('select status from connection where id = $1', [run.connectionId]);
    expect(before.status).toBe('SYNCED');
    await syncConnection(run.deps, run.connectionId, { refresh: true, presence: PRESENT });
    expect(run.bank.reads).toHaveLength(5);
    expect(run.bank.reads.at(-1)!.presence).toEqual(PRESENT);
  });

  it('carries the end-user of a claimed refresh to the read that serves it, encrypted meanwhile and gone after', async () => {
    const run = await budgeted({ perDay: 4, unattendedOnly: true }, '2026-12-01T00:30:00Z');
    const connections = new ConnectionService(db.em(), db.cipher, { environmentId: db.environmentId });
    const connection = await connections.get(encodeId('connection', run.connectionId));
    await connections.claimTransactionsRefresh(connection, PRESENT, async () => {});
    const [claimed] = await db.sql('select refresh_presence_encrypted from connection where id = $1', [run.connectionId]);
    expect(claimed.refresh_presence_encrypted).toMatch(/^v2\./);
    expect(claimed.refresh_presence_encrypted).not.toContain('203.0.113.7');
    const job = new ConnectionJobs(run.deps).definitions().find((definition) => definition.name === SYNC)!;
    await job.handle({ connectionId: run.connectionId });
    expect(run.bank.reads.at(-1)!.presence).toEqual(PRESENT);
    const [after] = await db.sql('select refresh_presence_encrypted, refresh_started_at from connection where id = $1', [run.connectionId]);
    expect(after).toEqual({ refresh_presence_encrypted: null, refresh_started_at: null });
  });

  it('counts every read of a login whose upstream counts them all, the end-user present or not, up to the whole day for refreshes', async () => {
    const run = await budgeted({ perDay: 24, unattendedOnly: false }, '2026-12-01T00:30:00Z');
    const refresh = () => syncConnection(run.deps, run.connectionId, { refresh: true, presence: PRESENT });
    for (let i = 1; i < 24; i++) await refresh();
    await expect(refresh()).rejects.toBeInstanceOf(BudgetUsedUp);
    expect(run.bank.reads).toHaveLength(24);
    run.clock.now = new Date('2026-12-02T00:00:01Z');
    await refresh();
    expect(run.bank.reads).toHaveLength(25);
  });
});
