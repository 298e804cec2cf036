import { averageAmount, magnitudeOf, toUnits, withinPercent } from './amounts.ts';
import { predictedDay, weekendsOnly, type BankingCalendar, type Habit } from './banking-days.ts';
import { CADENCES, dayNumber, FREQUENCIES, isoDate, scheduleOf, type Cadence, type Frequency } from './cadence.ts';

/*
 * Recurring-stream detection: pure, over one account's posted transactions. The rules are in
 * docs/decisions/recurring-detection.md; in short:
 * - transactions are grouped by stream key (streamKey) and direction;
 * - in a group, series are grown from each transaction along each cadence's schedule: at each
 *   expected date, the transaction within the cadence's tolerance whose amount is within
 *   AMOUNT_TOLERANCE_PERCENT of the series' latest amount; or, when none is, the only transaction of
 *   the group in the window (a bill whose amount varies, a price change); one expected occurrence
 *   may be missing, two in a row end the series;
 * - a series is a stream when it has the cadence's minimum occurrences, at most one missed
 *   occurrence for every three, stands out of its group (standsOut: a café visited most weeks
 *   at random is no weekly stream), and is not what the rest of its group would line up by chance
 *   (chanceSeries: a few of two years' random fares fall a week apart);
 * - the best series (most occurrences, fewest misses) is taken, its transactions leave the group,
 *   and the search repeats, so one merchant can carry several streams (two subscriptions);
 * - the predicted next date is a banking day of the account's country (banking-days.ts).
 */

export const DIRECTIONS = ['INFLOW', 'OUTFLOW'] as const;
export type Direction = (typeof DIRECTIONS)[number];
export const STREAM_STATUSES = ['EARLY_DETECTION', 'MATURE', 'ENDED'] as const;
export type StreamStatus = (typeof STREAM_STATUSES)[number];

/** A posted transaction of one account, as detection reads it. */
export interface RecurringInput {
  id: string;
  /** `YYYY-MM-DD`. */
  date: string;
  /** Signed exact decimal, negative = money out. */
  amount: string;
  description: string;
  /** The merchant transaction enrichment recognised; absent or null when none. */
  merchantName?: string | null;
  /** The enrichment's detailed category, e.g. `ENTERTAINMENT_TV_AND_MOVIES`; absent or null when none. */
  category?: string | null;
}

export interface DetectedStream {
  key: string;
  direction: Direction;
  frequency: Frequency;
  status: StreamStatus;
  /** The latest occurrence's description: what the stream is shown as. */
  description: string;
  /** The latest occurrence's merchant and category, as enrichment found them. */
  merchantName: string | null;
  category: string | null;
  /** Member transaction ids, oldest first. */
  transactionIds: string[];
  firstDate: string;
  lastDate: string;
  predictedNextDate: string;
  averageAmount: string;
  lastAmount: string;
}

/** How far an occurrence's amount may move from the previous one and still continue a series. */
export const AMOUNT_TOLERANCE_PERCENT = 25;
/**
 * The share of a group's comparable transactions around a series that the series must hold: in its
 * span widened on both sides by almost a period (up to the next expected window).
 */
const DOMINANCE = { members: 4, of: 5 };
/** How far consecutive amounts of a steady series may move (see standsOut). */
const STEADY_PERCENT = 5;
/** Occurrences (none missed) a series of varying amounts needs: chance lines up a few random purchases. */
const VARIABLE_MIN_OCCURRENCES = 6;
/**
 * Detailed categories of payers and billers that pay or bill on a schedule whatever the amount: pay by
 * the hour, a metered utility, a phone bill, a loan, an insurance renewed at a new price. A series all
 * of whose members enrichment put in one of them is taken as steady (see standsOut).
 */
const SCHEDULED_CATEGORIES = /^(?:INCOME_WAGES|RENT_AND_UTILITIES_|LOAN_PAYMENTS_|GENERAL_SERVICES_INSURANCE)/;
/** How much wider than a series' own amounts the range of comparable transactions is. */
const RANGE_SLACK_PERCENT = 10;
/** How many series as long as a candidate the rest of its group may be expected to line up by chance (see chanceSeries). */
const CHANCE_SERIES = 0.001;
/** How many periods either side of a series its neighbourhood reaches (see chanceSeries). */
const CHANCE_SPAN_PERIODS = 4;

