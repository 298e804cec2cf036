import { readFileSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { BODY_LIMIT, BODY_SHAPES, describeShape, sendBody, statusOf } from '../support/body-shapes.ts';
import { withServiceProcess } from '../support/service-process.ts';

// The probe that found a chunked body over 1 MiB ending the process ran against `npm start`: here the
// service is a process of its own, so an uncaught error would end it rather than fail a test's worker.
const ca = readFileSync(inject('tls').certFile, 'utf8');
const tier = withServiceProcess({ HEADERS_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '1000' });

describe('the service process and every body shape', () => {
  it('stays up and answers /healthz after each shape, with or without a key', { timeout: 60_000 }, async () => {
    const apiKey = /\n {4}(sk_\S+)\n/.exec(tier.service.banner)![1]!;
    for (const [path, key] of [['/v1/profiles', apiKey], ['/v1/graphql', undefined]] as const) {
      for (const shape of BODY_SHAPES) {
        const received = await sendBody({ port: tier.service.port, ca, apiKey: key }, path, shape);
        if (shape.ending === 'whole' && shape.bytes > BODY_LIMIT) expect(statusOf(received), describeShape(shape)).toBe('413');
        expect(tier.service.child.exitCode, describeShape(shape)).toBeNull();
        expect((await tier.http.get('/healthz')).status, describeShape(shape)).toBe(200);
      }
    }
  });
});
