import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionService } from '../../src/modules/connection/connection.service.ts';
import { syncConnection, type SyncDependencies } from '../../src/modules/sync/sync-engine.ts';
import { enableBankingFactory } from '../../src/providers/enablebanking/enablebanking-factory.ts';
import type { EnableBankingProvider } from '../../src/providers/enablebanking/enablebanking-provider.ts';
import { startFakeEnableBanking, type FakeEnableBanking } from '../fakes/enablebanking/index.ts';
import type { Builders } from '../support/builders.ts';
import { withServiceTier } from '../support/service-tier.ts';
import type { TestDatabase } from '../support/test-database.ts';

/*
 * Enable Banking through the sync engine, on a real database: a connection linked through the
 * fake's sign-in page syncs its EUR and SEK accounts, and a pending payment that books under a new
 * reference and text keeps its Tributary transaction. The fake follows the real clock, as the
 * engine's windows do.
 */

const REDIRECT = 'https://tributary.test/v1/connect/callback';
let fake: FakeEnableBanking;
let provider: EnableBankingProvider;
let db: TestDatabase;
let build: Builders;
let deps: SyncDependencies;

withServiceTier((tier) => {
  ({ db, build } = tier);
  deps = { orm: db.orm, cipher: db.cipher, provider: async () => provider };
});
beforeAll(async () => {
  fake = await startFakeEnableBanking();
  const caFile = join(tmpdir(), `fake-enablebanking-sync-${process.pid}.pem`);
  writeFileSync(caFile, fake.ca);
  const application = fake.registerApplication([REDIRECT]);
  const factory = enableBankingFactory({ caFile });
  const parsed = factory.parseSettings({ applicationId: application.applicationId, privateKey: application.privateKeyPem, baseUrl: fake.url }, 'SANDBOX');
  if ('problem' in parsed) throw new Error(parsed.problem);
  provider = (await factory.create(parsed.settings)) as EnableBankingProvider;
});
afterAll(async () => {
  await fake?.stop();
});

async function linkedConnection(bankName: string, country: string): Promise<string> {
  const [institution] = await provider.searchInstitutions({ country, name: bankName });
  const session = await provider.startLink({ profileId: 'prf', products: [], webhookUrl: null, institutionId: institution!.id, redirectUrl: REDIRECT, state: 's' });
  const back = await fake.atBank((session as { url: string }).url, 'approve');
  const linked = await provider.completeLink({ authorizationCode: back.searchParams.get('code')!, products: undefined, webhookUrl: null });
  const service = new ConnectionService(db.em(), db.cipher, { environmentId: db.environmentId });
  return (await service.create(await build.profile(), provider.name, linked)).id;
}

async function stored(connectionId: string) {
  return db.sql<{ id: string; remote_id: string; amount: string; status: string; currency_code: string }>(
    `select t.id, t.remote_id, t.amount::text, t.status, a.currency_code from transaction t join account a on a.id = t.account_id where t.connection_id = $1 order by t.amount`,
    [connectionId],
  );
}

describe('Enable Banking through the sync engine', () => {
  it('stores the accounts and transactions of two currencies, exact', async () => {
    const connectionId = await linkedConnection('Fake Bank Sverige', 'SE');
    await syncConnection(deps, connectionId, { refresh: true });
    const rows = await stored(connectionId);
    expect(rows.map((row) => [row.amount, row.currency_code])).toEqual([
      ['-1043.7500', 'SEK'],
      ['-349.0000', 'SEK'],
      ['28500.0000', 'SEK'],
    ]);
    const [connection] = await db.sql('select status from connection where id = $1', [connectionId]);
    expect(connection.status).toBe('SYNCED');
  });

  it('a pending payment that books under a new reference and text keeps its transaction', async () => {
    const bank = fake.addBank('Sync Test Bank', 'DE', [{ key: 'current', currency: 'EUR', opening: '500.00' }], { bookedReference: 'new' });
    const entry = fake.addEntry(bank, 'current', { amount: '27.35', counterpart: 'Rewe', remittance: ['KARTE 4411 VORMERKUNG'], status: 'PDNG' });
    fake.addEntry(bank, 'current', { amount: '100.00', direction: 'CRDT', counterpart: 'Friend', remittance: ['Thanks'] });
    const connectionId = await linkedConnection('Sync Test Bank', 'DE');
    await syncConnection(deps, connectionId, { refresh: true });
    const before = await stored(connectionId);
    expect(before.map((row) => [row.amount, row.status])).toEqual([
      ['-27.3500', 'PENDING'],
      ['100.0000', 'POSTED'],
    ]);

    fake.book(bank, entry, { remittance_information: ['REWE Markt Berlin'] });
    await syncConnection(deps, connectionId, { refresh: true });
    const after = await stored(connectionId);
    expect(after.map((row) => [row.amount, row.status])).toEqual([
      ['-27.3500', 'POSTED'],
      ['100.0000', 'POSTED'],
    ]);
    expect(after[0]!.id).toBe(before[0]!.id);
    expect(after[0]!.remote_id).not.toBe(before[0]!.remote_id);
  });
});
