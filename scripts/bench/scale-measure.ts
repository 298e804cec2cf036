import type { MikroORM } from '@mikro-orm/postgresql';
import type pg from 'pg';
import type { PgBoss } from 'pg-boss';
import type { components } from '../../generated/rest.ts';
import type { FieldCipher } from '../../src/lib/field-cipher.ts';
import { encodeId } from '../../src/lib/ids.ts';
import { createLogger } from '../../src/logger.ts';
import { recordEvent, type EventProfile } from '../../src/modules/event/event.service.ts';
import { ConnectionJobs } from '../../src/modules/sync/connection.jobs.ts';
import { applyPage } from '../../src/modules/sync/sync-steps.ts';
import { WebhookRelay } from '../../src/modules/webhook/relay.ts';
import type { ProviderTransaction } from '../../src/providers/provider-records.ts';
import { fetchJson, type LoadRequest } from './load.ts';
import { EVENT_DAYS } from './scale-seed.ts';

/** Milliseconds of one path, over its samples (each timed alone: latency, no concurrency). */
export interface Timing {
  p50: number;
  p99: number;
  samples: number;
  /** Why the path could not be timed. */
  failed?: string;
}

export interface ScaleTarget {
  url: string;
  ca: string;
  orm: MikroORM;
  db: pg.ClientBase;
  cipher: FieldCipher;
  environmentId: string;
  apiKeys: string[];
  /** The profile with no events (a template, not copied into the log). */
  quietProfileId: string;
  /** Connections due for a scheduled sync (scale-seed.ts setDueConnections). */
  due: number;
}

/** Profiles the transaction pages are read as (each its own session), and one more whose connection a sync page is applied to. */
const SESSIONS = 8;
/** Events recorded before each relay pass: less than one pass takes, so the relay makes one pass. */
const RELAY_BACKLOG = 50;
/** A sync page: this many transactions reported again with a new amount, and as many new ones. */
const SYNC_PAGE_HALF = 250;
const HTTP = { count: 200, seconds: 5 };
const IN_PROCESS = { count: 40, seconds: 8 };

const TRANSACTIONS = `query Page($after: String) { transactions(first: 100, after: $after) {
  count edges { node { id date amount description account { id name } } } pageInfo { hasNextPage endCursor } } }`;
interface PageAnswer {
  data?: { transactions: { edges: unknown[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } };
  errors?: unknown;
}

const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)]!;
const forwarded = () => ({ 'X-Forwarded-For': `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.1` });

/** A hot path: how to run it once (it may return its own measure in ms), and how many samples to take. */
export interface HotPath {
  name: string;
  bounds: { count: number; seconds: number };
  run: () => Promise<unknown>;
}

/**
 * Every hot path of issue #34 on one database: through the HTTPS front door (GraphQL transaction
 * pages, GET /v1/events with each filter, GET /v1/profiles's last page, by cursor) and in this process (the
 * relay's pass, a sync page's apply, the due-sync sweep), as the service runs them. Every answer is
 * checked each time it is timed.
 */
