/**
 * `npm run bench:auth` — what authentication and rate limiting cost per request, measured in one run
 * against the same work without them. Runs the real CredentialResolver and FixedWindowLimiter on a
 * real (embedded or TEST_DATABASE_ADMIN_URL) PostgreSQL; prints microseconds per request.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import { ormConfig } from '../../src/orm/orm.ts';
import { openScratchServer } from '../../src/db/scratch.ts';
import { CredentialResolver } from '../../src/http/credentials.ts';
import { FixedWindowLimiter, MemoryCounterStore } from '../../src/lib/fixed-window.ts';
import { createLogger } from '../../src/logger.ts';
import { bootstrap } from '../../src/modules/environment/bootstrap.ts';
import { SessionKeyRing } from '../../src/lib/session-keys.ts';
import { SessionTokens } from '../../src/modules/session/session-token.ts';

const ROUNDS = 20_000;
const dataDir = path.resolve('.data');
const server = await openScratchServer(dataDir, 'bench', createLogger('warn'), process.env.TEST_DATABASE_ADMIN_URL);
const database = await server.createDatabase();
const orm = await MikroORM.init(ormConfig(database.url, { poolMax: 2 }));
try {
  await orm.migrator.up();
  const { created } = await bootstrap(orm, mkdtempSync(path.join(tmpdir(), 'tributary-bench-')));
  const header = `Bearer ${created!.apiKey}`;
  const resolver = new CredentialResolver(new SessionTokens(SessionKeyRing.ofSecret('x'.repeat(32))));
  const limiter = new FixedWindowLimiter(new MemoryCounterStore());
  const admitAll = async () => {};

  const time = async (label: string, work: (i: number) => Promise<unknown>) => {
    for (let i = 0; i < 500; i++) await work(i);
    const started = performance.now();
    for (let i = 0; i < ROUNDS; i++) await work(i);
    const micros = ((performance.now() - started) * 1000) / ROUNDS;
    return { label, micros };
  };
  const baseline = await time('baseline: fork an EntityManager (every request does)', async () => orm.em.fork());
  const anonymous = await time('anonymous: rate limit by client address', async (i) => {
    orm.em.fork();
    return limiter.hit(`ip:${i % 1000}`, 1e9);
  });
  const cached = await time('API key (cached) + rate limit', async () => {
    const em = orm.em.fork();
    const credential = await (await resolver.claim(header)).resolve(() => em, admitAll);
    return limiter.hit(`key:${(credential as { apiKeyId: string }).apiKeyId}`, 1e9);
  });
  const uncached = await time('API key (database lookup) + rate limit', async () => {
    const em = orm.em.fork();
    const credential = await (await new CredentialResolver(new SessionTokens(SessionKeyRing.ofSecret('x'.repeat(32)))).claim(header)).resolve(() => em, admitAll);
    return limiter.hit(`key:${(credential as { apiKeyId: string }).apiKeyId}`, 1e9);
  });
  console.log(`auth + rate limiting cost per request (${ROUNDS} rounds, same run):`);
  for (const row of [baseline, anonymous, cached, uncached]) {
    console.log(`  ${row.label.padEnd(56)} ${row.micros.toFixed(1).padStart(8)} µs  (+${(row.micros - baseline.micros).toFixed(1)} µs)`);
  }
} finally {
  await orm.close();
  await server.dropDatabase(database.name);
  await server.stop();
}
