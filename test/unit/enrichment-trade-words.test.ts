import { describe, expect, it } from 'vitest';
import { detailedOfLine as detailedOf, enrichLine as enriched, nameAndDetailed } from '../support/enrichment.ts';

// Lines written for these tests from the wording of each country's statements, not taken from the evaluation.
describe('a trade named in the bank line’s own language, for a shop no directory knows', () => {
  it.each([
    ['Kortköp 260412 TANDKLINIKEN CITY', '-245.00', 'SEK', 'MEDICAL_DENTAL_CARE'],
    ['Kortköp 260412 LAKARMOTTAGNING SODER', '-320.00', 'SEK', 'MEDICAL_PRIMARY_CARE'],
    ['Kortköp 260413 PIZZERIA NAPOLI MALMO', '-89.00', 'SEK', 'FOOD_AND_DRINK_RESTAURANT'],
    ['Kortköp 260413 ROSTERIET KAFFEBAR', '-45.00', 'SEK', 'FOOD_AND_DRINK_COFFEE'],
    ['Kortköp 260414 EASYPARK PARKERINGSAVGIFT', '-60.00', 'SEK', 'TRANSPORTATION_PARKING'],
    ['KORTTIOSTO 260412 RAVINTOLA KULTAINEN KALA', '-18.40', 'EUR', 'FOOD_AND_DRINK_RESTAURANT'],
    ['KORTTIOSTO 260412 HAMMASLAAKARIASEMA HYMY', '-65.00', 'EUR', 'MEDICAL_DENTAL_CARE'],
    ['KORTTIOSTO 260413 LAAKARIKESKUS AAVA', '-48.00', 'EUR', 'MEDICAL_PRIMARY_CARE'],
    ['KORTTIOSTO 260414 TAKSI HELSINKI', '-12.00', 'EUR', 'TRANSPORTATION_TAXIS_AND_RIDE_SHARES'],
    ['Kaardimakse TAKSOTEENUS OU', '-11.00', 'EUR', 'TRANSPORTATION_TAXIS_AND_RIDE_SHARES'],
    ['Kaardimakse HAMBAKLIINIK NAERATUS', '-35.00', 'EUR', 'MEDICAL_DENTAL_CARE'],
    ['Kaardimakse JUUKSURISALONG LOKK', '-22.00', 'EUR', 'PERSONAL_CARE_HAIR_AND_BEAUTY'],
    ['PIRKUMS 4921*** 2026.04.12 14.20 EUR (123) PICERIJA ITALIANO', '-14.20', 'EUR', 'FOOD_AND_DRINK_RESTAURANT'],
    ['PIRKUMS 4921*** 2026.04.12 9.80 EUR (124) BENZINA DEGVIELAS UZPILDES STACIJA', '-9.80', 'EUR', 'TRANSPORTATION_GAS'],
    ['PIRKUMS 4921*** 2026.04.13 30.00 EUR (125) SKAISTUMKOPSANAS SALONS ROZE', '-30.00', 'EUR', 'PERSONAL_CARE_HAIR_AND_BEAUTY'],
    ['PIRKINYS 5168*** 2026.04.12 12.00 EUR (22) KAVINE SENAMIESTIS', '-12.00', 'EUR', 'FOOD_AND_DRINK_COFFEE'],
    ['PIRKINYS 5168*** 2026.04.12 40.00 EUR (23) ODONTOLOGIJOS KLINIKA SYPSENA', '-40.00', 'EUR', 'MEDICAL_DENTAL_CARE'],
    ['PIRKINYS 5168*** 2026.04.13 25.00 EUR (24) GROZIO SALONAS AURA', '-25.00', 'EUR', 'PERSONAL_CARE_HAIR_AND_BEAUTY'],
    ['Płatność kartą 48.00 PLN KEBAB ISTANBUL KRAKOW', '-48.00', 'PLN', 'FOOD_AND_DRINK_FAST_FOOD'],
    ['Płatność kartą 120.00 PLN GABINET STOMATOLOGICZNY DENT', '-120.00', 'PLN', 'MEDICAL_DENTAL_CARE'],
    ['Płatność kartą 150.00 PLN CENTRUM MEDYCZNE ZDROWIE', '-150.00', 'PLN', 'MEDICAL_PRIMARY_CARE'],
    ['Płatność kartą 35.00 PLN PIEKARNIA OSKROBA', '-35.00', 'PLN', 'FOOD_AND_DRINK_OTHER_FOOD_AND_DRINK'],
    ['Płatność kartą 60.00 PLN FRYZJERSTWO ANNA', '-60.00', 'PLN', 'PERSONAL_CARE_HAIR_AND_BEAUTY'],
    ['Płatność kartą 25.00 PLN TOTALIZATOR SPORTOWY', '-25.00', 'PLN', 'ENTERTAINMENT_CASINOS_AND_GAMBLING'],
    ['POS 8,40 AT K1 12.04. 12:10 BAECKEREI FELZL', '-8.40', 'EUR', 'FOOD_AND_DRINK_OTHER_FOOD_AND_DRINK'],
    ['POS 75,00 AT K1 12.04. 09:00 ORDINATION DR HUBER', '-75.00', 'EUR', 'MEDICAL_PRIMARY_CARE'],
    ['POS 32,00 AT K1 13.04. 19:00 HEURIGER SCHMID', '-32.00', 'EUR', 'FOOD_AND_DRINK_RESTAURANT'],
    ['Dankort-køb TANDLÆGERNE I CENTRUM', '-180.00', 'DKK', 'MEDICAL_DENTAL_CARE'],
    ['Dankort-køb FRISØR SAKS', '-95.00', 'DKK', 'PERSONAL_CARE_HAIR_AND_BEAUTY'],
    ['Varekjøp TANNKLINIKKEN SENTRUM Dato 12.04', '-220.00', 'NOK', 'MEDICAL_DENTAL_CARE'],
    ['Varekjøp OSLO TAXI Dato 12.04', '-110.00', 'NOK', 'TRANSPORTATION_TAXIS_AND_RIDE_SHARES'],
    ['VDP-THE BRAZEN HEAD PUB', '-14.00', 'EUR', 'FOOD_AND_DRINK_RESTAURANT'],
    ['VDP-HARBOUR MEDICAL CENTRE', '-60.00', 'EUR', 'MEDICAL_PRIMARY_CARE'],
    ['BEA, Betaalpas KAPSALON KNIP', '-24.00', 'EUR', 'PERSONAL_CARE_HAIR_AND_BEAUTY'],
    ['BEA, Betaalpas SNACKBAR DE HOEK', '-18.00', 'EUR', 'FOOD_AND_DRINK_FAST_FOOD'],
    ['Bancontact HUISARTSENPRAKTIJK DE LINDE', '-45.00', 'EUR', 'MEDICAL_PRIMARY_CARE'],
    ['PAGAMENTO POS 12,00 EUR DEL 12/04/2026 A (ITA) PIADINERIA ROMAGNOLA CARTA N. *1234', '-12.00', 'EUR', 'FOOD_AND_DRINK_FAST_FOOD'],
    ['PAGAMENTO POS 5,00 EUR DEL 12/04/2026 A (ITA) PANIFICIO ROSSI CARTA N. *1234', '-5.00', 'EUR', 'FOOD_AND_DRINK_OTHER_FOOD_AND_DRINK'],
    ['COMPRA 8812 CHURRASQUEIRA DO ZE', '-8.00', 'EUR', 'FOOD_AND_DRINK_RESTAURANT'],
    ['COMPRA 8812 CLINICA DENTARIA SORRISO', '-40.00', 'EUR', 'MEDICAL_DENTAL_CARE'],
    ['COMPRA TARJ. 1234 MESON EL CASTILLO', '-15.00', 'EUR', 'FOOD_AND_DRINK_RESTAURANT'],
    ['CB BRASSERIE DU PORT 12/04', '-12.00', 'EUR', 'FOOD_AND_DRINK_RESTAURANT'],
    ['Kartenzahlung Friseur Haarmonie//Bonn/DE', '-25.00', 'EUR', 'PERSONAL_CARE_HAIR_AND_BEAUTY'],
    ['CARD PAYMENT TO KINGS HEAD FISH BAR ON 12-04-2026', '-8.50', 'GBP', 'FOOD_AND_DRINK_FAST_FOOD'],
    ['SCHOOL FEES STMARYS', '-22.00', 'USD', 'GENERAL_SERVICES_EDUCATION'],
  ])('%s', (description, amount, currencyCode, detailed) => {
    expect(detailedOf(description, amount, currencyCode)).toBe(detailed);
  });
});

