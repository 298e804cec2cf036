import { readFileSync } from 'node:fs';
import type { EntityManager } from '@mikro-orm/postgresql';
import { decodeId, encodeId } from '../../src/lib/ids.ts';
import type { FieldCipher } from '../../src/lib/field-cipher.ts';
import { OperatorError } from '../../src/modules/environment/environment.service.ts';
import { environmentById } from '../../src/modules/environment/environment.store.ts';
import { ProviderSettings } from '../../src/modules/environment/provider-settings.service.ts';
import type { ProviderFactory } from '../../src/providers/directory.ts';

export interface ProviderFlags {
  'client-id'?: string;
  secret?: string;
  'plaid-env'?: string;
  'base-url'?: string;
  'allowed-hosts'?: string;
  'application-id'?: string;
  'private-key-file'?: string;
}

/**
 * `providers set|list|remove`: an environment's upstream provider settings. Secrets are stored
 * encrypted and never printed back; `list` shows which providers are configured, newest first (the
 * newest is the one the connect page opens).
 */
export async function providersCommand(em: EntityManager, cipher: FieldCipher, factories: ProviderFactory[], verb: string | undefined, args: string[], flags: ProviderFlags): Promise<void> {
  const [environmentArg, providerName] = args;
  const environment = await findEnvironment(em, environmentArg);
  const settings = new ProviderSettings(em, cipher);
  const label = encodeId('environment', environment.id);
  switch (verb) {
    case 'list': {
      const names = await settings.configured(environment.id);
      console.log(names.length > 0 ? names.map((name, index) => `${label}  ${name}${index === 0 ? '  (opened by the connect page)' : ''}`).join('\n') : `${label}: no provider configured; the connect page opens the sandbox`);
      return;
    }
    case 'set': {
      const factory = factories.find((candidate) => candidate.name === providerName);
      if (!factory) throw new OperatorError(`usage: providers set <env_…> <${factories.map((candidate) => candidate.name).join('|')}> …`);
      const privateKey = flags['private-key-file'] === undefined ? undefined : readKeyFile(flags['private-key-file']);
      const input = { clientId: flags['client-id'], secret: flags.secret, plaidEnv: flags['plaid-env'], baseUrl: flags['base-url'], allowedHosts: flags['allowed-hosts'], applicationId: flags['application-id'], privateKey };
      const parsed = factory.parseSettings(input, environment.mode);
      if ('problem' in parsed) throw new OperatorError(parsed.problem);
      await settings.set(environment.id, factory.name, parsed.settings);
      console.log(`${label}: ${factory.name} configured (${parsed.settings.plaidEnv ?? parsed.settings.allowedHosts ?? 'settings stored'}); settings stored encrypted. Instances pick it up within a minute.`);
      return;
    }
    case 'remove':
      if (!providerName) throw new OperatorError('usage: providers remove <env_…> <provider>');
      console.log((await settings.remove(environment.id, providerName)) ? `${label}: ${providerName} removed` : `${label}: ${providerName} was not configured`);
      return;
    default:
      throw new OperatorError('usage: providers list|set|remove <env_…> …');
  }
}

/** A key is read from a file: a PEM on the command line would stay in the shell's history. */
function readKeyFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new OperatorError(`cannot read --private-key-file ${path} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  }
}

async function findEnvironment(em: EntityManager, publicId: string | undefined) {
  const id = publicId && decodeId('environment', publicId);
  const environment = id && (await environmentById(em, id));
  if (!environment) throw new OperatorError(`unknown environment ${publicId ?? '(none given)'}`);
  return environment;
}
