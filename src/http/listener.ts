import { createServer as createHttpServer, type IncomingMessage, type RequestListener, type ServerOptions } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type Server, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ConnectionLimits } from '../config.ts';
import { clientAddressKey } from './client-address.ts';
import { answerClientErrors, MAX_HEADER_BYTES } from './client-errors.ts';
import { lingerOverUnreadBodies } from './linger.ts';
import { TLS_POLICY, type TlsMaterial } from './tls.ts';

const TLS_HANDSHAKE = 0x16;

/** Takes over a connection that asks to upgrade (a WebSocket), with the bytes read past its headers. */
export type UpgradeListener = (request: IncomingMessage, socket: Duplex, head: Buffer) => void;
/** How often Node looks for requests past their header or request deadline. */
const DEADLINE_CHECK_MS = 500;

/**
 * One port for both: a connection that opens with a TLS handshake goes to the HTTPS server; any other
 * goes to a plain HTTP server running the same app, whose TLS guard refuses it with a clear error
 * (or, behind a trusted proxy, lets X-Forwarded-Proto decide). So plain HTTP never reaches a handler
 * and the caller learns why, instead of seeing a broken handshake.
 *
 * Slow or greedy clients are cut off: a connection must send its first byte and finish the TLS
 * handshake within `handshakeTimeoutMs`, each request's headers must arrive within `headersTimeoutMs`
 * and the whole request within `requestTimeoutMs`, an idle kept-alive connection is closed after
 * `keepAliveTimeoutMs`, and one peer address (an IPv6 peer: its /64) may hold at most `maxPerAddress`
 * connections.
 */
export function createListener(tls: TlsMaterial, app: RequestListener, limits: ConnectionLimits, upgrade?: UpgradeListener): { server: Server; closeIdle(): void } {
  const options: ServerOptions = {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: DEADLINE_CHECK_MS,
    maxHeaderSize: MAX_HEADER_BYTES,
  };
  const https = createHttpsServer({ ...options, ...TLS_POLICY, handshakeTimeout: limits.handshakeTimeoutMs, cert: tls.cert, key: tls.key }, app);
  const http = createHttpServer(options, app);
  // Only over TLS: a plain-HTTP upgrade is an ordinary request, which the TLS guard refuses.
  if (upgrade) https.on('upgrade', upgrade);
  for (const inner of [https, http]) {
    answerClientErrors(inner, limits);
    lingerOverUnreadBodies(inner);
    // Node tracks connections, and so enforces the header and request deadlines (and can close idle
    // connections), only once a server emits 'listening'. These two never listen: the server below
    // hands them their connections.
    inner.emit('listening');
  }
  const admit = capPerAddress(limits.maxPerAddress);
  const server = createNetServer((socket: Socket) => {
    socket.once('error', () => socket.destroy());
    if (!admit(socket)) {
      socket.destroy();
      return;
    }
    const giveUp = () => socket.destroy();
    socket.setTimeout(limits.handshakeTimeoutMs);
    socket.once('timeout', giveUp);
    socket.once('data', (first: Buffer) => {
      socket.setTimeout(0);
      socket.off('timeout', giveUp);
      socket.pause();
      socket.unshift(first);
      (first[0] === TLS_HANDSHAKE ? https : http).emit('connection', socket);
      process.nextTick(() => socket.resume());
    });
  });
  // Deadlines stay enforced while connections drain at shutdown; their checks stop once all are gone.
  server.once('close', () => {
    https.close();
    http.close();
  });
  return {
    server,
    closeIdle() {
      https.closeIdleConnections();
      http.closeIdleConnections();
    },
  };
}

/** Counts open connections per peer address (an IPv6 peer by its /64); admits a new one while its address is under `max` (0: always). */
function capPerAddress(max: number): (socket: Socket) => boolean {
  const open = new Map<string, number>();
  return (socket) => {
    if (max === 0) return true;
    const address = clientAddressKey(socket.remoteAddress ?? '');
    const count = open.get(address) ?? 0;
    if (count >= max) return false;
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
    return true;
  };
}
