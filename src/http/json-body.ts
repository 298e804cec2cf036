import type { Middleware } from 'koa';
import { badRequest, payloadTooLarge, unsupportedMediaType } from '../errors.ts';
import type { AppState } from './state.ts';

const LIMIT_BYTES = 1024 * 1024;

/**
 * Request bodies are JSON only. A request that carries a body must say `application/json`, else 415;
 * malformed JSON is a 400; over 1 MiB is a 413. A request without a body (the refresh triggers,
 * DELETE) has no body rules to follow, whatever Content-Type it names: many HTTP clients send
 * `application/json` on every call. The parsed value lands in `ctx.state.body`, its bytes in
 * `ctx.state.rawBody`.
 */
export function jsonBody(): Middleware<AppState> {
  return async (ctx, next) => {
    const contentType = ctx.get('Content-Type');
    const hasBody = ctx.request.length > 0 || ctx.get('Transfer-Encoding') !== '';
    if (ctx.method === 'GET' || ctx.method === 'HEAD' || !hasBody) {
      await next();
      return;
    }
    if (!ctx.is('application/json')) {
      throw unsupportedMediaType(`Content-Type must be application/json, got ${contentType ? `"${contentType.slice(0, 80)}"` : 'none'}`);
    }
    if (ctx.request.length > LIMIT_BYTES) throw payloadTooLarge(`Request body is larger than ${LIMIT_BYTES} bytes`);
    const raw = await readBody(ctx.req.iterator({ destroyOnReturn: false }));
    ctx.state.rawBody = raw;
    if (raw.length > 0) {
      try {
        ctx.state.body = JSON.parse(raw.toString('utf8'));
      } catch {
        throw badRequest('Request body is not valid JSON', { instruction: 'Send a JSON document, e.g. {"metadata": {"plan": "gold"}}.' });
      }
    }
    await next();
  };
}

/**
 * Reads the body up to the limit. Past it, the request is left open, not destroyed: destroying it
 * would destroy the socket under the 413 about to be written, and the connection's close then waits
 * for the rest of the body (linger.ts).
 */
async function readBody(stream: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.length;
    if (size > LIMIT_BYTES) throw payloadTooLarge(`Request body is larger than ${LIMIT_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