/**
 * What identifies a counterparty across occurrences: the merchant enrichment recognised (however its
 * bank lines vary: `AMZN Mktp US*2K4L8`, `AMAZON.COM*AB12`), else the description; either lowercased
 * without accents, with words holding a digit, punctuation and month names removed (a salary or a bill
 * names the month or the week it is for, and a name read from the line keeps what it could not tell
 * from a name: `SALAIRE SEPTEMBRE`, `Gymbox Membership Mrz`, `Acme WK12`), and from a description also
 * reference noise (store numbers, `PPD ID: …`, payment-channel words). A merchant and a description
 * that come to the same words are one counterparty, so a stream whose lines are named on some
 * occurrences and not on others stays one group. A name of nothing but such words (`7-Eleven`) is
 * kept whole.
 */
export function streamKey(transaction: Pick<RecurringInput, 'description' | 'merchantName'>): string {
  if (transaction.merchantName) {
    const words = wordsOf(transaction.merchantName).filter((word) => !MONTH_NAMES.has(word));
    return words.length > 0 ? words.join(' ') : transaction.merchantName.trim().toLowerCase();
  }
  const words = wordsOf(transaction.description).filter((word) => word.length > 1 && !REFERENCE_NOISE.has(word) && !MONTH_NAMES.has(word));
  return words.length > 0 ? words.join(' ') : transaction.description.trim().toLowerCase();
}

/** The words of bank text lowercased without accents, those holding a digit and all punctuation dropped. */
function wordsOf(text: string): string[] {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => !/\d/.test(word))
    .join(' ')
    .replace(/[^a-z]+/g, ' ')
    .split(' ')
    .filter((word) => word !== '');
}

/**
 * Month names and their abbreviations as European and American banks print them in payment
 * references (English, German, French, Dutch, Spanish, Italian, Portuguese, Nordic, Polish).
 */
const MONTH_NAMES = new Set(
  [
    'january february march april may june july august september october november december',
    'jan feb mar apr jun jul aug sep sept oct nov dec',
    'januar februar marz mai juni juli oktober dezember jaenner maerz mrz okt dez',
    'janvier fevrier mars avril juin juillet aout septembre octobre novembre decembre janv fevr fev avr juil',
    'januari februari maart mei augustus mrt',
    'enero febrero marzo abril mayo junio julio agosto septiembre setiembre octubre noviembre diciembre ene abr ago dic',
    'gennaio febbraio aprile maggio giugno luglio settembre ottobre dicembre gen mag giu lug ott',
    'janeiro fevereiro marco maio junho julho setembro outubro novembro dezembro',
    'januari februari mars april maj juni juli augusti',
    'styczen luty marzec kwiecien czerwiec lipiec sierpien wrzesien pazdziernik listopad grudzien',
  ].flatMap((names) => names.split(' ')),
);

/** Words that say how a payment was made or reference it, not who it was with. */
const REFERENCE_NOISE = new Set(['pos', 'purchase', 'debit', 'card', 'pending', 'ppd', 'id', 'web', 'ach', 'ref', 'www', 'com', 'sq', 'tst', 'dd', 'recurring', 'autopay', 'online', 'pmt', 'payment', 'checkcard', 'visa', 'des', 'indn', 'co', 'ccd']);

interface Entry {
  id: string;
  day: number;
  units: bigint;
  amount: string;
  description: string;
  merchantName: string | null;
  category: string | null;
}

/**
 * The recurring streams of one account's posted transactions, judged on `today` (`YYYY-MM-DD`), with
 * next dates predicted on the banking days of `isBankingDay` (the account's country; weekends only
 * when it is not known).
 */
