import type { EntityManager } from '@mikro-orm/postgresql';
import type { Credential } from '../../api-kit/credential.ts';
import type { Handlers } from '../../api-kit/rest-handler.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import { encodeId } from '../../lib/ids.ts';
import { ConnectionService } from '../connection/connection.service.ts';
import type { Linking } from './linking.ts';

export interface LinkingHandlerDeps {
  cipher: FieldCipher;
  linking: Linking;
}

/** The calls the connect page (src/pages/connector/) makes as the end-user (session token). */
export function linkingHandlers({ cipher, linking }: LinkingHandlerDeps): Handlers<'startLink' | 'connectInstitution' | 'reconnectInstitution'> {
  // The session's profile only: its connections, and new ones for it.
  const service = (em: EntityManager, { environmentId, profileId }: Extract<Credential, { kind: 'session' }>) => new ConnectionService(em, cipher, { environmentId, profileId });
  return {
    async startLink({ body, credential, em }) {
      return { status: 200, body: await linking.start({ em, ...credential }, service(em, credential), body ?? {}) };
    },
    async connectInstitution({ body, credential, em }) {
      return { status: 201, body: await linking.connect({ em, ...credential }, service(em, credential), encodeId('profile', credential.profileId), body) };
    },
    async reconnectInstitution({ params, body, credential, em }) {
      return { status: 200, body: await linking.reconnect({ em, ...credential }, service(em, credential), params.connectionId, body) };
    },
  };
}