describe('unemployment benefits, by the agency’s or the benefit’s name in each country', () => {
  it.each([
    ['ALFA-KASSAN ERSATTNING', '14200.00', 'SEK', 'INCOME_UNEMPLOYMENT'],
    ['TYOMARKKINATUKI KELA', '1100.00', 'EUR', 'INCOME_UNEMPLOYMENT'],
    ['ERITYISALOJEN TYOTTOMYYSKASSA ANSIOPAIVARAHA', '1350.00', 'EUR', 'INCOME_UNEMPLOYMENT'],
    ['Töötukassa töötutoetus', '430.00', 'EUR', 'INCOME_UNEMPLOYMENT'],
    ['VSAA bezdarbnieka pabalsts', '390.00', 'EUR', 'INCOME_UNEMPLOYMENT'],
    ['SODRA nedarbo draudimo išmoka', '420.00', 'EUR', 'INCOME_UNEMPLOYMENT'],
    ['Przelew przychodzący POWIATOWY URZAD PRACY ZASILEK', '1500.00', 'PLN', 'INCOME_UNEMPLOYMENT'],
    ['AMS ARBEITSLOSENGELD', '1150.00', 'EUR', 'INCOME_UNEMPLOYMENT'],
    ['3F A-KASSE DAGPENGE', '15200.00', 'DKK', 'INCOME_UNEMPLOYMENT'],
    ['NAV DAGPENGER', '12000.00', 'NOK', 'INCOME_UNEMPLOYMENT'],
    ['DSP JOBSEEKERS BENEFIT', '230.00', 'EUR', 'INCOME_UNEMPLOYMENT'],
    ['UWV WW UITKERING', '980.00', 'EUR', 'INCOME_UNEMPLOYMENT'],
    ['HVW WERKLOOSHEIDSUITKERING', '1050.00', 'EUR', 'INCOME_UNEMPLOYMENT'],
    ['ACCREDITO INPS NASPI', '880.00', 'EUR', 'INCOME_UNEMPLOYMENT'],
    ['TRF CR SEPA+ SEG SOCIAL SUBSIDIO DE DESEMPREGO', '700.00', 'EUR', 'INCOME_UNEMPLOYMENT'],
    ['TRANSFERENCIA SEPE PRESTACION DESEMPLEO', '900.00', 'EUR', 'INCOME_UNEMPLOYMENT'],
    ['VIR FRANCE TRAVAIL ARE', '1100.00', 'EUR', 'INCOME_UNEMPLOYMENT'],
    ['Gutschrift Bundesagentur für Arbeit Arbeitslosengeld', '950.00', 'EUR', 'INCOME_UNEMPLOYMENT'],
    ['DWP JSA', '320.00', 'GBP', 'INCOME_UNEMPLOYMENT'],
    ['TWC UI BENEFITS', '450.00', 'USD', 'INCOME_UNEMPLOYMENT'],
  ])('%s', (description, amount, currencyCode, detailed) => {
    expect(detailedOf(description, amount, currencyCode)).toBe(detailed);
  });
});