export async function hotPaths(target: ScaleTarget): Promise<HotPath[]> {
  const { url, ca, db, environmentId, apiKeys } = target;
  const profiles = (await db.query<{ id: string; uuid: string }>(`select id, uuid from profile where environment_id = $1 and name like 'Scale User %' order by random() limit ${SESSIONS + 1}`, [environmentId])).rows;
  const syncProfile = profiles.pop()!;
  const ask = async <Body>(request: LoadRequest): Promise<Body> => {
    const { status, body, text } = await fetchJson<Body & { errors?: unknown }>(url, ca, { ...request, headers: { ...request.headers, ...forwarded() } });
    if (status !== 200 || body?.errors) throw new Error(`${request.method} ${request.path} answered ${status}: ${text.slice(0, 300)}`);
    return body;
  };
  const sessions: Array<{ token: string; deepest: string | null }> = [];
  for (const [index, profile] of profiles.entries()) {
    const issued = await fetchJson<components['schemas']['SessionIssued']>(url, ca, {
      method: 'POST',
      path: '/v1/users/sessions',
      headers: { Authorization: `Bearer ${apiKeys[index % apiKeys.length]}`, 'Content-Type': 'application/json', ...forwarded() },
      body: JSON.stringify({ userId: encodeId('profile', profile.id) }),
    });
    if (issued.status !== 201) throw new Error(`session for ${profile.id}: ${issued.status} ${issued.text}`);
    sessions.push({ token: issued.body.token, deepest: null });
  }
  const page = (token: string, after: string | null): LoadRequest => ({
    method: 'POST',
    path: '/v1/graphql',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ query: TRANSACTIONS, variables: { after } }),
  });
  // The deepest page of each profile: the cursor of the page before its last, found by walking its history once.
  for (const session of sessions) {
    let after: string | null = null;
    for (;;) {
      const answer: PageAnswer = await ask<PageAnswer>(page(session.token, after));
      const { pageInfo } = answer.data!.transactions;
      if (!pageInfo.hasNextPage) break;
      session.deepest = after = pageInfo.endCursor;
    }
  }
  const rest = (path: string): LoadRequest => ({ method: 'GET', path, headers: { Authorization: `Bearer ${pick(apiKeys)}` } });
  const events = (query: () => string) => () => ask(rest(`/v1/events?limit=100&${query()}`));
  const day = 86_400_000;
  const [middle] = (await db.query<{ id: string }>(`select id from event where environment_id = $1 and at >= now() - interval '${EVENT_DAYS / 2} days' order by id limit 1`, [environmentId])).rows;
  // The profiles list's last page as a client reaches it at scale (offset pages stop at 10,000 items): after the profile before it.
  const [beforeLast] = (
    await db.query<{ id: string }>(
      `select id from profile where environment_id = $1 and deleting_at is null order by id
        offset (select greatest((count(*) - 1) / 100 * 100 - 1, 0) from profile where environment_id = $1 and deleting_at is null) limit 1`,
      [environmentId],
    )
  ).rows;
  const active = profiles.map((profile) => encodeId('profile', profile.id));

  const path = (name: string, bounds: HotPath['bounds'], run: HotPath['run']): HotPath => ({ name, bounds, run });
  return [
    path('transactions.firstPage', HTTP, () => ask(page(pick(sessions).token, null))),
    path('transactions.deepestPage', HTTP, () => {
      const session = pick(sessions);
      return ask(page(session.token, session.deepest));
    }),
    path('events.none', HTTP, events(() => '')),
    path('events.profileId', HTTP, events(() => `profileId=${pick(active)}`)),
    path('events.profileId.quiet', HTTP, events(() => `profileId=${encodeId('profile', target.quietProfileId)}`)),
    path('events.type', HTTP, events(() => 'type=holdings.updated')),
    path('events.typePrefix', HTTP, events(() => 'type=connection.synced.errored')),
    path('events.since', HTTP, events(() => `since=${encodeURIComponent(new Date(Date.now() - day).toISOString())}`)),
    path('events.until', HTTP, events(() => `until=${encodeURIComponent(new Date(Date.now() - (EVENT_DAYS / 2) * day).toISOString())}`)),
    path('events.after', HTTP, events(() => `after=${encodeId('event', middle!.id)}`)),
    path('profiles.lastPage', HTTP, () => ask(rest(`/v1/profiles?limit=100&after=${encodeId('profile', beforeLast!.id)}`))),
    path('relay.pass', IN_PROCESS, await relayPass(target, { ...syncProfile, metadata: null })),
    path('sync.pageApply', { count: 20, seconds: 12 }, await syncPageApply(target, syncProfile.id)),
    path('syncDue', IN_PROCESS, syncDue(target)),
  ];
}

/** A relay with no subscriptions (its pass reads and writes the log only), and before each pass a backlog of RELAY_BACKLOG new events. */
async function relayPass({ orm }: ScaleTarget, profile: EventProfile): Promise<() => Promise<number>> {
  let failure: unknown;
  const relay = new WebhookRelay({ orm, enqueue: async () => {}, logger: createLogger('warn'), outage: { report: (error) => (failure = error) }, now: () => new Date() });
  const environmentId = (await orm.em.fork().getConnection().execute<Array<{ environment_id: string }>>('select environment_id from profile where id = ?', [profile.id]))[0]!.environment_id;
  return async () => {
    const em = orm.em.fork();
    for (let i = 0; i < RELAY_BACKLOG; i++) recordEvent(em, environmentId, 'balance.created', profile, { id: `bal_${i}` });
    await em.flush();
    const started = performance.now();
    await relay.relay();
    if (failure) throw failure as Error;
    return performance.now() - started;
  };
}

/**
 * One provider page applied to a profile's connection as the sync applies it (sync-steps.ts
 * applyPage: the walk's lock, the upsert, the walk's move): SYNC_PAGE_HALF of its transactions
 * reported again with a new amount and as many new ones, built from its stored rows.
 */
