import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { CURRENT_VERSION } from '../../config.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { ApiKey, type ApiKeyEntity } from './api-key.entity.ts';
import type { EnvironmentEntity } from './environment.entity.ts';

/** Current-generation secrets carry this prefix; older-generation secrets have none (and a lower rate limit). */
export const CURRENT_KEY_PREFIX = 'sk_';

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Creates a current-generation key; the secret is returned once and only its hash is stored. */
export function createApiKey(
  em: EntityManager,
  environment: EnvironmentEntity,
  name: string,
  apiVersion: string = CURRENT_VERSION,
): { key: ApiKeyEntity; secret: string } {
  const secret = `${CURRENT_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  const key = em.create(ApiKey, {
    id: uuidv7(),
    environment,
    name,
    secretHash: hashSecret(secret),
    lastFour: secret.slice(-4),
    generation: 'CURRENT',
    apiVersion,
    revokedAt: null,
  });
  return { key, secret };
}
