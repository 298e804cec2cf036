import { describe, expect, it } from 'vitest';
import { baselineEnrich } from '../../scripts/eval/enrichment/baseline.ts';
import { enrich } from '../../src/enrichment/pipeline.ts';
import type { EnrichmentInput } from '../../src/enrichment/enrichment.ts';

const HINTS = { merchantName: null, counterpartyName: null, website: null, logoUrl: null, category: null, mcc: null, paymentChannel: null };

function line(description: string): EnrichmentInput {
  return { description, amount: '-12.50', currencyCode: 'USD', accountKind: 'DEPOSITORY', hints: HINTS };
}

describe('the cost bound’s baseline', () => {
  it('is the pipeline as it stood when the bound was set, read out of the history: a directory merchant as today, an unknown shop unnamed', async () => {
    const baseline = await baselineEnrich();
    if (typeof baseline !== 'function') throw new Error(baseline.unavailable);
    const netflix = baseline(line('NETFLIX.COM 866-579-7172 CA')) as { merchant: { name: string } | null };
    expect(netflix.merchant?.name).toBe(enrich(line('NETFLIX.COM 866-579-7172 CA')).merchant?.name);
    // Round two named shops the directory does not know from the line; the baseline did not.
    expect((baseline(line('SQ *BLUE LINE BAGELS')) as { merchant: unknown }).merchant).toBeNull();
    expect(enrich(line('SQ *BLUE LINE BAGELS')).merchant?.name).toBe('Blue Line Bagels');
  });
});
