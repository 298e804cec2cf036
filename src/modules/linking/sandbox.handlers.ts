import type { EntityManager } from '@mikro-orm/postgresql';
import type { Credential } from '../../api-kit/credential.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import type { Institution } from '../../providers/provider.ts';
import { pageHeaders, pageOf } from '../../api-kit/pagination.ts';
import type { Handlers } from '../../api-kit/rest-handler.ts';
import { ConnectionService } from '../connection/connection.service.ts';
import { requireSandboxEnvironment, type Linking } from './linking.ts';

export interface SandboxHandlerDeps {
  cipher: FieldCipher;
  sandbox: { institutions(): Institution[] };
  linking: Linking;
}

/** REST handlers for /v1/sandbox: the sandbox institutions, and connecting server-to-server in SANDBOX environments. */
export function sandboxHandlers({ cipher, sandbox, linking }: SandboxHandlerDeps): Handlers<'listSandboxInstitutions' | 'createSandboxConnection' | 'reconnectSandboxConnection'> {
  const service = (em: EntityManager, { environmentId }: Credential) => new ConnectionService(em, cipher, { environmentId });
  return {
    listSandboxInstitutions({ query }) {
      const { page, limit } = pageOf(query);
      const all = sandbox.institutions();
      const items = all.slice((page - 1) * limit, page * limit);
      return { status: 200, body: items, headers: pageHeaders(page, limit, all.length, items.length) };
    },
    async createSandboxConnection({ body, credential, em }) {
      await requireSandboxEnvironment(em, credential.environmentId);
      const { profileId, ...input } = body;
      return { status: 201, body: await linking.connect({ em, ...credential }, service(em, credential), profileId, { provider: 'sandbox', ...input }) };
    },
    async reconnectSandboxConnection({ params, body, credential, em }) {
      await requireSandboxEnvironment(em, credential.environmentId);
      return { status: 200, body: await linking.reconnect({ em, ...credential }, service(em, credential), params.connectionId, body) };
    },
  };
}
