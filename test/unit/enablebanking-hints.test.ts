import { describe, expect, it } from 'vitest';
import { enrich } from '../../src/enrichment/pipeline.ts';
import type { EbTransaction } from '../../src/providers/enablebanking/api.ts';
import { toTransactions } from '../../src/providers/enablebanking/transforms.ts';
import { providerHints } from '../../src/modules/transaction/provider-hints.ts';

// Enable Banking reports a card payment's merchant category code (`merchant_category_code`, ISO 18245
// in its API reference): it reaches enrichment as a hint, which categorises a line no rule knows.
const entry = (mcc: string | undefined): EbTransaction => ({
  entry_reference: 'ref-1',
  transaction_amount: { currency: 'EUR', amount: '23.40' },
  credit_debit_indicator: 'DBIT',
  status: 'BOOK',
  booking_date: '2026-11-30',
  remittance_information: ['KARTENZAHLUNG ZQX 4471 HAMBURG'],
  ...(mcc === undefined ? {} : { merchant_category_code: mcc }),
});

const hintsOf = (mcc: string | undefined) => {
  const [transaction] = toTransactions('acc-uid', 'key', 'EUR', [entry(mcc)], '2026-11-30', new Date('2026-11-30T12:00:00Z'));
  return providerHints(transaction!.enrichment);
};

describe('Enable Banking hints', () => {
  it('pass the merchant category code to enrichment, which categorises by it', () => {
    const hints = hintsOf('5411');
    expect(hints.mcc).toBe('5411');
    const enriched = enrich({ description: 'KARTENZAHLUNG ZQX 4471 HAMBURG', amount: '-23.40', currencyCode: 'EUR', accountKind: 'DEPOSITORY', hints });
    expect(enriched.category).toMatchObject({ primary: 'FOOD_AND_DRINK', detailed: 'FOOD_AND_DRINK_GROCERIES' });
  });

  it.each([[undefined], [''], ['54X1'], ['541'], ['   ']])('leave out a code that is none (%j)', (mcc) => {
    expect(hintsOf(mcc).mcc).toBeNull();
  });
});

describe('Enable Banking counterparty', () => {
  const paid = (remittance: string, creditor: string): EbTransaction => ({ ...entry(undefined), credit_debit_indicator: 'CRDT', remittance_information: [remittance], debtor: { name: creditor } });

  it('reaches enrichment as the payer the bank names, read and title-cased rather than shown as printed', () => {
    const [transaction] = toTransactions('acc-uid', 'key', 'EUR', [paid('PALKKA 05/2026', 'FABRIKAM NORDIC OY')], '2026-11-30', new Date('2026-11-30T12:00:00Z'));
    const hints = providerHints(transaction!.enrichment);
    expect(hints).toMatchObject({ merchantName: null, counterpartyName: 'FABRIKAM NORDIC OY' });
    const enriched = enrich({ description: 'PALKKA 05/2026', amount: '2950.00', currencyCode: 'EUR', accountKind: 'DEPOSITORY', hints });
    // The region between the brand and the legal form names the group's company there: an app names the brand.
    expect(enriched).toMatchObject({ merchant: { name: 'Fabrikam', source: 'DESCRIPTION', confidence: 0.7 }, category: { detailed: 'INCOME_WAGES' } });
  });
});
