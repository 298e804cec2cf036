import { readFileSync } from 'node:fs';
import { createServer, request } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { MikroORM } from '@mikro-orm/postgresql';
import type pg from 'pg';
import { Webhook } from 'standardwebhooks';
import type { components } from '../../generated/rest.ts';
import { encodeId } from '../../src/lib/ids.ts';
import { EnvironmentAdmin } from '../../src/modules/environment/environment.service.ts';
import type { EventEntity } from '../../src/modules/event/event.entity.ts';
import { presentEvent } from '../../src/modules/event/event.presenter.ts';
import { recordEvent } from '../../src/modules/event/event.service.ts';
import { signatureHeader } from '../../src/modules/webhook/signing.ts';
import { fetchJson } from './load.ts';

export interface WebhookResult {
  events: number;
  subscriptions: number;
  /** Tributary and the loop took turns this many times, each with its share of the events. */
  rounds: number;
  tributaryPerSecond: number;
  baselinePerSecond: number;
}

export interface WebhookBench {
  orm: MikroORM;
  db: pg.Client;
  tributaryUrl: string;
  ca: string;
  /** PEM files of the bench's certificate, for the receiver. */
  certFile: string;
  keyFile: string;
  subscriptions: number;
  events: number;
}

/**
 * Turns each side takes, alternating: one pass each, a few seconds apart, swung 0.73–0.92× between
 * runs of the same code as the machine's speed moved between the two passes.
 */
const ROUNDS = 2;

interface Target {
  environmentId: string;
  path: string;
  secret: string;
}

/**
 * Webhook delivery throughput, in events a second from the outbox to a loopback HTTPS receiver:
 * `subscriptions` environments with one subscription each, `events` spread evenly over them and
 * written in one transaction; Tributary's clock runs from that commit until the receiver holds every
 * event (relay, queue, attempts). The baseline is a bare loop that signs the same envelopes and POSTs
 * them to the same receiver with the same concurrency Tributary allows (one attempt in flight per
 * subscription, a new TLS connection per attempt). The two take turns (ROUNDS), each round with its
 * share of the events, and each side's rate is over all of its rounds. Before timing, one delivery is checked: its body
 * is the envelope the loop sends, and its signature verifies with the standardwebhooks library.
 */
export async function measureWebhooks(bench: WebhookBench): Promise<WebhookResult> {
  const receiver = await startReceiver(bench.certFile, bench.keyFile);
  const admin = new EnvironmentAdmin(bench.orm.em.fork());
  const targets: Target[] = [];
  try {
    for (let i = 0; i < bench.subscriptions; i++) {
      const environment = await admin.createEnvironment(`bench webhooks ${i}`, 'SANDBOX');
      const { secret: apiKey } = await admin.createKey(encodeId('environment', environment.id), 'bench webhooks');
      const path = `/s${i}`;
      const created = await fetchJson<components['schemas']['WebhookSubscriptionCreated']>(bench.tributaryUrl, bench.ca, {
        method: 'POST',
        path: '/v1/webhooks/subscriptions',
        // A new key's first request counts against its client address too (25/s): one address each.
        headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json', 'X-Forwarded-For': `10.2.${i}.1` },
        body: JSON.stringify({ name: `bench ${i}`, targetUrl: `${receiver.url}${path}`, eventTypes: ['profile.created'] }),
      });
      if (created.status !== 201) throw new Error(`webhook subscription: ${created.status} ${created.text}`);
      targets.push({ environmentId: environment.id, path, secret: created.body.secret });
    }

    const [probe] = await record(bench.orm, targets.slice(0, 1), 1);
    await receiver.until(1);
    const [delivered] = receiver.received;
    new Webhook(targets[0]!.secret).verify(delivered!.body, delivered!.headers);
    const expected = JSON.stringify(presentEvent((await readEvents(bench.db, [probe!]))[0]!));
    if (delivered!.body !== expected) throw new Error(`the delivered envelope differs from the baseline's:\n${delivered!.body}\n${expected}`);

    let [sent, tributarySeconds, baselineSeconds] = [0, 0, 0];
    for (let round = 0; round < ROUNDS; round++) {
      receiver.reset();
      const started = performance.now();
      const ids = await record(bench.orm, targets, Math.round(bench.events / ROUNDS));
      await receiver.until(ids.length);
      tributarySeconds += (performance.now() - started) / 1000;
      await recorded(bench.db, ids);

      const events = await readEvents(bench.db, ids);
      receiver.reset();
      const baselineStarted = performance.now();
      await Promise.all(targets.map((target) => postEach(receiver.url, bench.ca, target, events.filter((event) => event.environment.id === target.environmentId))));
      await receiver.until(ids.length);
      baselineSeconds += (performance.now() - baselineStarted) / 1000;
      sent += ids.length;
    }
    return {
      events: sent,
      subscriptions: targets.length,
      rounds: ROUNDS,
      tributaryPerSecond: Math.round(sent / tributarySeconds),
      baselinePerSecond: Math.round(sent / baselineSeconds),
    };
  } finally {
    await receiver.close();
    const environments = targets.map((target) => target.environmentId);
    await bench.db.query('delete from webhook_delivery where subscription_id in (select id from webhook_subscription where environment_id = any($1::uuid[]))', [environments]);
    for (const table of ['event', 'webhook_subscription', 'api_key']) await bench.db.query(`delete from ${table} where environment_id = any($1::uuid[])`, [environments]);
    await bench.db.query('delete from environment where id = any($1::uuid[])', [environments]);
  }
}

