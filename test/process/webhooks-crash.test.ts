import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { expect, inject, it } from 'vitest';
import { buildProfile } from '../support/factories.ts';
import { httpClient } from '../support/http-client.ts';
import { processFixture, startServiceProcess } from '../support/service-process.ts';
import { startReceiver } from '../support/webhook-receiver.ts';
import { waitFor } from '../support/wait.ts';

it('delivers every event at least once when the process is SIGKILLed mid-batch and restarted', { timeout: 120_000 }, async () => {
  const fixture = await processFixture();
  const env = { WEBHOOK_CA_FILE: inject('tls').certFile };
  // Three subscriptions, so the event's three attempts are fetched, claimed and sent as one batch; each
  // first attempt stalls, as a slow receiver would, so the kill lands while the whole batch is in flight.
  const receivers = await Promise.all([0, 1, 2].map(() => startReceiver((_request, index) => (index === 0 ? 'hang' : { status: 200 }))));
  const ca = readFileSync(inject('tls').certFile, 'utf8');
  try {
    const first = await startServiceProcess(fixture, env);
    const apiKey = JSON.parse(readFileSync(path.join(fixture.dataDir, 'bootstrap.json'), 'utf8')).apiKey;
    let http = httpClient(`https://localhost:${first.port}`, ca);
    const subscriptions: Array<{ id: string; secret: string }> = [];
    for (const receiver of receivers) {
      const subscription = await http.post('/v1/webhooks/subscriptions', { auth: apiKey, json: { name: 'crash', targetUrl: receiver.url } });
      expect(subscription.status).toBe(201);
      subscriptions.push(subscription.body);
    }
    const profile = await http.post('/v1/profiles', { auth: apiKey, json: buildProfile() });
    http.close();
    await waitFor(async () => (receivers.every((receiver) => receiver.received.length === 1) ? true : undefined), 'the first attempts');
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await startServiceProcess(fixture, env);
    try {
      await waitFor(async () => (receivers.every((receiver) => receiver.received.length >= 2) ? true : undefined), 'the attempts after the restart', 60_000);
      http = httpClient(`https://localhost:${second.port}`, ca);
      for (const [index, receiver] of receivers.entries()) {
        const [stalled, delivered] = receiver.received;
        expect(delivered!.headers['webhook-id']).toBe(stalled!.headers['webhook-id']);
        const event = new Webhook(subscriptions[index].secret).verify(delivered!.body, delivered!.headers) as { type: string; record: { id: string } };
        expect(event).toMatchObject({ type: 'profile.created', record: { id: profile.body.id } });
        const attempts = await waitFor(async () => {
          const response = await http.get(`/v1/webhooks/subscriptions/${subscriptions[index].id}/deliveries`, { auth: apiKey });
          return response.body.some((attempt: { status: string }) => attempt.status === 'SUCCEEDED') ? response.body : undefined;
        }, 'the successful attempt to be recorded');
        expect(attempts.length).toBeGreaterThanOrEqual(1);
      }
      http.close();
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  } finally {
    await Promise.all(receivers.map((receiver) => receiver.close()));
    await fixture.cleanup();
  }
});
