import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { inject } from 'vitest';

export interface Received {
  headers: Record<string, string>;
  body: string;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  delayMs?: number;
}

/**
 * A real HTTPS endpoint on loopback (the tests' certificate) that records every delivery. `respond`
 * decides each answer; returning `'hang'` never answers (a receiver that stalls), `'trickle'` answers
 * 200 and then sends its body a byte at a time, never ending it. An answer's body is `ok` unless
 * given; with `delayMs` it comes that much later. With `address` its URL names that loopback
 * address instead of localhost.
 */
export async function startReceiver(
  respond: (request: Received, index: number) => Answer | 'hang' | 'trickle' = () => ({ status: 200 }),
  address?: '127.0.0.1' | '::1',
) {
  const tls = inject('tls');
  const received: Received[] = [];
  const server: Server = createServer({ cert: readFileSync(tls.certFile), key: readFileSync(tls.keyFile) }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') };
      received.push(request);
      const answer = respond(request, received.length - 1);
      if (answer === 'hang') return;
      if (answer === 'trickle') {
        res.writeHead(200);
        const timer = setInterval(() => res.write('.'), 500);
        res.on('close', () => clearInterval(timer));
        return;
      }
      const { status, headers, body = 'ok', delayMs = 0 } = answer;
      setTimeout(() => res.writeHead(status, headers).end(body), delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, address ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const host = address === undefined ? 'localhost' : address === '::1' ? '[::1]' : address;
  return {
    url: `https://${host}:${port}/hooks`,
    received,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
