import { jsonLength } from './result-size.ts';

/**
 * The events of one SSE stream that graphql-sse has queued but the client has not taken yet.
 * graphql-sse takes every event of a subscription as it comes and queues it in memory for the
 * response, which pulls one message at a time as the client reads: a client that stops reading
 * would make that queue grow without end. Each event is counted in (its JSON length, found by the
 * walk that stops at the limit) when graphql-sse takes it and counted out when the response pulls
 * it, so the stream can be cut off once more than `limitBytes` wait, as a WebSocket is.
 */
export class StreamBacklog {
  readonly #sizes: number[] = [];
  readonly #limitBytes: number;
  #bytes = 0;

  constructor(limitBytes: number) {
    this.#limitBytes = limitBytes;
  }

  /** Counts an event in; false once more than the limit waits. */
  add(result: unknown): boolean {
    const size = jsonLength(result, this.#limitBytes);
    this.#sizes.push(size);
    this.#bytes += size;
    return this.#bytes <= this.#limitBytes;
  }

  /** The response's messages, each event counted out as the response pulls it (pings and the end count nothing). */
  async *drain(messages: AsyncIterable<string>): AsyncGenerator<string> {
    for await (const message of messages) {
      if (message.startsWith('event: next')) this.#bytes -= this.#sizes.shift() ?? 0;
      yield message;
    }
  }
}
