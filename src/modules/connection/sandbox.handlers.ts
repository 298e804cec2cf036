import type { Credential } from '../../http/credentials.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import type { AppContext } from '../../http/state.ts';
import type { Institution } from '../../providers/provider.ts';
import { pageHeaders, pageOf } from '../../rest/pagination.ts';
import type { Handlers } from '../../rest/types.ts';
import { ConnectionService } from './connection.service.ts';
import { requireSandboxEnvironment, type Linking } from './linking.ts';

export interface SandboxHandlerDeps {
  cipher: FieldCipher;
  sandbox: { institutions(): Institution[] };
  linking: Linking;
}

/** REST handlers for /v1/sandbox: the sandbox institutions, and connecting server-to-server in SANDBOX environments. */
export function sandboxHandlers({ cipher, sandbox, linking }: SandboxHandlerDeps): Handlers<'listSandboxInstitutions' | 'createSandboxConnection' | 'reconnectSandboxConnection'> {
  const service = (ctx: AppContext, { environmentId }: Credential) => new ConnectionService(ctx.state.em, cipher, { environmentId });
  return {
    listSandboxInstitutions({ query }) {
      const { page, limit } = pageOf(query);
      const all = sandbox.institutions();
      const items = all.slice((page - 1) * limit, page * limit);
      return { status: 200, body: items, headers: pageHeaders(page, limit, all.length, items.length) };
    },
    async createSandboxConnection({ body, credential, ctx }) {
      await requireSandboxEnvironment(ctx.state.em, credential.environmentId);
      const { profileId, ...input } = body;
      return { status: 201, body: await linking.connect({ ctx, credential }, service(ctx, credential), profileId, { provider: 'sandbox', ...input }) };
    },
    async reconnectSandboxConnection({ params, body, credential, ctx }) {
      await requireSandboxEnvironment(ctx.state.em, credential.environmentId);
      return { status: 200, body: await linking.reconnect({ ctx, credential }, service(ctx, credential), params.connectionId, body) };
    },
  };
}
