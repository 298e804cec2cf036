import { describe, expect, it } from 'vitest';
import { keepRecentStatements, queryStats, statementsSince } from '../../src/db/query-stats.ts';
import { createLogger } from '../../src/logger.ts';
import { Metrics } from '../../src/metrics/metrics.ts';
import { ConnectionService } from '../../src/modules/connection/connection.service.ts';
import { BATCH_ROWS, syncConnection, type SyncDependencies } from '../../src/modules/sync/sync-engine.ts';
import { applyInvestments, WHOLE_HISTORY } from '../../src/modules/sync/product-steps.ts';
import { connectionById } from '../../src/modules/connection/connection.store.ts';
import type { Provider } from '../../src/providers/provider.ts';
import type { SyncPage } from '../../src/providers/provider-records.ts';
import { SandboxProvider } from '../../src/providers/sandbox/sandbox-provider.ts';
import type { Builders } from '../support/builders.ts';
import { withServiceTier } from '../support/service-tier.ts';
import type { TestDatabase } from '../support/test-database.ts';

// The statements this file counts are those the service sends in this process.
keepRecentStatements();

const DAY = 86_400_000;
let now = new Date('2026-03-01T12:00:00Z');
let db: TestDatabase;
let build: Builders;
let deps: SyncDependencies;
const sandbox = new SandboxProvider({ now: () => now, pageSize: 150 });
/**
 * The same institution in one page: what it shows is the same whatever the page size, and the
 * sandbox works out the whole history again for every page (a view in pages of 150 took half as long as a sync).
 */
const viewer = new SandboxProvider({ now: () => now, pageSize: Number.MAX_SAFE_INTEGER });