export function detectStreams(transactions: readonly RecurringInput[], today: string, isBankingDay: BankingCalendar = weekendsOnly): DetectedStream[] {
  const groups = new Map<string, Entry[]>();
  for (const transaction of transactions) {
    const units = toUnits(transaction.amount);
    if (units === 0n) continue;
    const groupKey = `${units < 0n ? 'OUTFLOW' : 'INFLOW'}\u0000${streamKey(transaction)}`;
    const entry = { id: transaction.id, day: dayNumber(transaction.date), units, amount: transaction.amount, description: transaction.description, merchantName: transaction.merchantName ?? null, category: transaction.category ?? null };
    groups.set(groupKey, [...(groups.get(groupKey) ?? []), entry]);
  }
  const streams: DetectedStream[] = [];
  for (const [groupKey, entries] of groups) {
    const [direction, key] = groupKey.split('\u0000') as [Direction, string];
    entries.sort((a, b) => a.day - b.day || a.id.localeCompare(b.id));
    for (const series of seriesOf(entries)) streams.push(present(series, key, direction, dayNumber(today), isBankingDay));
  }
  return streams.sort((a, b) => a.firstDate.localeCompare(b.firstDate) || a.key.localeCompare(b.key));
}

interface Series {
  cadence: Cadence;
  members: Entry[];
  /** The schedule index of each member (0 for the first). */
  slots: number[];
  /** Expected occurrences between the first and the last member that had no transaction. */
  misses: number;
}

/** Every stream of one group, best first: each taken removes its members before the next search. */
function seriesOf(entries: Entry[]): Series[] {
  const found: Series[] = [];
  let remaining = entries;
  for (;;) {
    let best: Series | undefined;
    for (const cadence of FREQUENCIES.map((frequency) => CADENCES[frequency])) {
      for (const start of remaining) {
        const series = grow(remaining, start, cadence);
        if (series && (!best || score(series) > score(best))) best = series;
      }
    }
    if (!best) return found;
    found.push(best);
    const taken = new Set(best.members);
    remaining = remaining.filter((entry) => !taken.has(entry));
  }
}

/**
 * Occurrences count for a series; gaps and amount moves against it (two subscriptions at one shop are
 * two steady series, not one that alternates), except a scheduled payer's or biller's, whose amounts
 * may move every time (a metered bill taken whole, not in its steadier stretches).
 */
function score(series: Series): number {
  const moves = scheduled(series.members) ? 0 : amountMoves(series.members);
  return series.members.length * 2 - series.misses * 3 - moves * 2;
}

/** Whether enrichment put every member in a SCHEDULED_CATEGORIES category. */
function scheduled(members: Entry[]): boolean {
  return members.every((member) => member.category !== null && SCHEDULED_CATEGORIES.test(member.category));
}

/** The series of `cadence` grown forwards from `start` among `entries` (sorted by day), if it makes a stream. */
function grow(entries: Entry[], start: Entry, cadence: Cadence): Series | undefined {
  const schedule = scheduleOf(cadence.frequency, start.day);
  const members = [start];
  const slots = [0];
  const lastDay = entries.at(-1)!.day;
  let misses = 0;
  let missedInARow = 0;
  for (let k = 1; missedInARow < 2; k++) {
    const expected = schedule.expected(k);
    if (expected - cadence.toleranceDays > lastDay) break;
    const previous = members.at(-1)!;
    const next = occurrenceNear(entries, expected, cadence.toleranceDays, previous);
    if (!next) {
      misses++;
      missedInARow++;
      continue;
    }
    missedInARow = 0;
    members.push(next);
    slots.push(k);
    schedule.learn(k, next.day);
  }
  // Misses after the last member are not gaps: they say whether the stream ended.
  misses -= missedInARow;
  if (members.length < cadence.minOccurrences || misses * 3 > members.length) return undefined;
  if (!standsOut(entries, members, misses, cadence) || chanceSeries(entries, members, misses, cadence) > CHANCE_SERIES) return undefined;
  return { cadence, members, slots, misses };
}

/**
 * The occurrence expected around `expected`: among the transactions after `previous` within the
 * tolerance, the closest in date of those whose amount is near the previous one's; else the only
 * transaction in the window, whatever its amount; else none.
 */
