import { fileURLToPath } from 'node:url';
import { Migrator } from '@mikro-orm/migrations';
import { defineConfig, MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { entities } from './entities.ts';
import { countStatement } from './query-stats.ts';

export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations', import.meta.url));

/** The ORM configuration for a database URL; shared by the service, the CLI scripts and the tests. */
export function ormConfig(clientUrl: string, options: { poolMax?: number } = {}) {
  return defineConfig({
    clientUrl,
    entities,
    extensions: [Migrator],
    pool: { min: 0, max: options.poolMax ?? 10 },
    migrations: {
      path: MIGRATIONS_DIR,
      glob: '*.ts',
      tableName: 'mikro_orm_migrations',
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      emit: 'ts',
      silent: true,
    },
    // Request code forks an EntityManager per request; the global one must never hold state.
    allowGlobalContext: false,
    forceUtcTimezone: true,
    onQuery: countStatement,
    ensureDatabase: false,
  });
}

/** Connects and applies every pending migration. */
export async function openDatabase(clientUrl: string, logger: Logger): Promise<MikroORM> {
  const orm = await MikroORM.init(ormConfig(clientUrl));
  const applied = await orm.migrator.up();
  if (applied.length > 0) logger.info({ migrations: applied.map((m) => m.name) }, 'applied database migrations');
  return orm;
}
