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

/**
 * Times every hot path of issue #34 once at the database's current size: through the HTTPS front
 * door (GraphQL transaction pages, GET /v1/events with each filter, GET /v1/profiles's last page)
 * and in this process (the relay's pass, a sync page's apply, the due-sync sweep), as the service
 * runs them. Every answer is checked before it is timed.
 */
export async function measureScale(target: ScaleTarget): Promise<Record<string, Timing>> {
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
  const profileCount = Number((await db.query<{ n: string }>('select count(*) as n from profile where environment_id = $1', [environmentId])).rows[0]!.n);
  const active = profiles.map((profile) => encodeId('profile', profile.id));

  const timings: Record<string, Timing> = {};
  const time = async (name: string, bounds: { count: number; seconds: number }, run: () => Promise<unknown>) => {
    timings[name] = await sample(run, bounds);
    console.log(name, JSON.stringify(timings[name]));
  };
  await time('transactions.firstPage', HTTP, () => {
    const session = pick(sessions);
    return ask(page(session.token, null));
  });
  await time('transactions.deepestPage', HTTP, () => {
    const session = pick(sessions);
    return ask(page(session.token, session.deepest));
  });
  await time('events.none', HTTP, events(() => ''));
  await time('events.profileId', HTTP, events(() => `profileId=${pick(active)}`));
  await time('events.profileId.quiet', HTTP, events(() => `profileId=${encodeId('profile', target.quietProfileId)}`));
  await time('events.type', HTTP, events(() => 'type=holdings.updated'));
  await time('events.typePrefix', HTTP, events(() => 'type=connection.synced.errored'));
  await time('events.since', HTTP, events(() => `since=${encodeURIComponent(new Date(Date.now() - day).toISOString())}`));
  await time('events.until', HTTP, events(() => `until=${encodeURIComponent(new Date(Date.now() - (EVENT_DAYS / 2) * day).toISOString())}`));
  await time('events.after', HTTP, events(() => `after=${encodeId('event', middle!.id)}`));
  await time('profiles.lastPage', HTTP, () => ask(rest(`/v1/profiles?limit=100&page=${Math.ceil(profileCount / 100)}`)));

  await time('relay.pass', IN_PROCESS, await relayPass(target, { ...syncProfile, metadata: null }));
  await time('sync.pageApply', { count: 20, seconds: 10 }, await syncPageApply(target, syncProfile.id));
  await time('syncDue', IN_PROCESS, syncDue(target));
  return timings;
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
    const applied = await applyPage(orm.em.fork(), connection!.id, cursor, next, { added, modified, removed: [], hasMore: true });
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

/**
 * p50 and p99 of `run` (after one unrecorded warm-up), called one at a time until `count` samples or
 * `seconds` have passed, with at least 3 samples. `run` may return its own measure (ms) of the part
 * to time; otherwise the whole call is timed.
 */
async function sample(run: () => Promise<unknown>, { count, seconds }: { count: number; seconds: number }): Promise<Timing> {
  await run();
  const times: number[] = [];
  const start = performance.now();
  while (times.length < count && (times.length < 3 || performance.now() - start < seconds * 1000)) {
    const started = performance.now();
    const measured = await run();
    times.push(typeof measured === 'number' ? measured : performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (share: number) => Number(times[Math.min(times.length - 1, Math.ceil(share * times.length) - 1)]!.toFixed(2));
  return { p50: at(0.5), p99: at(0.99), samples: times.length };
}
