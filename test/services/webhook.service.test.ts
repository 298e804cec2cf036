import { describe, expect, it } from 'vitest';
import { encodeId } from '../../src/lib/ids.ts';
import { WebhookService } from '../../src/modules/webhook/webhook.service.ts';
import { builders, type Builders } from '../support/builders.ts';
import { withServiceTier } from '../support/service-tier.ts';
import type { TestDatabase } from '../support/test-database.ts';

let db: TestDatabase;
let build: Builders;

withServiceTier((tier) => ({ db, build } = tier));

const webhooks = (environmentId = db.environmentId, allowPrivate = true) => new WebhookService(db.em(), db.cipher, environmentId, { allowPrivate });
const TARGET = 'https://localhost:9/hooks';
/** The subscription as a request reads it: through the service that then changes it. */
const lookedUp = async (service: WebhookService, subscription: { id: string }) => service.get(encodeId('webhookSubscription', subscription.id));

describe('subscribing', () => {
  it('returns the whsec_ secret once and stores it only encrypted, for this subscription alone', async () => {
    const { subscription, secret } = await webhooks().create({ name: 'Ledger', targetUrl: TARGET, eventTypes: ['profile'] });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const [row] = await db.sql('select * from webhook_subscription where id = $1', [subscription.id]);
    expect(JSON.stringify(row)).not.toContain(secret.slice(6));
    expect(db.cipher.decrypt('webhookSecret', row, row.secret_encrypted)).toBe(secret);
    expect(() => db.cipher.decrypt('webhookSecret', { id: crypto.randomUUID() }, row.secret_encrypted)).toThrow();
  });

  it('takes event types and whole-segment prefixes of them, and reports every other one by index', async () => {
    const accepted = ['profile', 'connection.synced', 'connection.synced.errored.ERROR_REPAIRABLE', 'balance.created'];
    expect((await webhooks().create({ name: 'ok', targetUrl: TARGET, eventTypes: accepted })).subscription.eventTypes).toEqual(accepted);
    await expect(webhooks().create({ name: 'bad', targetUrl: TARGET, eventTypes: ['profile', 'connection.sync', 'profile.*', 'nope'] })).rejects.toMatchObject({
      status: 422,
      issues: [
        { path: ['eventTypes', '1'], message: expect.stringContaining('connection.sync') },
        { path: ['eventTypes', '2'], message: expect.any(String) },
        { path: ['eventTypes', '3'], message: expect.any(String) },
      ],
    });
  });

  it('refuses plain http in PRODUCTION and private addresses unless the operator allows them', async () => {
    const production = await build.environment({ mode: 'PRODUCTION' });
    await expect(webhooks(production.id).create({ name: 'plain', targetUrl: 'http://hooks.example.com/x' })).rejects.toMatchObject({
      issues: [{ path: ['targetUrl'], message: expect.stringMatching(/https/) }],
    });
    await expect(webhooks(db.environmentId, false).create({ name: 'private', targetUrl: 'https://10.1.2.3/hooks' })).rejects.toMatchObject({
      issues: [{ path: ['targetUrl'], message: expect.stringMatching(/private/) }],
    });
    expect((await webhooks(db.environmentId, true).create({ name: 'allowed', targetUrl: 'https://10.1.2.3/hooks' })).subscription.targetUrl).toBe('https://10.1.2.3/hooks');
  });

  it('is seen only in its own environment', async () => {
    const other = await build.environment();
    const { subscription } = await build.webhookSubscription();
    expect((await webhooks().get(encodeId('webhookSubscription', subscription.id))).id).toBe(subscription.id);
    await expect(webhooks(other.id).get(encodeId('webhookSubscription', subscription.id))).rejects.toMatchObject({ status: 404 });
    expect((await webhooks(other.id).list(1, 100)).items).toEqual([]);
  });
});

describe('changing a subscription', () => {
  it('says why it is disabled, and forgets the reason when enabled again', async () => {
    const { subscription } = await build.webhookSubscription();
    const service = webhooks();
    const paused = await service.update(await lookedUp(service, subscription), { disabled: true });
    expect(paused).toMatchObject({ disabled: true, disabledReason: expect.stringMatching(/^Disabled through the API at /) });
    const again = webhooks();
    expect(await again.update(await lookedUp(again, subscription), { disabled: false, name: 'Back' })).toMatchObject({ disabled: false, disabledReason: null, name: 'Back' });
    expect(await db.sql('select disabled, disabled_reason, name from webhook_subscription where id = $1', [subscription.id])).toEqual([{ disabled: false, disabled_reason: null, name: 'Back' }]);
  });

  it('rotates the secret: the previous one signs for 24 hours, and a second rotation ends the older one', async () => {
    const { subscription, secret: first } = await build.webhookSubscription();
    const rotate = async () => {
      const service = webhooks();
      return service.rotate(await lookedUp(service, subscription));
    };
    const rotated = await rotate();
    expect(rotated.previousSecretExpiresAt.getTime() - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    const read = async () => (await db.sql('select * from webhook_subscription where id = $1', [subscription.id]))[0];
    let row = await read();
    expect(db.cipher.decrypt('webhookSecret', row, row.secret_encrypted)).toBe(rotated.secret);
    expect(db.cipher.decrypt('webhookSecret', row, row.previous_secret_encrypted)).toBe(first);
    const again = await rotate();
    row = await read();
    expect(db.cipher.decrypt('webhookSecret', row, row.previous_secret_encrypted)).toBe(rotated.secret);
    expect([first, rotated.secret]).not.toContain(again.secret);
  });
});

describe('redelivering', () => {
  it('queues one more attempt, numbered after every earlier one, even while the subscription is disabled', async () => {
    const { subscription } = await build.webhookSubscription({ disabled: true, disabledReason: 'paused' });
    const event = await build.event();
    await build.delivery(subscription, event, { status: 'FAILED' });
    await build.delivery(subscription, event, { status: 'FAILED', attempt: 2 });
    const service = webhooks();
    const delivery = await service.redeliver(await lookedUp(service, subscription), encodeId('event', event.id));
    expect(delivery).toMatchObject({ attempt: 3, redelivery: true, status: 'PENDING' });
    const { items, total } = await service.deliveries(subscription, encodeId('event', event.id), { page: 1 }, 10);
    expect({ attempts: items.map((item) => item.attempt), total }).toEqual({ attempts: [3, 2, 1], total: 3 });
  });

  it('finds no event of another environment, and no subscription deleted between its lookup and the new attempt', async () => {
    const other = await build.environment();
    const foreign = await builders({ ...db, environmentId: other.id }).event();
    const { subscription } = await build.webhookSubscription();
    const service = webhooks();
    const looked = await lookedUp(service, subscription);
    await expect(service.redeliver(looked, encodeId('event', foreign.id))).rejects.toMatchObject({ status: 404, message: 'Event not found' });

    await webhooks().delete(looked);
    await expect(service.redeliver(looked, encodeId('event', (await build.event()).id))).rejects.toMatchObject({ status: 404, message: 'Webhook subscription not found' });
  });
});
