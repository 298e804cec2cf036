import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { GraphQLError } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer, type WebSocket } from 'ws';
import { AppError, type ErrorCode } from '../errors.ts';
import { clientAddressKey } from '../http/client-address.ts';
import { renderClientError } from '../http/client-errors.ts';
import type { CredentialResolver } from '../http/credentials.ts';
import type { CredentialWatch } from './credential-watch.ts';
import { newRequestId } from '../http/request-context.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { requestError } from './errors.ts';
import { LIMITS } from './limits.ts';
import { formatLiveError } from './live-errors.ts';
import { actsAsProfile, liveOperation, type LiveDependencies, type ProfileCredential } from './live-operations.ts';
import { eventResult } from './live-results.ts';
import type { LiveSeats } from './live-seats.ts';

/** Where graphql-ws is served: the GraphQL path itself, upgraded to a WebSocket. */
export const LIVE_SOCKET_PATH = '/v1/graphql';

/** The limits the contract's Subscription description promises. */
export const LIVE_LIMITS = {
  initWaitMs: 10_000,
  messageBytes: 64 * 1024,
  subscriptionsPerSocket: 20,
  socketsPerAddress: 20,
  /** WebSockets and SSE streams of one profile together (LiveSeats). */
  connectionsPerProfile: 50,
  /**
   * Bytes sent but not yet taken by the client; past it the client is cut off. Twice an event's
   * largest size (LIMITS.responseBytes): a client taking one such event is not cut off for it.
   */
  bufferedBytes: 2 * LIMITS.responseBytes,
  /** graphql-ws pings this often; a peer that has not answered by the next ping is cut off. */
  keepAliveMs: 12_000,
} as const;

/** How often idle sockets are looked for. */
const IDLE_SWEEP_MS = 1000;

/** Why a profile's connection past its seats is refused (a WebSocket's close reason: at most 123 bytes). */
export const PROFILE_CAP = `At most ${LIVE_LIMITS.connectionsPerProfile} live-update connections per profile (sockets and streams together)`;

/**
 * WebSocket close codes beyond graphql-ws's own (4400 bad request, 4401, 4403, 4408 init timeout, …).
 * `tryAgainLater` (1013) is the one a graphql-ws client retries with back-off, where it gives up on
 * 1008 and on graphql-ws's 4429 (which means a second connection_init, not a rate limit).
 */
const CLOSE = { policy: 1008, normal: 1000, tryAgainLater: 1013 } as const;

interface Watched {
  credential: ProfileCredential;
  idleSince: number | undefined;
  subscriptions(): number;
}

export interface LiveSockets {
  /** The HTTPS server's `upgrade` event: a WebSocket on LIVE_SOCKET_PATH, refused anywhere else. */
  upgrade: (request: IncomingMessage, socket: Duplex, head: Buffer) => void;
  close(): Promise<void>;
}

/**
 * GraphQL subscriptions over WebSocket (graphql-ws's `graphql-transport-ws` protocol, served by the
 * library): the credential comes in `connection_init`'s payload as `authorization`, checked like an
 * Authorization header, and re-checked every second so a revoked or expired one closes its sockets
 * (4401). An API key alone acts as no profile: 4403. Sockets per address, a profile's sockets and
 * streams (`seats`), subscriptions per socket and message size are capped; an event's result is held
 * to the response limit (eventResult); a client that does not read what it is sent is cut off, and
 * a socket without subscriptions is closed after `idleMs` (LIVE_IDLE_TIMEOUT_MS). A credential this
 * process does not know valid is looked up only once `admitLookup` admits it (the client address's
 * credential-lookup budget, shared with HTTP); a refusal closes the socket with 1013 and a reason
 * saying when to retry.
 */
