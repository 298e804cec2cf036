import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { rootCertificates } from 'node:tls';

/** An answer larger than this is refused rather than buffered (a page of transactions is far smaller). */
const MAX_RESPONSE_BYTES = 10 * 1024 * 1024;
const TIMEOUT_MS = 60_000;

export interface EbRequest {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path and query under the API base URL, e.g. `/aspsps?country=FI`. */
  path: string;
  bearer: string;
  body?: object;
  headers?: Record<string, string>;
}

export interface EbAnswer {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

/** Enable Banking could not be reached, or answered more than we read. */
export class EbUnreachable extends Error {}

export type EbHttp = (request: EbRequest) => Promise<EbAnswer>;

/**
 * Requests to Enable Banking's API at `baseUrl` (https only; an extra CA for tests), JSON in and out,
 * bounded in time and size. The bearer token and PSU headers never appear in an error message.
 */
export function enableBankingHttp(baseUrl: string, caFile: string | undefined): EbHttp {
  const ca = caFile ? [...rootCertificates, readFileSync(caFile, 'utf8')] : undefined;
  const base = baseUrl.replace(/\/+$/, '');
  return ({ method, path, bearer, body, headers }) =>
    new Promise((resolve, reject) => {
      const url = new URL(`${base}${path}`);
      if (url.protocol !== 'https:') return reject(new EbUnreachable('the Enable Banking API URL must be https'));
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const outgoing = request(
        url,
        {
          method,
          ca,
          timeout: TIMEOUT_MS,
          headers: {
            ...headers,
            Authorization: `Bearer ${bearer}`,
            Accept: 'application/json',
            ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': String(payload.length) } : { 'Content-Length': '0' }),
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > MAX_RESPONSE_BYTES) outgoing.destroy(new EbUnreachable('Enable Banking answered more than 10 MiB'));
            else chunks.push(chunk);
          });
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: response.headers }));
          response.on('error', (error) => reject(new EbUnreachable(error.message)));
        },
      );
      outgoing.on('timeout', () => outgoing.destroy(new EbUnreachable('Enable Banking did not answer in time')));
      outgoing.on('error', (error) => reject(error instanceof EbUnreachable ? error : new EbUnreachable(`Enable Banking could not be reached (${(error as NodeJS.ErrnoException).code ?? error.message})`)));
      outgoing.end(payload);
    });
}
