import { createServer as createHttpServer, type RequestListener } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type Server, type Socket } from 'node:net';
import type { TlsMaterial } from './tls.ts';

const TLS_HANDSHAKE = 0x16;

/**
 * One port for both: a connection that opens with a TLS handshake goes to the HTTPS server; any other
 * goes to a plain HTTP server running the same app, whose TLS guard refuses it with a clear error
 * (or, behind a trusted proxy, lets X-Forwarded-Proto decide). So plain HTTP never reaches a handler
 * and the caller learns why, instead of seeing a broken handshake.
 */
export function createListener(tls: TlsMaterial, app: RequestListener): { server: Server; closeIdle(): void } {
  const https = createHttpsServer({ cert: tls.cert, key: tls.key }, app);
  const http = createHttpServer(app);
  for (const inner of [https, http]) {
    inner.keepAliveTimeout = 5_000;
    inner.headersTimeout = 10_000;
    inner.requestTimeout = 30_000;
  }
  const server = createNetServer((socket: Socket) => {
    socket.once('error', () => socket.destroy());
    socket.once('data', (first: Buffer) => {
      socket.pause();
      socket.unshift(first);
      (first[0] === TLS_HANDSHAKE ? https : http).emit('connection', socket);
      process.nextTick(() => socket.resume());
    });
  });
  return {
    server,
    closeIdle() {
      https.closeIdleConnections();
      http.closeIdleConnections();
      https.close();
      http.close();
    },
  };
}
