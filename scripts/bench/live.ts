import { setTimeout as sleep } from 'node:timers/promises';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { encodeId } from '../../src/lib/ids.ts';
import { recordEvent } from '../../src/modules/event/event.service.ts';
import { currentRssMb } from './load.ts';

export interface LiveResult {
  /** Idle subscribers (one socket, one subscription each) the process held within the memory target. */
  subscribers: number;
  /** Its resident memory with them, and before any. */
  rssMb: number;
  idleRssMb: number;
  rssTargetMb: number;
  /** Commit to delivery at that load, over `events` events committed one after another. */
  events: number;
  p50Ms: number;
  p99Ms: number;
}

export interface LiveBench {
  orm: MikroORM;
  /** A fresh Tributary instance (its memory counts only this run) and its pid. */
  url: string;
  pid: number;
  ca: string;
  environmentId: string;
  /** Stored profile ids and an API key of their environment: subscribers authenticate as Basic profile:key. */
  profiles: string[];
  apiKey: string;
  /** Subscribers are added in steps of this many until the next step would pass the target or `max`. */
  step: number;
  max: number;
  rssTargetMb: number;
  events: number;
}

const SUBSCRIPTION = 'subscription { connectionCreated { eventId at } }';
/** Sockets a profile may hold (LIVE_LIMITS.connectionsPerProfile). */
const PER_PROFILE = 50;

/**
 * How many idle graphql-ws subscribers one process holds within the memory target, and the time
 * from commit to delivery at that load. Subscribers are opened in steps, spread over the profiles
 * (at most 50 each); after each step the instance's resident memory is read, and opening stops at
 * the step that passes the target (that step is closed again) or at `max`. Then `events` events are
 * committed one at a time for profiles with subscribers, and each is timed from its commit to its
 * arrival at one of them.
 */
export async function measureLive(bench: LiveBench): Promise<LiveResult> {
  const clients: Client[] = [];
  const arrivals = new Map<string, (at: number) => void>();
  const open = (profileId: string) =>
    new Promise<Client>((resolve, reject) => {
      const client = createClient({
        url: `${bench.url.replace('https:', 'wss:')}/v1/graphql`,
        webSocketImpl: class extends WebSocket {
          constructor(address: string, protocols?: string | string[]) {
            super(address, protocols, { ca: bench.ca });
          }
        },
        connectionParams: { authorization: `Basic ${Buffer.from(`${encodeId('profile', profileId)}:${bench.apiKey}`).toString('base64')}` },
        lazy: false,
        retryAttempts: 0,
        onNonLazyError: reject,
      });
      client.subscribe<{ connectionCreated: { eventId: string } }>({ query: SUBSCRIPTION }, {
        next: (result) => arrivals.get(result.data?.connectionCreated.eventId ?? '')?.(performance.now()),
        error: reject,
        complete: () => {},
      });
      // Subscribed once a round trip after the subscription has come back (queries are refused over the socket).
      client.subscribe({ query: '{ __typename }' }, { next: () => resolve(client), error: () => resolve(client), complete: () => {} });
    });
  const rss = () => currentRssMb(bench.pid);
  try {
    const idleRssMb = await rss();
    let held = 0;
    let rssMb = idleRssMb;
    const capacity = Math.min(bench.max, bench.profiles.length * PER_PROFILE);
    while (held + bench.step <= capacity) {
      const opened = await openInBatches(bench.step, (i) => open(bench.profiles[(held + i) % bench.profiles.length]!));
      clients.push(...opened);
      const now = await rss();
      if (now > bench.rssTargetMb) {
        await Promise.all(opened.map(async (client) => await client.dispose()));
        clients.splice(clients.length - opened.length);
        break;
      }
      held += bench.step;
      rssMb = now;
    }
    const latencies: number[] = [];
    for (let i = 0; i < bench.events; i++) {
      const profileId = bench.profiles[i % Math.min(held, bench.profiles.length)]!;
      const em = bench.orm.em.fork();
      const event = recordEvent(em, bench.environmentId, 'connection.created', { id: profileId, uuid: profileId }, { id: `conn_bench${i}`, status: 'INITIALIZING' });
      const arrived = new Promise<number>((resolve) => arrivals.set(encodeId('event', event.id), resolve));
      await em.flush();
      const committed = performance.now();
      latencies.push((await withDeadline(arrived, 10_000)) - committed);
      arrivals.delete(encodeId('event', event.id));
    }
    latencies.sort((a, b) => a - b);
    const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]! * 10) / 10;
    return { subscribers: held, rssMb, idleRssMb, rssTargetMb: bench.rssTargetMb, events: bench.events, p50Ms: at(0.5), p99Ms: at(0.99) };
  } finally {
    await Promise.all(clients.map(async (client) => await client.dispose()));
  }
}

/** Subscribers opened at once: a TLS handshake and a credential lookup each. */
const BATCH = 80;

/**
 * Opens `count` subscribers, BATCH at a time, each batch a second after the one before has opened:
 * every socket's credential (its profile and key) is new to the process, and one client address may
 * have 100 such lookups a second (the credential-lookup budget); no second then holds two batches.
 */
async function openInBatches(count: number, open: (i: number) => Promise<Client>): Promise<Client[]> {
  const opened: Client[] = [];
  for (let start = 0; start < count; start += BATCH) {
    if (start > 0) await sleep(1000);
    opened.push(...(await Promise.all(Array.from({ length: Math.min(BATCH, count - start) }, (_, i) => open(start + i)))));
  }
  return opened;
}

function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no delivery within ${ms} ms`)), ms)));
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
