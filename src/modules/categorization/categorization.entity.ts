import { defineEntity, p } from '@mikro-orm/core';
import { Environment } from '../environment/environment.entity.ts';
import { Profile } from '../profile/profile.entity.ts';
import type { ClassifierCounts } from './classifier.ts';

export const AMOUNT_SIGNS = ['IN', 'OUT'] as const;
export type AmountSign = (typeof AMOUNT_SIGNS)[number];

/**
 * An operator's rule of an environment: transactions whose merchant name equals `merchantName`, or
 * whose description contains `descriptionContains` (both case-insensitive, plain text: never a
 * pattern a client could make slow), optionally only money in or out, get the category. At least one
 * of the two matches is set (the service checks it).
 */
export const CategorizationRule = defineEntity({
  name: 'CategorizationRule',
  properties: {
    id: p.uuid().primary(),
    environment: () => p.manyToOne(Environment).deleteRule('cascade'),
    merchantName: p.text().nullable(),
    descriptionContains: p.text().nullable(),
    amountSign: p.enum(AMOUNT_SIGNS).nullable(),
    categoryPrimary: p.text(),
    categoryDetailed: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  indexes: [{ properties: ['environment', 'createdAt'] }],
});

export type CategorizationRuleEntity = InstanceType<typeof CategorizationRule.class>;

/**
 * A profile's learned classifier: word counts per category over its own corrections, rebuilt from
 * them on every correction (docs/decisions/categorization-learned-classifier.md). Compact JSON, one
 * row per profile, read once per sync page.
 */
export const CategoryModel = defineEntity({
  name: 'CategoryModel',
  properties: {
    profile: () => p.manyToOne(Profile).primary().deleteRule('cascade'),
    counts: p.json<ClassifierCounts>(),
    trainedAt: p.datetime(),
  },
});

/**
 * The one row saying every stored transaction is enriched at least at `version`: compared with
 * ENRICHMENT_VERSION at boot, so a service that starts with nothing to redo reads one row, not the
 * transaction table.
 */
export const EnrichmentProgress = defineEntity({
  name: 'EnrichmentProgress',
  properties: {
    id: p.integer().primary().autoincrement(false),
    version: p.integer(),
  },
});
