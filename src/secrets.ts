import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from './config.ts';
import { FieldCipher } from './lib/field-cipher.ts';
import { SessionKeyRing } from './lib/session-keys.ts';

export interface Secrets {
  cipher: FieldCipher;
  /** SESSION_KEYS and SESSION_SECRET. */
  sessionKeys: SessionKeyRing;
}

interface DevSecretsFile {
  encryptionKeys: string;
  sessionSecret: string;
}

/**
 * The secrets the service runs with: from configuration when given, otherwise development defaults
 * generated once into DATA_DIR/secrets.json (mode 0600). Production refuses to boot without
 * configured secrets (see config.ts), so generated ones never guard real data by accident.
 */
export function loadSecrets(config: Config): Secrets {
  const sessionConfigured = config.sessionKeys !== undefined || config.sessionSecret !== undefined;
  const needsDevFile = !config.encryptionKeys || !sessionConfigured;
  const dev = needsDevFile ? readOrCreateDevSecrets(config.dataDir) : undefined;
  return {
    cipher: FieldCipher.fromKeyList(config.encryptionKeys ?? dev!.encryptionKeys),
    sessionKeys: new SessionKeyRing(config.sessionKeys ?? [], sessionConfigured ? config.sessionSecret : dev!.sessionSecret),
  };
}

function readOrCreateDevSecrets(dataDir: string): DevSecretsFile {
  const file = path.join(dataDir, 'secrets.json');
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as DevSecretsFile;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secrets: DevSecretsFile = {
    encryptionKeys: `dev1:${randomBytes(32).toString('base64')}`,
    sessionSecret: randomBytes(48).toString('base64url'),
  };
  mkdirSync(dataDir, { recursive: true, mode: 0o711 });
  writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  return secrets;
}
