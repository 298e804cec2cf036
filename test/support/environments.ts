import { MikroORM } from '@mikro-orm/postgresql';
import { ormConfig } from '../../src/orm/orm.ts';
import { encodeId } from '../../src/lib/ids.ts';
import { EnvironmentAdmin } from '../../src/modules/environment/environment.service.ts';
import type { TestApp } from './test-app.ts';

/** Runs operator actions (what `npm run cli` does) against a test app's database. */
export async function asOperator<T>(app: TestApp, action: (admin: EnvironmentAdmin) => Promise<T>): Promise<T> {
  const orm = await MikroORM.init(ormConfig(app.service.orm.config.get('clientUrl')!, { poolMax: 1 }));
  try {
    return await action(new EnvironmentAdmin(orm.em.fork()));
  } finally {
    await orm.close();
  }
}

/** A second environment with a key of its own, for isolation tests. */
export async function createEnvironmentWithKey(app: TestApp, mode: 'SANDBOX' | 'PRODUCTION' = 'SANDBOX') {
  return asOperator(app, async (admin) => {
    const environment = await admin.createEnvironment(`Env ${Date.now()}`, mode);
    const environmentId = encodeId('environment', environment.id);
    const { key, secret } = await admin.createKey(environmentId, 'test key');
    return { environmentId, apiKey: secret, apiKeyId: encodeId('apiKey', key.id) };
  });
}
