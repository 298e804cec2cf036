/**
 * `npm run migrate`: applies pending migrations (and creates pg-boss's schema) on DATABASE_URL, or on
 * the embedded PostgreSQL under DATA_DIR, under the same advisory lock instances take at start.
 * Run it before starting instances with MIGRATE_ON_START=false.
 */
import { loadConfig } from '../src/config.ts';
import { resolveDatabase } from '../src/db/database.ts';
import { migrate, underStartupLock } from '../src/orm/orm.ts';
import { prepareQueueSchema } from '../src/jobs/queue.ts';
import { createLogger } from '../src/logger.ts';

const config = loadConfig();
const logger = createLogger('warn');
const database = await resolveDatabase(config, logger);
try {
  const applied = await underStartupLock(database.url, async () => {
    const names = await migrate(database.url, logger);
    await prepareQueueSchema(database.url);
    return names;
  });
  console.log(applied.length > 0 ? `applied ${applied.length} migration(s): ${applied.join(', ')}` : 'the database is up to date');
} finally {
  await database.stop();
}
