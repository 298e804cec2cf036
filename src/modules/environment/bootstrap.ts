import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import { encodeId, uuidv7 } from '../../lib/ids.ts';
import { createApiKey } from './api-key.service.ts';
import { Environment } from './environment.entity.ts';
import { hasEnvironments } from './environment.store.ts';

export interface BootstrapResult {
  file: string;
  /** Present only on the start that created the environment: the key is shown this once. */
  created?: { environmentId: string; apiKey: string };
}

/**
 * First start on an empty database: creates a SANDBOX environment and an API key, and keeps
 * `{environmentId, apiKey}` in DATA_DIR/bootstrap.json (mode 0600) so later starts can say where it is.
 */
export async function bootstrap(orm: MikroORM, dataDir: string): Promise<BootstrapResult> {
  const file = path.join(dataDir, 'bootstrap.json');
  const em = orm.em.fork();
  if (await hasEnvironments(em)) return { file };
  const environment = em.create(Environment, { id: uuidv7(), name: 'Sandbox', mode: 'SANDBOX', transactionsRefreshBeta: true });
  const { secret } = createApiKey(em, environment, 'Bootstrap key');
  await em.flush();
  const created = { environmentId: encodeId('environment', environment.id), apiKey: secret };
  writeFileSync(file, `${JSON.stringify(created, null, 2)}\n`, { mode: 0o600 });
  return { file, created };
}

/** The bootstrap key recorded in DATA_DIR, if this data directory has one. */
export function readBootstrapFile(file: string): { environmentId: string; apiKey: string } | undefined {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as NonNullable<BootstrapResult['created']>) : undefined;
}