/** Waits until every event's delivery is recorded SUCCEEDED (the last attempts record theirs after the receiver answered). */
async function recorded(db: pg.Client, ids: string[]): Promise<void> {
  for (let waited = 0; ; waited += 100) {
    const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from webhook_delivery where event_id = any($1::uuid[]) and status = 'SUCCEEDED'`, [ids]);
    if (rows[0]!.n === ids.length) return;
    if (waited >= 10_000) throw new Error(`${rows[0]!.n} of ${ids.length} deliveries are recorded SUCCEEDED`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** `count` events spread over the targets' environments, written as services write them (one transaction). */
async function record(orm: MikroORM, targets: Target[], count: number): Promise<string[]> {
  const em = orm.em.fork();
  const ids = Array.from({ length: count }, (_, i) => recordEvent(em, targets[i % targets.length]!.environmentId, 'profile.created', null, { id: `bench_${i}` }).id);
  await em.flush();
  return ids;
}

/** The events as the relay reads them (JSON payloads in the order PostgreSQL keeps them). */
async function readEvents(db: pg.Client, ids: string[]): Promise<EventEntity[]> {
  const { rows } = await db.query<{ id: string; environment_id: string; at: Date; payload: unknown }>('select id, environment_id, at, payload from event where id = any($1::uuid[]) order by id', [ids]);
  return rows.map((row) => ({ id: row.id, at: row.at, payload: row.payload, environment: { id: row.environment_id } }) as unknown as EventEntity);
}

/** The baseline: one target's events, one after another, each signed and POSTed on a new TLS connection. */
async function postEach(receiverUrl: string, ca: string, target: Target, events: EventEntity[]): Promise<void> {
  for (const event of events) {
    const envelope = presentEvent(event);
    const body = JSON.stringify(envelope);
    const timestamp = Math.floor(Date.now() / 1000);
    await new Promise<void>((resolve, reject) => {
      const req = request(
        `${receiverUrl}${target.path}`,
        {
          method: 'POST',
          agent: false,
          ca,
          headers: {
            'Content-Type': 'application/json',
            'Content-Length': Buffer.byteLength(body),
            'webhook-id': envelope.id,
            'webhook-timestamp': String(timestamp),
            'webhook-signature': signatureHeader([target.secret], envelope.id, timestamp, body),
          },
        },
        (res) => {
          res.resume();
          res.on('end', resolve);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }
}

/** A loopback HTTPS endpoint answering 200 to every delivery; counts distinct webhook ids. */
async function startReceiver(certFile: string, keyFile: string) {
  const received: Array<{ headers: Record<string, string>; body: string }> = [];
  const ids = new Set<string>();
  let waiting: { count: number; resolve: () => void } | undefined;
  const server = createServer({ cert: readFileSync(certFile), key: readFileSync(keyFile) }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      ids.add(String(req.headers['webhook-id']));
      if (received.length === 0) received.push({ headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end('ok');
      if (waiting && ids.size >= waiting.count) waiting.resolve();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://localhost:${(server.address() as AddressInfo).port}`,
    received,
    /** Resolves once `count` distinct events have arrived; fails after two minutes. */
    until: (count: number) =>
      new Promise<void>((resolve, reject) => {
        if (ids.size >= count) return resolve();
        const timer = setTimeout(() => reject(new Error(`the receiver holds ${ids.size} of ${count} events after 120 s`)), 120_000);
        waiting = { count, resolve: () => (clearTimeout(timer), resolve()) };
      }),
    reset: () => {
      ids.clear();
      received.length = 0;
    },
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
