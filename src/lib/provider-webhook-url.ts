import { encodeId } from './ids.ts';
import { isLoopbackUrl } from './loopback.ts';

/**
 * Where upstream providers send an environment's webhooks: PUBLIC_URL's
 * `/v1/providers/<provider>/webhooks?environment=env_…`. Null without PUBLIC_URL, or with one that
 * only this machine can reach (nothing outside could deliver to it).
 */
export function providerWebhookUrl(publicUrl: string | undefined, provider: string, environmentId: string): string | null {
  if (!publicUrl || isLoopbackUrl(publicUrl)) return null;
  return `${publicUrl}/v1/providers/${provider}/webhooks?environment=${encodeId('environment', environmentId)}`;
}
