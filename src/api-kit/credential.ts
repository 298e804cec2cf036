import { unauthorized } from '../errors.ts';

/** The API key generations a credential may carry (as src/modules/environment/api-key.entity.ts stores them). */
type KeyGeneration = 'CURRENT' | 'LEGACY';

interface Common {
  environmentId: string;
  generation: KeyGeneration;
  apiVersion: string;
}

/**
 * Who is calling. `apiKey`: the environment's server (Bearer secret key). `basic`: a server acting as
 * one profile (Basic profileId:secretKey). `session`: an end-user's app acting as its profile
 * (Bearer session token). Resolved from the Authorization header by src/http/credentials.ts.
 */
export type Credential =
  | ({ kind: 'apiKey'; apiKeyId: string } & Common)
  | ({ kind: 'basic'; apiKeyId: string; profileId: string } & Common)
  | ({ kind: 'session'; sessionId: string; profileId: string } & Common);

export const WWW_AUTHENTICATE = 'Bearer realm="tributary", Basic realm="tributary", charset="UTF-8"';

export const invalidCredential = (message: string) =>
  unauthorized(message, {
    instruction: 'Send Authorization: Bearer <API secret key>, Basic base64(<profile id>:<API secret key>), or Bearer <session token>.',
    headers: { 'WWW-Authenticate': WWW_AUTHENTICATE },
  });
