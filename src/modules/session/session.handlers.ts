import type { EntityManager } from '@mikro-orm/postgresql';
import { invalidCredential, type Credential } from '../../api-kit/credential.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import { encodeId } from '../../lib/ids.ts';
import type { Handlers } from '../../api-kit/rest-handler.ts';
import type { SessionEntity } from './session.entity.ts';
import { SessionService } from './session.service.ts';
import type { SessionTokens } from './session-token.ts';

export interface SessionHandlerDeps {
  cipher: FieldCipher;
  tokens: SessionTokens;
  /** The credential cache (src/http/credentials.ts): a revoked session is forgotten at once. */
  credentials: { forget(sessionId: string): void };
}

/** POST /v1/users/sessions (API key) issues; GET and DELETE /v1/users/session act on the presented token. */
export function sessionHandlers({ cipher, tokens, credentials }: SessionHandlerDeps): Handlers<'createSession' | 'getSession' | 'deleteSession'> {
  const service = (em: EntityManager, { environmentId }: Credential) => new SessionService(em, cipher, tokens, environmentId);
  return {
    async createSession({ body, credential, em, version }) {
      const { token, session, profile } = await service(em, credential).issue(body, version);
      return {
        status: 201,
        body: {
          token,
          userId: encodeId('profile', profile.id),
          userUuid: profile.uuid,
          environmentId: encodeId('environment', credential.environmentId),
          expiresAt: session.expiresAt.toISOString(),
        },
      };
    },
    async getSession({ credential, em }) {
      const session = await service(em, credential).live(credential.sessionId);
      if (!session) throw invalidCredential('The session token has been revoked, has expired, or its profile has been deleted');
      return { status: 200, body: presentSession(session) };
    },
    async deleteSession({ credential, em }) {
      await service(em, credential).revoke(credential.sessionId);
      credentials.forget(credential.sessionId);
      return { status: 204 };
    },
  };
}

function presentSession(session: SessionEntity) {
  return {
    id: encodeId('session', session.id),
    userId: encodeId('profile', session.profile.id),
    userUuid: (session.profile as { uuid: string }).uuid,
    environmentId: encodeId('environment', session.environment.id),
    issuedAt: session.createdAt.toISOString(),
    expiresAt: session.expiresAt.toISOString(),
  };
}
