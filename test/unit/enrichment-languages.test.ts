import { describe, expect, it } from 'vitest';
import { cleanDescription } from '../../src/enrichment/clean.ts';
import type { ProviderHints } from '../../src/enrichment/enrichment.ts';
import { enrich } from '../../src/enrichment/pipeline.ts';

const NO_HINTS: ProviderHints = { merchantName: null, counterpartyName: null, website: null, logoUrl: null, category: null, mcc: null, paymentChannel: null };
const detailedOf = (description: string, amount: string, currencyCode: string) => enrich({ description, amount, currencyCode, accountKind: 'DEPOSITORY', hints: NO_HINTS }).category?.detailed ?? null;

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
