import { describe, expect, it } from 'vitest';
import { enrichLine as of, nameOfLine as nameOf } from '../support/enrichment.ts';

/** Bank wording seen in public importers' fixtures (eval/enrichment/outside-dev-6.jsonl, ENRICHMENT_VERSION 9), each pattern on a line written here. */
describe('names and categories read through the wording of a sixth development set', () => {
  it("a café's own word refines the merchant category code of its trade: filed as fast food (5814), it is a café", () => {
    expect(of('KAWIARNIA POD LIPAMI', '-12.00', 'PLN', { mcc: '5814' }).category?.detailed).toBe('FOOD_AND_DRINK_COFFEE');
    expect(of('CARD PAYMENT TO THE COPPER KETTLE CAFE ON 02-04-2026', '-4.20', 'GBP', { mcc: '5814' }).category?.detailed).toBe('FOOD_AND_DRINK_COFFEE');
    // A word of another trade leaves the code's category: a pharmacy's code is not overruled by a bakery's word in its name.
    expect(of('BURGER SHACK', '-9.00', 'EUR', { mcc: '5814' }).category?.detailed).toBe('FOOD_AND_DRINK_FAST_FOOD');
    expect(of('APTEEKKI LEIPOMO', '-9.00', 'EUR', { mcc: '5912' }).category?.primary).toBe('MEDICAL');
  });

  it("a Belgian card line's scheme after the shop (BANCONTACT - CONTACTLOOS, BANCONTACT), then the town before it", () => {
    expect(nameOf('BETALING MET DEBETKAART NUMMER 5521 09XX XXXX 1187 SLAGERIJ PEETERS MECHELEN 02/04/2026 BANCONTACT - CONTACTLOOS BANKREFERENTIE : 2604021133001234 VALUTADATUM : 02/04/2026', '-23.10')).toBe('Slagerij Peeters');
    expect(nameOf('PAIEMENT AVEC LA CARTE DE DEBIT NUMERO 5521 09XX XXXX 1187 LIBRAIRIE DU PARC NAMUR 03/04/2026 BANCONTACT REFERENCE BANQUE : 2604031200001111 DATE VALEUR : 03/04/2026', '-17.50')).toBe('Librairie du Parc');
  });

  it("a Belgian transfer's method words, then the other party's account in groups of four and its bank's BIC before the name", () => {
    expect(nameOf('OVERSCHRIJVING IN EURO VAN REKENING BE12 7310 4455 6677 BIC KREDBEBB BOUWBEDRIJF JANSSENS BV KERKSTRAAT 3 2000 ANTWERPEN MEDEDELING : LOON MAART 2026 BANKREFERENTIE : 2603311400001234 VALUTADATUM : 31/03/2026', '2450.00')).toBe('Bouwbedrijf Janssens');
    expect(of('VIREMENT EN EUROS DU COMPTE BE55 0012 3456 7890 BIC GEBABEBB MUTUALITE SOLIDARIS COMMUNICATION : REMBOURSEMENT SOINS REFERENCE BANQUE : 2604011200009999 DATE VALEUR : 01/04/2026', '34.20').cleanDescription).not.toMatch(/BE55|GEBABEBB|BIC/);
  });

  it("Italian card and transfer wording: PAGAMENTO SU CIRCUITO INTERNAZIONALE, BONIFICO o/c:", () => {
    expect(nameOf('PAGAMENTO SU CIRCUITO INTERNAZIONALE GELATERIA DEL PONTE VERONA ITA Operazione carta ****1187 del 02.04.2026', '-6.50')).toBe('Gelateria del Ponte');
    expect(nameOf('BONIFICO o/c: CARPENTERIA ROSSI SRL ABI-CAB: 03069-11111 a favore di Luca Neri Num. Bon.Sepa 260911001234567 STIPENDIO MARZO 2026', '1850.00')).toBe('Carpenteria Rossi');
  });

  it("a saint's name that is also a month's stays in the name (SAN MARCO is not March)", () => {
    expect(nameOf('PAGAMENTO POS 8,40 EUR DEL 02/04/2026 A (ITA) FARMACIA SAN MARCO CARTA N. *1187', '-8.40')).toBe('Farmacia San Marco');
    expect(nameOf('COMPRA 4411 PADARIA SANTO MAIO CONTACTLESS', '-3.10')).toBe('Padaria Santo Maio');
  });

  it('the processor or wallet that carried a payment to a shop named after its star is not the merchant; a processor that is the payee stays', () => {
    expect(nameOf('PAIEMENT PAR CARTE X1187 PAYPAL *KESTRELKNITS 35314369001 02/04', '-59.00')).toBe('Kestrelknits');
    expect(nameOf('BEA, Apple Pay CCV*Bloemenhuis Vermeer,PAS311 NR:CT118822, 02.04.26/10:12 ZWOLLE', '-14.50')).toBe('Bloemenhuis Vermeer');
    expect(nameOf('SQC*CASH APP 8774174551 CA', '-25.00', 'USD')).toBe('Cash App');
    expect(nameOf('PAYPAL INST XFER', '-25.00', 'USD')).toBe('PayPal');
  });

  it('a NatWest-style card field with CD before the name', () => {
    expect(nameOf('5521 02APR26 CD , HOLLY TREE FLORIST , LEEDS GB', '-18.00', 'GBP')).toBe('Holly Tree Florist');
  });
});
