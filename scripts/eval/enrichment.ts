/**
 * The enrichment pipeline (src/enrichment/) against eval/enrichment/*.jsonl: hand-written bank
 * descriptions in several providers' and countries' styles, each labelled with the merchant a
 * person would name (null: none, as for a transfer or a payroll) and the category. Every file is a
 * split reported on its own: dev.jsonl was read while the rules were written, holdout.jsonl was
 * written afterwards and is not tuned on (docs/decisions/enrichment-evaluation.md).
 *
 * Merchant: right when the names are equal once normalized (or both absent); precision is the share
 * of the names given that are right. Category: the primary, then the detailed one (absent counts as
 * a value). Coverage: the share given a category at all.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { EnrichmentInput } from '../../src/enrichment/enrichment.ts';
import { enrich, ENRICHMENT_VERSION } from '../../src/enrichment/pipeline.ts';
import { isCategory } from '../../src/enrichment/taxonomy.ts';
import { normalize } from '../../src/enrichment/text.ts';
import type { EvaluationOptions } from '../eval.ts';

interface Labelled {
  style: string;
  description: string;
  amount: string;
  currencyCode: string;
  accountKind: EnrichmentInput['accountKind'];
  mcc?: string;
  /** Enable Banking's creditor or debtor name, when the line carries one. */
  counterparty?: string;
  merchant: string | null;
  category: { primary: string; detailed: string } | null;
}

interface Tally {
  count: number;
  merchant: number;
  merchantsGiven: number;
  merchantsGivenRight: number;
  primary: number;
  detailed: number;
  categorized: number;
}

const FOLDER = path.join(import.meta.dirname, '../../eval/enrichment');
const NO_HINTS = { merchantName: null, counterpartyName: null, website: null, logoUrl: null, category: null, mcc: null, paymentChannel: null };

export async function evaluate({ misses }: EvaluationOptions): Promise<{ title: string; lines: string[] }> {
  const lines: string[] = [];
  const splits = readdirSync(FOLDER).filter((file) => file.endsWith('.jsonl')).sort();
  for (const file of splits) {
    const split = file.slice(0, -'.jsonl'.length);
    const tallies = new Map<string, Tally>();
    const missed: string[] = [];
    for (const item of readLabelled(path.join(FOLDER, file))) {
      const result = enrich({ description: item.description, amount: item.amount, currencyCode: item.currencyCode, accountKind: item.accountKind, hints: { ...NO_HINTS, mcc: item.mcc ?? null, counterpartyName: item.counterparty ?? null } });
      const merchantRight = normalize(item.merchant ?? '') === normalize(result.merchant?.name ?? '');
      const primaryRight = (item.category?.primary ?? null) === (result.category?.primary ?? null);
      const detailedRight = (item.category?.detailed ?? null) === (result.category?.detailed ?? null);
      for (const key of [item.style, 'all']) {
        const tally = tallies.get(key) ?? { count: 0, merchant: 0, merchantsGiven: 0, merchantsGivenRight: 0, primary: 0, detailed: 0, categorized: 0 };
        tally.count += 1;
        tally.merchant += Number(merchantRight);
        tally.merchantsGiven += Number(result.merchant !== null);
        tally.merchantsGivenRight += Number(result.merchant !== null && merchantRight);
        tally.primary += Number(primaryRight);
        tally.detailed += Number(detailedRight);
        tally.categorized += Number(result.category !== null);
        tallies.set(key, tally);
      }
      if (misses && split === 'dev' && !(merchantRight && detailedRight)) {
        missed.push(`  ${item.style.padEnd(10)} ${item.description}\n${' '.repeat(13)}got ${result.merchant?.name ?? '-'} / ${result.category?.detailed ?? '-'}, want ${item.merchant ?? '-'} / ${item.category?.detailed ?? '-'}`);
      }
    }
    lines.push(`${split} (${tallies.get('all')?.count ?? 0} descriptions)`, '', table(tallies), '');
    if (missed.length > 0) lines.push('Misses:', ...missed, '');
  }
  return { title: `Enrichment (ENRICHMENT_VERSION ${ENRICHMENT_VERSION})`, lines };
}

function table(tallies: Map<string, Tally>): string {
  const header = ['style', 'n', 'merchant', 'merchant precision', 'primary', 'detailed', 'coverage'];
  const rows = [...tallies.entries()]
    .sort(([a], [b]) => (a === 'all' ? 1 : b === 'all' ? -1 : a < b ? -1 : 1))
    .map(([style, tally]) => [style, String(tally.count), percent(tally.merchant, tally.count), percent(tally.merchantsGivenRight, tally.merchantsGiven), percent(tally.primary, tally.count), percent(tally.detailed, tally.count), percent(tally.categorized, tally.count)]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) => `| ${cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join(' | ')} |`;
  return [line(header), `|${widths.map((width, column) => (column === 0 ? ':' : '') + '-'.repeat(width + 1) + (column === 0 ? '' : ':')).join('|')}|`, ...rows.map(line)].join('\n');
}

function percent(part: number, whole: number): string {
  return whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)} %`;
}

/** The file's items, each checked: a bad label would make the figures lie. */
function readLabelled(file: string): Labelled[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, index) => {
      const item = JSON.parse(line) as Labelled;
      const where = `${path.basename(file)}:${index + 1}`;
      if (!/^-?\d+(\.\d+)?$/.test(item.amount)) throw new Error(`${where}: amount is not a decimal string`);
      if (item.category && !isCategory(item.category.primary, item.category.detailed)) throw new Error(`${where}: ${item.category.primary}/${item.category.detailed} is not a category of the taxonomy`);
      return item;
    });
}
