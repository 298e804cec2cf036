import { GRAPHQL_SCHEMA_PATH, REST_CONTRACT_PATH } from '../../api-kit/contract-paths.ts';
import type { Handlers } from '../../api-kit/rest-handler.ts';
import type { DatabaseOutage } from '../../db/database-outage.ts';
import { databaseUnavailable } from '../database-outage.ts';
import type { CounterMode } from '../../lib/fixed-window.ts';
import type { Metrics } from '../../metrics/metrics.ts';
import { PublishedDocument } from './published-document.ts';

/**
 * Liveness, readiness and the published contracts (REST and GraphQL SDL). Readiness needs the database
 * (503 NOT_READY without it, the outage logged once by `outage`); a Redis outage
 * only degrades it (still 200), because a load balancer would otherwise take every instance out of
 * rotation at once for what is a loss of shared rate-limit counting.
 */
export function healthHandlers(options: { rateLimits: () => CounterMode; outage: DatabaseOutage; metrics: Metrics }): Handlers<'getHealth' | 'getReadiness' | 'getRestContract' | 'getGraphqlSchema' | 'getMetricsSummary'> {
  const restContract = new PublishedDocument(REST_CONTRACT_PATH, 'application/yaml');
  const graphqlSchema = new PublishedDocument(GRAPHQL_SCHEMA_PATH, 'text/plain; charset=utf-8');
  return {
    getHealth: () => ({ status: 200, body: { status: 'ok' } }),
    async getReadiness({ em }) {
      try {
        await em.getConnection().execute('select 1');
      } catch (error) {
        options.outage.notice(error);
        throw databaseUnavailable();
      }
      const rateLimits = options.rateLimits();
      return { status: 200, body: { status: rateLimits === 'degraded' ? 'degraded' : 'ready', rateLimits } };
    },
    getRestContract: ({ headers }) => restContract.answer(headers),
    getGraphqlSchema: ({ headers }) => graphqlSchema.answer(headers),
    getMetricsSummary: async ({ credential }) => ({ status: 200, body: await options.metrics.summary(credential.environmentId) }),
  };
}
