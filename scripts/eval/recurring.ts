/**
 * Recurring-stream detection against the hand-labelled account histories in eval/recurring/*.json:
 * stream precision and recall. A detected stream counts as correct when its frequency is the
 * labelled stream's and its members overlap the labelled ones by at least 80 % (shared members over
 * the larger of the two sets); each labelled stream is matched once. Each history says whether it is
 * `dev` (looked at while the rules were tuned) or `held-out` (written before reading the rules, not
 * to be tuned against); the figures are printed for each, since only the held-out ones are honest.
 * Each transaction goes through the enrichment pipeline first, as a sync does, so streams are keyed on
 * the merchant it recognises. `npm run eval -- recurring` prints the figures (also `node scripts/eval/recurring.ts`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { enrich } from '../../src/enrichment/pipeline.ts';
import { detectStreams, type RecurringInput } from '../../src/modules/recurring/detection.ts';

const CASES = fileURLToPath(new URL('../../eval/recurring/', import.meta.url));
const OVERLAP = 0.8;

const SPLITS = ['dev', 'held-out'] as const;

interface LabelledCase {
  split: (typeof SPLITS)[number];
  title: string;
  today: string;
  transactions: RecurringInput[];
  streams: Array<{ name: string; frequency: string; transactionIds: string[] }>;
}

export async function evaluate(): Promise<{ title: string; lines: string[] }> {
  const lines: string[] = [];
  const totals = new Map(SPLITS.map((split) => [split, { correct: 0, detected: 0, labelled: 0, histories: 0 }]));
  for (const file of readdirSync(CASES).filter((name) => name.endsWith('.json')).sort()) {
    const labelled = JSON.parse(readFileSync(path.join(CASES, file), 'utf8')) as LabelledCase;
    const total = totals.get(labelled.split);
    if (!total) throw new Error(`${file}: split must be one of ${SPLITS.join(', ')}`);
    const detected = detectStreams(labelled.transactions.map(enriched), labelled.today);
    const unmatched = new Set(labelled.streams);
    let hits = 0;
    for (const stream of detected) {
      const match = [...unmatched].find((label) => label.frequency === stream.frequency && overlap(label.transactionIds, stream.transactionIds) >= OVERLAP);
      if (!match) continue;
      unmatched.delete(match);
      hits++;
    }
    total.correct += hits;
    total.detected += detected.length;
    total.labelled += labelled.streams.length;
    total.histories++;
    const missed = [...unmatched].map((label) => label.name);
    lines.push(`${labelled.split} ${file}: ${hits}/${labelled.streams.length} labelled streams found, ${detected.length - hits} false${missed.length > 0 ? `; missed: ${missed.join(', ')}` : ''}`);
  }
  const ratio = (a: number, b: number) => (b === 0 ? 'n/a' : `${((100 * a) / b).toFixed(1)} %`);
  for (const [split, { correct, detected, labelled, histories }] of totals) {
    lines.push(`${split} (${histories} histories): precision ${ratio(correct, detected)} (${correct}/${detected}), recall ${ratio(correct, labelled)} (${correct}/${labelled})`);
  }
  lines.push(`a match needs the same frequency and ≥ ${OVERLAP * 100} % member overlap`);
  return { title: 'Recurring streams', lines };
}

/** A history's transaction with what the pipeline recognises in it (no provider hints: the histories are raw bank lines). */
function enriched(transaction: RecurringInput): RecurringInput {
  const { merchant, category } = enrich({ description: transaction.description, amount: transaction.amount, currencyCode: 'USD', accountKind: 'DEPOSITORY', hints: NO_HINTS });
  return { ...transaction, merchantName: merchant?.name ?? null, category: category?.detailed ?? null };
}

const NO_HINTS = { merchantName: null, counterpartyName: null, website: null, logoUrl: null, category: null, mcc: null, paymentChannel: null };

function overlap(labelled: string[], detected: string[]): number {
  const members = new Set(detected);
  const shared = labelled.filter((id) => members.has(id)).length;
  return shared / Math.max(labelled.length, detected.length);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { title, lines } = await evaluate();
  console.log(`${title}\n${lines.map((line) => `  ${line}`).join('\n')}`);
}
