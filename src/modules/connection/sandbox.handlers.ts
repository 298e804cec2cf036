import { forbidden } from '../../errors.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import type { AppContext } from '../../http/state.ts';
import type { Provider } from '../../providers/provider.ts';
import { pageHeaders, pageOf } from '../../rest/pagination.ts';
import type { Handlers } from '../../rest/types.ts';
import { Environment } from '../environment/environment.entity.ts';
import type { ConnectionJobs } from './connection.jobs.ts';
import { presentConnection } from './connection.presenter.ts';
import { ConnectionService } from './connection.service.ts';

export interface SandboxHandlerDeps {
  cipher: FieldCipher;
  sandbox: Provider;
  jobs: ConnectionJobs;
}

/** REST handlers for /v1/sandbox: the sandbox institutions, and connecting them server-to-server. */
export function sandboxHandlers({ cipher, sandbox, jobs }: SandboxHandlerDeps): Handlers<'listSandboxInstitutions' | 'createSandboxConnection' | 'reconnectSandboxConnection'> {
  const service = (ctx: AppContext) => new ConnectionService(ctx.state.em, cipher, { environmentId: ctx.state.credential!.environmentId });
  return {
    listSandboxInstitutions({ query }) {
      const { page, limit } = pageOf(query);
      const all = sandbox.institutions();
      const items = all.slice((page - 1) * limit, page * limit);
      return { status: 200, body: items, headers: pageHeaders(page, limit, all.length, items.length) };
    },
    async createSandboxConnection({ body, ctx }) {
      await requireSandbox(ctx);
      const connection = await service(ctx).connect(sandbox, body.profileId, body.institutionId, { username: body.username, password: body.password }, body.products);
      await jobs.sync(connection.id);
      return { status: 201, body: presentConnection(connection) };
    },
    async reconnectSandboxConnection({ params, body, ctx }) {
      await requireSandbox(ctx);
      const connections = service(ctx);
      const connection = await connections.reconnect(sandbox, await connections.get(params.connectionId), { username: body.username, password: body.password });
      await jobs.sync(connection.id);
      return { status: 200, body: presentConnection(connection) };
    },
  };
}

/** Sandbox institutions are for SANDBOX environments only. */
export async function requireSandbox(ctx: AppContext): Promise<void> {
  const environment = await ctx.state.em.findOneOrFail(Environment, { id: ctx.state.credential!.environmentId });
  if (environment.mode !== 'SANDBOX') {
    throw forbidden('Sandbox connections can only be made in SANDBOX environments', { instruction: 'Use an API key of a SANDBOX environment.' });
  }
}
