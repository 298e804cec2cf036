/**
 * `npm run migrations:check` — fails when the entities and the committed migrations disagree.
 * `npm run migration:create` — writes a migration for the difference into src/db/migrations.
 * Both run against a throwaway database: DATABASE_URL's server when set, otherwise embedded PostgreSQL.
 */
import { MikroORM } from '@mikro-orm/postgresql';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/logger.ts';
import { ormConfig } from '../src/orm/orm.ts';
import { openScratchServer } from '../src/db/scratch.ts';

const command = process.argv[2];
if (command !== 'check' && command !== 'create') {
  console.error('usage: node scripts/migrations.ts check|create');
  process.exit(2);
}
const config = loadConfig();
const logger = createLogger('warn');
const server = await openScratchServer(config.dataDir, 'migrations', logger, config.databaseUrl);
const database = await server.createDatabase();
const orm = await MikroORM.init(ormConfig(database.url, { poolMax: 2 }));
let exitCode = 0;
try {
  await orm.migrator.up();
  if (command === 'create') {
    const result = await orm.migrator.create();
    console.log(result.fileName ? `wrote src/db/migrations/${result.fileName}` : 'entities and migrations agree: nothing to write');
  } else {
    const pending = await orm.schema.getUpdateSchemaSQL({ wrap: false });
    if (pending.trim()) {
      console.error(`Entities and migrations disagree. Run \`npm run migration:create\`. Missing SQL:\n${pending}`);
      exitCode = 1;
    } else {
      console.log('migrations check: entities and migrations agree');
    }
  }
} finally {
  await orm.close();
  await server.dropDatabase(database.name);
  await server.stop();
}
process.exit(exitCode);