describe('bank fees and taxes, in each country’s words', () => {
  it.each([
    ['KORTAVGIFT', '-29.00', 'SEK', 'BANK_FEES_OTHER_BANK_FEES'],
    ['PALVELUMAKSU', '-7.50', 'EUR', 'BANK_FEES_OTHER_BANK_FEES'],
    ['Teenustasu', '-2.50', 'EUR', 'BANK_FEES_OTHER_BANK_FEES'],
    ['Komisijas maksa', '-1.50', 'EUR', 'BANK_FEES_OTHER_BANK_FEES'],
    ['Mėnesio mokestis', '-2.00', 'EUR', 'BANK_FEES_OTHER_BANK_FEES'],
    ['Opłaty za prowadzenie rachunku', '-9.99', 'PLN', 'BANK_FEES_OTHER_BANK_FEES'],
    ['Spesen Kontoführung', '-22.50', 'EUR', 'BANK_FEES_OTHER_BANK_FEES'],
    ['BANK CHARGES', '-6.00', 'EUR', 'BANK_FEES_OTHER_BANK_FEES'],
    ['COMISSAO MANUTENCAO CONTA', '-3.50', 'EUR', 'BANK_FEES_OTHER_BANK_FEES'],
    ['SKATTEVERKET RESTSKATT', '-4200.00', 'SEK', 'GOVERNMENT_AND_NON_PROFIT_TAX_PAYMENT'],
    ['Maksājums VID nekustamā īpašuma nodoklis', '-85.00', 'EUR', 'GOVERNMENT_AND_NON_PROFIT_TAX_PAYMENT'],
    ['Przelew wychodzący MIKRORACHUNEK PODATKOWY PIT-37', '-340.00', 'PLN', 'GOVERNMENT_AND_NON_PROFIT_TAX_PAYMENT'],
    ['SKATTESTYRELSEN RESTSKAT', '-2300.00', 'DKK', 'GOVERNMENT_AND_NON_PROFIT_TAX_PAYMENT'],
    ['PRLV SEPA DGFIP TAXE FONCIERE', '-430.00', 'EUR', 'GOVERNMENT_AND_NON_PROFIT_TAX_PAYMENT'],
    ['Lastschrift Bundeskasse KFZ-Steuer', '-120.00', 'EUR', 'GOVERNMENT_AND_NON_PROFIT_TAX_PAYMENT'],
  ])('%s', (description, amount, currencyCode, detailed) => {
    expect(detailedOf(description, amount, currencyCode)).toBe(detailed);
  });

  it('reads school fees as education, not a bank’s fee', () => {
    expect(detailedOf('SCHOOL FEES STMARYS', '-22.00', 'USD')).toBe('GENERAL_SERVICES_EDUCATION');
  });
});

