import { describe, expect, it } from 'vitest';
import { cleanDescription } from '../../src/enrichment/clean.ts';
import { enrich } from '../../src/enrichment/pipeline.ts';
import { detailedOfLine as detailedOf, NO_HINTS } from '../support/enrichment.ts';

describe('movement words in the languages Enable Banking reaches', () => {
  it.each([
    // Italian
    ['PAGAMENTO POS 12,50 EUR DEL 02/05/2026 A (ITA) GELATERIA DEL PONTE CARTA N. *9876', '-12.50', 'EUR', 'FOOD_AND_DRINK_OTHER_FOOD_AND_DRINK', 'GELATERIA DEL PONTE'],
    ['ADDEBITO SDD LUCE E GAS ROMAGNA SRL', '-71.30', 'EUR', 'RENT_AND_UTILITIES_GAS_AND_ELECTRICITY', 'LUCE E GAS ROMAGNA SRL'],
    ['PRELIEVO BANCOMAT DEL 03/05/2026 ORE 10:12', '-150.00', 'EUR', 'TRANSFER_OUT_WITHDRAWAL', null],
    ['BONIFICO A VOSTRO FAVORE DA OFFICINE RIUNITE SPA STIPENDIO MAGGIO', '1720.00', 'EUR', 'INCOME_WAGES', null],
    ['COMMISSIONI SU BONIFICO ESTERO', '-3.50', 'EUR', 'BANK_FEES_OTHER_BANK_FEES', null],
    // Polish
    ['Płatność kartą 23.50 PLN APTEKA POD ORLEM', '-23.50', 'PLN', 'MEDICAL_PHARMACIES_AND_SUPPLEMENTS', 'APTEKA POD ORLEM'],
    ['Przelew wychodzący CZYNSZ CZERWIEC', '-2100.00', 'PLN', 'RENT_AND_UTILITIES_RENT', null],
    ['Wypłata z bankomatu 200.00 PLN', '-200.00', 'PLN', 'TRANSFER_OUT_WITHDRAWAL', null],
    ['Kapitalizacja odsetek', '3.12', 'PLN', 'INCOME_INTEREST_EARNED', null],
    ['Przelew przychodzący Wynagrodzenie za 05/2026', '7400.00', 'PLN', 'INCOME_WAGES', null],
    ['Opłata za kartę', '-9.00', 'PLN', 'BANK_FEES_OTHER_BANK_FEES', null],
    // Irish
    ['VDP-GALWAY BAY BAKERY', '-8.20', 'EUR', 'FOOD_AND_DRINK_OTHER_FOOD_AND_DRINK', 'GALWAY BAY BAKERY'],
    ['VDC-HOWTH MARINA PARKING', '-6.00', 'EUR', 'TRANSPORTATION_PARKING', 'HOWTH MARINA PARKING'],
    ['SEPA DD PHOENIX WATERWORKS', '-27.00', 'EUR', 'RENT_AND_UTILITIES_WATER', 'PHOENIX WATERWORKS'],
    // Portuguese
    ['COMPRA 8812 PADARIA SAO JOAO', '-4.10', 'EUR', 'FOOD_AND_DRINK_OTHER_FOOD_AND_DRINK', 'PADARIA SAO JOAO'],
    ['LEVANTAMENTO 8812 MULTIBANCO', '-60.00', 'EUR', 'TRANSFER_OUT_WITHDRAWAL', null],
    ['TRF CR SEPA+ ORDENADO MAIO', '1350.00', 'EUR', 'INCOME_WAGES', null],
    // Danish, Norwegian, Finnish
    ['Dankort-køb TANDLÆGE HOLM', '-650.00', 'DKK', 'MEDICAL_DENTAL_CARE', 'TANDLÆGE HOLM'],
    ['Hævning Dankort automat', '-400.00', 'DKK', 'TRANSFER_OUT_WITHDRAWAL', null],
    ['Gebyr overførsel', '-15.00', 'DKK', 'BANK_FEES_OTHER_BANK_FEES', null],
    ['Varekjøp FJELLSTUA KAFFE Dato 02.06', '-58.00', 'NOK', 'FOOD_AND_DRINK_COFFEE', 'FJELLSTUA KAFFE'],
    ['Renter', '12.40', 'NOK', 'INCOME_INTEREST_EARNED', null],
    ['KORTTIOSTO 260603 LAAKSON PARTURI', '-32.00', 'EUR', 'PERSONAL_CARE_HAIR_AND_BEAUTY', 'LAAKSON PARTURI'],
    ['PALKKA TOUKOKUU', '2900.00', 'EUR', 'INCOME_WAGES', null],
    ['KORKO', '0.95', 'EUR', 'INCOME_INTEREST_EARNED', null],
    // Estonian, Latvian, Lithuanian
    ['Intress', '0.41', 'EUR', 'INCOME_INTEREST_EARNED', null],
    ['PIRKUMS 4921*** 2026.06.02 7.80 EUR (556677) KAFEJNICA MIERS', '-7.80', 'EUR', 'FOOD_AND_DRINK_COFFEE', 'KAFEJNICA MIERS'],
    ['PIRKINYS 5168*** 2026.06.02 16.40 EUR (667788) VAISTINE SVEIKATA', '-16.40', 'EUR', 'MEDICAL_PHARMACIES_AND_SUPPLEMENTS', 'VAISTINE SVEIKATA'],
    ['Atlyginimas uz geguze', '1680.00', 'EUR', 'INCOME_WAGES', null],
  ])('%s', (description, amount, currencyCode, detailed, clean) => {
    expect(detailedOf(description, amount, currencyCode)).toBe(detailed);
    if (clean !== null) expect(cleanDescription(description)).toBe(clean);
  });
});

