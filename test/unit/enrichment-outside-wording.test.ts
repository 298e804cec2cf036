import { describe, expect, it } from 'vitest';
import { enrichLine as of, nameOfLine as nameOf } from '../support/enrichment.ts';

/** Bank wording seen in public importers' fixtures (eval/enrichment/outside-dev-2.jsonl), each pattern on a line written here. */
describe('names read through the wording of banks the first rounds did not read', () => {
  it('French transfers, card references and postcodes: VIREMENT SEPA EVI/RECU, VIR INST, a leading SARL, /MOTIF, CB*1234, a postcode and town', () => {
    expect(nameOf('VIREMENT SEPA EVI MUTUELLE DES TILLEULS', '31.20')).toBe('Mutuelle des Tilleuls');
    expect(nameOf('VIREMENT SEPA RECU /DE SAS ATELIER BLEU /MOTIF SALAIRE AVRIL', '2210.00')).toBe('Atelier Bleu');
    expect(nameOf('VIREMENT SEPA VIR SARL LES JARDINS DU SUD salaire mai', '1980.00')).toBe('Les Jardins du Sud');
    expect(nameOf('CARTE 14/05/25 CREPERIE DU PORT CB*8812', '-18.00')).toBe('Creperie du Port');
    expect(nameOf('CARTE 02/05 MOL*FROMAGERIE GIRARD 44000 NANTES', '-12.40')).toBe('Fromagerie Girard');
    expect(nameOf('CARTE 09/05 HPY*ASSOCIATION SPORTIVE DES CEDRES', '-45.00')).toBe('Association Sportive des Cedres');
  });

  it("Belgian card lines: the card's mask after NUMMER, BANKREFERENTIE and VALUTADATUM, KBC's card wording after the shop", () => {
    expect(nameOf('BETALING MET DEBETKAART NUMMER 4871 04XX XXXX 2210 BAKKERIJ VERMEULEN 12/05/2025 BANKREFERENTIE : 2505121200998877 VALUTADATUM : 12/05/2025', '-6.80')).toBe('Bakkerij Vermeulen');
    expect(nameOf('SLAGERIJ DE KONING BE9000 GENT Betaling met Apple Pay via Debit Mastercard 03-05-2025 om 10.14 uur 5127 04XX XXXX 9911', '-21.30')).toBe('Slagerij de Koning');
  });

  it("ABN AMRO's tagged SEPA lines: the /NAME/ field", () => {
    expect(nameOf('/TRTP/SEPA OVERBOEKING/IBAN/NL02ABNA0123456789/BIC/ABNANL2A/NAME/Installatiebedrijf Kok/REMI/Factuur 2025-044/EREF/NOTPROVIDED', '-340.00')).toBe('Installatiebedrijf Kok');
  });

  it("Polish card and transfer wording (W KRAJU, - INTERNET, Transakcja kartą debetową), a town after a slash", () => {
    expect(nameOf('ZAKUP PRZY UŻYCIU KARTY W KRAJU KWIACIARNIA ROZA/KRAKOW', '-45.00', 'PLN')).toBe('Kwiaciarnia Roza');
    expect(nameOf('Transakcja kartą debetową, SKLEP RYBNY NEPTUN', '-38.20', 'PLN')).toBe('Sklep Rybny Neptun');
  });

  it('UK and Spanish transfer wording, a UK code ending the payer, a civil title before a given name and surname', () => {
    expect(nameOf('STANDING ORDER VIA FASTER PAYMENT TO MRS P NAIDOO REF RENT', '-700.00', 'GBP')).toBe('P Naidoo');
    expect(nameOf('R SHAH FPI CONCERT TICKETS', '40.00', 'GBP')).toBe('R Shah');
    expect(nameOf('THE OLD BELL CD 5521       03MAY25', '-26.40', 'GBP')).toBe('The Old Bell');
    expect(nameOf('BIZUM A FAVOR DE ELENA ROJAS CONCEPTO CUMPLE', '-20.00')).toBe('Elena Rojas');
    // A title before a surname alone stays, as the person is known: M Durand.
    expect(nameOf('VIR SEPA LOYER MAI M BERTIN', '-640.00')).toBe('M Bertin');
  });

  it("Portuguese MB WAY to a person, a trailing CONTACTLESS", () => {
    expect(nameOf('TRF MB WAY P/ Joana Pires', '-15.00')).toBe('Joana Pires');
    expect(nameOf('COMPRA 4411 PASTELARIA ALVORADA CONTACTLESS', '-3.10')).toBe('Pastelaria Alvorada');
  });

  it("names no one on a bank's own fees, a card bill or a loan instalment, and names an independent cash machine's operator", () => {
    expect(of('Kontoudskrift kvartal 2', '-40.00', 'DKK')).toMatchObject({ merchant: null, category: { detailed: 'BANK_FEES_OTHER_BANK_FEES' } });
    expect(of('MAANDELIJKSE BIJDRAGE BANKPAKKET COMFORT', '-4.10')).toMatchObject({ merchant: null, category: { detailed: 'BANK_FEES_OTHER_BANK_FEES' } });
    expect(of('F COTIS CONVENTION CERENITY', '-9.30')).toMatchObject({ merchant: null, category: { detailed: 'BANK_FEES_OTHER_BANK_FEES' } });
    expect(of('PAGAMENTO CARTAO DE CREDITO 5512', '-380.00')).toMatchObject({ merchant: null, category: { detailed: 'LOAN_PAYMENTS_CREDIT_CARD_PAYMENT' } });
    expect(of('ECH PRET:5512009918273', '-410.00').merchant).toBeNull();
    expect(of('NOTEMACHINE KINGS CROSS 2', '-20.00', 'GBP')).toMatchObject({ merchant: { name: 'Notemachine' }, category: { detailed: 'TRANSFER_OUT_WITHDRAWAL' } });
  });
});
