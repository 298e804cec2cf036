import { readFileSync } from 'node:fs';
import https from 'node:https';
import { Readable } from 'node:stream';
import type { FormattedExecutionResult } from 'graphql';
import { createClient, type Client } from 'graphql-ws';
import { inject } from 'vitest';
import WebSocket from 'ws';

/** A result as graphql-ws hands it on. */
type Result = FormattedExecutionResult<Record<string, unknown>, unknown>;

/** How a live-update socket ended, as the client saw it. */
export interface Closed {
  code: number;
  reason: string;
}

export interface LiveClient {
  client: Client;
  /** Resolves when the socket closes (the first time). */
  closed: Promise<Closed>;
  /** Subscribes; results (and a final error) are collected in order. */
  subscribe(query: string, variables?: Record<string, unknown>): Subscription;
  dispose(): Promise<void>;
}

export interface Subscription {
  results: Result[];
  errors: unknown[];
  /** Waits for the n-th result (1-based), failing after `timeoutMs`. */
  next(count: number, timeoutMs?: number): Promise<Result>;
}

/**
 * ws's WebSocket trusting the test CA, as graphql-ws's `webSocketImpl` (it calls `new Impl(url,
 * protocol)`); `options` are ws's client options for every socket (`localAddress`, …).
 */
export function trustingWebSocket(options: WebSocket.ClientOptions = {}, ca = readFileSync(inject('tls').certFile, 'utf8')) {
  return class extends WebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols, { ...options, ca });
    }
  };
}

/** graphql-ws's own client, unmodified, on `wss://…/v1/graphql` of `baseUrl`, with `authorization` in connection_init; it never retries. */
export function liveClient(baseUrl: string, authorization: string | undefined): LiveClient {
  let onClosed: (closed: Closed) => void = () => {};
  const closed = new Promise<Closed>((resolve) => (onClosed = resolve));
  const client = createClient({
    url: `${baseUrl.replace(/^https:/, 'wss:')}/v1/graphql`,
    webSocketImpl: trustingWebSocket(),
    connectionParams: authorization === undefined ? {} : { authorization },
    lazy: false,
    retryAttempts: 0,
    on: { closed: (event) => onClosed({ code: (event as { code: number }).code, reason: String((event as { reason: unknown }).reason) }) },
    onNonLazyError: () => {},
  });
  return {
    client,
    closed,
    subscribe(query, variables) {
      const results: Result[] = [];
      const errors: unknown[] = [];
      client.subscribe({ query, variables }, { next: (result) => void results.push(result), error: (error) => void errors.push(error), complete: () => {} });
      return {
        results,
        errors,
        async next(count, timeoutMs = 20_000) {
          const deadline = Date.now() + timeoutMs;
          while (results.length < count) {
            if (Date.now() > deadline) throw new Error(`timed out waiting for result ${count} (have ${JSON.stringify(results)}, errors ${JSON.stringify(errors)})`);
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
          return results[count - 1]!;
        },
      };
    },
    dispose: async () => {
      await client.dispose();
    },
  };
}

/**
 * A `fetch` over node:https that trusts the test CA, for graphql-sse's client (`fetchFn`): Node's
 * own fetch takes no CA without undici's Agent. The response body streams as it arrives.
 */
export function trustingFetch(ca = readFileSync(inject('tls').certFile, 'utf8')) {
  return (input: string | URL, init: { method?: string; headers?: Record<string, string>; body?: string; signal?: AbortSignal } = {}) =>
    new Promise<Response>((resolve, reject) => {
      const request = https.request(input, { method: init.method ?? 'GET', headers: init.headers, ca, signal: init.signal }, (response) => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(response.headers)) if (typeof value === 'string') headers.set(name, value);
        resolve(new Response(Readable.toWeb(response) as ReadableStream<Uint8Array>, { status: response.statusCode, headers }));
      });
      request.once('error', reject);
      request.end(init.body);
    });
}