describe('a chain’s name right after a trade’s word is the shop’s own name', () => {
  it('reads FRISØR SAKS as a hairdresser, not Saks Fifth Avenue', () => {
    const { merchant, category } = enriched('Dankort-køb FRISØR SAKS', '-95.00', 'DKK');
    expect([merchant?.name, category?.detailed]).toEqual(['Frisør Saks', 'PERSONAL_CARE_HAIR_AND_BEAUTY']);
  });

  it('keeps a chain that is not right after the trade’s word (a lottery terminal at a tobacconist’s)', () => {
    expect(enriched('PAGAMENTO POS 5,00 EUR DEL 02/05/2026 A (ITA) TABACCHERIA N.7 LOTTOMATICA CARTA N. *4321', '-5.00', 'EUR').merchant?.name).toBe('Lottomatica');
  });
});

describe('names and payments read from Polish, Latvian and Swedish lines', () => {
  const read = (description: string, amount: string, currencyCode: string) => nameAndDetailed(enriched(description, amount, currencyCode));

  it.each([
    // PKO BP's card line names the shop after "Adres:"; Santander's after "DOP. MC" and the card
    ['Płatność kartą Lokalizacja: Adres: PIEKARNIA GRZYBEK Miasto: LODZ Kraj: POLSKA', '-41.00', 'PLN', 'Piekarnia Grzybek', 'FOOD_AND_DRINK_OTHER_FOOD_AND_DRINK'],
    ['DOP. MC 557519******1234 KINO MURANOW WARSZAWA', '-38.00', 'PLN', 'Kino Muranow', 'ENTERTAINMENT_TV_AND_MOVIES'],
    // Poland's spelled-out legal forms end a name
    ['Przelew przychodzący od ACME SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ Wynagrodzenie 03/2024', '5400.00', 'PLN', 'Acme', 'INCOME_WAGES'],
    // The counterparty in capitals, the payer's words in lower case
    ['Maksājums AS SADALES TIKLS elektrība', '-180.00', 'EUR', 'Sadales tīkls', 'RENT_AND_UTILITIES_GAS_AND_ELECTRICITY'],
    ['Pārskaitījums JĀNIS BĒRZIŅŠ par pusdienām', '-25.00', 'EUR', 'Jānis Bērziņš', 'TRANSFER_OUT_ACCOUNT_TRANSFER'],
    ['Alga par martu SIA ACME LATVIA', '1200.00', 'EUR', 'Acme Latvia', 'INCOME_WAGES'],
    ['Maksājums SIA RIGAS NAMU PARVALDNIEKS apsaimniekošana', '-60.00', 'EUR', 'Rigas Namu Parvaldnieks', 'RENT_AND_UTILITIES_OTHER_UTILITIES'],
    // Money in and loans in the Baltic languages
    ['VID nodokļu atmaksa', '120.00', 'EUR', 'VID', 'INCOME_TAX_REFUND'],
    ['Procentu izmaksa', '0.50', 'EUR', null, 'INCOME_INTEREST_EARNED'],
    ['Līzinga maksājums SIA CITADELE LEASING', '-90.00', 'EUR', 'Citadele', 'LOAN_PAYMENTS_CAR_PAYMENT'],
    ['CSN STUDIEMEDEL', '1250.00', 'SEK', 'CSN', 'INCOME_OTHER_INCOME'],
    ['Kortköp 260417 FOLKTANDVARDEN CITY', '-350.00', 'SEK', 'Folktandvården', 'MEDICAL_DENTAL_CARE'],
    // Danish and Norwegian "rente" is interest, German "Rente" a pension
    ['Rente', '3.20', 'DKK', null, 'INCOME_INTEREST_EARNED'],
    ['Deutsche Rentenversicherung Rente', '1400.00', 'EUR', 'Deutsche Rentenversicherung', 'INCOME_RETIREMENT_PENSION'],
    // Sweden's bankgiro number before the payee; a housing cooperative's monthly fee, which its members pay in place of rent (version 12)
    ['Bg 5555-1234 BRF SOLROSEN avgift', '-850.00', 'SEK', 'BRF Solrosen', 'RENT_AND_UTILITIES_RENT'],
    // Latvian banks' own wording: card purchases and cash, incoming and outgoing payments, fees, premiums, utilities
    ['Karšu darījums 12.04.2026 KAFEJNICA SOLE', '-9.00', 'EUR', 'Kafejnica Sole', 'FOOD_AND_DRINK_COFFEE'],
    ['Naudas izņemšana bankomātā 12.04.2026', '-50.00', 'EUR', null, 'TRANSFER_OUT_WITHDRAWAL'],
    ['Ienākošais maksājums SIA ACME alga', '1400.00', 'EUR', 'Acme', 'INCOME_WAGES'],
    ['Mēneša maksa par kontu', '-4.00', 'EUR', null, 'BANK_FEES_OTHER_BANK_FEES'],
    ['Apdrošināšanas prēmija BALTA', '-25.00', 'EUR', 'Balta', 'GENERAL_SERVICES_INSURANCE'],
    ['Maksājums par komunālajiem pakalpojumiem', '-20.00', 'EUR', null, 'RENT_AND_UTILITIES_OTHER_UTILITIES'],
    // Estonian and Lithuanian pay words before the employer
    ['Palk ACME OU', '2300.00', 'EUR', 'Acme', 'INCOME_WAGES'],
    ['Darbo užmokestis UAB ACME', '1500.00', 'EUR', 'Acme', 'INCOME_WAGES'],
  ])('%s', (description, amount, currencyCode, merchant, detailed) => {
    expect(read(description, amount, currencyCode)).toEqual([merchant, detailed]);
  });

  it.each([
    ['CHECKCARD 0412 PEDIATRIC ASSOCIATES 555-123-4567 FL', 'MEDICAL_PRIMARY_CARE'],
    ['BAYSIDE ANIMAL CLINIC', 'MEDICAL_VETERINARY_SERVICES'],
    ['DEBIT CARD PURCHASE XXXXX1234 HARBORSIDE SEAFOOD 123 ORLANDO FL', 'FOOD_AND_DRINK_RESTAURANT'],
    ['NORTHSIDE LEARNING CENTER', 'GENERAL_SERVICES_EDUCATION'],
  ])('reads the trade of a US line: %s', (description, detailed) => {
    expect(read(description, '-40.00', 'USD')[1]).toBe(detailed);
  });
});

