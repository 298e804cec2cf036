import type { EntityManager } from '@mikro-orm/postgresql';
import type { components } from '../../../generated/rest.ts';
import { notFound, ValidationError, type FieldIssue } from '../../errors.ts';
import { jobsIn } from '../../jobs/in-transaction.ts';
import { decodeId, uuidv7 } from '../../lib/ids.ts';
import { CategorizationRule, type CategorizationRuleEntity } from './categorization.entity.ts';
import type { CategorizationJobs } from './categorization.jobs.ts';
import { countRules, removeRule, ruleById, rulePage } from './categorization.store.ts';
import { checkedCategory } from './correction.ts';

/** Rules an environment may have: each transaction synced is tried against all of them. */
export const MAX_RULES = 200;

/**
 * An environment's categorization rules. Adding or removing one queues, in the same transaction,
 * the recategorization of the environment's existing transactions.
 */
export class CategorizationRules {
  readonly #em: EntityManager;
  readonly #environmentId: string;
  readonly #jobs: CategorizationJobs;

  constructor(em: EntityManager, environmentId: string, jobs: CategorizationJobs) {
    this.#em = em;
    this.#environmentId = environmentId;
    this.#jobs = jobs;
  }

  list(page: number, limit: number) {
    return rulePage(this.#em, this.#environmentId, page, limit);
  }

  async get(publicId: string): Promise<CategorizationRuleEntity> {
    const id = decodeId('categorizationRule', publicId);
    const rule = id && (await ruleById(this.#em, this.#environmentId, id));
    if (!rule) throw notFound('Categorization rule');
    return rule;
  }

  async create(fields: components['schemas']['CategorizationRuleCreate']): Promise<CategorizationRuleEntity> {
    const issues: FieldIssue[] = [];
    const merchantName = fields.merchantName?.trim() || null;
    if (merchantName === null && fields.descriptionContains === undefined) {
      issues.push({ path: ['merchantName'], message: 'give merchantName, descriptionContains, or both: what the rule matches on' });
    }
    try {
      checkedCategory(fields.category);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      issues.push(...error.issues);
    }
    if (issues.length > 0) throw new ValidationError(issues);
    return this.#em.transactional(async (tx) => {
      // Counted under the environment's rules' own lock, so two requests cannot both add the 200th.
      if ((await countRules(tx, this.#environmentId, { lock: true })) >= MAX_RULES) {
        throw new ValidationError([{ path: [], message: `the environment has ${MAX_RULES} rules, the most it may have: delete one first` }]);
      }
      const rule = tx.create(CategorizationRule, {
        id: uuidv7(),
        environment: this.#environmentId,
        merchantName,
        descriptionContains: fields.descriptionContains ?? null,
        amountSign: fields.amountSign ?? null,
        categoryPrimary: fields.category.primary,
        categoryDetailed: fields.category.detailed,
      });
      await tx.flush();
      await this.#jobs.rulesChanged(this.#environmentId, jobsIn(tx));
      return rule;
    });
  }

  async delete(rule: CategorizationRuleEntity): Promise<void> {
    await this.#em.transactional(async (tx) => {
      await removeRule(tx, rule.id);
      await this.#jobs.rulesChanged(this.#environmentId, jobsIn(tx));
    });
  }
}