function occurrenceNear(entries: Entry[], expected: number, tolerance: number, previous: Entry): Entry | undefined {
  const window: Entry[] = [];
  for (let i = firstFrom(entries, expected - tolerance); i < entries.length && entries[i]!.day <= expected + tolerance; i++) {
    if (entries[i]!.day > previous.day) window.push(entries[i]!);
  }
  const similar = window.filter((entry) => withinPercent(entry.units, previous.units, AMOUNT_TOLERANCE_PERCENT));
  if (similar.length === 0) return window.length === 1 ? window[0] : undefined;
  return similar.reduce((best, entry) => (closer(entry, best, expected, previous.units) ? entry : best));
}

/** The index of the first entry on or after `day` (entries sorted by day). */
function firstFrom(entries: Entry[], day: number): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (entries[middle]!.day < day) low = middle + 1;
    else high = middle;
  }
  return low;
}

function closer(entry: Entry, best: Entry, expected: number, reference: bigint): boolean {
  const distance = Math.abs(entry.day - expected) - Math.abs(best.day - expected);
  if (distance !== 0) return distance < 0;
  return magnitudeOf(entry.units - reference) < magnitudeOf(best.units - reference);
}

/**
 * Whether the series stands out of its group. A series whose amounts vary needs
 * VARIABLE_MIN_OCCURRENCES without a gap, unless it is a scheduled payer's or biller's
 * (SCHEDULED_CATEGORIES: pay that varies with hours, a metered bill), which counts as steady. Then: it holds DOMINANCE of the group's transactions around
 * it (from almost a period before its first occurrence to almost a period after its last); or, in a
 * group with other purchases around it (a shop with a subscription, two subscriptions at one
 * merchant), its amounts are steady (see steady), it has
 * twice the cadence's minimum occurrences, and it holds DOMINANCE of the transactions around
 * it in its own amount range.
 */
function standsOut(entries: Entry[], members: Entry[], misses: number, cadence: Cadence): boolean {
  const margin = cadence.periodDays - cadence.toleranceDays - 1;
  const first = members[0]!.day - margin;
  const last = members.at(-1)!.day + margin;
  const around = entries.filter((entry) => entry.day >= first && entry.day <= last);
  const isSteady = steady(members) || scheduled(members);
  if (!isSteady && (members.length < VARIABLE_MIN_OCCURRENCES || misses > 0)) return false;
  if (holds(members.length, around.length)) return true;
  if (members.length < cadence.minOccurrences * 2 || !isSteady) return false;
  const magnitudes = members.map((member) => magnitudeOf(member.units));
  const low = magnitudes.reduce((a, b) => (a < b ? a : b));
  const high = magnitudes.reduce((a, b) => (a > b ? a : b));
  const slack = (high * BigInt(RANGE_SLACK_PERCENT)) / 100n;
  const comparable = around.filter((entry) => magnitudeOf(entry.units) >= low - slack && magnitudeOf(entry.units) <= high + slack);
  return holds(members.length, comparable.length);
}

/**
 * How many series as long as `members` the rest of the group would line up by chance: a shop bought
 * from at random (a café, a train fare of one price) puts a transaction of a similar amount in a
 * cadence's window now and then, and over two years a few of them fall a week or a month apart.
 * The rest of the group's transactions of comparable amount (within AMOUNT_TOLERANCE_PERCENT of the
 * series' range) fill a window with probability q at their density; each of them could start a
 * series, which reaches this length, with its missed occurrences anywhere along it, with
 * C(steps, misses) · q^(occurrences - 1) · (1 - q)^misses. The density is the larger of the whole
 * group's and the one within CHANCE_SPAN_PERIODS periods of the series: purchases come in spells (a
 * term of commuting), and a spell is where chance lines up a long series; a short one hides in a
 * quiet stretch, which only the whole history shows to be chance.
 */