/** A sandbox whose page requests go through `syncTransactions` instead. */
function withPages(provider: SandboxProvider, syncTransactions: SandboxProvider['syncTransactions']): Provider {
  return new Proxy(provider, {
    get(target, property) {
      if (property === 'syncTransactions') return syncTransactions;
      const value = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** The sandbox, except that one sync page request in `failAt` throws, as a crashed worker would. */
function crashingOnce(failAt: number): Provider {
  let calls = 0;
  return withPages(sandbox, async (token, cursor) => {
    if (++calls === failAt) throw new Error('worker killed');
    return sandbox.syncTransactions(token, cursor);
  });
}

withServiceTier((tier) => {
  ({ db, build } = tier);
  deps = { orm: db.orm, cipher: db.cipher, provider: async () => sandbox };
});

/** A connection made through the service but never enqueued, so this test drives its syncs. */
async function newConnection(institutionId = 'ins_tattersall_fcu'): Promise<string> {
  const service = new ConnectionService(db.em(), db.cipher, { environmentId: db.environmentId });
  const linked = await sandbox.completeLink({ institutionId, username: 'user_good', password: 'pass_good', products: undefined, webhookUrl: '' });
  const connection = await service.create(await build.profile(), sandbox.name, linked);
  return connection.id;
}

/** Everything the institution shows right now, in one page straight from the provider. */
async function institutionPage(connectionId: string): Promise<SyncPage> {
  const [row] = await db.sql('select credential_encrypted from connection where id = $1', [connectionId]);
  return viewer.syncTransactions(deps.cipher.decrypt('credential', { id: connectionId }, row.credential_encrypted), null);
}

/** What the institution shows right now, straight from the provider: remoteId → amount and status. */
async function institutionView(connectionId: string): Promise<Map<string, string>> {
  const page = await institutionPage(connectionId);
  expect(page.hasMore).toBe(false);
  return new Map(page.added.map((transaction) => [transaction.remoteId, `${Number(transaction.amount)} ${transaction.status}`]));
}

/** `count` distinct posted transactions: the institution's own, and copies of them under new remote ids. */
async function distinctTransactions(connectionId: string, count: number) {
  const all = (await institutionPage(connectionId)).added;
  return Array.from({ length: count }, (_, index) => ({ ...all[index % all.length]!, remoteId: `${all[index % all.length]!.remoteId}-${Math.floor(index / all.length)}`, pendingRemoteId: null }));
}

async function stored(connectionId: string): Promise<Map<string, string>> {
  const rows = await db.sql('select remote_id, amount, status from transaction where connection_id = $1', [connectionId]);
  return new Map(rows.map((row) => [row.remote_id, `${Number(row.amount)} ${row.status}`]));
}

async function syncedEvents(connectionId: string) {
  return db.sql(`select e.payload from event e join connection c on c.profile_id = e.profile_id where c.id = $1 and e.type = 'connection.synced.successful'`, [connectionId]);
}

describe('the sync engine', () => {
  it('loses and duplicates nothing when a worker dies mid-sync and the job is retried', async () => {
    const connectionId = await newConnection();
    await expect(syncConnection({ ...deps, provider: async () => crashingOnce(4) }, connectionId)).rejects.toThrow('worker killed');
    const partial = await stored(connectionId);
    expect(partial.size).toBeGreaterThan(0);
    expect((await db.sql('select status from connection where id = $1', [connectionId]))[0].status).toBe('ERROR_SERVICE');
    expect(await syncedEvents(connectionId)).toHaveLength(0);

    await syncConnection(deps, connectionId);
    expect(await stored(connectionId)).toEqual(await institutionView(connectionId));
    expect(await syncedEvents(connectionId)).toHaveLength(1);
    expect((await db.sql('select status from connection where id = $1', [connectionId]))[0].status).toBe('SYNCED');
    // Running it again changes nothing and reports nothing.
    await syncConnection(deps, connectionId);
    expect(await syncedEvents(connectionId)).toHaveLength(1);
  });

  it('never drops a transaction of an account the connection does not have silently: it is logged and counted', async () => {
    const connectionId = await newConnection();
    let stray: string | undefined;
    // The upstream names an account it never reported (nor reports with the page) for one transaction.
    const straying = withPages(sandbox, async (token, cursor) => {
      const page = await sandbox.syncTransactions(token, cursor);
      const [first] = page.added;
      if (stray === undefined && first) [stray, first.accountRemoteId] = [first.remoteId, 'acct-never-reported'];
      return page;
    });
    const metrics = new Metrics();
    const logs: string[] = [];
    const logger = createLogger('warn', { write: (line: string) => void logs.push(line) });
    await syncConnection({ ...deps, metrics, logger, provider: async () => straying }, connectionId);

    const view = await institutionView(connectionId);
    view.delete(stray!);
    expect(await stored(connectionId)).toEqual(view);
    expect(await metrics.scrape()).toContain('tributary_sync_transactions_dropped_total{provider="sandbox"} 1');
    expect(logs.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ msg: 'sync dropped transactions of accounts the connection does not have', connectionId, provider: 'sandbox', dropped: 1, accountRemoteIds: ['acct-never-reported'] }),
    ]);
  });

  it('applies each page once when two workers sync the same connection at the same time', async () => {
    const connectionId = await newConnection();
    await Promise.all([syncConnection(deps, connectionId), syncConnection(deps, connectionId)]);
    expect(await stored(connectionId)).toEqual(await institutionView(connectionId));
  });

  it('follows the institution over weeks: new activity, posted pendings, corrections and removals', async () => {
    const connectionId = await newConnection();
    await syncConnection(deps, connectionId);
    const start = now;
    try {
      for (let day = 1; day <= 21; day++) {
        now = new Date(start.getTime() + day * DAY);
        await syncConnection(deps, connectionId);
        expect(await stored(connectionId)).toEqual(await institutionView(connectionId));
      }
      const [changes] = await db.sql(
        `select count(*) filter (where remote_data->'sandbox'->>'corrected' = 'true')::int as corrected from transaction where connection_id = $1`,
        [connectionId],
      );
      expect(changes.corrected).toBeGreaterThan(0);
    } finally {
      now = start;
    }
  });

  it('rolls a first walk\'s batch back when a page\'s rows fail to be made while a COPY runs, frees its connection, and the retry stores everything', async () => {
    const connectionId = await newConnection();
    const paged = new SandboxProvider({ now: () => now, pageSize: 400 });
    let [broken, fetched] = [false, 0];
    // One transaction of the second page (made while the first is copied in) that enrichment cannot read.
    const breaking = withPages(paged, async (token, cursor) => {
      const page = await paged.syncTransactions(token, cursor);
      const late = page.added[250];
      if (!broken && late && ++fetched === 2) [broken, late.description] = [true, undefined as unknown as string];
      return page;
    });
    await expect(syncConnection({ ...deps, provider: async () => breaking }, connectionId)).rejects.toThrow(TypeError);
    expect(broken).toBe(true);
    expect((await db.sql('select status from connection where id = $1', [connectionId]))[0].status).toBe('ERROR_SERVICE');
    await syncConnection(deps, connectionId);
    expect(await stored(connectionId)).toEqual(await institutionView(connectionId));
  });

  it('copies a first walk\'s rows past its first batch knowing what its earlier batches stored: rows they wrote and the upstream reports again are updated, not copied over', async () => {
    const connectionId = await newConnection();
    // A first page of more than a batch (its own transactions and copies of them under new ids),
    // then a page that reports three of them again, changed, with the rest of the history.
    const first = await distinctTransactions(connectionId, BATCH_ROWS + 100);
    const again = first.slice(0, 3).map((transaction) => ({ ...transaction, amount: '-1.2300' }));
    const pages = new Map<string | null, SyncPage>([
      [null, { added: first, modified: [], removed: [], nextCursor: 'second', hasMore: true }],
      ['second', { added: [again[0]!], modified: again.slice(1), removed: [], nextCursor: 'end', hasMore: false }],
    ]);
    await syncConnection({ ...deps, provider: async () => withPages(sandbox, async (_token, cursor) => pages.get(cursor)!) }, connectionId);
    const amounts = new Map((await db.sql('select remote_id, amount from transaction where connection_id = $1', [connectionId])).map((stored) => [stored.remote_id, Number(stored.amount)]));
    expect(amounts.size).toBe(first.length);
    for (const { remoteId } of again) expect(amounts.get(remoteId)).toBe(-1.23);
  });

  it('reads the next batch\'s pages while a batch is applied; when one of them fails, the pages before it are applied and a retry goes on from it', async () => {
    const connectionId = await newConnection();
    // A full batch of two pages (each 0.6 of a batch), two pages of half a batch (the next batch), and a last page of 100.
    const [large, half] = [BATCH_ROWS * 0.6, BATCH_ROWS / 2];
    const rows = await distinctTransactions(connectionId, 2 * large + 2 * half + 100);
    const ends = [large, 2 * large, 2 * large + half, 2 * large + 2 * half, rows.length];
    const sizes: Array<[string | null, number, number, string]> = [[null, 0, ends[0]!, 'second'], ['second', ends[0]!, ends[1]!, 'third'], ['third', ends[1]!, ends[2]!, 'fourth'], ['fourth', ends[2]!, ends[3]!, 'fifth'], ['fifth', ends[3]!, ends[4]!, 'end']];
    const pages = new Map(sizes.map(([cursor, from, to, next]): [string | null, SyncPage] => [cursor, { added: rows.slice(from, to), modified: [], removed: [], nextCursor: next, hasMore: next !== 'end' }]));
    const log: string[] = [];
    class Recording extends Metrics {
      override pageApplied(provider: string, changes: { added: number; modified: number; removed: number }): void {
        log.push(`applied ${changes.added}`);
        super.pageApplied(provider, changes);
      }
    }
    const upstream = (failing: boolean) =>
      withPages(sandbox, async (_token, cursor) => {
        log.push(`asked ${cursor}`);
        if (failing && cursor === 'fourth') throw new Error('upstream unavailable');
        return pages.get(cursor)!;
      });
    const count = async () => (await db.sql('select count(*)::int as n from transaction where connection_id = $1', [connectionId]))[0].n;
    await expect(syncConnection({ ...deps, metrics: new Recording(), provider: async () => upstream(true) }, connectionId)).rejects.toThrow('upstream unavailable');
    // The third and fourth pages were asked for before the first batch was committed (the fourth failed);
    // the third page, taken before the failure, was applied, as it would have been without reading ahead.
    expect(log).toEqual(['asked null', 'asked second', 'asked third', 'asked fourth', `applied ${large}`, `applied ${large}`, `applied ${half}`]);
    expect(await count()).toBe(ends[2]);
    log.length = 0;
    await syncConnection({ ...deps, metrics: new Recording(), provider: async () => upstream(false) }, connectionId);
    expect(log).toEqual(['asked fourth', 'asked fifth', `applied ${half}`, 'applied 100']);
    expect(await count()).toBe(rows.length);
  });

  it('sends every statement of a sync through the statement counter, and writes a page of any size with one statement (an insert, or a COPY in a first walk)', async () => {
    for (const pageSize of [40, 400]) {
      const connectionId = await newConnection();
      const paged = new SandboxProvider({ now: () => now, pageSize });
      let pagesWithRows = 0;
      const counting = withPages(paged, async (token, cursor) => {
        const page = await paged.syncTransactions(token, cursor);
        if (page.added.length + page.modified.length > 0) pagesWithRows++;
        return page;
      });
      const before = queryStats.statements;
      await syncConnection({ ...deps, provider: async () => counting }, connectionId);
      const inserts = statementsSince(before).filter((sql) => /^(insert into|copy) transaction\b/.test(sql.trimStart()));
      expect(pagesWithRows).toBeGreaterThan(1);
      expect(inserts).toHaveLength(pagesWithRows);
    }
  });

  it("copies a connection's first investment activity in, and the upsert of the same report finds every row as it would have stored it", async () => {
    const connectionId = await newConnection('ins_quokka_invest');
    const writes = (since: number) => statementsSince(since).map((sql) => /^(insert into|copy) investment_transaction\b/.exec(sql.trimStart())?.[1]).filter((kind) => kind !== undefined);
    const stored = () => db.sql(`select * from investment_transaction where connection_id = $1 order by id`, [connectionId]);
    let before = queryStats.statements;
    await syncConnection(deps, connectionId);
    expect(writes(before)).toEqual(['copy']);
    const copied = await stored();
    expect(copied.length).toBeGreaterThan(100);
    // The whole history reported again (a later sync reads only its last weeks): the upsert rewrites a
    // row only when its content differs from what it would store, and none does.
    const em = db.em();
    const connection = (await connectionById(em, connectionId))!;
    const snapshot = await sandbox.investments(db.cipher.decrypt('credential', connection, connection.credentialEncrypted), WHOLE_HISTORY);
    before = queryStats.statements;
    await applyInvestments(em, connection, sandbox.name, snapshot);
    expect(writes(before)).toEqual(['insert into']);
    expect(await stored()).toEqual(copied);
  });
});
