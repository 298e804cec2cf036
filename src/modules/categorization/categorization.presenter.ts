import type { components } from '../../../generated/rest.ts';
import { encodeId } from '../../lib/ids.ts';
import type { CategorizationRuleEntity } from './categorization.entity.ts';

export function presentRule(rule: CategorizationRuleEntity): components['schemas']['CategorizationRule'] {
  return {
    id: encodeId('categorizationRule', rule.id),
    merchantName: rule.merchantName ?? null,
    descriptionContains: rule.descriptionContains ?? null,
    amountSign: rule.amountSign ?? null,
    category: { primary: rule.categoryPrimary, detailed: rule.categoryDetailed },
    at: rule.createdAt.toISOString(),
  };
}
