import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { MetricsSettings } from '../config.ts';
import type { Metrics } from './metrics.ts';

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * Serves `GET /metrics` in Prometheus's text format on a port apart from the API, so it is never
 * public by accident (it binds to loopback unless told otherwise) and a `worker`, which has no API
 * listener, can be scraped too. Plain HTTP, as Prometheus scrapes by default.
 */
export async function startMetricsServer(metrics: Metrics, endpoint: MetricsSettings, logger: Logger): Promise<MetricsServer> {
  const expected = endpoint.token === undefined ? undefined : digest(`Bearer ${endpoint.token}`);
  const server = createServer({ headersTimeout: 10_000, requestTimeout: 30_000 }, (req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics') return answer(res, 404, 'Not found: metrics are at /metrics\n');
    if (req.method !== 'GET' && req.method !== 'HEAD') return answer(res, 405, 'Only GET /metrics\n', { Allow: 'GET, HEAD' });
    if (expected && !timingSafeEqual(digest(req.headers.authorization ?? ''), expected)) {
      return answer(res, 401, 'Send Authorization: Bearer <METRICS_TOKEN>\n', { 'WWW-Authenticate': 'Bearer realm="metrics"' });
    }
    metrics.scrape().then(
      (text) => answer(res, 200, text, { 'Content-Type': metrics.contentType }),
      (error: unknown) => {
        logger.error({ err: error }, 'collecting metrics failed');
        answer(res, 500, 'Collecting metrics failed; see the service log\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(endpoint.port, endpoint.host, resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}

/** Fixed-length, so comparing takes the same time whatever was sent. */
function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

function answer(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers }).end(body);
}
