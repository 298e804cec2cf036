import type { EntityManager } from '@mikro-orm/postgresql';
import { offsetPage, type OffsetPage } from '../../db/list-page.ts';
import { run } from '../../db/statement.ts';
import { CategorizationRule, type CategorizationRuleEntity } from './categorization.entity.ts';
import type { ClassifierCounts } from './classifier.ts';
import type { OperatorRule } from './operator-rules.ts';

/** The statements of the categorization tables; test/stores.test.ts prepares each. */
export const categorizationStatements = {
  model: `select counts from category_model where profile_id = $1`,
  saveModel: `insert into category_model (profile_id, counts, trained_at) values ($1, $2::jsonb, now())
     on conflict (profile_id) do update set counts = excluded.counts, trained_at = excluded.trained_at`,
  dropModel: `delete from category_model where profile_id = $1`,
  // The rules of the profile's environment, oldest first (the first that matches wins), matches lower-cased.
  rulesOfProfile: `select lower(r.merchant_name) as "merchantName", lower(r.description_contains) as "descriptionContains", r.amount_sign as "amountSign",
        r.category_primary as "categoryPrimary", r.category_detailed as "categoryDetailed"
       from categorization_rule r join profile p on p.environment_id = r.environment_id
      where p.id = $1 order by r.created_at, r.id`,
  // Adding a rule counts the environment's under a lock of their own (a transaction-scoped advisory lock).
  lockRules: `select pg_advisory_xact_lock(hashtextextended('categorization_rule:' || $1, 0))`,
  countRules: `select count(*)::int as count from categorization_rule where environment_id = $1`,
  // The environment's profiles after `id`, by id: the rules job recategorizes one profile at a time.
  profilesOf: `select id from profile where environment_id = $1 and id > $2 order by id limit $3`,
  enrichedVersion: `select version from enrichment_progress where id = 1`,
  markEnriched: `insert into enrichment_progress (id, version) values (1, $1) on conflict (id) do update set version = greatest(enrichment_progress.version, excluded.version)`,
};

/** The profile's learned word counts, or null when it has no corrections. */
export async function modelOf(em: EntityManager, profileId: string): Promise<ClassifierCounts | null> {
  return (await run<{ counts: ClassifierCounts }>(em, categorizationStatements.model, [profileId])).rows[0]?.counts ?? null;
}

/** Stores the profile's word counts; none (no corrections left) removes its row. */
export async function saveModel(em: EntityManager, profileId: string, counts: ClassifierCounts): Promise<void> {
  if (Object.keys(counts).length === 0) await run(em, categorizationStatements.dropModel, [profileId]);
  else await run(em, categorizationStatements.saveModel, [profileId, JSON.stringify(counts)]);
}

export async function rulesOfProfile(em: EntityManager, profileId: string): Promise<OperatorRule[]> {
  return (await run<OperatorRule>(em, categorizationStatements.rulesOfProfile, [profileId])).rows;
}

/** How many rules the environment has; with `lock`, in a transaction, held until it ends so no other count runs meanwhile. */
export async function countRules(em: EntityManager, environmentId: string, options: { lock: boolean }): Promise<number> {
  if (options.lock) await run(em, categorizationStatements.lockRules, [environmentId]);
  return (await run<{ count: number }>(em, categorizationStatements.countRules, [environmentId])).rows[0]!.count;
}

/** Up to `limit` ids of the environment's profiles after `afterId`. */
export async function profilesOf(em: EntityManager, environmentId: string, afterId: string, limit: number): Promise<string[]> {
  return (await run<{ id: string }>(em, categorizationStatements.profilesOf, [environmentId, afterId, limit])).rows.map(({ id }) => id);
}

/** The version every stored transaction is enriched at, at least (0 before the first re-enrichment ends). */
export async function enrichedVersion(em: EntityManager): Promise<number> {
  return (await run<{ version: number }>(em, categorizationStatements.enrichedVersion)).rows[0]?.version ?? 0;
}

export async function markEnriched(em: EntityManager, version: number): Promise<void> {
  await run(em, categorizationStatements.markEnriched, [version]);
}

/** Page `page` of the environment's rules, oldest first (the order they apply in). */
export function rulePage(em: EntityManager, environmentId: string, page: number, limit: number): Promise<OffsetPage<CategorizationRuleEntity>> {
  return offsetPage(em, CategorizationRule, { environment: environmentId }, { createdAt: 'asc', id: 'asc' }, page, limit);
}

export function ruleById(em: EntityManager, environmentId: string, id: string): Promise<CategorizationRuleEntity | null> {
  return em.findOne(CategorizationRule, { id, environment: environmentId });
}

export async function removeRule(em: EntityManager, id: string): Promise<void> {
  await em.nativeDelete(CategorizationRule, { id });
}
