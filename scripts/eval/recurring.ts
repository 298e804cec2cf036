/**
 * Recurring-stream detection against the hand-labelled account histories in eval/recurring/*.json.
 * Each history says its `split`: `dev` (looked at while the rules were tuned) or `held-out` (written
 * before reading the rules, not to be tuned against); the figures are printed for each, since only
 * the held-out ones are honest, and only a dev history is listed on its own (what it missed with
 * `--misses`). Each transaction goes through the enrichment pipeline first, as a sync does (the
 * history's account currency), so streams are keyed on the merchant it recognises; next dates fall on
 * the banking days of the history's country.
 * - Streams: precision and recall. A detected stream counts as correct when its frequency is the
 *   labelled stream's and its members overlap the labelled ones by at least 80 % (shared members over
 *   the larger of the two sets); each labelled stream is matched once.
 * - Next dates: the histories carry no true next date, so each labelled stream's last occurrence is
 *   held out: detection runs on the history before that day (as of the day before), and the stream
 *   found for the earlier occurrences (the same match) predicts the next date, right when it is within
 *   a day of the held-out one. Only streams that still have their frequency's minimum occurrences
 *   without the last take part; those not found without it count apart, as not predicted.
 * `npm run eval -- recurring` prints the figures (also `node scripts/eval/recurring.ts`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { enrich } from '../../src/enrichment/pipeline.ts';
import { bankingCalendarOf } from '../../src/modules/recurring/bank-holidays.ts';
import type { BankingCalendar } from '../../src/modules/recurring/banking-days.ts';
import { CADENCES, dayNumber, isoDate, type Frequency } from '../../src/modules/recurring/cadence.ts';
import { detectStreams, type DetectedStream, type RecurringInput } from '../../src/modules/recurring/detection.ts';
import type { EvaluationOptions } from '../eval.ts';

const CASES = fileURLToPath(new URL('../../eval/recurring/', import.meta.url));
const OVERLAP = 0.8;
/** How far a predicted next date may be from the held-out occurrence and still count as right. */
const NEXT_DATE_DAYS = 1;

/** `fresh-held-out`: the histories written on 2026-12-03 before any further rule change, the honest measure (recurring-detection.md). */
const SPLITS = ['dev', 'held-out', 'fresh-held-out'] as const;
type Split = (typeof SPLITS)[number];

interface LabelledStream {
  name: string;
  frequency: Frequency;
  transactionIds: string[];
}

interface LabelledCase {
  split: Split;
  title: string;
  /** The account's country (ISO 3166 alpha-2) and currency. */
  country: string;
  currencyCode: string;
  today: string;
  transactions: RecurringInput[];
  streams: LabelledStream[];
}

interface Totals {
  histories: number;
  correct: number;
  detected: number;
  labelled: number;
  /** Labelled streams with their frequency's minimum occurrences before the last. */
  eligible: number;
  predicted: number;
  withinDay: number;
}

