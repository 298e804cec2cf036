import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { BODY_LIMIT, BODY_SHAPES, bodyOf, describeShape, sendBody, statusOf } from '../support/body-shapes.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const ca = readFileSync(inject('tls').certFile, 'utf8');

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ HEADERS_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '1000', KEEP_ALIVE_TIMEOUT_MS: '1000' });
});
afterAll(() => app?.stop());

describe('every body shape leaves the service answering', () => {
  // A silent client waits out the request timeout whatever the path: once is enough.
  it.each([
    ['/v1/profiles', BODY_SHAPES],
    ['/v1/graphql', BODY_SHAPES.filter(({ ending }) => ending !== 'goes silent')],
    ['/v1/nothing-here', BODY_SHAPES.filter(({ ending }) => ending !== 'goes silent')],
  ])('%s: sized and chunked bodies, under and over 1 MiB, whole, cut short (and on one path gone silent)', async (path, shapes) => {
    for (const shape of shapes) {
      const name = describeShape(shape);
      const received = await sendBody({ port: app.service.port, ca, apiKey: app.apiKey }, path, shape);
      if (shape.ending === 'whole' && shape.bytes > BODY_LIMIT) {
        expect(statusOf(received), name).toBe('413');
        expect(bodyOf(received), name).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', requestId: expect.any(String), errorId: expect.any(String) });
      }
      // Read and judged on its content: a profile refused for its name, a GraphQL document refused, a path unknown.
      if (shape.ending === 'whole' && shape.bytes < BODY_LIMIT) expect(statusOf(received), name).toMatch(/^(400|404|422)$/);
      // A silent client gets the request timeout, or the 413 as soon as its size alone is too much.
      if (shape.ending === 'goes silent') expect(statusOf(received), name).toMatch(/^(408|413)$/);
      expect((await app.http.get('/healthz')).status, name).toBe(200);
    }
  });
});
