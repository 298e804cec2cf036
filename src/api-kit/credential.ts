import type { components } from '../../generated/rest.ts';
import { unauthorized } from '../errors.ts';

/** The API key generations a credential may carry (as src/modules/environment/api-key.entity.ts stores them). */
type KeyGeneration = 'CURRENT' | 'LEGACY';

interface Common {
  environmentId: string;
  generation: KeyGeneration;
  apiVersion: string;
}

/**
 * An operator's console session (the cookie), acting on the environment its request names
 * (`environmentId`, empty when it names none) with `role`, the operator's role there (null: none).
 * `csrfToken` is what its state-changing requests must send; `expiresAt` its absolute end.
 */
interface OperatorSession {
  kind: 'operator';
  operatorId: string;
  /** The operator's email (for the audit log). */
  email: string;
  sessionId: string;
  role: components['schemas']['OperatorRole'] | null;
  /** An owner requires TOTP and the operator has not turned it on: only the session's own operations are open. */
  totpEnrolmentRequired: boolean;
  csrfToken: string;
  expiresAt: Date;
}

/**
 * Who is calling. `apiKey`: the environment's server (Bearer secret key). `basic`: a server acting as
 * one profile (Basic profileId:secretKey). `session`: an end-user's app acting as its profile
 * (Bearer session token). Resolved from the Authorization header by src/http/credentials.ts.
 * `operator`: a person in the console (the session cookie, when no Authorization header is sent).
 */
export type Credential =
  | ({ kind: 'apiKey'; apiKeyId: string } & Common)
  | ({ kind: 'basic'; apiKeyId: string; profileId: string } & Common)
  | ({ kind: 'session'; sessionId: string; profileId: string } & Common)
  | (OperatorSession & Common);

export const WWW_AUTHENTICATE = 'Bearer realm="tributary", Basic realm="tributary", charset="UTF-8"';

export const invalidCredential = (message: string) =>
  unauthorized(message, {
    instruction: 'Send Authorization: Bearer <API secret key>, Basic base64(<profile id>:<API secret key>), or Bearer <session token>.',
    headers: { 'WWW-Authenticate': WWW_AUTHENTICATE },
  });