export async function evaluate({ misses }: EvaluationOptions = { misses: false }): Promise<{ title: string; lines: string[] }> {
  const lines: string[] = [];
  const totals = new Map<Split, Totals>(SPLITS.map((split) => [split, { histories: 0, correct: 0, detected: 0, labelled: 0, eligible: 0, predicted: 0, withinDay: 0 }]));
  for (const file of readdirSync(CASES).filter((name) => name.endsWith('.json')).sort()) {
    const labelled = JSON.parse(readFileSync(path.join(CASES, file), 'utf8')) as LabelledCase;
    const total = totals.get(labelled.split);
    if (!total) throw new Error(`${file}: split must be one of ${SPLITS.join(', ')}`);
    const transactions = labelled.transactions.map((transaction) => enriched(transaction, labelled.currencyCode));
    const calendar = bankingCalendarOf(labelled.country);
    const detected = detectStreams(transactions, labelled.today, calendar);
    const unmatched = new Set(labelled.streams);
    let hits = 0;
    for (const stream of detected) {
      const match = [...unmatched].find((label) => matches(stream, label.frequency, label.transactionIds));
      if (!match) continue;
      unmatched.delete(match);
      hits++;
    }
    const dates = nextDates(labelled.streams, transactions, calendar);
    total.histories++;
    total.correct += hits;
    total.detected += detected.length;
    total.labelled += labelled.streams.length;
    total.eligible += dates.eligible;
    total.predicted += dates.predicted;
    total.withinDay += dates.withinDay;
    if (labelled.split !== 'dev') continue;
    lines.push(`dev ${file}: ${hits}/${labelled.streams.length} labelled streams found, ${detected.length - hits} false; next dates ${dates.withinDay}/${dates.predicted} within a day`);
    if (!misses) continue;
    for (const label of unmatched) lines.push(`  missed: ${label.name} (${label.frequency})`);
    for (const miss of dates.misses) lines.push(`  next date: ${miss}`);
  }
  const ratio = (a: number, b: number) => (b === 0 ? 'n/a' : `${((100 * a) / b).toFixed(1)} %`);
  for (const [split, { histories, correct, detected, labelled, eligible, predicted, withinDay }] of totals) {
    lines.push(`${split} (${histories} histories): precision ${ratio(correct, detected)} (${correct}/${detected}), recall ${ratio(correct, labelled)} (${correct}/${labelled})`);
    lines.push(`${split} next dates within ${NEXT_DATE_DAYS} day of the held-out last occurrence: ${ratio(withinDay, predicted)} (${withinDay}/${predicted} predicted; ${predicted}/${eligible} streams found without their last occurrence)`);
  }
  lines.push(`a match needs the same frequency and ≥ ${OVERLAP * 100} % member overlap`);
  return { title: 'Recurring streams', lines };
}

/**
 * Each labelled stream's last occurrence held out: the stream detected in the history before its
 * day predicts it. `misses` describes the wrong and missing predictions (for dev histories only).
 */
function nextDates(labels: LabelledStream[], transactions: RecurringInput[], calendar: BankingCalendar): { eligible: number; predicted: number; withinDay: number; misses: string[] } {
  const byId = new Map(transactions.map((transaction) => [transaction.id, transaction]));
  const result = { eligible: 0, predicted: 0, withinDay: 0, misses: [] as string[] };
  for (const label of labels) {
    const members = label.transactionIds.map((id) => byId.get(id)!).sort((a, b) => a.date.localeCompare(b.date));
    const last = members.at(-1)!;
    const earlier = members.slice(0, -1).map((member) => member.id);
    if (earlier.length < CADENCES[label.frequency].minOccurrences) continue;
    result.eligible++;
    const before = transactions.filter((transaction) => transaction.date < last.date);
    const stream = detectStreams(before, isoDate(dayNumber(last.date) - 1), calendar).find((candidate) => matches(candidate, label.frequency, earlier));
    if (!stream) {
      result.misses.push(`${label.name}: not found before ${last.date}`);
      continue;
    }
    result.predicted++;
    if (Math.abs(dayNumber(stream.predictedNextDate) - dayNumber(last.date)) <= NEXT_DATE_DAYS) result.withinDay++;
    else result.misses.push(`${label.name}: predicted ${stream.predictedNextDate}, came ${last.date}`);
  }
  return result;
}

function matches(stream: DetectedStream, frequency: Frequency, transactionIds: string[]): boolean {
  return stream.frequency === frequency && overlap(transactionIds, stream.transactionIds) >= OVERLAP;
}

/** A history's transaction with what the pipeline recognises in it (no provider hints: the histories are raw bank lines). */
function enriched(transaction: RecurringInput, currencyCode: string): RecurringInput {
  const { merchant, category } = enrich({ description: transaction.description, amount: transaction.amount, currencyCode, accountKind: 'DEPOSITORY', hints: NO_HINTS });
  return { ...transaction, merchantName: merchant?.name ?? null, category: category?.detailed ?? null };
}

const NO_HINTS = { merchantName: null, counterpartyName: null, website: null, logoUrl: null, category: null, mcc: null, paymentChannel: null };

function overlap(labelled: string[], detected: string[]): number {
  const members = new Set(detected);
  const shared = labelled.filter((id) => members.has(id)).length;
  return shared / Math.max(labelled.length, detected.length);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { title, lines } = await evaluate({ misses: process.argv.includes('--misses') });
  console.log(`${title}\n${lines.map((line) => `  ${line}`).join('\n')}`);
}
