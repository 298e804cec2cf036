import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { TLSSocket } from 'node:tls';
import { CURRENT_VERSION, type ConnectionLimits } from '../config.ts';
import type { ErrorCode } from '../errors.ts';
import { newErrorId, type ErrorBody } from './errors.ts';
import { LINGER_MS } from './linger.ts';
import { newRequestId } from './request-context.ts';
import { NO_SNIFF, NO_STORE, STRICT_TRANSPORT } from './security-headers.ts';

/** Request line and headers larger than this are answered 431. */
export const MAX_HEADER_BYTES = 16 * 1024;

/** A refusal written straight to a connection: its status and the contract's error body. */
export interface Answer {
  status: number;
  code: ErrorCode;
  message: string;
  instruction: string;
}

/**
 * Answers what Node's HTTP parser refuses before the app sees a request — headers over 16 KiB (431),
 * a request not received within the header or request timeout (408), malformed HTTP (400) — with the
 * contract's error body, then closes the connection. Node's own answers carry no body, and on TLS
 * connections they are lost because the socket is destroyed before they are written.
 */
export function answerClientErrors(server: Server, limits: ConnectionLimits): void {
  const responses = new WeakMap<Duplex, Set<ServerResponse>>();
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const open = responses.get(request.socket) ?? new Set();
    responses.set(request.socket, open.add(response));
    response.once('close', () => open.delete(response));
  });
  const answered = new WeakSet<Duplex>();
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // The parser fails again on every later chunk: one answer per connection.
    if (answered.has(socket)) return;
    answered.add(socket);
    const answer = answerFor(error.code, limits);
    // A response already under way cannot be followed by another one on the same connection.
    const midResponse = [...(responses.get(socket) ?? [])].some((response) => response.headersSent);
    if (!answer || !socket.writable || midResponse) {
      socket.destroy();
      return;
    }
    socket.end(renderClientError(answer, socket instanceof TLSSocket));
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  });
}

function answerFor(code: string | undefined, limits: ConnectionLimits): Answer | undefined {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        code: 'HEADERS_TOO_LARGE',
        message: `The request line and headers are larger than ${MAX_HEADER_BYTES / 1024} KiB`,
        instruction: 'Send smaller headers (check cookies and tokens) and retry.',
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        status: 408,
        code: 'REQUEST_TIMEOUT',
        message: `The request did not arrive in time: headers are allowed ${limits.headersTimeoutMs / 1000} s and the whole request ${limits.requestTimeoutMs / 1000} s`,
        instruction: 'Send the request without pauses, on a new connection.',
      };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'The chunk extensions of the request body are too large', instruction: 'Send the body without chunk extensions.' };
    default:
      // Other HPE_ codes are malformed HTTP; anything else is the connection failing, with no one to answer.
      return code?.startsWith('HPE_')
        ? { status: 400, code: 'BAD_REQUEST', message: 'The request is not valid HTTP/1.1', instruction: 'Send a well-formed HTTP/1.1 request.' }
        : undefined;
  }
}

/** A whole HTTP/1.1 response carrying the contract's error body, ending the connection. */
export function renderClientError({ status, code, message, instruction }: Answer, overTls: boolean): string {
  const requestId = newRequestId();
  const body: ErrorBody = { code, message, instruction, requestId, errorId: newErrorId() };
  const json = JSON.stringify(body);
  const headers = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(json),
    Connection: 'close',
    'X-Request-Id': requestId,
    'Service-Version': CURRENT_VERSION,
    ...NO_SNIFF,
    ...NO_STORE,
    ...(overTls ? STRICT_TRANSPORT : {}),
  };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head.join('')}\r\n${json}`;
}
