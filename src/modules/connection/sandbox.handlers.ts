import { forbidden } from '../../errors.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import type { AppContext } from '../../http/state.ts';
import type { Provider } from '../../providers/provider.ts';
import { pageHeaders, pageOf } from '../../rest/pagination.ts';
import type { Handlers } from '../../rest/types.ts';
import { Environment } from '../environment/environment.entity.ts';
import type { Product } from './connection.entity.ts';
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
      return { status: 201, body: await connectSandbox({ sandbox, jobs }, ctx, service(ctx), body.profileId, body) };
    },
    async reconnectSandboxConnection({ params, body, ctx }) {
      return { status: 200, body: await reconnectSandbox({ sandbox, jobs }, ctx, service(ctx), params.connectionId, body) };
    },
  };
}

type SandboxDeps = Pick<SandboxHandlerDeps, 'sandbox' | 'jobs'>;
type Login = { username: string; password: string };

/** Connects a sandbox institution (SANDBOX environments only) and queues the first sync. */
export async function connectSandbox({ sandbox, jobs }: SandboxDeps, ctx: AppContext, connections: ConnectionService, profileId: string, request: Login & { institutionId: string; products?: Product[] }) {
  await requireSandbox(ctx);
  const connection = await connections.connect(sandbox, profileId, request.institutionId, { username: request.username, password: request.password }, request.products);
  await jobs.sync(connection.id);
  return presentConnection(connection);
}

/** Logs a sandbox connection in again (repair) and queues its sync. */
export async function reconnectSandbox({ sandbox, jobs }: SandboxDeps, ctx: AppContext, connections: ConnectionService, connectionId: string, login: Login) {
  await requireSandbox(ctx);
  const connection = await connections.reconnect(sandbox, await connections.get(connectionId), { username: login.username, password: login.password });
  await jobs.sync(connection.id);
  return presentConnection(connection);
}

/** Sandbox institutions are for SANDBOX environments only. */
async function requireSandbox(ctx: AppContext): Promise<void> {
  const environment = await ctx.state.em.findOneOrFail(Environment, { id: ctx.state.credential!.environmentId });
  if (environment.mode !== 'SANDBOX') {
    throw forbidden('Sandbox connections can only be made in SANDBOX environments', { instruction: 'Use an API key of a SANDBOX environment.' });
  }
}
