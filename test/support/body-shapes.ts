import { connect } from 'node:tls';

export const BODY_LIMIT = 1024 * 1024;
/** Past every request timeout the body-shape tests set: a connection still open by then was never going to be closed. */
const BOUND_MS = 10_000;

export type Framing = 'sized' | 'chunked';
/** What the client does after the headers: sends the whole body, sends half of it and closes, or sends half and goes silent. */
export type Ending = 'whole' | 'closes early' | 'goes silent';
export interface BodyShape {
  framing: Framing;
  bytes: number;
  ending: Ending;
}

/** Every shape: sized and chunked, under and over the limit, whole, cut short and gone silent. */
export const BODY_SHAPES: BodyShape[] = (['sized', 'chunked'] as const).flatMap((framing) =>
  [1000, 2 * BODY_LIMIT].flatMap((bytes) => (['whole', 'closes early', 'goes silent'] as const).map((ending) => ({ framing, bytes, ending }))),
);

export const describeShape = ({ framing, bytes, ending }: BodyShape) => `${framing} ${bytes} bytes, ${ending}`;
export const statusOf = (received: string) => /^HTTP\/1\.1 (\d{3})/.exec(received)?.[1];
export const bodyOf = (received: string) => JSON.parse(received.split('\r\n\r\n')[1]!) as Record<string, unknown>;

/**
 * Sends one POST over a connection of its own, its body (JSON bytes) framed and ended as the shape
 * says, and returns what the server sent before it closed the connection.
 */
export async function sendBody(target: { port: number; ca: string; apiKey?: string }, path: string, { framing, bytes, ending }: BodyShape): Promise<string> {
  const socket = await new Promise<ReturnType<typeof connect>>((resolve, reject) => {
    const opened = connect({ host: '127.0.0.1', port: target.port, servername: 'localhost', ca: target.ca }, () => resolve(opened));
    opened.once('error', reject);
  });
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
  socket.on('error', () => {}); // writes racing the server's close: what counts is what arrived
  const closed = new Promise<void>((resolve) => {
    const bound = setTimeout(() => {
      socket.destroy();
      resolve();
    }, BOUND_MS);
    socket.once('close', () => {
      clearTimeout(bound);
      resolve();
    });
  });
  const framingHeader = framing === 'sized' ? `Content-Length: ${bytes}` : 'Transfer-Encoding: chunked';
  socket.write(`POST ${path} HTTP/1.1\r\nHost: localhost\r\n${target.apiKey ? `Authorization: Bearer ${target.apiKey}\r\n` : ''}Content-Type: application/json\r\n${framingHeader}\r\nConnection: close\r\n\r\n`);
  const body = Buffer.from(`{"name":"${'x'.repeat(bytes - 11)}"}`);
  const sent = ending === 'whole' ? body.length : Math.floor(body.length / 2);
  const piece = 64 * 1024;
  for (let offset = 0; offset < sent; offset += piece) {
    const part = body.subarray(offset, Math.min(sent, offset + piece));
    socket.write(framing === 'chunked' ? Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]) : part);
  }
  if (ending === 'whole' && framing === 'chunked') socket.write('0\r\n\r\n');
  if (ending === 'closes early') socket.destroy();
  await closed;
  return received;
}