async function syncPageApply({ orm, db }: ScaleTarget, profileId: string): Promise<() => Promise<number>> {
  const [connection] = (await db.query<{ id: string; cursor: string | null }>('select id, coalesce(sync_page_cursor, sync_cursor) as cursor from connection where profile_id = $1 limit 1', [profileId])).rows;
  const { rows } = await db.query<{ remoteId: string; accountRemoteId: string; date: string; description: string; amount: string; status: 'PENDING' | 'POSTED'; remoteData: Record<string, Record<string, unknown>> }>(
    `select t.remote_id as "remoteId", a.remote_id as "accountRemoteId", t.date::text as date, t.description, t.amount::text as amount, t.status, t.remote_data as "remoteData"
       from transaction t join account a on a.id = t.account_id where t.profile_id = $1 and t.connection_id = $2 order by t.date desc limit ${SYNC_PAGE_HALF}`,
    [profileId, connection!.id],
  );
  const reported = (row: (typeof rows)[number], remoteId: string, amount: string): ProviderTransaction => ({
    remoteId,
    accountRemoteId: row.accountRemoteId,
    pendingRemoteId: null,
    date: row.date,
    description: row.description,
    amount,
    status: row.status,
    raw: row.remoteData.sandbox ?? {},
    enrichment: row.remoteData.enrichment ?? null,
  });
  let cursor = connection!.cursor;
  let round = 0;
  return async () => {
    round++;
    const next = `scale-bench-${Date.now()}-${round}`;
    const modified = rows.map((row) => reported(row, row.remoteId, (Number(row.amount) + round / 100).toFixed(2)));
    const added = rows.map((row) => reported(row, `${row.remoteId}-scale-${next}`, row.amount));
    const started = performance.now();
    const applied = await applyPage(orm.em.fork(), { id: connection!.id, profileId }, cursor, next, { added, modified, removed: [], hasMore: true });
    const elapsed = performance.now() - started;
    if (!applied) throw new Error('the sync page was not applied: the walk moved on');
    cursor = next;
    return elapsed;
  };
}

/** The cron job's sweep, with a queue that counts what it is given (the number due is the same at every size). */
function syncDue({ orm, cipher, due }: ScaleTarget): () => Promise<void> {
  let queued = 0;
  const jobs = new ConnectionJobs({ orm, cipher, provider: () => Promise.reject(new Error('the sweep reads no provider')) });
  jobs.attach({ insert: async (_name: string, items: unknown[]) => void (queued = items.length) } as unknown as PgBoss);
  return async () => {
    await jobs.syncDue();
    if (queued !== due) throw new Error(`the sweep queued ${queued} connections, not the ${due} due`);
  };
}

/** Slices each path's samples are taken in, size after size: a change of the machine's load then shifts every size alike. */
const ROUNDS = 4;

/**
 * p50 and p99 of each hot path at each size (`paths[size]`: the same paths on each size's database),
 * measured in turns: after one unrecorded warm-up of each, ROUNDS slices of each size, one after
 * another, each taking up to 1/ROUNDS of the path's `count` and `seconds` (at least one sample,
 * until a size has spent twice the path's `seconds`). Calls are made one at a time. A path that fails
 * at a size (a statement timeout, say) is reported as failed there, with the time it took.
 */
export async function interleaved(paths: HotPath[][]): Promise<Array<Record<string, Timing>>> {
  const timings = paths.map((): Record<string, Timing> => ({}));
  for (const [index, { name, bounds }] of paths[0]!.entries()) {
    const states = paths.map((sized) => ({ path: sized[index]!, times: [] as number[], spent: 0, failed: undefined as string | undefined }));
    const call = async (state: (typeof states)[number], record: boolean) => {
      const started = performance.now();
      try {
        const measured = await state.path.run();
        if (record) state.times.push(typeof measured === 'number' ? measured : performance.now() - started);
      } catch (error) {
        state.failed = `${(error as Error).message.slice(0, 160)} (after ${((performance.now() - started) / 1000).toFixed(1)} s)`;
      }
      state.spent += (performance.now() - started) / 1000;
    };
    for (const state of states) await call(state, false);
    for (let round = 0; round < ROUNDS; round++) {
      for (const state of states) {
        const sliceStart = performance.now();
        let taken = 0;
        while (!state.failed && taken < Math.ceil(bounds.count / ROUNDS) && (taken === 0 ? state.spent < 2 * bounds.seconds || state.times.length === 0 : performance.now() - sliceStart < (bounds.seconds * 1000) / ROUNDS)) {
          await call(state, true);
          taken++;
        }
      }
    }
    states.forEach((state, size) => {
      const times = state.times.sort((a, b) => a - b);
      const at = (share: number) => Number(times[Math.min(times.length - 1, Math.ceil(share * times.length) - 1)]!.toFixed(2));
      timings[size]![name] = state.failed || times.length === 0 ? { p50: Number.NaN, p99: Number.NaN, samples: times.length, failed: state.failed ?? 'no sample' } : { p50: at(0.5), p99: at(0.99), samples: times.length };
    });
    console.log(name, timings.map((sized) => JSON.stringify(sized[name])).join('  '));
  }
  return timings;
}
