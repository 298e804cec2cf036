import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import { encodeId } from '../../lib/ids.ts';
import type { AppContext } from '../../http/state.ts';
import type { Provider } from '../../providers/provider.ts';
import type { Handlers } from '../../rest/types.ts';
import type { ConnectionJobs } from '../connection/connection.jobs.ts';
import { ConnectionService } from '../connection/connection.service.ts';
import { connectSandbox, reconnectSandbox } from '../connection/sandbox.handlers.ts';

export interface ConnectorHandlerDeps {
  cipher: FieldCipher;
  sandbox: Provider;
  jobs: ConnectionJobs;
}

const PAGE = readFileSync(new URL('./connector.html', import.meta.url), 'utf8');
const hashOf = (tag: 'script' | 'style') => {
  const body = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(PAGE)![1]!;
  return `'sha256-${createHash('sha256').update(body).digest('base64')}'`;
};
// Only the page's own inline script and style may run; it talks to this origin only.
const CONTENT_SECURITY_POLICY = `default-src 'none'; script-src ${hashOf('script')}; style-src ${hashOf('style')}; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors *`;

/** The hosted connect page and the two calls it makes as the end-user (session token). */
export function connectorHandlers({ cipher, sandbox, jobs }: ConnectorHandlerDeps): Handlers<'getConnector' | 'connectInstitution' | 'reconnectInstitution'> {
  const service = (ctx: AppContext) => {
    const credential = ctx.state.credential!;
    return new ConnectionService(ctx.state.em, cipher, { environmentId: credential.environmentId, profileId: 'profileId' in credential ? credential.profileId : undefined });
  };
  return {
    getConnector({ ctx }) {
      ctx.type = 'text/html; charset=utf-8';
      return { status: 200, body: PAGE, headers: { 'Content-Security-Policy': CONTENT_SECURITY_POLICY, 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-store' } };
    },
    async connectInstitution({ body, ctx }) {
      const profileId = encodeId('profile', (ctx.state.credential as { profileId: string }).profileId);
      return { status: 201, body: await connectSandbox({ sandbox, jobs }, ctx, service(ctx), profileId, body) };
    },
    async reconnectInstitution({ params, body, ctx }) {
      return { status: 200, body: await reconnectSandbox({ sandbox, jobs }, ctx, service(ctx), params.connectionId, body) };
    },
  };
}
