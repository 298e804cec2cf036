import { readFileSync } from 'node:fs';
import type { Credential } from '../../http/credentials.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import { inlineHashes } from '../../lib/content-hash.ts';
import { encodeId } from '../../lib/ids.ts';
import type { AppContext } from '../../http/state.ts';
import type { Handlers } from '../../rest/types.ts';
import { ConnectionService } from '../connection/connection.service.ts';
import type { Linking } from '../connection/linking.ts';

export interface ConnectorHandlerDeps {
  cipher: FieldCipher;
  linking: Linking;
  /** Plaid Link's script: the page may load it, and nothing else from elsewhere. */
  plaidLinkScriptUrl: string;
}

const PAGE = readFileSync(new URL('./connector.html', import.meta.url), 'utf8');

/**
 * The page's own inline script and style may run, and Plaid Link's script from its origin (Link
 * opens its UI in a frame of that origin); the page talks to this origin only.
 */
function contentSecurityPolicy(plaidLinkScriptUrl: string): string {
  const plaid = new URL(plaidLinkScriptUrl).origin;
  return `default-src 'none'; script-src ${inlineHashes(PAGE, 'script').join(' ')} ${plaid}; style-src ${inlineHashes(PAGE, 'style').join(' ')}; frame-src ${plaid}; connect-src 'self' ${plaid}; img-src ${plaid}; base-uri 'none'; form-action 'none'; frame-ancestors *`;
}

/** The hosted connect page and the calls it makes as the end-user (session token). */
export function connectorHandlers({ cipher, linking, plaidLinkScriptUrl }: ConnectorHandlerDeps): Handlers<'getConnector' | 'startLink' | 'connectInstitution' | 'reconnectInstitution'> {
  const csp = contentSecurityPolicy(plaidLinkScriptUrl);
  // The session's profile only: its connections, and new ones for it.
  const service = (ctx: AppContext, { environmentId, profileId }: Extract<Credential, { kind: 'session' }>) => new ConnectionService(ctx.state.em, cipher, { environmentId, profileId });
  return {
    getConnector({ ctx }) {
      ctx.type = 'text/html; charset=utf-8';
      return { status: 200, body: PAGE, headers: { 'Content-Security-Policy': csp, 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-store' } };
    },
    async startLink({ body, credential, ctx }) {
      return { status: 200, body: await linking.start({ ctx, credential }, service(ctx, credential), body ?? {}) };
    },
    async connectInstitution({ body, credential, ctx }) {
      return { status: 201, body: await linking.connect({ ctx, credential }, service(ctx, credential), encodeId('profile', credential.profileId), body) };
    },
    async reconnectInstitution({ params, body, credential, ctx }) {
      return { status: 200, body: await linking.reconnect({ ctx, credential }, service(ctx, credential), params.connectionId, body) };
    },
  };
}