describe('shops of every trade in each language: florists, shoes and clothes, pet shops, tobacconists, greengrocers, bookshops', () => {
  it.each([
    ['POS 12,00 AT K1 12.03. 10:00 CAFE SPERL DANKT 1234 WIEN', '-12.00', 'EUR', 'FOOD_AND_DRINK_COFFEE'],
    ['POS 34,00 AT K1 12.03. 10:00 SPORT PLANET 0012 SALZBURG', '-34.00', 'EUR', 'GENERAL_MERCHANDISE_SPORTING_GOODS'],
    ['E-COMM 8,00 AT K1 12.03. 10:00 WIENER LINIEN TICKET', '-8.00', 'EUR', 'TRANSPORTATION_PUBLIC_TRANSIT'],
    ['BG/000001234 SEPA Lastschrift GRAZ AG STROM', '-50.00', 'EUR', 'RENT_AND_UTILITIES_GAS_AND_ELECTRICITY'],
    ['Bezahlung Karte MC/000001234 MODEHAUS HUBER 1234 LINZ 12.03.2026', '-30.00', 'EUR', 'GENERAL_MERCHANDISE_CLOTHING_AND_ACCESSORIES'],
    ['Kortköp 260412 CAFE SAVOY LUND', '-75.00', 'SEK', 'FOOD_AND_DRINK_COFFEE'],
    ['Dankort-køb CAFE NORDEN 4123', '-45.00', 'DKK', 'FOOD_AND_DRINK_COFFEE'],
    ['MobilePay køb SLAGTER MUNCH', '-250.00', 'DKK', 'FOOD_AND_DRINK_GROCERIES'],
    ['Visa/Dankort GRØNT OG FRUGT AARHUS', '-30.00', 'DKK', 'FOOD_AND_DRINK_GROCERIES'],
    ['Płatność kartą 25.00 PLN BAR MLECZNY PRASOWY WARSZAWA', '-25.00', 'PLN', 'FOOD_AND_DRINK_FAST_FOOD'],
    ['Płatność kartą 40.00 PLN SALON FRYZJERSKI ALA', '-40.00', 'PLN', 'PERSONAL_CARE_HAIR_AND_BEAUTY'],
    ['Płatność kartą 15.00 PLN KWIACIARNIA ROZA', '-15.00', 'PLN', 'GENERAL_MERCHANDISE_GIFTS_AND_NOVELTIES'],
    ['Płatność kartą 60.00 PLN SKLEP ZOOLOGICZNY FAFIK', '-60.00', 'PLN', 'GENERAL_MERCHANDISE_PET_SUPPLIES'],
    ['Płatność kartą 12.00 PLN KSIEGARNIA LIBER', '-12.00', 'PLN', 'GENERAL_MERCHANDISE_BOOKSTORES_AND_NEWSSTANDS'],
    ['Kaardimakse LILLEPOOD ROOS', '-15.00', 'EUR', 'GENERAL_MERCHANDISE_GIFTS_AND_NOVELTIES'],
    ['Kaardimakse RIIDEPOOD MOOD', '-30.00', 'EUR', 'GENERAL_MERCHANDISE_CLOTHING_AND_ACCESSORIES'],
    ['PIRKUMS 4921*** 2026.04.12 11.00 EUR (125) ZIEDU VEIKALS ROZE', '-11.00', 'EUR', 'GENERAL_MERCHANDISE_GIFTS_AND_NOVELTIES'],
    ['PIRKUMS 4921*** 2026.04.12 40.00 EUR (125) APAVU VEIKALS SOLIS', '-40.00', 'EUR', 'GENERAL_MERCHANDISE_CLOTHING_AND_ACCESSORIES'],
    ['PIRKINYS 5168*** 2026.04.12 22.00 EUR (22) GELIU SALONAS ROZE', '-22.00', 'EUR', 'GENERAL_MERCHANDISE_GIFTS_AND_NOVELTIES'],
    ['PIRKINYS 5168*** 2026.04.12 60.00 EUR (22) DRABUZIU PARDUOTUVE', '-60.00', 'EUR', 'GENERAL_MERCHANDISE_CLOTHING_AND_ACCESSORIES'],
    ['KORTTIOSTO 260412 KUKKAKAUPPA RUUSU', '-18.00', 'EUR', 'GENERAL_MERCHANDISE_GIFTS_AND_NOVELTIES'],
    ['KORTTIOSTO 260412 KENKAKAUPPA ASKEL', '-35.00', 'EUR', 'GENERAL_MERCHANDISE_CLOTHING_AND_ACCESSORIES'],
    ['KORTTIOSTO 260412 ELAINKAUPPA MIRRI', '-16.00', 'EUR', 'GENERAL_MERCHANDISE_PET_SUPPLIES'],
    ['COMPRA TARJ. 1234 ZAPATERIA PEPE', '-40.00', 'EUR', 'GENERAL_MERCHANDISE_CLOTHING_AND_ACCESSORIES'],
    ['COMPRA TARJ. 1234 FLORISTERIA LAS ROSAS', '-18.00', 'EUR', 'GENERAL_MERCHANDISE_GIFTS_AND_NOVELTIES'],
    ['COMPRA TARJ. 1234 LIBRERIA CERVANTES', '-12.00', 'EUR', 'GENERAL_MERCHANDISE_BOOKSTORES_AND_NEWSSTANDS'],
    ['COMPRA 8812 TABACARIA CENTRAL', '-9.00', 'EUR', 'GENERAL_MERCHANDISE_TOBACCO_AND_VAPE'],
    ['COMPRA 8812 SAPATARIA LUX', '-25.00', 'EUR', 'GENERAL_MERCHANDISE_CLOTHING_AND_ACCESSORIES'],
    ['PAGAMENTO POS 14,00 EUR DEL 12/04/2026 A (ITA) FIORAIO BELLINI CARTA N. *1234', '-14.00', 'EUR', 'GENERAL_MERCHANDISE_GIFTS_AND_NOVELTIES'],
    ['PAGAMENTO POS 60,00 EUR DEL 12/04/2026 A (ITA) CALZATURE ROSSI CARTA N. *1234', '-60.00', 'EUR', 'GENERAL_MERCHANDISE_CLOTHING_AND_ACCESSORIES'],
    ['PAGAMENTO POS 40,00 EUR DEL 12/04/2026 A (ITA) ABBIGLIAMENTO MODA CARTA N. *1234', '-40.00', 'EUR', 'GENERAL_MERCHANDISE_CLOTHING_AND_ACCESSORIES'],
    ['CB FLEURISTE LES ROSES 12/04', '-25.00', 'EUR', 'GENERAL_MERCHANDISE_GIFTS_AND_NOVELTIES'],
    ['CB LIBRAIRIE GALLIMARD 12/04', '-25.00', 'EUR', 'GENERAL_MERCHANDISE_BOOKSTORES_AND_NEWSSTANDS'],
    ['BEA, Betaalpas BLOEMENWINKEL FLORA', '-25.00', 'EUR', 'GENERAL_MERCHANDISE_GIFTS_AND_NOVELTIES'],
    ['BEA, Betaalpas SCHOENENWINKEL VAN DAM', '-25.00', 'EUR', 'GENERAL_MERCHANDISE_CLOTHING_AND_ACCESSORIES'],
    ['Kartenzahlung Blumenhaus Rosengarten//Bonn/DE', '-25.00', 'EUR', 'GENERAL_MERCHANDISE_GIFTS_AND_NOVELTIES'],
    ['Kartenzahlung Optiker Schmidt//Bonn/DE', '-25.00', 'EUR', 'MEDICAL_EYE_CARE'],
  ])('%s', (description, amount, currencyCode, detailed) => {
    expect(detailedOf(description, amount, currencyCode)).toBe(detailed);
  });

  it('keeps Austria’s "DANKT" (the shop thanks you) out of the name', () => {
    expect(enriched('POS 12,00 AT K1 12.03. 10:00 CAFE SPERL DANKT 1234 WIEN', '-12.00', 'EUR').merchant?.name).toBe('Cafe Sperl');
  });
});

