import { describe, expect, it } from 'vitest';
import { nameAndDetailed as both, detailedOfLine as detailedOf, enrichLine, nameOfLine as nameOf } from '../support/enrichment.ts';

/** ENRICHMENT_VERSION 15: patterns of the development splits' misses and the knowledge written for the countries (brands, trade words, given names), each on a line written here. */
describe('card fields, surnames and trades an app reads past', () => {
  it('ends an Austrian card line’s name before its postcode, the card’s field, the day and the time', () => {
    expect(both(enrichLine('KONDITOREI JINDRAK LINZ 4020 POS          12,80 AT  D5   02.04. 15:10', '-12.80'))).toEqual(['Konditorei Jindrak', 'FOOD_AND_DRINK_OTHER_FOOD_AND_DRINK']);
    expect(nameOf('BUCHHANDLUNG HINTERBERGER 1010  D5   03.04. 11:42', '-24.90')).toBe('Buchhandlung Hinterberger');
    // The same fields before the shop, as other Austrian card lines print them, leave the shop's name whole.
    expect(nameOf('POS 18,20 AT K1 04.04. 12:05 BUCHHANDLUNG HINTERBERGER 1010 WIEN', '-18.20')).toBe('Buchhandlung Hinterberger');
  });

  it('keeps a Dutch VAN with the surname a line writes before the given name', () => {
    expect(nameOf('Overschrijving naar BE55 0012 3456 7844 Van Hecke Sofie Mededeling: terugbetaling etentje', '-30.00')).toBe('Sofie Van Hecke');
    // VAN before a given name is "from": the person follows.
    expect(nameOf('Overschrijving van Annelies Peeters Mededeling: etentje', '30.00')).toBe('Annelies Peeters');
  });

  it('drops a letter alone that OFX cut from the next field of a US line', () => {
    expect(nameOf('ZELLE TO ERIN WALSH ON 04/11 R', '-45.00', 'USD')).toBe('Erin Walsh');
    expect(nameOf('CHECKCARD SQ *HERON BAKERY & C', '-8.00', 'USD')).toBe('Heron Bakery');
    // A line of another length, or another country's, keeps its letter: a Danish town's district goes only with its town.
    expect(enrichLine('Dankort-køb Irma 2291, Aarhus C', '-40.00', 'DKK').cleanDescription).toBe('Irma');
    expect(enrichLine('MobilePay Mads Hansen C', '-40.00', 'DKK').cleanDescription).toMatch(/ C$/);
  });

  it('names Google’s own services after its star, and drops a reference OFX cut after a star', () => {
    expect(nameOf('GOOGLE *CLOUD_9Q2W7E-1', '-14.00', 'USD')).toBe('Google Cloud');
    expect(nameOf('GOOGLE *Google Storage', '-2.99', 'USD')).toBe('Google One');
    expect(nameOf('PAYPAL *ETSYSHOPX', '-30.00', 'USD')).not.toBe('PayPal');
    expect(nameOf('Deposit ACH NORTHROP GRUMMAN*Q', '2410.00', 'USD')).toBe('Northrop Grumman');
  });

  it('reads a US name a processor wrote together as two words at a business name’s ending', () => {
    expect(nameOf('PAYPAL *RIVERSTONEGOODS', '-45.00', 'USD')).toBe('Riverstone Goods');
    expect(nameOf('MAPLECRESTAPARTMENTS WEB PMTS 7KQ2M1', '-1350.00', 'USD')).toBe('Maplecrest Apartments');
    // A name that is one word, or too short before its ending, stays whole.
    expect(nameOf('PAYPAL *ARTSUPPLY', '-12.00', 'USD')).toBe('Artsupply');
  });

  it('names a Dutch foundation without its Stichting, as most readers do', () => {
    expect(nameOf('Naam: Stichting Natuurmonumenten Omschrijving: Donatie mei IBAN: NL12RABO0123456789', '-10.00')).toBe('Natuurmonumenten');
    expect(nameOf('Huur juni 2026', '-980.00', 'EUR', { counterpartyName: 'Stichting Woonbron' })).toBe('Woonbron');
  });

  it('writes a name’s Mc as its bearers do', () => {
    expect(nameOf('SQ *MCCLELLANDS BAKERY', '-9.00', 'USD')).toBe('McClellands Bakery');
    expect(nameOf('FPS TO R MCKENZIE', '-40.00', 'GBP')).toBe('R McKenzie');
  });

  it('knows more of the countries’ common given names, so a payment from a person is a transfer', () => {
    expect(both(enrichLine('Tagasimakse kinopilet', '18.00', 'EUR', { counterpartyName: 'KRISTJAN TAMM' }))).toEqual(['Kristjan Tamm', 'TRANSFER_IN_ACCOUNT_TRANSFER']);
    expect(both(enrichLine('Pārskaitījums par vakariņām', '-22.00', 'EUR', { counterpartyName: 'BAIBA OZOLA' }))).toEqual(['Baiba Ozola', 'TRANSFER_OUT_ACCOUNT_TRANSFER']);
    expect(nameOf('VIR SEPA RECU DE MME DUPONT ELISABETH', '50.00')).toBe('Elisabeth Dupont');
  });

  it('knows the US regional chains a household pays (1,342 brands written for version 15)', () => {
    expect(both(enrichLine('DILLONS #0112 HUTCHINSON KS', '-61.20', 'USD'))).toEqual(['Dillons', 'FOOD_AND_DRINK_GROCERIES']);
    expect(both(enrichLine('CHECKCARD 0412 RUNZA #118 KEARNEY NE', '-11.40', 'USD'))).toEqual(['Runza', 'FOOD_AND_DRINK_FAST_FOOD']);
    expect(both(enrichLine('POS DEBIT KUM&GO 0231 ANKENY IA', '-38.00', 'USD'))).toEqual(['Kum & Go', 'TRANSPORTATION_GAS']);
    expect(both(enrichLine('PURCHASE AUTHORIZED ON 04/11 SCHEELS SIOUX FALLS SD S386101234567890 CARD 1234', '-89.99', 'USD'))).toEqual(['Scheels', 'GENERAL_MERCHANDISE_SPORTING_GOODS']);
    expect(nameOf('WSDOT-GOODTOGO ONLINE PMT', '-25.00', 'USD')).toBe('Good To Go');
    // A Polish discounter's name on a dollar account is no store of it.
    expect(nameOf('PEPCO 1234 WARSZAWA', '-19.99', 'PLN')).toBe('Pepco');
    expect(detailedOf('PEPCO 1234 WARSZAWA', '-19.99', 'USD')).not.toBe('GENERAL_MERCHANDISE_DISCOUNT_STORES');
  });

  it('reads a small shop’s trade from its kind of goods', () => {
    expect(detailedOf('SQ *SUMMIT RIDGE OUTFITTERS', '-84.00', 'USD')).toBe('GENERAL_MERCHANDISE_SPORTING_GOODS');
    expect(detailedOf('POS DEBIT PAWS AND CLAWS GROOMING', '-55.00', 'USD')).toBe('GENERAL_MERCHANDISE_PET_SUPPLIES');
    expect(detailedOf('TST* TIGER SUGAR BOBA', '-6.40', 'USD')).toBe('FOOD_AND_DRINK_OTHER_FOOD_AND_DRINK');
    expect(detailedOf('PRAIRIE FEED & SEED', '-42.00', 'USD')).toBe('GENERAL_MERCHANDISE_OTHER_GENERAL_MERCHANDISE');
    expect(detailedOf('EASTSIDE AUTOMOTIVE', '-310.00', 'USD')).toBe('GENERAL_SERVICES_AUTOMOTIVE');
    expect(detailedOf('SQ *SUNRISE BREAKFAST CLUB', '-23.00', 'USD')).toBe('FOOD_AND_DRINK_RESTAURANT');
    expect(detailedOf('LAKESIDE CAMPGROUND', '-38.00', 'USD')).toBe('TRAVEL_LODGING');
  });

  it('reads a bank’s own savings product, Dutch savings interest, an Irish account fee and a Finnish Otto withdrawal, naming no one', () => {
    expect(both(enrichLine('Abbuchung Onlinebanking BG/000005120|BAWAATWWXXX AT301400002116059700 SparBox', '-200.00'))).toEqual([null, 'TRANSFER_OUT_SAVINGS']);
    expect(both(enrichLine('Rente Oranje Spaarrekening 01-04-2026 t/m 30-06-2026', '4.12'))).toEqual([null, 'INCOME_INTEREST_EARNED']);
    expect(both(enrichLine('CURRENT A/C FEES TO 30JUN', '-6.00'))).toEqual([null, 'BANK_FEES_OTHER_BANK_FEES']);
    expect(both(enrichLine('NOSTO OTTO. 260611 OULU ROTUAARI', '-60.00'))).toEqual([null, 'TRANSFER_OUT_WITHDRAWAL']);
  });

  it('knows more of the European brands and payers a household pays (a second pass, version 15)', () => {
    expect(both(enrichLine('Bezahlung Karte MC/000005512|POS 5512 K001 11.04. 09:14|HUMANIC DANKT\\\\GRAZ\\8010', '-79.90'))).toEqual(['Humanic', 'GENERAL_MERCHANDISE_CLOTHING_AND_ACCESSORIES']);
    expect(both(enrichLine('EUROPESE DOMICILIERING ECOPOWER CV FACTUUR 2026-04', '-64.00'))).toEqual(['Ecopower', 'RENT_AND_UTILITIES_GAS_AND_ELECTRICITY']);
    expect(nameOf('Lastschrift RheinEnergie AG Abschlag Strom 05/2026', '-88.00')).toBe('RheinEnergie');
    expect(both(enrichLine('CB LA MIE CALINE 12/05 NANTES', '-6.40'))).toEqual(['La Mie Câline', 'FOOD_AND_DRINK_OTHER_FOOD_AND_DRINK']);
    // A name that is another country's brand stays the line's own elsewhere: Santander Consumer is Santander Consumer USA only on a dollar account.
    expect(nameOf('LASTSCHRIFT SANTANDER CONSUMER BANK AG RATE 05/2026', '-210.00')).toBe('Santander Consumer Bank');
    expect(nameOf('SANTANDER CONSUMER AUTO PMT', '-410.00', 'USD')).toBe('Santander Consumer USA');
  });

  it('reads a small shop’s trade in each of the providers’ languages', () => {
    expect(detailedOf('Kartenzahlung FLEISCHEREI BRANDL', '-14.20')).toBe('FOOD_AND_DRINK_GROCERIES');
    expect(detailedOf('CB CORDONNERIE DU CENTRE 12/04', '-9.00')).toBe('GENERAL_SERVICES_OTHER_GENERAL_SERVICES');
    expect(detailedOf('BEA, Betaalpas STOMERIJ VAN DIJK,PAS041', '-11.50')).toBe('PERSONAL_CARE_LAUNDRY_AND_DRY_CLEANING');
    expect(detailedOf('PAGAMENTO POS GOMMISTA FERRARI 2291 PARMA', '-120.00')).toBe('GENERAL_SERVICES_AUTOMOTIVE');
    expect(detailedOf('COMPRA TARJ. 5540XXXXXXXX1234 HELADERIA LA JIJONENCA-VALENCIA', '-5.40')).toBe('FOOD_AND_DRINK_OTHER_FOOD_AND_DRINK');
    expect(detailedOf('COMPRA 4412 TALHO CENTRAL BRAGA', '-18.70')).toBe('FOOD_AND_DRINK_GROCERIES');
    expect(detailedOf('Płatność kartą WULKANIZACJA KOWALSKI RADOM POL', '-160.00', 'PLN')).toBe('GENERAL_SERVICES_AUTOMOTIVE');
    expect(detailedOf('Kortköp SKOMAKERI ODENPLAN', '-150.00', 'SEK')).toBe('GENERAL_SERVICES_OTHER_GENERAL_SERVICES');
    expect(detailedOf('KORTTIOSTO AUTOKORJAAMO VIRTANEN', '-240.00')).toBe('GENERAL_SERVICES_AUTOMOTIVE');
    expect(detailedOf('PIRKUMS 516XXXXXXXXX4417 AUTOMAZGATAVA PURVCIEMS RIGA', '-9.00')).toBe('GENERAL_SERVICES_AUTOMOTIVE');
    expect(detailedOf('CONTACTLESS KINGSWAY LAUNDERETTE', '-6.00', 'GBP')).toBe('PERSONAL_CARE_LAUNDRY_AND_DRY_CLEANING');
  });

  it('reads a pub’s name written with an ampersand, a French fournée, and two UK chains', () => {
    expect(detailedOf('CONTACTLESS THE FOX & HOUNDS HEXHAM', '-18.40', 'GBP')).toBe('FOOD_AND_DRINK_RESTAURANT');
    expect(detailedOf('CB LA FOURNEE DE MARIE 14/03', '-4.20')).toBe('FOOD_AND_DRINK_OTHER_FOOD_AND_DRINK');
    expect(both(enrichLine('STANDING ORDER TO FOXTONS LTD REF FLAT 3', '-1650.00', 'GBP'))).toEqual(['Foxtons', 'RENT_AND_UTILITIES_RENT']);
  });

  it('reads a US city’s utility bill as water, another utility’s as power', () => {
    expect(detailedOf('ACH DEBIT CITY OF LAWRENCE UTILITY WEB PMT', '-64.20', 'USD')).toBe('RENT_AND_UTILITIES_WATER');
    expect(detailedOf('TOWN OF CARY UTILITIES ONLINE PMT', '-58.00', 'USD')).toBe('RENT_AND_UTILITIES_WATER');
    expect(detailedOf('BLUE RIDGE UTILITIES AUTOPAY', '-112.40', 'USD')).toBe('RENT_AND_UTILITIES_GAS_AND_ELECTRICITY');
  });

  it('labels cafés, share dividends and a glued time as most readers do', () => {
    expect(detailedOf('PAGAMENTO POS 11/04 BAR PASTICCERIA DEL CORSO LECCE CARTA 5521', '-3.40')).toBe('FOOD_AND_DRINK_COFFEE');
    expect(both(enrichLine('CONTACTLESS PRET A MANGER MANCHESTER', '-6.25', 'GBP'))).toEqual(['Pret A Manger', 'FOOD_AND_DRINK_COFFEE']);
    expect(detailedOf('Bezahlung Karte MC/000005512POS 5512 K001 11.04. 09:14CAFE DEMEL\\\\WIEN\\1010', '-8.90')).toBe('FOOD_AND_DRINK_COFFEE');
    expect(detailedOf('DIVIDEND EARNED 05/31/26', '2.12', 'USD')).toBe('INCOME_INTEREST_EARNED');
  });

  it('names the German broadcasting fee and the Austrian tax office by the spellings their debits use', () => {
    expect(nameOf('Rundfunkbeitrag 07.2026 - 09.2026 Beitragsnr. 512004417', '-55.08', 'EUR', { counterpartyName: 'Rundfunk ARD, ZDF, DRadio' })).toBe('ARD ZDF Deutschlandradio Beitragsservice');
    expect(both(enrichLine('FA Oesterreich ANV 2025 Gutschrift', '612.00'))).toEqual(['Finanzamt Österreich', 'INCOME_TAX_REFUND']);
  });
});