function chanceSeries(entries: Entry[], members: Entry[], misses: number, cadence: Cadence): number {
  const taken = new Set(members);
  const magnitudes = members.map((member) => magnitudeOf(member.units));
  const low = magnitudes.reduce((a, b) => (a < b ? a : b));
  const high = magnitudes.reduce((a, b) => (a > b ? a : b));
  const slack = BigInt(AMOUNT_TOLERANCE_PERCENT);
  const comparable = entries.filter((entry) => !taken.has(entry) && magnitudeOf(entry.units) * 100n >= low * (100n - slack) && magnitudeOf(entry.units) * 100n <= high * (100n + slack));
  if (comparable.length === 0) return 0;
  const first = members[0]!.day - CHANCE_SPAN_PERIODS * cadence.periodDays;
  const last = members.at(-1)!.day + CHANCE_SPAN_PERIODS * cadence.periodDays;
  const near = comparable.filter((entry) => entry.day >= first && entry.day <= last).length;
  const density = Math.max(comparable.length / Math.max(entries.at(-1)!.day - entries[0]!.day + 1, cadence.periodDays), near / (last - first + 1));
  const filled = 1 - Math.exp(-density * (2 * cadence.toleranceDays + 1));
  return comparable.length * arrangements(members.length - 1 + misses, misses) * filled ** (members.length - 1) * (1 - filled) ** misses;
}

/** In how many ways `misses` of `steps` expected occurrences can be the missed ones. */
function arrangements(steps: number, misses: number): number {
  let ways = 1;
  for (let i = 1; i <= misses; i++) ways = (ways * (steps - misses + i)) / i;
  return ways;
}

function holds(members: number, of: number): boolean {
  return members * DOMINANCE.of >= of * DOMINANCE.members;
}

/**
 * Few moves between consecutive amounts larger than STEADY_PERCENT: one (a price change), and one
 * more for every eight occurrences (a one-off correction moves away and back).
 */
function steady(members: Entry[]): boolean {
  return amountMoves(members) <= 1 + Math.floor(members.length / 8);
}

/**
 * How many times consecutive amounts move by more than STEADY_PERCENT. A one-off amount between two
 * alike (a charge corrected, a month's credit) is one move: the move back to where it was is not
 * another. Amounts that alternate (two subscriptions taken for one series) move at every step.
 */
function amountMoves(members: Entry[]): number {
  let moves = 0;
  const alike = (i: number, j: number) => withinPercent(members[i]!.units, members[j]!.units, STEADY_PERCENT);
  for (let i = 1; i < members.length; i++) {
    if (alike(i, i - 1)) continue;
    const back = i >= 2 && alike(i, i - 2) && !alike(i - 1, i - 2) && (i === 2 || alike(i - 2, i - 3));
    if (!back) moves++;
  }
  return moves;
}

/** Where a payment due on a weekend or holiday goes when the stream's history does not show it: pay the banking day before, debits the one after. */
const CONVENTION: Record<Direction, Habit> = { INFLOW: 'PREVIOUS', OUTFLOW: 'NEXT' };

function present(series: Series, key: string, direction: Direction, today: number, isBankingDay: BankingCalendar): DetectedStream {
  const { cadence, members, slots, misses } = series;
  const nextDay = predictedDay({ cadence, days: members.map((member) => member.day), slots }, CONVENTION[direction], isBankingDay);
  const last = members.at(-1)!;
  return {
    key,
    direction,
    frequency: cadence.frequency,
    status: statusOf(cadence, members.length, misses, nextDay, today),
    description: last.description,
    merchantName: last.merchantName,
    category: last.category,
    transactionIds: members.map((member) => member.id),
    firstDate: isoDate(members[0]!.day),
    lastDate: isoDate(last.day),
    predictedNextDate: isoDate(nextDay),
    averageAmount: averageAmount(members.map((member) => member.amount)),
    lastAmount: last.amount,
  };
}

/**
 * ENDED once the predicted date is more than the cadence's grace period past; MATURE with at least
 * three occurrences and at most one missed for every six; EARLY_DETECTION otherwise (a new series,
 * an annual one seen twice, or one with gaps).
 */
function statusOf(cadence: Cadence, occurrences: number, misses: number, nextDay: number, today: number): StreamStatus {
  if (today > nextDay + cadence.graceDays) return 'ENDED';
  return occurrences >= 3 && misses * 6 <= occurrences ? 'MATURE' : 'EARLY_DETECTION';
}
