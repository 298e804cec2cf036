import { describe, expect, it } from 'vitest';
import { encodeId, uuidv7 } from '../../src/lib/ids.ts';
import { providerWebhookUrl } from '../../src/lib/provider-webhook-url.ts';

describe('providerWebhookUrl', () => {
  const environmentId = uuidv7();

  it('points providers at PUBLIC_URL, naming the environment', () => {
    expect(providerWebhookUrl('https://tributary.example.com', 'plaid', environmentId)).toBe(
      `https://tributary.example.com/v1/providers/plaid/webhooks?environment=${encodeId('environment', environmentId)}`,
    );
  });

  it('is null without PUBLIC_URL or with one only this machine reaches', () => {
    for (const publicUrl of [undefined, '', 'https://localhost:8443', 'https://127.0.0.1:8443', 'https://[::1]:8443', 'https://api.localhost']) {
      expect(providerWebhookUrl(publicUrl, 'plaid', environmentId), String(publicUrl)).toBeNull();
    }
  });
});