describe('round two, the six countries under 80 % primary: Swedish, Finnish, Estonian, Latvian, Lithuanian and Polish wording', () => {
  const merchantOf = (description: string, amount: string, currencyCode: string) => enrich({ description, amount, currencyCode, accountKind: 'DEPOSITORY', hints: NO_HINTS }).merchant?.name ?? null;
  it.each([
    // Kind words of the trade, in the bank's language
    ['KORTTIOSTO 14.03 KAMPIN YLIOPISTON APTEEKKI', '-21.50', 'EUR', 'MEDICAL_PHARMACIES_AND_SUPPLEMENTS'],
    ['E-LASKU PORVOON VESILAITOS', '-32.00', 'EUR', 'RENT_AND_UTILITIES_WATER'],
    ['E-lasku SAVON KAUKOLAMPO OY', '-88.00', 'EUR', 'RENT_AND_UTILITIES_GAS_AND_ELECTRICITY'],
    ['Autogiro NORRBY FJARRVARME AB', '-640.00', 'SEK', 'RENT_AND_UTILITIES_GAS_AND_ELECTRICITY'],
    ['Kortköp 260316 DALA LANSTRAFIK', '-45.00', 'SEK', 'TRANSPORTATION_PUBLIC_TRANSIT'],
    ['Kaardimakse PARNU LINNATRANSPORT', '-1.50', 'EUR', 'TRANSPORTATION_PUBLIC_TRANSIT'],
    ['Kaardimakse MAARJA TOIDUKAUBAD', '-14.00', 'EUR', 'FOOD_AND_DRINK_GROCERIES'],
    ['Mokėjimas kortele KAUNO VIEŠASIS TRANSPORTAS', '-1.00', 'EUR', 'TRANSPORTATION_PUBLIC_TRANSIT'],
    ['Mokėjimas PANEVĖŽIO ŠILUMOS TINKLAI', '-55.00', 'EUR', 'RENT_AND_UTILITIES_GAS_AND_ELECTRICITY'],
    ['Pirkums DAUGAVPILS SATIKSME', '-1.20', 'EUR', 'TRANSPORTATION_PUBLIC_TRANSIT'],
    ['Rēķins JELGAVAS SILTUMS SIA', '-71.00', 'EUR', 'RENT_AND_UTILITIES_GAS_AND_ELECTRICITY'],
    ['Przelew MPWIK WROCLAW faktura 03/2026', '-80.00', 'PLN', 'RENT_AND_UTILITIES_WATER'],
    ['Płatność kartą ZTM LUBLIN BILET', '-3.80', 'PLN', 'TRANSPORTATION_PUBLIC_TRANSIT'],
    ['Płatność kartą HELIOS MULTIKINO STARY BROWAR', '-29.00', 'PLN', 'ENTERTAINMENT_TV_AND_MOVIES'],
    // Movements: Estonian pay, a BLIK transfer to a phone number (not a telephone bill)
    ['PALK MAI 2026 TAMME PUIT OU', '1950.00', 'EUR', 'INCOME_WAGES'],
    ['Przelew BLIK na telefon 600 100 200', '-100.00', 'PLN', 'TRANSFER_OUT_ACCOUNT_TRANSFER'],
  ])('%s', (description, amount, currencyCode, detailed) => {
    expect(detailedOf(description, amount, currencyCode)).toBe(detailed);
  });

  it.each([
    // Latvian and Lithuanian "payment" and "invoice", Estonian standing orders and e-invoices, lead to the name as card words do
    ['Rēķins TET SIA', '-19.90', 'EUR', 'Tet', 'RENT_AND_UTILITIES_INTERNET_AND_CABLE'],
    ['Maksājums LMT SIA', '-15.00', 'EUR', 'LMT', 'RENT_AND_UTILITIES_TELEPHONE'],
    ['Maksājums LATVIJAS GĀZE AS', '-41.00', 'EUR', 'Latvijas Gāze', 'RENT_AND_UTILITIES_GAS_AND_ELECTRICITY'],
    ['Mokėjimas ENERGIJOS SKIRSTYMO OPERATORIUS', '-26.00', 'EUR', 'ESO', 'RENT_AND_UTILITIES_GAS_AND_ELECTRICITY'],
    // A standing order is a transfer; one that says no more than the person's name names no one (names-from-the-line policy).
    ['Püsimakse KAREL KASK', '-300.00', 'EUR', null, 'TRANSFER_OUT_ACCOUNT_TRANSFER'],
    // Chains the directory now knows
    ['Korttiosto TEBOIL KAMPPI', '-58.00', 'EUR', 'Teboil', 'TRANSPORTATION_GAS'],
    ['PIRKUMS ELVI VEIKALS', '-8.40', 'EUR', 'Elvi', 'FOOD_AND_DRINK_GROCERIES'],
    ['Płatność kartą SUPER-PHARM', '-28.50', 'PLN', 'Super-Pharm', 'MEDICAL_PHARMACIES_AND_SUPPLEMENTS'],
    ['Płatność kartą PYSZNE.PL', '-59.90', 'PLN', 'Pyszne.pl', 'FOOD_AND_DRINK_RESTAURANT'],
  ])('%s', (description, amount, currencyCode, merchant, detailed) => {
    expect(merchantOf(description, amount, currencyCode)).toBe(merchant);
    expect(detailedOf(description, amount, currencyCode)).toBe(detailed);
  });
});
