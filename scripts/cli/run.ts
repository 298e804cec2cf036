import { MikroORM } from '@mikro-orm/postgresql';
import { openBlobDriver } from '../../src/blobs/open-blob-store.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { resolveDatabase } from '../../src/db/database.ts';
import { acceptKeys, checkKeys } from '../../src/db/key-check.ts';
import { ormConfig } from '../../src/orm/orm.ts';
import { encodeId } from '../../src/lib/ids.ts';
import { createLogger } from '../../src/logger.ts';
import type { ApiKeyEntity } from '../../src/modules/environment/api-key.entity.ts';
import { EnvironmentAdmin, OperatorError } from '../../src/modules/environment/environment.service.ts';
import { loadSecrets } from '../../src/secrets.ts';
import { providerFactories } from '../../src/providers/factories.ts';
import type { Invocation } from './commands.ts';
import { reencryptCommand } from './encryption.ts';
import { providersCommand } from './providers.ts';
import { listSecrets, newSessionKey } from './secrets.ts';

const describeKey = (key: ApiKeyEntity) =>
  `${encodeId('apiKey', key.id)}  ${key.generation.padEnd(7)}  …${key.lastFour}  version ${key.apiVersion}  ${key.revokedAt ? `revoked ${key.revokedAt.toISOString()}` : 'active'}  ${key.name}`;

const required = (value: string | undefined, flag: string): string => {
  if (!value) throw new OperatorError(`--${flag} is required`);
  return value;
};

/** Runs one parsed command on the database; returns the exit code (1: the operator's input was refused). */
export async function runCommand({ command, args, values }: Extract<Invocation, { kind: 'run' }>): Promise<number> {
  const config = loadConfig();
  const database = await resolveDatabase(config, createLogger('warn'));
  const orm = await MikroORM.init(ormConfig(database.url, { poolMax: 2 }));
  await orm.migrator.up();
  const admin = new EnvironmentAdmin(orm.em.fork());
  /** The secrets of this configuration, checked like a starting service's: a command never writes values the service cannot read. */
  const checkedSecrets = async () => {
    const secrets = loadSecrets(config);
    await checkKeys(orm.em.fork(), secrets);
    return secrets;
  };
  let exitCode = 0;
  try {
    switch (command) {
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
        const [environmentId, feature, state] = args;
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
        console.log(`revoked ${describeKey(await admin.revokeKey(required(args[0], 'key id (positional)')))}`);
        break;
      case 'keys set-version':
        console.log(describeKey(await admin.setKeyVersion(required(args[0], 'key id (positional)'), required(args[1], 'version (positional)'))));
        break;
      case 'encryption reencrypt': {
        const blobs = await openBlobDriver(config);
        try {
          exitCode = await reencryptCommand(database.url, (await checkedSecrets()).cipher, blobs);
        } finally {
          blobs.close?.();
        }
        break;
      }
      case 'secrets list':
        await listSecrets(orm.em.fork(), loadSecrets(config));
        break;
      case 'secrets new-session-key':
        await newSessionKey(orm.em.fork(), loadSecrets(config), values.name);
        break;
      case 'secrets accept':
        await acceptKeys(orm.em.fork(), loadSecrets(config));
        console.log('Recorded: every process on this database must now start with these ENCRYPTION_KEYS, SESSION_KEYS and SESSION_SECRET.');
        break;
      case 'providers list':
      case 'providers set':
      case 'providers remove':
        await providersCommand(orm.em.fork(), (await checkedSecrets()).cipher, providerFactories(config), command.split(' ')[1], args, values);
    }
  } catch (error) {
    if (!(error instanceof OperatorError) && !(error instanceof ConfigError)) throw error;
    console.error(`error: ${error.message}`);
    exitCode = 1;
  } finally {
    await orm.close();
    await database.stop();
  }
  return exitCode;
}