describe('the trade the bank’s counterparty field names, beside a text that names none', () => {
  const withParty = (description: string, amount: string, currencyCode: string, counterpartyName: string) => enriched(description, amount, currencyCode, { counterpartyName });

  it.each([
    ['factuur 12345', 'EUR', 'Tandartspraktijk De Molen', 'MEDICAL_DENTAL_CARE'],
    ['Rechnung 12345', 'EUR', 'Dr. med. Anna Weber Allgemeinmedizin', 'MEDICAL_PRIMARY_CARE'],
    ['fattura 123', 'EUR', 'Palestra Olimpia SSD', 'PERSONAL_CARE_GYMS_AND_FITNESS_CENTERS'],
    ['Faktura 2026-04', 'SEK', 'Bredbandsbolaget AB', 'RENT_AND_UTILITIES_INTERNET_AND_CABLE'],
  ])('%s (counterparty %s)', (description, currencyCode, party, detailed) => {
    expect(withParty(description, '-30.00', currencyCode, party).category?.detailed).toBe(detailed);
  });
});

describe('US banks’ raw debit lines', () => {
  const read = (description: string, amount: string) => nameAndDetailed(enriched(description, amount, 'USD'));

  it.each([
    // "Withdrawal" is any debit to a US bank: only an ATM's or a cash withdrawal is cash
    ['Point Of Sale Withdrawal 4410 HUDSON WINE AND LIQUOR NEW YORK NYUS', '-40.00', 'Hudson Wine and Liquor', 'FOOD_AND_DRINK_BEER_WINE_AND_LIQUOR'],
    ['Withdrawal POS #0412 ELM STREET AUTO REPAIR', '-60.00', 'Elm Street Auto Repair', 'GENERAL_SERVICES_AUTOMOTIVE'],
    ['ACH WITHDRAWAL STATE FARM RO 27 CPC-CLIENT', '-25.00', 'State Farm', 'GENERAL_SERVICES_INSURANCE'],
    ['ATM WITHDRAWAL 001234 04/12 123 MAIN ST ANYTOWN TX', '-200.00', null, 'TRANSFER_OUT_WITHDRAWAL'],
    // A cheque paid, but not a check card
    ['CHECK 1234', '-1500.00', null, 'TRANSFER_OUT_OTHER_TRANSFER_OUT'],
    ['VISA CHECK CARD PURCHASE MAPLE LEAF BAKERY PORTLAND OR', '-12.00', 'Maple Leaf Bakery', 'FOOD_AND_DRINK_OTHER_FOOD_AND_DRINK'],
  ])('%s', (description, amount, merchant, detailed) => {
    expect(read(description, amount)).toEqual([merchant, detailed]);
  });
});

