import type { EntityManager } from '@mikro-orm/postgresql';
import { unauthorized } from '../errors.ts';
import { decodeId } from '../lib/ids.ts';
import type { ApiKeyGeneration } from '../modules/environment/api-key.entity.ts';
import { findLiveKey } from '../modules/environment/api-key.service.ts';
import { Profile } from '../modules/profile/profile.entity.ts';

interface KeyFacts {
  environmentId: string;
  apiKeyId: string;
  generation: ApiKeyGeneration;
  apiVersion: string;
}

/**
 * Who is calling. `apiKey`: the environment's server (Bearer secret key). `basic`: a server acting as
 * one profile (Basic profileId:secretKey).
 */
export type Credential = ({ kind: 'apiKey' } & KeyFacts) | ({ kind: 'basic'; profileId: string } & KeyFacts);

export const WWW_AUTHENTICATE = 'Bearer realm="tributary", Basic realm="tributary", charset="UTF-8"';

const invalid = (message: string) =>
  unauthorized(message, {
    instruction: 'Send Authorization: Bearer <API secret key>, or Basic base64(<profile id>:<API secret key>).',
    headers: { 'WWW-Authenticate': WWW_AUTHENTICATE },
  });

/** Resolves an Authorization header to a credential; throws 401 when it is present but not valid. */
export async function resolveCredential(em: EntityManager, header: string): Promise<Credential> {
  const [scheme = '', value = ''] = header.trim().split(/\s+/, 2);
  switch (scheme.toLowerCase()) {
    case 'bearer': {
      const key = value && (await findLiveKey(em, value));
      if (!key) throw invalid('The API key is not valid or has been revoked');
      return { kind: 'apiKey', ...facts(key) };
    }
    case 'basic': {
      const decoded = Buffer.from(value, 'base64').toString('utf8');
      const separator = decoded.indexOf(':');
      const profileUuid = decodeId('profile', decoded.slice(0, separator));
      const key = separator > 0 && profileUuid ? await findLiveKey(em, decoded.slice(separator + 1)) : null;
      if (!key || !profileUuid) throw invalid('The Basic credentials are not valid');
      const profile = await em.findOne(Profile, { id: profileUuid, environment: key.environment.id, deletingAt: null }, { fields: ['id'] });
      if (!profile) throw invalid('The Basic credentials are not valid');
      return { kind: 'basic', profileId: profile.id, ...facts(key) };
    }
    default:
      throw invalid('Unsupported Authorization scheme');
  }
}

function facts(key: Awaited<ReturnType<typeof findLiveKey>> & object): KeyFacts {
  return { environmentId: key.environment.id, apiKeyId: key.id, generation: key.generation, apiVersion: key.apiVersion };
}
