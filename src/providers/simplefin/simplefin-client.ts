import { request } from 'node:https';
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';

/** An upstream answer larger than this is refused rather than buffered. */
const MAX_RESPONSE_BYTES = 20 * 1024 * 1024;
const TIMEOUT_MS = 60_000;

export interface HttpAnswer {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

/** Raised when the upstream cannot be reached or answers more than we read. */
export class Unreachable extends Error {}

/**
 * HTTPS only, certificates verified (with an extra CA for tests), bounded in time and size. The
 * Access URL's userinfo becomes Basic auth and never appears in a URL we log.
 */
export function httpsClient(caFile: string | undefined) {
  const ca = caFile ? [...rootCertificates, readFileSync(caFile, 'utf8')] : undefined;
  return (method: 'GET' | 'POST', url: URL): Promise<HttpAnswer> =>
    new Promise((resolve, reject) => {
      if (url.protocol !== 'https:') return reject(new Unreachable('SimpleFIN URLs must be https'));
      const auth = url.username ? `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}` : undefined;
      const target = new URL(url);
      target.username = '';
      target.password = '';
      const req = request(target, { method, ca, timeout: TIMEOUT_MS, headers: { ...(auth ? { Authorization: auth } : {}), 'Content-Length': '0', Accept: 'application/json' } }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_RESPONSE_BYTES) req.destroy(new Unreachable('SimpleFIN answered more than 20 MiB'));
          else chunks.push(chunk);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: res.headers }));
        res.on('error', (error) => reject(new Unreachable(error.message)));
      });
      req.on('timeout', () => req.destroy(new Unreachable('SimpleFIN did not answer in time')));
      req.on('error', (error) => reject(error instanceof Unreachable ? error : new Unreachable(`SimpleFIN could not be reached (${(error as NodeJS.ErrnoException).code ?? error.message})`)));
      req.end();
    });
}

export type HttpsClient = ReturnType<typeof httpsClient>;
