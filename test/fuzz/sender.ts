import { Agent, request } from 'node:https';
import type { TestResponse } from '../support/http-client.ts';

export interface SentRequest {
  method: string;
  /** Sent verbatim as the request target: no normalisation, unlike a URL object. */
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Loopback source address: each has its own anonymous rate-limit window. */
  localAddress: string;
}

export interface Timed extends TestResponse {
  ms: number;
  /** Set when a JSON-typed body did not parse. */
  unparsable?: true;
}

/** A raw HTTPS sender for fuzzing: exact paths and bytes, per-request source addresses, timing, and no assertions of its own. */
export function rawSender(port: number, ca: string, timeoutMs: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: 4, ca });
  const attempt = (sent: SentRequest, retried: boolean): Promise<Timed> => {
    const started = performance.now();
    const headers = { ...sent.headers };
    if (sent.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(sent.body));
    return new Promise((resolve, reject) => {
      const req = request(
        { host: 'localhost', family: 4, port, method: sent.method, path: sent.path, headers, agent, localAddress: sent.localAddress },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            const response: Timed = { status: res.statusCode!, headers: res.headers, text, body: text, ms: performance.now() - started };
            if ((res.headers['content-type'] ?? '').includes('json') && text) {
              try {
                response.body = JSON.parse(text);
              } catch {
                response.unparsable = true;
              }
            }
            resolve(response);
          });
        },
      );
      req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      req.on('error', (error: NodeJS.ErrnoException) => {
        // A kept-alive connection the server closed as idle just as it was reused: the race every
        // keep-alive client has (see request.reusedSocket in Node's docs); a fresh connection decides.
        if (req.reusedSocket && error.code === 'ECONNRESET' && !retried) resolve(attempt(sent, true));
        else reject(error);
      });
      req.end(sent.body);
    });
  };
  return { send: (sent: SentRequest) => attempt(sent, false), close: () => agent.destroy() };
}

export type RawSender = ReturnType<typeof rawSender>;
