/**
 * How a payment was made when the provider does not say: online when the text names a website or a
 * card-not-present processor (WWW, .COM, ONLINE, iDEAL, a marketplace's "NAME*REFERENCE"), in store
 * when it names a card terminal or a card's purchase (POS, Kartenzahlung, BEA, Kortköp, Korttiosto, Dankort, CB, a Square or Toast till),
 * a store number or ends with the shop's city, otherwise OTHER (transfers, direct debits, ACH,
 * fees, interest).
 */
import { endsWithCity, TILL } from './clean.ts';
import type { PaymentChannel } from './enrichment.ts';
import { phrasesRegex } from './text.ts';

const ONLINE = phrasesRegex([
  'WWW', 'COM', 'CO UK', 'NET', 'ONLINE', 'INTERNET', 'ECOMMERCE', 'E COMMERCE', 'IDEAL', 'MKTP', 'MKTPL', 'ONLINEKAUF', 'INTERNETKAUF', 'VENTE A DISTANCE', 'VAD',
  'COMPRA INTERNET', 'INTERNETKOP', 'E HANDEL', 'APP STORE', 'IN APP',
]);
const IN_STORE = phrasesRegex([
  'POS', 'TERM', 'TERMINAL', 'TID', 'KARTENZAHLUNG', 'GIROCARD', 'CB', 'CARTE', 'PAIEMENT CB', 'BEA', 'BETAALPAS', 'BETAALAUTOMAAT', 'KORTKOP', 'CHECKCARD', 'CHECK CARD',
  'DEBIT CARD PURCHASE', 'CONTACTLESS', 'KONTAKTLOS', 'SANS CONTACT', 'COMPRA TARJ', 'COMPRA TARJETA', 'APPLE PAY', 'GOOGLE PAY', 'CARD PURCHASE',
  'KORTTIOSTO', 'OSTO', 'KORTTIMAKSU', 'PKORTTIMAKSU', 'DANKORT', 'VAREKJOP', 'KORTKJOP', 'KAARDIMAKSE', 'PIRKUMS', 'PIRKINYS', 'PLATNOSC KARTA', 'TRANSAKCJA KARTA', 'PAGAMENTO POS',
]);
/** A "NAME*REFERENCE" or "PROCESSOR *NAME" that is not a till's (Square, Toast, Clover, SumUp, Zettle print the same star in store), nor a card number's masked digits (4921 50** ****, GRACE CHEN *********7731). */
const STAR = /[^\s\d*]\s?\*(?!\*)/;
const STORE_NUMBER = /#\s?\d+|\bSTORE\s?\d+/i;

/** The channel the description's text suggests. */
export function channelFromText(description: string, normalized: string): PaymentChannel {
  // STAR and TILL cannot match without a star: a line without one (most) is read for neither, and TILL is read once.
  const starred = description.includes('*');
  const till = starred && TILL.test(description);
  if (ONLINE.test(normalized) || (starred && !till && STAR.test(description))) return 'ONLINE';
  if (IN_STORE.test(normalized) || till || STORE_NUMBER.test(description) || endsWithCity(normalized)) return 'IN_STORE';
  return 'OTHER';
}
