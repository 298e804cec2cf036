import type { AppContext } from '../../http/state.ts';
import { invalidCredential, type CredentialResolver } from '../../http/credentials.ts';
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
  const service = (ctx: AppContext) => new SessionService(ctx.state.em, cipher, tokens, ctx.state.credential!.environmentId);
  const sessionId = (ctx: AppContext) => (ctx.state.credential as { sessionId: string }).sessionId;
  return {
    async createSession({ body, ctx }) {
      const { token, session, profile } = await service(ctx).issue(body, ctx.state.version);
      return {
        status: 201,
        body: {
          token,
          userId: encodeId('profile', profile.id),
          userUuid: profile.uuid,
          environmentId: encodeId('environment', ctx.state.credential!.environmentId),
          expiresAt: session.expiresAt.toISOString(),
        },
      };
    },
    async getSession({ ctx }) {
      const session = await service(ctx).live(sessionId(ctx));
      if (!session) throw invalidCredential('The session token has been revoked, has expired, or its profile has been deleted');
      return { status: 200, body: presentSession(session) };
    },
    async deleteSession({ ctx }) {
      await service(ctx).revoke(sessionId(ctx));
      credentials.forget(sessionId(ctx));
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
