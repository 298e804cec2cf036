import { describe, expect, it } from 'vitest';
import { enrich } from '../../src/enrichment/pipeline.ts';
import { nameAndDetailed, NO_HINTS } from '../support/enrichment.ts';

const enriched = (description: string, amount: string, currencyCode: string, counterpartyName: string | null = null) =>
  enrich({ description, amount, currencyCode, accountKind: 'DEPOSITORY', hints: { ...NO_HINTS, counterpartyName } });
const read = (description: string, amount: string, currencyCode: string, counterpartyName: string | null = null) => nameAndDetailed(enriched(description, amount, currencyCode, counterpartyName));

describe('a directory spelling that carries its legal form', () => {
  it.each([
    ['E-LASKU HELEN OY VIITE 1122334', '-54.20', 'EUR', null, 'Helen', 'RENT_AND_UTILITIES_GAS_AND_ELECTRICITY'],
    ['Suoramaksu', '-48.10', 'EUR', 'Helen Oy', 'Helen', 'RENT_AND_UTILITIES_GAS_AND_ELECTRICITY'],
    ['CARD PAYMENT TO NEXT PLC ON 02-05-2026', '-35.00', 'GBP', null, 'Next', 'GENERAL_MERCHANDISE_CLOTHING_AND_ACCESSORIES'],
  ])('%s (counterparty %s)', (description, amount, currencyCode, party, merchant, detailed) => {
    expect(read(description, amount, currencyCode, party)).toEqual([merchant, detailed]);
  });

  it('matches only where the line has the form: a person named Helen is no energy company', () => {
    expect(read('FASTER PAYMENT TO HELEN CARTER', '-20.00', 'GBP')).toEqual(['Helen Carter', 'TRANSFER_OUT_ACCOUNT_TRANSFER']);
  });
});

describe('UK payment codes', () => {
  it('reads a leading SO as part of the name when the line ends with its own code', () => {
    expect(read('SO ENERGY DD', '-82.00', 'GBP')).toEqual(['So Energy', 'RENT_AND_UTILITIES_GAS_AND_ELECTRICITY']);
  });

  it('still reads a leading SO as a standing order', () => {
    expect(read('SO TO J MORRIS GARAGE RENT', '-60.00', 'GBP')).toEqual(['J Morris Garage', 'RENT_AND_UTILITIES_RENT']);
  });

  it.each([
    ['FP TO MARK JONES', '-40.00', 'Mark Jones', 'TRANSFER_OUT_ACCOUNT_TRANSFER'],
    ['FP FROM SARAH OKAFOR', '25.00', 'Sarah Okafor', 'TRANSFER_IN_ACCOUNT_TRANSFER'],
  ])('strips a leading FP (faster payment): %s', (description, amount, merchant, detailed) => {
    expect(read(description, amount, 'GBP')[1]).toBe(detailed);
    expect(read(description, amount, 'GBP')[0]).toBe(merchant);
  });

  it.each([
    ['BRIGHTWELL FOODS PAY WK23', 'Brightwell Foods'],
    ['BRIGHTWELL FOODS PAY WK 7', 'Brightwell Foods'],
    ['HARTLEY CARE LTD NET PAY', 'Hartley Care'],
  ])('reads a week’s pay as wages: %s', (description, merchant) => {
    expect(read(description, '412.00', 'GBP')).toEqual([merchant, 'INCOME_WAGES']);
  });
});

describe('Irish and UK bank wording', () => {
  it.each([
    ['VDA-BOI GRAFTON ST', '-100.00', 'EUR', null, 'TRANSFER_OUT_WITHDRAWAL'],
    ['LNK NATWEST BANK CD 5521', '-20.00', 'GBP', null, 'TRANSFER_OUT_WITHDRAWAL'],
    ['365 ONLINE AOIFE BRENNAN', '-30.00', 'EUR', 'Aoife Brennan', 'TRANSFER_OUT_ACCOUNT_TRANSFER'],
    ['*MOBI CIARAN DOYLE', '-50.00', 'EUR', 'Ciaran Doyle', 'TRANSFER_OUT_ACCOUNT_TRANSFER'],
    ['TO A/C 40112233 R PATEL', '-30.00', 'GBP', 'R Patel', 'TRANSFER_OUT_ACCOUNT_TRANSFER'],
    // A country before the legal form names the group's company there; an app names the brand (version 12). Money in from a company is its pay (version 13).
    ['NORTHGATE TRADING UK LTD BGC', '640.00', 'GBP', 'Northgate Trading', 'INCOME_WAGES'],
    ['QUARTERLY FEES', '-6.00', 'EUR', null, 'BANK_FEES_OTHER_BANK_FEES'],
    ['CASH WITHDRAWAL FEE', '-5.00', 'GBP', null, 'BANK_FEES_ATM_FEES'],
  ])('%s', (description, amount, currencyCode, merchant, detailed) => {
    expect(read(description, amount, currencyCode)).toEqual([merchant, detailed]);
  });
});
