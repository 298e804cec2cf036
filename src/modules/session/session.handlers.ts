import { invalidCredential, type Credential, type CredentialResolver } from '../../http/credentials.ts';
import type { AppContext } from '../../http/state.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import { encodeId } from '../../lib/ids.ts';
import type { Handlers } from '../../rest/types.ts';
import type { SessionEntity } from './session.entity.ts';
import { SessionService } from './session.service.ts';
import type { SessionTokens } from './session-token.ts';

export interface SessionHandlerDeps {
  cipher: FieldCipher;
  tokens: SessionTokens;
  credentials: CredentialResolver;
}

/** POST /v1/users/sessions (API key) issues; GET and DELETE /v1/users/session act on the presented token. */
export function sessionHandlers({ cipher, tokens, credentials }: SessionHandlerDeps): Handlers<'createSession' | 'getSession' | 'deleteSession'> {
  const service = (ctx: AppContext, { environmentId }: Credential) => new SessionService(ctx.state.em, cipher, tokens, environmentId);
  return {
    async createSession({ body, credential, ctx }) {
      const { token, session, profile } = await service(ctx, credential).issue(body, ctx.state.version);
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
    async getSession({ credential, ctx }) {
      const session = await service(ctx, credential).live(credential.sessionId);
      if (!session) throw invalidCredential('The session token has been revoked, has expired, or its profile has been deleted');
      return { status: 200, body: presentSession(session) };
    },
    async deleteSession({ credential, ctx }) {
      await service(ctx, credential).revoke(credential.sessionId);
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
