import type { EntityManager } from '@mikro-orm/postgresql';
import type { Credential } from '../../api-kit/credential.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import type { Institution } from '../../providers/link-flow.ts';
import { pageHeaders, pageOf } from '../../api-kit/pagination.ts';
import type { Handlers } from '../../api-kit/rest-handler.ts';
import { forbidden } from '../../errors.ts';
import type { ConsentRules } from '../connection/consent.ts';
import { presentConnection } from '../connection/connection.presenter.ts';
import { ConnectionService } from '../connection/connection.service.ts';
import { requireSandboxEnvironment, type Linking } from './linking.ts';

export interface SandboxHandlerDeps {
  cipher: FieldCipher;
  sandbox: { institutions(): Institution[] };
  linking: Linking;
  consentRules: ConsentRules;
}

/** REST handlers for /v1/sandbox: the sandbox institutions, and connecting server-to-server in SANDBOX environments. */
export function sandboxHandlers({ cipher, sandbox, linking, consentRules }: SandboxHandlerDeps): Handlers<
  'listSandboxInstitutions' | 'createSandboxConnection' | 'reconnectSandboxConnection' | 'setSandboxConsentEnd'
> {
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
    async setSandboxConsentEnd({ params, body, credential, em }) {
      await requireSandboxEnvironment(em, credential.environmentId);
      const connections = service(em, credential);
      const connection = await connections.get(params.connectionId);
      if (connection.provider !== 'sandbox') throw forbidden('Only a sandbox connection\'s consent can be moved', { instruction: 'Use a connection made with the sandbox provider.' });
      return { status: 200, body: presentConnection(await connections.moveConsentEnd(connection, new Date(body.expiresAt), consentRules)) };
    },
  };
}
