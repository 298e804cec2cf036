/**
 * The sandbox's descriptions as a US bank's statement prints them, not the counterparty's clean
 * name: card purchases carry the card network's descriptor (processor prefixes such as SQ *, store
 * numbers, marketplace references) with the bank's own wording around it (DEBIT CARD PURCHASE and a
 * masked card, "Purchase authorized on" and a date, CHECKCARD and a trace number) and the store's
 * city and state; ACH movements carry their NACHA line (PPD ID, WEB ID). So the sandbox behaves as a
 * raw bank feed and the enrichment pipeline has the work it has for SimpleFIN.
 * Each movement always gets the same line (pending and posted alike), drawn from its key.
 */
import { isoDay, type Movement } from './household.ts';
import { digits, pick, randomFor } from './random.ts';

/** A marketplace's per-order reference after the star: AMZN Mktp US*2K4L81QT2. */
const ORDER_REFERENCE = /\*[A-Z0-9]{6,}$/;
const REFERENCE_CHARACTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';

type Wording = (line: { descriptor: string; place: string; date: string; card: string; trace: () => string }) => string;

/** How a checking account's bank words a debit card purchase. */
const DEBIT_CARD: readonly Wording[] = [
  ({ descriptor, place, card }) => `DEBIT CARD PURCHASE XXXXX${card} ${descriptor}${place}`,
  ({ descriptor, place, date, card, trace }) => `Purchase authorized on ${date} ${descriptor}${place} S${trace()} Card ${card}`,
  ({ descriptor, place, date, trace }) => `CHECKCARD ${date.replace('/', '')} ${descriptor}${place} ${trace()}`,
  ({ descriptor, date }) => `POS PURCHASE ${descriptor} ${date}`,
];
/** How a card issuer words a purchase on the card's own statement. */
const CREDIT_CARD: readonly Wording[] = [({ descriptor, place }) => `${descriptor}${place}`];

/** The bank's line for a movement of the account `accountRemoteId`. */
export function bankLine(movement: Movement, accountRemoteId: string): string {
  const { counterparty } = movement;
  if (counterparty.channel === 'other') return counterparty.descriptor;
  const random = randomFor(`${movement.key}:line`);
  const descriptor = counterparty.descriptor.replace(ORDER_REFERENCE, () => `*${reference(random)}`);
  const store = counterparty.store;
  const wording = pick(random, movement.account === 'card' ? CREDIT_CARD : DEBIT_CARD);
  return wording({
    descriptor,
    place: store ? ` ${descriptor.endsWith(store.city.toUpperCase()) ? '' : `${store.city.toUpperCase()} `}${store.region}` : '',
    date: `${isoDay(movement.day).slice(5, 7)}/${isoDay(movement.day).slice(8)}`,
    card: digits(randomFor(`${accountRemoteId}:card`), 4),
    trace: () => digits(random, 15),
  });
}

function reference(random: () => number): string {
  let out = '';
  for (let i = 0; i < 9; i++) out += REFERENCE_CHARACTERS[Math.floor(random() * REFERENCE_CHARACTERS.length)];
  return out;
}
