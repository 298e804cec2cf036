import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** After the answer, a client still sending gets this long before the connection is cut: closing on unread bytes resets it, and the reset could destroy the answer in flight. */
export const LINGER_MS = 1_000;
/** …and at most this many bytes of its body are read and discarded meanwhile. */
const LINGER_BYTES = 16 * 1024 * 1024;

/**
 * Reads the rest of a request body the app refused without reading (a 413, a 401 on an upload)
 * before a closing connection is closed. Node closes the socket as soon as such an answer is written
 * (Connection: close, HTTP/1.0), and bytes still arriving make the kernel reset the connection: the
 * client then sees EPIPE or ECONNRESET instead of the answer. Node already discards the unread body;
 * the close now waits for its end, for at most LINGER_MS and LINGER_BYTES.
 */
export function lingerOverUnreadBodies(server: Server): void {
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    // Before Node's own 'finish' listener, which closes the connection after the last answer.
    response.prependOnceListener('finish', () => {
      if (!request.complete) closeOnceRead(request);
    });
  });
}

/** Defers Node's close of the request's socket (destroySoon) until the request has been read, within the bounds. */
function closeOnceRead(request: IncomingMessage): void {
  // A request whose client went away has no socket left to close.
  const socket = request.socket as (Socket & { destroySoon?: () => void }) | null;
  const close = socket?.destroySoon?.bind(socket);
  if (!socket || !close) return;
  socket.destroySoon = () => {
    socket.destroySoon = close;
    // The connection was kept alive past this request after all, and a later answer closes it.
    if (request.complete) {
      close();
      return;
    }
    const cut = () => socket.destroy();
    const timer = setTimeout(cut, LINGER_MS).unref();
    let read = 0;
    request.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read > LINGER_BYTES) cut();
    });
    request.once('end', close);
    socket.once('close', () => clearTimeout(timer));
  };
}
