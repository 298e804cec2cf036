/**
 * Operator CLI: `npm run cli -- <command>`. Works on DATABASE_URL, or on the embedded PostgreSQL under
 * DATA_DIR (sharing it with a running service). Secrets are printed once, to stdout, and never logged.
 */
import { parseArgs } from 'node:util';
import { MikroORM } from '@mikro-orm/postgresql';
import { loadConfig } from '../src/config.ts';
import { resolveDatabase } from '../src/db/database.ts';
import { ormConfig } from '../src/orm/orm.ts';
import { encodeId } from '../src/lib/ids.ts';
import { createLogger } from '../src/logger.ts';
import type { ApiKeyEntity } from '../src/modules/environment/api-key.entity.ts';
import { EnvironmentAdmin, OperatorError } from '../src/modules/environment/environment.service.ts';
import { loadSecrets } from '../src/secrets.ts';
import { providerFactories } from '../src/providers/factories.ts';
import { reencryptCommand } from './cli/encryption.ts';
import { providersCommand } from './cli/providers.ts';

const USAGE = `usage: npm run cli -- <command> [options]
  environments list
  environments create --name <name> --mode SANDBOX|PRODUCTION
  environments beta <env_…> transactions-refresh on|off
  keys list --environment <env_…>
  keys create --environment <env_…> [--name <name>] [--version <YYYY-MM-DD>]
  keys import --environment <env_…> --secret <older-generation secret> [--name <name>]
  keys revoke <key_…>
  keys set-version <key_…> <YYYY-MM-DD>
  encryption reencrypt   (every encrypted value to the current format and the first key of ENCRYPTION_KEYS)
  providers list <env_…>
  providers set <env_…> plaid --client-id <id> --secret <secret> --plaid-env sandbox|production [--base-url <https://…>]
  providers set <env_…> simplefin [--allowed-hosts bridge.simplefin.org]
  providers remove <env_…> plaid|simplefin`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    name: { type: 'string' },
    mode: { type: 'string' },
    environment: { type: 'string' },
    version: { type: 'string' },
    secret: { type: 'string' },
    'client-id': { type: 'string' },
    'plaid-env': { type: 'string' },
    'base-url': { type: 'string' },
    'allowed-hosts': { type: 'string' },
  },
});

const describeKey = (key: ApiKeyEntity) =>
  `${encodeId('apiKey', key.id)}  ${key.generation.padEnd(7)}  …${key.lastFour}  version ${key.apiVersion}  ${key.revokedAt ? `revoked ${key.revokedAt.toISOString()}` : 'active'}  ${key.name}`;

const required = (value: string | undefined, flag: string): string => {
  if (!value) throw new OperatorError(`--${flag} is required`);
  return value;
};

const config = loadConfig();
const database = await resolveDatabase(config, createLogger('warn'));
const orm = await MikroORM.init(ormConfig(database.url, { poolMax: 2 }));
await orm.migrator.up();
const admin = new EnvironmentAdmin(orm.em.fork());
let exitCode = 0;
try {
  const [noun, verb, ...rest] = positionals;
  switch (`${noun} ${verb}`) {
    case 'environments list':
      for (const env of await admin.listEnvironments()) {
        console.log(`${encodeId('environment', env.id)}  ${env.mode.padEnd(10)}  ${env.transactionsRefreshBeta ? 'beta:transactions-refresh  ' : ''}${env.name}`);
      }
      break;
    case 'environments create': {
      const env = await admin.createEnvironment(required(values.name, 'name'), required(values.mode, 'mode'));
      console.log(`created environment ${encodeId('environment', env.id)} (${env.mode})`);
      break;
    }
    case 'environments beta': {
      const [environmentId, feature, state] = rest;
      if (feature !== 'transactions-refresh' || (state !== 'on' && state !== 'off')) throw new OperatorError('usage: environments beta <env_…> transactions-refresh on|off');
      const env = await admin.setTransactionsRefreshBeta(required(environmentId, 'environment id (positional)'), state === 'on');
      console.log(`${encodeId('environment', env.id)}: transactions refresh beta ${env.transactionsRefreshBeta ? 'on' : 'off'}`);
      break;
    }
    case 'keys list':
      for (const key of await admin.listKeys(required(values.environment, 'environment'))) console.log(describeKey(key));
      break;
    case 'keys create': {
      const { key, secret } = await admin.createKey(required(values.environment, 'environment'), values.name ?? 'API key', values.version);
      console.log(`created ${describeKey(key)}\n\nSecret (shown this once; store it now):\n\n  ${secret}\n`);
      break;
    }
    case 'keys import': {
      const key = await admin.importLegacyKey(required(values.environment, 'environment'), values.name ?? 'Imported key', required(values.secret, 'secret'));
      console.log(`imported ${describeKey(key)}`);
      break;
    }
    case 'keys revoke':
      console.log(`revoked ${describeKey(await admin.revokeKey(required(rest[0], 'key id (positional)')))}`);
      break;
    case 'keys set-version':
      console.log(describeKey(await admin.setKeyVersion(required(rest[0], 'key id (positional)'), required(rest[1], 'version (positional)'))));
      break;
    case 'encryption reencrypt':
      exitCode = await reencryptCommand(database.url, loadSecrets(config).cipher);
      break;
    default:
      if (noun === 'providers') {
        await providersCommand(orm.em.fork(), loadSecrets(config).cipher, providerFactories(config), verb, rest, values);
        break;
      }
      console.error(USAGE);
      exitCode = 2;
  }
} catch (error) {
  if (!(error instanceof OperatorError)) throw error;
  console.error(`error: ${error.message}`);
  exitCode = 1;
} finally {
  await orm.close();
  await database.stop();
}
process.exit(exitCode);
