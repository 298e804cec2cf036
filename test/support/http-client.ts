import { Agent, request as httpsRequest } from 'node:https';
import { request as httpRequest } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import { assertMatchesContract } from './contract.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies are checked against rest.yaml at run time (assertMatchesContract), not typed per operation.
export interface TestResponse<Body = any> {
  status: number;
  headers: IncomingHttpHeaders;
  body: Body;
  text: string;
  /** The body's exact bytes (a PDF's, which `text` garbles); set by httpClient. */
  bytes?: Buffer;
}

export interface RequestOptions {
  /** `Bearer …` / `Basic …` value, or a secret key (sent as Bearer). */
  auth?: string;
  /** Sent as JSON with Content-Type: application/json unless `raw` is given. */
  json?: unknown;
  raw?: string;
  headers?: Record<string, string>;
  /** Plain HTTP to the same port (to prove it is refused). */
  plain?: boolean;
}

/** The longest a connection stays open unused; a shorter `Keep-Alive: timeout` of the server's wins. */
const IDLE_CONNECTION_MS = 30_000;

/**
 * The connections a test keeps to one service. Keep-alive, like real clients: a burst of requests does
 * not pay a TLS handshake each. Node's agent heeds the server's `Keep-Alive: timeout=N` (dropping an
 * idle connection a second before the server does) only when it has an idle timeout of its own; without
 * one it keeps idle connections until the server closes them, and a request written as the server
 * closes one fails with "socket hang up". At most half the service's cap of connections per address
 * (64): a connection the client has just closed still counts there until the server has read its
 * close, and a new one past the cap is refused.
 */
export function testAgent(ca: string): Agent {
  return new Agent({ keepAlive: true, maxSockets: 32, ca, timeout: IDLE_CONNECTION_MS });
}

/** An HTTPS client for one test app that checks every response against contracts/rest.yaml. */
export function httpClient(baseUrl: string, ca: string) {
  const agent = testAgent(ca);
  const send = (method: string, path: string, options: RequestOptions = {}): Promise<TestResponse> => {
    const url = new URL(path, baseUrl);
    if (options.plain) url.protocol = 'http:';
    const headers: Record<string, string> = { ...options.headers };
    if (options.auth) headers.Authorization = /^(Bearer|Basic) /.test(options.auth) ? options.auth : `Bearer ${options.auth}`;
    let payload: string | undefined = options.raw;
    if (options.json !== undefined) {
      payload = JSON.stringify(options.json);
      headers['Content-Type'] ??= 'application/json';
    }
    if (payload !== undefined) headers['Content-Length'] = String(Buffer.byteLength(payload));
    const request = options.plain ? httpRequest : httpsRequest;
    return new Promise((resolve, reject) => {
      const req = request(url, { method, headers, ...(options.plain ? { agent: false } : { agent }) }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          const text = bytes.toString('utf8');
          const isJson = (res.headers['content-type'] ?? '').includes('json');
          resolve({ status: res.statusCode!, headers: res.headers, text, bytes, body: isJson && text ? JSON.parse(text) : text });
        });
      });
      req.on('error', reject);
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  };
  const checked = async (method: string, path: string, options?: RequestOptions) => {
    const response = await send(method, path, options);
    if (!path.startsWith('/v1/graphql')) assertMatchesContract(method, path, response);
    return response;
  };
  return {
    get: (path: string, options?: RequestOptions) => checked('GET', path, options),
    post: (path: string, options?: RequestOptions) => checked('POST', path, options),
    patch: (path: string, options?: RequestOptions) => checked('PATCH', path, options),
    delete: (path: string, options?: RequestOptions) => checked('DELETE', path, options),
    /** Any method, still contract-checked. */
    send: checked,
    close: () => agent.destroy(),
  };
}

export type HttpClient = ReturnType<typeof httpClient>;
