import { readFileSync } from 'node:fs';
import { AppError } from '../../errors.ts';
import type { CounterMode } from '../../lib/fixed-window.ts';
import { REST_CONTRACT_PATH } from '../../rest/dispatch.ts';
import type { Handlers } from '../../rest/types.ts';

/**
 * Liveness, readiness and the published REST contract. Readiness needs the database; a Redis outage
 * only degrades it (still 200), because a load balancer would otherwise take every instance out of
 * rotation at once for what is a loss of shared rate-limit counting.
 */
export function healthHandlers(options: { rateLimits: () => CounterMode }): Handlers<'getHealth' | 'getReadiness' | 'getRestContract'> {
  const contract = readFileSync(REST_CONTRACT_PATH, 'utf8');
  return {
    getHealth: () => ({ status: 200, body: { status: 'ok' } }),
    async getReadiness({ ctx }) {
      try {
        await ctx.state.em.getConnection().execute('select 1');
      } catch {
        throw new AppError(503, 'NOT_READY', 'The database is not reachable', { instruction: 'Retry shortly; the operator should check PostgreSQL.' });
      }
      const rateLimits = options.rateLimits();
      return { status: 200, body: { status: rateLimits === 'degraded' ? 'degraded' : 'ready', rateLimits } };
    },
    getRestContract({ ctx }) {
      ctx.type = 'application/yaml';
      return { status: 200, body: contract };
    },
  };
}
