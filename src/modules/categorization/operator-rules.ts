import type { AmountSign } from './categorization.entity.ts';

/** An operator's rule as the categorizer applies it (matches already lower-cased). */
export interface OperatorRule {
  merchantName: string | null;
  descriptionContains: string | null;
  amountSign: AmountSign | null;
  categoryPrimary: string;
  categoryDetailed: string;
}

/** What a rule matches on. */
export interface RuleSubject {
  description: string;
  cleanDescription: string;
  merchantName: string | null;
  amount: string;
}

/**
 * The first rule (oldest first) that matches: merchant name equal, or the raw or cleaned description
 * containing the text, both ignoring case; and the direction when the rule names one. Plain text
 * comparisons only, so a rule costs the same whatever a client wrote in it.
 */
export function matchingRule<R extends OperatorRule>(rules: readonly R[], subject: RuleSubject): R | undefined {
  const merchant = subject.merchantName?.toLowerCase() ?? null;
  const description = subject.description.toLowerCase();
  const clean = subject.cleanDescription.toLowerCase();
  const sign = subject.amount.startsWith('-') ? 'OUT' : 'IN';
  return rules.find(
    (rule) =>
      (rule.amountSign === null || rule.amountSign === sign) &&
      ((rule.merchantName !== null && rule.merchantName === merchant) ||
        (rule.descriptionContains !== null && (description.includes(rule.descriptionContains) || clean.includes(rule.descriptionContains)))),
  );
}