export function liveSockets(
  deps: LiveDependencies & {
    credentials: CredentialResolver;
    admitLookup: (request: IncomingMessage) => Promise<void>;
    watch: CredentialWatch;
    seats: LiveSeats;
    metrics: Metrics;
    capPerAddress: boolean;
    idleMs: number;
  },
): LiveSockets {
  const { credentials, seats, metrics, logger } = deps;
  const wss = new WebSocketServer({ noServer: true, maxPayload: LIVE_LIMITS.messageBytes, clientTracking: true });
  const watched = new Map<WebSocket, Watched>();
  const perAddress = new Map<string, number>();
  const cutOff = (socket: WebSocket, reason: Parameters<Metrics['liveCutOff']>[0], code: number, message: string) => {
    metrics.liveCutOff(reason);
    socket.close(code, message);
  };

  const server = useServer<{ authorization?: unknown } | undefined>(
    {
      isProd: true,
      connectionInitWaitTimeout: LIVE_LIMITS.initWaitMs,
      async onConnect(ctx) {
        const { socket } = ctx.extra;
        const header = ctx.connectionParams?.authorization;
        if (typeof header !== 'string' || header.length > 8192) {
          cutOff(socket, 'credential', 4401, 'Send {"authorization": "Bearer <session token>"} or Basic credentials in connection_init');
          return false;
        }
        let credential;
        try {
          credential = await (await credentials.claim(header)).resolve(() => deps.orm.em.fork(), () => deps.admitLookup(ctx.extra.request));
        } catch (error) {
          if (error instanceof AppError && error.status === 429) {
            cutOff(socket, 'limit', CLOSE.tryAgainLater, `${error.message}: retry in ${error.headers['Retry-After']} s`);
            return false;
          }
          if (!(error instanceof AppError)) deps.outage.report(error, logger, 'Could not check a live-update credential');
          cutOff(socket, 'credential', error instanceof AppError ? 4401 : 4500, error instanceof AppError ? 'The credential is not valid, has expired or has been revoked' : 'Internal server error');
          return false;
        }
        if (!actsAsProfile(credential)) {
          cutOff(socket, 'credential', 4403, 'An API key acts as no profile: subscribe with a session token or Basic <profile id>:<API key>');
          return false;
        }
        // Closed while its credential was checked: its close has been and gone, and would never give a seat back.
        if (socket.readyState !== socket.OPEN) return false;
        const seat = seats.take(credential.profileId);
        if (!seat) {
          cutOff(socket, 'limit', CLOSE.policy, PROFILE_CAP);
          return false;
        }
        const unwatch = deps.watch.watch(header, () => cutOff(socket, 'credential', 4401, 'The credential has expired or has been revoked'));
        socket.once('close', () => {
          unwatch();
          seat();
        });
        watched.set(socket, { credential, idleSince: Date.now(), subscriptions: () => Object.keys(ctx.subscriptions).length });
        return true;
      },
      onClose(ctx) {
        watched.delete(ctx.extra.socket);
      },
      onSubscribe(ctx, _id, payload) {
        const entry = watched.get(ctx.extra.socket);
        if (!entry) return [closedError()];
        // The one being subscribed is reserved already.
        if (entry.subscriptions() > LIVE_LIMITS.subscriptionsPerSocket) {
          cutOff(ctx.extra.socket, 'limit', CLOSE.policy, `At most ${LIVE_LIMITS.subscriptionsPerSocket} subscriptions per socket`);
          return [closedError()];
        }
        entry.idleSince = undefined;
        return liveOperation(deps, entry.credential, newRequestId(), payload, ctx.extra.request.headers.host);
      },
      onComplete(ctx) {
        const entry = watched.get(ctx.extra.socket);
        // Runs before the subscription is removed: this one still counts.
        if (entry && entry.subscriptions() <= 1) entry.idleSince = Date.now();
      },
      onNext(ctx, _id, _payload, _args, result) {
        if (cutOffIfSlow(ctx.extra.socket)) return undefined;
        return eventResult(result, logger, deps.outage);
      },
      onError: (_ctx, _id, _payload, errors) => errors.map((error) => formatLiveError(error, logger, deps.outage)),
    },
    wss,
    LIVE_LIMITS.keepAliveMs,
  );

  // A consumer that stops reading: each send checks it, and so does the sweep, because once every
  // subscription of a socket waits behind its full buffer no send comes to check it.
  function cutOffIfSlow(socket: WebSocket): boolean {
    // Once cut off, the socket's buffer still reads full to the sends of its other subscriptions
    // already under way: only an open socket is cut off and counted (once).
    if (socket.readyState !== socket.OPEN || socket.bufferedAmount <= LIVE_LIMITS.bufferedBytes) return false;
    metrics.liveCutOff('slow_consumer');
    socket.terminate();
    return true;
  }

  const idleSweep = setInterval(() => {
    const now = Date.now();
    for (const [socket, entry] of watched) {
      if (cutOffIfSlow(socket)) continue;
      if (entry.idleSince !== undefined && now - entry.idleSince > deps.idleMs) socket.close(CLOSE.normal, 'Idle: no subscription');
    }
  }, IDLE_SWEEP_MS);
  idleSweep.unref();

  wss.on('connection', (socket: WebSocket, request: IncomingMessage) => {
    metrics.liveSocket(1);
    const address = clientAddressKey(request.socket.remoteAddress ?? '');
    perAddress.set(address, (perAddress.get(address) ?? 0) + 1);
    socket.once('close', () => {
      metrics.liveSocket(-1);
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left === 0) perAddress.delete(address);
      else perAddress.set(address, left);
    });
  });

  return {
    upgrade: (request, socket, head) => {
      const path = new URL(request.url ?? '/', 'https://localhost').pathname;
      if (path !== LIVE_SOCKET_PATH) return refuseUpgrade(socket, 404, 'NOT_FOUND', `WebSockets are served on ${LIVE_SOCKET_PATH} only`);
      const address = clientAddressKey(request.socket.remoteAddress ?? '');
      if (deps.capPerAddress && (perAddress.get(address) ?? 0) >= LIVE_LIMITS.socketsPerAddress) {
        metrics.liveCutOff('limit');
        return refuseUpgrade(socket, 429, 'RATE_LIMITED', `At most ${LIVE_LIMITS.socketsPerAddress} live-update sockets per address`);
      }
      wss.handleUpgrade(request, socket, head, (ws) => {
        wss.emit('connection', ws, request);
        // ws has already closed the socket with the fitting code (1009 too large, 1002 bad frame);
        // graphql-ws's own listener would print the error, stack and all, to the console.
        ws.removeAllListeners('error');
        ws.on('error', (error: NodeJS.ErrnoException) => logger.debug({ code: error.code }, 'live-update socket refused a frame'));
      });
    },
    async close() {
      clearInterval(idleSweep);
      await server.dispose();
    },
  };
}

/** For a subscription refused because its socket is being closed (a limit): the close says why. */
function closedError(): GraphQLError {
  return requestError('This socket is being closed: see its close reason', 'RATE_LIMITED');
}

/** Answers an upgrade that is refused with the contract's error body, and closes the connection. */
function refuseUpgrade(socket: Duplex, status: number, code: ErrorCode, message: string): void {
  const instruction = status === 429 ? 'Close sockets you no longer use, or wait for them to close.' : `Open the WebSocket on ${LIVE_SOCKET_PATH}.`;
  socket.end(renderClientError({ status, code, message, instruction }, true));
}
