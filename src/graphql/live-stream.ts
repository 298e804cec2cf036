import { Readable } from 'node:stream';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ExecutionResult, GraphQLError } from 'graphql';
import { createHandler } from 'graphql-sse';
import type { Middleware } from 'koa';
import { AppError, forbidden, unauthorized } from '../errors.ts';
import { WWW_AUTHENTICATE } from '../api-kit/credential.ts';
import type { AppContext, AppState } from '../http/state.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { CredentialWatch } from './credential-watch.ts';
import type { GraphQLContext } from './context.ts';
import { formatLiveError } from './live-errors.ts';
import { actsAsProfile, liveOperation, type LiveDependencies } from './live-operations.ts';
import { eventResult } from './live-results.ts';
import type { LiveSeats } from './live-seats.ts';
import { LIVE_LIMITS, PROFILE_CAP } from './live-sockets.ts';
import { StreamBacklog } from './stream-backlog.ts';

/**
 * GraphQL subscriptions over server-sent events (graphql-sse, distinct connections mode), for
 * clients that cannot open a WebSocket: `POST /v1/graphql/stream` with `Accept: text/event-stream`
 * and the subscription as the body. The request has passed the front door's credential check and
 * rate limit; an API key alone is refused (403), and so is a stream past the profile's seats (429:
 * sockets and streams share them). An event's result is held to the response limit (eventResult),
 * and a client that stops reading is cut off once more than LIVE_LIMITS.bufferedBytes of events
 * wait for it (StreamBacklog), as a socket is.
 * The stream ends when the client goes, when its credential stops being valid (re-checked every
 * second), or when the feed is lost.
 */
export function liveStream(deps: LiveDependencies & { watch: CredentialWatch; seats: LiveSeats; metrics: Metrics }): { middleware: Middleware<AppState>; close(): void } {
  const open = new Set<ServerResponse>();
  const handler = createHandler<IncomingMessage, AppContext, GraphQLContext>({
    // No stream tokens: every request is a stream of its own (distinct connections mode).
    authenticate: () => null,
    onSubscribe: (req, params) => {
      const { state } = req.context;
      const operation = actsAsProfile(state.credential!) ? liveOperation(deps, state.credential, state.requestId, params, req.context.host) : [];
      if (!Array.isArray(operation)) return operation;
      return [JSON.stringify({ errors: refusals(operation, req.context) }), { status: 400, statusText: 'Bad Request', headers: { 'content-type': 'application/json; charset=utf-8' } }] as const;
    },
    onNext: (_context, req, result) => {
      const sent = eventResult(result, req.context.state.log, deps.outage) as ExecutionResult | undefined;
      const stream = streams.get(req.context);
      if (stream && !stream.backlog.add(sent ?? result)) stream.cutOff();
      return sent;
    },
  });
  /** The open streams' backlogs, and how each is cut off when its client stops reading. */
  const streams = new WeakMap<AppContext, { backlog: StreamBacklog; cutOff(): void }>();

  const middleware: Middleware<AppState> = async (ctx) => {
    const credential = ctx.state.credential;
    if (!credential) throw unauthorized('Live updates need a credential that acts as a profile', { instruction: 'Send Authorization: Bearer <session token> or Basic base64(<profile id>:<API secret key>).', headers: { 'WWW-Authenticate': WWW_AUTHENTICATE } });
    if (!actsAsProfile(credential)) throw forbidden('An API key acts as no profile: it cannot subscribe', { instruction: 'Subscribe with a session token or Basic <profile id>:<API secret key>.' });
    if (ctx.method !== 'POST') throw new AppError(405, 'METHOD_NOT_ALLOWED', 'Subscribe with POST', { instruction: 'POST the subscription as a JSON body.', headers: { Allow: 'POST' } });
    if (ctx.get('Accept') !== 'text/event-stream') throw new AppError(406, 'NOT_ACCEPTABLE', 'This endpoint answers text/event-stream only', { instruction: 'Send Accept: text/event-stream.' });
    const seat = deps.seats.take(credential.profileId);
    if (!seat) {
      deps.metrics.liveCutOff('limit');
      throw new AppError(429, 'RATE_LIMITED', PROFILE_CAP, { instruction: 'Close streams and sockets you no longer use, or wait for them to close.' });
    }
    // Given back when the response ends, however it ends (refused, failed, or a stream closed).
    ctx.res.once('close', seat);
    const [body, init] = await handler({
      method: ctx.method,
      url: ctx.url,
      headers: { get: (name) => ctx.get(name) || undefined },
      body: (ctx.state.body as Record<string, unknown> | undefined) ?? null,
      raw: ctx.req,
      context: ctx,
    });
    ctx.status = init.status;
    for (const [name, value] of Object.entries(init.headers ?? {})) if (value !== undefined) ctx.set(name, value);
    if (typeof body === 'string' || body === null) {
      ctx.body = body ?? '';
      return;
    }
    const backlog = new StreamBacklog(LIVE_LIMITS.bufferedBytes);
    const stream = Readable.from(backlog.drain(body), { objectMode: false, highWaterMark: 1 });
    // Ended by closing the response: the stream's own destroy() waits for its generator's pending
    // next(), the next event or graphql-sse's 12-second ping, before anything reaches the client.
    const response = ctx.res;
    streams.set(ctx, {
      backlog,
      cutOff() {
        if (response.destroyed) return;
        deps.metrics.liveCutOff('slow_consumer');
        response.destroy();
      },
    });
    deps.metrics.liveSocket(1);
    const unwatch = deps.watch.watch(ctx.get('Authorization'), () => {
      deps.metrics.liveCutOff('credential');
      response.destroy();
    });
    open.add(response);
    response.once('close', () => {
      open.delete(response);
      deps.metrics.liveSocket(-1);
      unwatch();
      void body.return(undefined);
    });
    ctx.body = stream;
  };
  return {
    middleware,
    /** Ends every open stream (at shutdown: the listener waits for open responses). */
    close() {
      for (const response of open) response.destroy();
    },
  };

  function refusals(errors: readonly GraphQLError[], ctx: AppContext) {
    return errors.map((error) => formatLiveError(error, ctx.state.log, deps.outage));
  }
}
