import { readFileSync } from 'node:fs';
import { AppError } from '../../errors.ts';
import { REST_CONTRACT_PATH } from '../../rest/dispatch.ts';
import type { Handlers } from '../../rest/types.ts';

/** Liveness, readiness (the database answers) and the published REST contract. */
export function healthHandlers(): Handlers<'getHealth' | 'getReadiness' | 'getRestContract'> {
  const contract = readFileSync(REST_CONTRACT_PATH, 'utf8');
  return {
    getHealth: () => ({ status: 200, body: { status: 'ok' } }),
    async getReadiness({ ctx }) {
      try {
        await ctx.state.em.getConnection().execute('select 1');
      } catch {
        throw new AppError(503, 'NOT_READY', 'The database is not reachable', { instruction: 'Retry shortly; the operator should check PostgreSQL.' });
      }
      return { status: 200, body: { status: 'ready' } };
    },
    getRestContract({ ctx }) {
      ctx.type = 'application/yaml';
      return { status: 200, body: contract };
    },
  };
}
