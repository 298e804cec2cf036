import type { EntityManager } from '@mikro-orm/postgresql';
import type { Credential } from '../../api-kit/credential.ts';
import { pageHeaders, pageOf } from '../../api-kit/pagination.ts';
import type { Handlers } from '../../api-kit/rest-handler.ts';
import type { CategorizationJobs } from './categorization.jobs.ts';
import { presentRule } from './categorization.presenter.ts';
import { CategorizationRules } from './categorization.service.ts';

type CategorizationOperations = 'listCategorizationRules' | 'createCategorizationRule' | 'deleteCategorizationRule';

/** REST handlers for /v1/categorization/rules (API key): the environment's categorization rules. */
export function categorizationHandlers({ jobs }: { jobs: CategorizationJobs }): Handlers<CategorizationOperations> {
  const rules = (em: EntityManager, { environmentId }: Credential) => new CategorizationRules(em, environmentId, jobs);
  return {
    async listCategorizationRules({ query, credential, em }) {
      const { page, limit } = pageOf(query);
      const { items, total } = await rules(em, credential).list(page, limit);
      return { status: 200, body: items.map(presentRule), headers: pageHeaders(page, limit, total, items.length) };
    },
    async createCategorizationRule({ body, credential, em }) {
      return { status: 201, body: presentRule(await rules(em, credential).create(body)) };
    },
    async deleteCategorizationRule({ params, credential, em }) {
      const environment = rules(em, credential);
      await environment.delete(await environment.get(params.ruleId));
      return { status: 204 };
    },
  };
}
