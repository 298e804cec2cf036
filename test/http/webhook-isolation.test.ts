import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { decodeId } from '../../src/lib/ids.ts';
import { createEnvironmentWithKey } from '../support/environments.ts';
import { createProfile } from '../support/factories.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { startReceiver } from '../support/webhook-receiver.ts';
import { waitFor } from '../support/wait.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ WEBHOOK_CA_FILE: inject('tls').certFile });
});
afterAll(() => app?.stop());

it("delivers a tenant's events while another tenant's endpoint stalls, one attempt at a time per subscription", async () => {
  const stalled = await startReceiver(() => 'hang');
  const prompt = await startReceiver();
  const other = await createEnvironmentWithKey(app);
  try {
    const subscribe = (targetUrl: string, apiKey: string) =>
      app.http.post('/v1/webhooks/subscriptions', { auth: apiKey, json: { name: 'isolation', targetUrl, eventTypes: ['profile.created'] } });
    const slow = await subscribe(stalled.url, app.apiKey);
    expect((await subscribe(prompt.url, other.apiKey)).status).toBe(201);
    // The stalled tenant's events come first, so a shared queue would put them ahead of the others.
    for (let index = 0; index < 3; index++) await createProfile(app);
    await waitFor(async () => (stalled.received.length > 0 ? true : undefined), "the stalled tenant's first attempt");
    for (let index = 0; index < 3; index++) await createProfile(app, {}, other.apiKey);

    await waitFor(async () => (prompt.received.length === 3 ? true : undefined), "the other tenant's events");
    // All of them arrived within the stalled endpoint's first attempt, which is still unanswered; its
    // subscription's other events wait for it rather than taking more slots.
    expect(stalled.received).toHaveLength(1);
    const rows = await app.sql<{ status: string; claimed: boolean }>(
      'select status, claimed_until > now() as claimed from webhook_delivery where subscription_id = $1',
      [decodeId('webhookSubscription', slow.body.id)],
    );
    expect(rows.map(({ status, claimed }) => `${status}${claimed ? ' (in flight)' : ''}`).sort()).toEqual(['PENDING', 'PENDING', 'PENDING (in flight)']);
  } finally {
    await stalled.close();
    await prompt.close();
    await app.sql('delete from webhook_subscription');
  }
});
