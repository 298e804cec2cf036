import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { beforeAll, expect, inject, it } from 'vitest';
import { httpClient } from '../support/http-client.ts';
import { processFixture, startServiceProcess } from '../support/service-process.ts';

const run = promisify(execFile);

/**
 * What production runs (the image, compose, `npm start`): the compiled service under dist/, started
 * by scripts/start.sh. It must find, beside the compiled code, everything it reads at run time — the
 * migrations, both contracts, the pages' HTML. The other process tests run the TypeScript sources;
 * this one builds dist/ when it is stale, migrates an empty database with dist/scripts/migrate.js
 * and starts the build without migrating, as compose does.
 */
// Type-checking and emitting the whole service takes a while on a busy machine; a fresh dist/ is reused.
beforeAll(() => run(process.execPath, ['scripts/build.ts', '--if-stale'], { timeout: 170_000 }), 180_000);

it('the build migrates an empty database, serves the contracts and pages, and stops cleanly', async () => {
  const fixture = await processFixture({ migrated: false });
  try {
    const env = { ...process.env, DATABASE_URL: fixture.databaseUrl, DATA_DIR: fixture.dataDir, NODE_ENV: 'development' };
    const { stdout } = await run(process.execPath, ['dist/scripts/migrate.js'], { env, timeout: 60_000 });
    const migrations = readdirSync('src/db/migrations').filter((file) => file.endsWith('.ts'));
    expect(stdout).toContain(`applied ${migrations.length} migration(s)`);

    const service = await startServiceProcess(fixture, { MIGRATE_ON_START: 'false' }, { command: ['sh', 'scripts/start.sh'] });
    const apiKey = /\n {4}(sk_\S+)/.exec(service.banner)![1]!;
    const http = httpClient(`https://localhost:${service.port}`, readFileSync(inject('tls').certFile, 'utf8'));
    expect((await http.get('/latest/rest.yaml')).text).toBe(readFileSync('contracts/rest.yaml', 'utf8'));
    expect((await http.get('/latest/schema.graphql')).text).toBe(readFileSync('contracts/schema.graphql', 'utf8'));
    // The banner names the pages a newcomer opens next, and each of them answers a browser.
    const pages = [...service.banner.matchAll(/^(?:Connect page|GraphiQL|REST reference): +https:\/\/localhost:\d+(\/[^\s#]*)/gm)].map((match) => match[1]!);
    expect(pages).toEqual(['/connector', '/v1/graphql', '/docs']);
    for (const page of pages) expect((await http.get(page, { headers: { Accept: 'text/html' } })).text).toMatch(/^<!doctype html>/i);
    const typename = await http.post('/v1/graphql', { auth: apiKey, json: { query: '{ __typename }' } });
    expect(typename.body).toEqual({ data: { __typename: 'Query' } });
    http.close();
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
  } finally {
    await fixture.cleanup();
  }
});
