import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, inject, it } from 'vitest';
import { httpClient } from '../support/http-client.ts';
import { processFixture, startServiceProcess } from '../support/service-process.ts';

it('npm start prints where it listens and how to authenticate, serves, and stops cleanly (exit 0, port closed) on SIGTERM', async () => {
  const fixture = await processFixture();
  try {
    const service = await startServiceProcess(fixture);
    const apiKey = /\n {4}(sk_\S+)/.exec(service.banner)![1]!;
    expect(JSON.parse(readFileSync(path.join(fixture.dataDir, 'bootstrap.json'), 'utf8')).apiKey).toBe(apiKey);
    const http = httpClient(`https://localhost:${service.port}`, readFileSync(inject('tls').certFile, 'utf8'));
    expect((await http.get('/v1/profiles', { auth: apiKey })).status).toBe(200);
    http.close();
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
    await expect(http.get('/healthz')).rejects.toThrow(/ECONNREFUSED/);
  } finally {
    await fixture.cleanup();
  }
});