describe('pensions from each country’s payers, and moves to and from savings, in their words', () => {
  it.each([
    ['KEVA ELAKE 04/2026', '1200.00', 'EUR', 'INCOME_RETIREMENT_PENSION'],
    ['ELAKETURVAKESKUS TYOELAKE', '900.00', 'EUR', 'INCOME_RETIREMENT_PENSION'],
    ['CARSAT RETRAITE', '1300.00', 'EUR', 'INCOME_RETIREMENT_PENSION'],
    ['ABP PENSIOEN APRIL', '1100.00', 'EUR', 'INCOME_RETIREMENT_PENSION'],
    ['TRF CR SEPA+ CGA APOSENTACAO', '800.00', 'EUR', 'INCOME_RETIREMENT_PENSION'],
    ['ABONO INSS PENSION', '950.00', 'EUR', 'INCOME_RETIREMENT_PENSION'],
    ['TILISIIRTO SAASTOTILILLE', '-200.00', 'EUR', 'TRANSFER_OUT_SAVINGS'],
    ['VIR SEPA VERS LIVRET A', '-100.00', 'EUR', 'TRANSFER_OUT_SAVINGS'],
    ['Übertrag vom Tagesgeld', '300.00', 'EUR', 'TRANSFER_IN_SAVINGS'],
    ['TO REGULAR SAVER', '-50.00', 'GBP', 'TRANSFER_OUT_SAVINGS'],
    ['Przelew na rachunek oszczędnościowy', '-500.00', 'PLN', 'TRANSFER_OUT_SAVINGS'],
    ['GIROCONTO SU CONTO RISPARMIO', '-250.00', 'EUR', 'TRANSFER_OUT_SAVINGS'],
  ])('%s', (description, amount, currencyCode, detailed) => {
    expect(detailedOf(description, amount, currencyCode)).toBe(detailed);
  });
});
