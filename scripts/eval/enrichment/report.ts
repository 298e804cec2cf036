/**
 * The enrichment evaluation's figures from scored lines: accuracy grouped by a key (style, country),
 * as a markdown table, and the categories the pipeline gets most wrong with what it gave instead.
 * Pure functions of the scores, so test/unit/eval-enrichment-report.test.ts checks them on a fixture.
 */

/** One labelled line after enrichment: what was right, and the detailed categories wanted and given. */
export interface Scored {
  style: string;
  country: string;
  merchantRight: boolean;
  merchantGiven: boolean;
  primaryRight: boolean;
  detailedRight: boolean;
  categorized: boolean;
  /** Null: the line wants no category. */
  expectedDetailed: string | null;
  /** Null: the pipeline gave none. */
  givenDetailed: string | null;
  /** How the merchant was missed; null when it was right. */
  merchantMiss: MerchantMiss | null;
}

/**
 * How a merchant name was missed, from the two names normalized: which kind of fix a miss needs
 * (cut words off, keep more, read another part of the line), told for every split, held-out ones
 * included, as counts only.
 */
export const MERCHANT_MISSES = {
  extraWords: 'the name and more words',
  cutShort: 'part of the name',
  sharesAWord: 'another name sharing a word',
  otherName: 'another name',
  noName: 'no name',
  unwanted: 'a name where none is wanted',
} as const;
export type MerchantMiss = keyof typeof MERCHANT_MISSES;

/** How `given` misses `wanted` (both normalized, '' for none), or null when it is right. */
export function merchantMiss(wanted: string, given: string): MerchantMiss | null {
  if (wanted === given) return null;
  if (given === '') return 'noName';
  if (wanted === '') return 'unwanted';
  const words = (name: string) => ` ${name} `;
  if (words(given).includes(words(wanted))) return 'extraWords';
  if (words(wanted).includes(words(given))) return 'cutShort';
  const wantedWords = new Set(wanted.split(' '));
  return given.split(' ').some((word) => wantedWords.has(word)) ? 'sharesAWord' : 'otherName';
}

/** One line: what the merchant misses of `scored` gave instead, by kind, most often first. */
export function merchantMissLine(scored: readonly Scored[]): string {
  const counts = new Map<MerchantMiss, number>();
  for (const { merchantMiss: miss } of scored) if (miss) counts.set(miss, (counts.get(miss) ?? 0) + 1);
  const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
  const kinds = [...counts.entries()].sort(([a, m], [b, n]) => n - m || compare(a, b)).map(([miss, n]) => `${MERCHANT_MISSES[miss]} ×${n}`);
  return `Merchant misses (${total} of ${scored.length}), what was given: ${total === 0 ? 'none missed' : kinds.join(', ')}`;
}

export interface Tally {
  count: number;
  merchant: number;
  merchantsGiven: number;
  merchantsGivenRight: number;
  primary: number;
  detailed: number;
  categorized: number;
}

/** A category wanted and missed `missed` times of `count`, with what was given instead (most often first). */
export interface Confusion {
  expected: string;
  count: number;
  missed: number;
  given: Array<{ detailed: string; count: number }>;
}

export const ALL = 'all';
const NONE = '(none)';

/** Tallies per value of `key`, and one for every line under ALL. */
export function tallyBy(scored: readonly Scored[], key: (line: Scored) => string): Map<string, Tally> {
  const tallies = new Map<string, Tally>();
  for (const line of scored) {
    for (const group of [key(line), ALL]) {
      const tally = tallies.get(group) ?? { count: 0, merchant: 0, merchantsGiven: 0, merchantsGivenRight: 0, primary: 0, detailed: 0, categorized: 0 };
      tally.count += 1;
      tally.merchant += Number(line.merchantRight);
      tally.merchantsGiven += Number(line.merchantGiven);
      tally.merchantsGivenRight += Number(line.merchantGiven && line.merchantRight);
      tally.primary += Number(line.primaryRight);
      tally.detailed += Number(line.detailedRight);
      tally.categorized += Number(line.categorized);
      tallies.set(group, tally);
    }
  }
  return tallies;
}

/** The `limit` wanted categories missed most often (then by share missed, then by name). */
export function worstCategories(scored: readonly Scored[], limit: number): Confusion[] {
  const byExpected = new Map<string, { count: number; given: Map<string, number> }>();
  for (const line of scored) {
    const expected = line.expectedDetailed ?? NONE;
    const entry = byExpected.get(expected) ?? { count: 0, given: new Map<string, number>() };
    entry.count += 1;
    if (!line.detailedRight) {
      const given = line.givenDetailed ?? NONE;
      entry.given.set(given, (entry.given.get(given) ?? 0) + 1);
    }
    byExpected.set(expected, entry);
  }
  return [...byExpected.entries()]
    .map(([expected, { count, given }]) => ({
      expected,
      count,
      missed: [...given.values()].reduce((sum, n) => sum + n, 0),
      given: [...given.entries()].map(([detailed, n]) => ({ detailed, count: n })).sort((a, b) => b.count - a.count || compare(a.detailed, b.detailed)),
    }))
    .filter((confusion) => confusion.missed > 0)
    .sort((a, b) => b.missed - a.missed || b.missed / b.count - a.missed / a.count || compare(a.expected, b.expected))
    .slice(0, limit);
}

/** The confusion list as lines: `EXPECTED (missed/count) → GIVEN ×n, …`. */
export function confusionLines(confusions: readonly Confusion[]): string[] {
  return confusions.map(({ expected, count, missed, given }) => `  ${expected} (${missed}/${count} missed) → ${given.map(({ detailed, count: n }) => `${detailed} ×${n}`).join(', ')}`);
}

/** A markdown table of the tallies, groups in name order and ALL last. */
export function table(keyTitle: string, tallies: ReadonlyMap<string, Tally>): string {
  const header = [keyTitle, 'n', 'merchant', 'merchant precision', 'primary', 'detailed', 'coverage'];
  const rows = [...tallies.entries()]
    .sort(([a], [b]) => (a === ALL ? 1 : b === ALL ? -1 : compare(a, b)))
    .map(([group, tally]) => [group, String(tally.count), percent(tally.merchant, tally.count), percent(tally.merchantsGivenRight, tally.merchantsGiven), percent(tally.primary, tally.count), percent(tally.detailed, tally.count), percent(tally.categorized, tally.count)]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) => `| ${cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join(' | ')} |`;
  return [line(header), `|${widths.map((width, column) => (column === 0 ? ':' : '') + '-'.repeat(width + 1) + (column === 0 ? '' : ':')).join('|')}|`, ...rows.map(line)].join('\n');
}

export function percent(part: number, whole: number): string {
  return whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)} %`;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
