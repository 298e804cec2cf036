import { describe, expect, it } from 'vitest';
import { enrichLine as of, nameOfLine as nameOf } from '../support/enrichment.ts';

/** Bank wording seen in public importers' fixtures and parsers (eval/enrichment/outside-dev-5.jsonl), each pattern on a line written here. */
describe('names read through the wording of a fifth development set', () => {
  it("a US credit union's descriptor before its spaced-colon entry type, its terminal code and the year after the state", () => {
    expect(nameOf('D4410 SQ *MAPLE STREET BAGELS MODESTO CA 26 : Mobile Purchase Sign Based 04/02 07:41a #5521', '-8.20', 'USD')).toBe('Maple Street Bagels');
    expect(nameOf('OAK BARREL TAPHOUSE MODESTO CA 26092 : Debit Card Purchase 04/01 09:12p #5521', '-31.00', 'USD')).toBe('Oak Barrel Taphouse');
    expect(nameOf('PRIYA SHAH : Zelle Debit PAY ID:CTI00aa11bb ORG ID:BAC', '-20.00', 'USD')).toBe('Priya Shah');
    // The channel's word (Mobile Purchase) is no telephone bill.
    expect(of('D4410 HILLTOP HARDWARE TURLOCK CA 26 : Mobile Purchase Sign Based 04/03 02:10p #5521', '-12.40', 'USD').category?.detailed).toBe('HOME_IMPROVEMENT_HARDWARE');
  });

  it("a state glued to the country and a code (CAUS07162), and a trade's word before a short store number and the town", () => {
    expect(nameOf('GREEN LEAF MARKET FRESNO CAUS07171 : Debit PIN Purchase', '-22.00', 'USD')).toBe('Green Leaf Market');
    expect(nameOf('EL TORO TAQUERIA 4 MERCED CA', '-15.00', 'USD')).toBe('El Toro Taqueria');
  });

  it("a credit union's Withdrawal @ a shop is a purchase there; at an ATM it is cash", () => {
    expect(of('Withdrawal @ PRAIRIE SUN GROCERY 2210 AMES IA', '-40.00', 'USD')).toMatchObject({ merchant: { name: 'Prairie Sun Grocery' }, category: { detailed: 'FOOD_AND_DRINK_GROCERIES' } });
    expect(of('Withdrawal @ ATM 400 MAIN ST AMES IA', '-60.00', 'USD')).toMatchObject({ merchant: null, category: { detailed: 'TRANSFER_OUT_WITHDRAWAL' } });
  });

  it('a short word and its number are one name; an ampersand between words stays', () => {
    expect(nameOf('SQ *PHO 68 STOCKTON CA', '-16.00', 'USD')).toBe('Pho 68');
    expect(nameOf('CARD PAYMENT TO THE FOX & HOUNDS ON 12-04-2026', '-22.50', 'GBP')).toBe('The Fox & Hounds');
  });

  it("BAWAG's barred fields: the counterparty in the last, after the terminal or the other bank's BIC and IBAN, before its town or purpose", () => {
    expect(nameOf('Bezahlung Karte MC/000007711|POS 4410  K001 02.04. 12:05|GASTHOF ZUM LAMM\\\\VILLACH\\9500', '-41.00')).toBe('Gasthof zum Lamm');
    expect(nameOf('Gutschrift Überweisung OG/000002211|RZOOAT2L AT483200000012345678 Tischlerei Gruber GmbH Gehalt 04/2026', '2300.00')).toBe('Tischlerei Gruber');
    expect(nameOf('Abbuchung Onlinebanking BG/000004412|BAWAATWWXXX AT301400002116059700 Mag. Lena Moser Miete Mai', '-700.00')).toBe('Lena Moser');
  });

  it("a person's surname that is also a town stays on a transfer between people", () => {
    expect(nameOf('MobilePay Freja Aalborg', '-120.00', 'DKK')).toBe('Freja Aalborg');
    expect(nameOf('Swish inbetalning JOHAN MALMO', '300.00', 'SEK')).toBe('Johan Malmo');
  });

  it("Polish wording: mBank's town after a slash, Millennium's till (K.1), PKO's sender's label on a phone transfer, a treatment or tuition after the name, a web address", () => {
    expect(nameOf('ZAKUP PRZY UŻYCIU KARTY W KRAJU CUKIERNIA POD ZEGAREM/PRZEMYSL', '-21.00', 'PLN')).toBe('Cukiernia Pod Zegarem');
    expect(nameOf('DOP. MC 557519******2201 PŁATNOŚĆ KARTĄ 12.00 PLN KWIACIARNIA ROZA K.2 GDANSK', '-12.00', 'PLN')).toBe('Kwiaciarnia Roza');
    expect(nameOf('Przelew na telefon przychodzący Nazwa nadawcy: KAROL WÓJCIK Tytuł: za pizzę', '30.00', 'PLN')).toBe('Karol Wójcik');
    expect(nameOf('PRZELEW ZEWNĘTRZNY WYCHODZĄCY SZKOŁA JĘZYKOWA LINGUA CZESNE MAJ', '-400.00', 'PLN')).toBe('Szkoła Językowa Lingua');
    expect(nameOf('Płatność BLIK Nr transakcji 11223344 Lokalizacja: Adres: www.answear.com', '-89.00', 'PLN')).toBe('Answear');
  });

  it("Portuguese transfers (TRF P/, TRF.IMED. DE) name the person; O after a trade's word is the article, not an Irish O'", () => {
    expect(nameOf('TRF P/ BEATRIZ LOPES', '-40.00')).toBe('Beatriz Lopes');
    expect(nameOf('TRF.IMED. DE TIAGO NEVES', '15.00')).toBe('Tiago Neves');
    expect(nameOf('COMPRA 5521 TASCA O CANTINHO LISBOA', '-18.00')).toBe('Tasca O Cantinho');
  });

  it("UK codes: HSBC's leading CR, Barclays' STO before the reference, a mobile-channel transfer to an account that names no one, Nationwide's Bank credit", () => {
    expect(nameOf('CR HMRC TAX CREDITS', '80.00', 'GBP')).toBe('HMRC');
    expect(nameOf('SARAH KENDALL STO SARAH KENDALL ROOM', '-450.00', 'GBP')).toBe('Sarah Kendall');
    expect(of('204411 55667788 MOBILE-CHANNEL FT', '-100.00', 'GBP')).toMatchObject({ merchant: null, category: { detailed: 'TRANSFER_OUT_ACCOUNT_TRANSFER' } });
    expect(of('Bank credit OLIVER PAGE', '25.00', 'GBP')).toMatchObject({ merchant: { name: 'Oliver Page' }, category: { detailed: 'TRANSFER_IN_ACCOUNT_TRANSFER' } });
  });

  it("Dutch: Tikkie's payer after Van, a title in ING's title case (Hr, Mw)", () => {
    expect(nameOf('Naam: Tikkie Omschrijving: Tikkie ID 000998877665, Etentje, Van Daan Visser, NL55INGB0001234567 IBAN: NL27ABNA0562870000', '22.00')).toBe('Daan Visser');
    expect(nameOf('Naam: Mw K. de Boer Omschrijving: Oppas april IBAN: NL44RABO0300123400', '-60.00')).toBe('K. de Boer');
  });

  it("Bank of America's Zelle writes the surname first; Wells Fargo's card tail and MONEY TRANSFER AUTHORIZED ON", () => {
    expect(nameOf('Zelle Transfer Conf# a1b2c3d4; Nguyen, Thao', '-35.00', 'USD')).toBe('Thao Nguyen');
    expect(nameOf('PURCHASE AUTHORIZED ON 04/02 BELLA VISTA DELI #12 WINNEMUCCA NV S306092211223344 CARD 1100', '-14.00', 'USD')).toBe('Bella Vista Deli');
  });

  it("a title-case name ends at the payer's words in lower case; a trade's word before a city is the shop's name, a town after that is its place", () => {
    expect(nameOf('Pārskaitījums Ilze Liepa par kafijas automātu', '-15.00')).toBe('Ilze Liepa');
    expect(nameOf('Kortköp 260402 CAFE PARIS GAVLE', '-60.00', 'SEK')).toBe('Cafe Paris');
  });

  it('cash and trade words: Danish Hævet automat, Finnish automaattinosto, a Swedish frisersalong, a Danish bøfhus', () => {
    expect(of('Hævet automat Nordea Vesterport', '-300.00', 'DKK')).toMatchObject({ merchant: null, category: { detailed: 'TRANSFER_OUT_WITHDRAWAL' } });
    expect(of('AUTOMAATTINOSTO Otto Sello', '-40.00')).toMatchObject({ merchant: null, category: { detailed: 'TRANSFER_OUT_WITHDRAWAL' } });
    expect(of('Kortköp 260402 FRISERSALONG SAX UPPSALA', '-380.00', 'SEK').category?.detailed).toBe('PERSONAL_CARE_HAIR_AND_BEAUTY');
    expect(of('Visa køb DKK 310,00 Bøfhuset Vejle Den 02.04', '-310.00', 'DKK').category?.detailed).toBe('FOOD_AND_DRINK_RESTAURANT');
  });

  it('the merchant that starts the name wins over a longer one after it: a delivery platform before a restaurant (with its kind of food), a fuel brand before the shop in its station', () => {
    expect(of('DEBIT PURCHASE -VISA DD *DOORDASH MCDONALDS 855-973-1040 CA', '-21.00', 'USD')).toMatchObject({ merchant: { name: 'DoorDash' }, category: { detailed: 'FOOD_AND_DRINK_FAST_FOOD' } });
    expect(of('Visa/Dankort CIRCLE K 7-ELEVEN KOLDING', '-300.00', 'DKK')).toMatchObject({ merchant: { name: 'Circle K' }, category: { detailed: 'TRANSPORTATION_GAS' } });
  });

  it("Santander's Faster Payments receipt names the payer after the reference's FROM; Portugal's pension agency as banks print it", () => {
    expect(nameOf('FASTER PAYMENTS RECEIPT REF CINEMA TICKETS FROM AMY LOWE', '18.00', 'GBP')).toBe('Amy Lowe');
    expect(nameOf('CGA PENS 05/2026', '980.00')).toBe('Caixa Geral de Aposentações');
  });
});
