/**
 * The labelled lines of eval/enrichment/*.jsonl, read and checked (a bad label would make the figures
 * lie), and the rule that splits the outside-style set: a line is held out when the SHA-256 of its
 * description and amount, read as a number, leaves 0 divided by 3. The rule was applied once, when
 * the set was frozen (docs/decisions/enrichment-evaluation.md); checking it here keeps a line from
 * moving between the outside files unnoticed.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { EnrichmentInput } from '../../../src/enrichment/enrichment.ts';
import { isCategory } from '../../../src/enrichment/taxonomy.ts';

export interface Labelled {
  style: string;
  description: string;
  amount: string;
  currencyCode: string;
  accountKind: EnrichmentInput['accountKind'];
  /** The card's merchant category code, when the bank reports one. */
  mcc?: string;
  /** The creditor's or debtor's name as the bank reports it (Enable Banking), passed as the provider's name. */
  counterparty?: string;
  /** The merchant or payer a person would name; null for own transfers, fees, interest, cash, and lines naming no one. */
  merchant: string | null;
  category: { primary: string; detailed: string } | null;
  /** ISO 3166-1 alpha-2. */
  country: string;
  /** Where the line's pattern was seen: a URL, a repository and path, or `pattern:` and where. */
  source: string;
}

/** The outside-style set's two files; other splits are the round-one author's. */
export const OUTSIDE_SPLITS = { dev: 'outside-dev', heldOut: 'outside-holdout' } as const;

/** Splits whose misses are never listed: the held-out ones, named `…holdout` or `…holdout-<n>` (blind-holdout-3). */
export function isHeldOut(split: string): boolean {
  return /holdout(?:-\d+)?$/.test(split);
}

/** The outside-style set's split rule. */
export function heldOutByHash(line: Pick<Labelled, 'description' | 'amount'>): boolean {
  return createHash('sha256').update(`${line.description}\n${line.amount}`).digest().readUInt32BE(0) % 3 === 0;
}

export function readLabelled(file: string): Labelled[] {
  const split = path.basename(file, '.jsonl');
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, index) => {
      const item = JSON.parse(line) as Labelled;
      const where = `${path.basename(file)}:${index + 1}`;
      if (!/^-?\d+(\.\d+)?$/.test(item.amount)) throw new Error(`${where}: amount is not a decimal string`);
      if (item.category && !isCategory(item.category.primary, item.category.detailed)) throw new Error(`${where}: ${item.category.primary}/${item.category.detailed} is not a category of the taxonomy`);
      if (!/^[A-Z]{2}$/.test(item.country ?? '')) throw new Error(`${where}: country is not an ISO 3166 code`);
      if (!item.source?.trim()) throw new Error(`${where}: no source`);
      if ((split === OUTSIDE_SPLITS.dev || split === OUTSIDE_SPLITS.heldOut) && heldOutByHash(item) !== (split === OUTSIDE_SPLITS.heldOut)) {
        throw new Error(`${where}: the split rule puts this line in ${heldOutByHash(item) ? OUTSIDE_SPLITS.heldOut : OUTSIDE_SPLITS.dev}`);
      }
      return item;
    });
}
