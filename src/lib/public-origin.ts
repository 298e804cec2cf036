import { badRequest } from '../errors.ts';

/**
 * Where end-users reach this service: PUBLIC_URL's origin when set, else the origin the request came
 * to (its Host, over HTTPS). Links Tributary hands out (redirect callbacks, statement downloads) use it.
 */
export function publicOrigin(publicUrl: string | undefined, host: string | undefined): string {
  if (publicUrl) return new URL(publicUrl).origin;
  if (!host) throw badRequest('The request has no Host header', { instruction: 'Send the Host header (every HTTP/1.1 client does).' });
  return `https://${host}`;
}
