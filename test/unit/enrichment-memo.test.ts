import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isHeldOut, readLabelled } from '../../scripts/eval/enrichment/labelled.ts';
import type { EnrichmentInput } from '../../src/enrichment/enrichment.ts';
import { enrich } from '../../src/enrichment/pipeline.ts';
import { memoizedEnrich } from '../../src/modules/categorization/pipeline-memo.ts';
import { NO_HINTS } from '../support/enrichment.ts';

/** Every development line of the eval (never a held-out one), as the eval gives it to the pipeline. */
const DEV_INPUTS: EnrichmentInput[] = readdirSync('eval/enrichment')
  .filter((file) => file.endsWith('.jsonl') && !isHeldOut(path.basename(file, '.jsonl')))
  .flatMap((file) => readLabelled(path.join('eval/enrichment', file)))
  .map(({ description, amount, currencyCode, accountKind, counterparty, mcc }) => ({ description, amount, currencyCode, accountKind, hints: { ...NO_HINTS, counterpartyName: counterparty ?? null, mcc: mcc ?? null } }));

/** The same sign, another size: a whole number, a cent, a large amount, spaces around it. */
function otherAmounts(amount: string): string[] {
  const sign = amount.trimStart().startsWith('-') ? '-' : '';
  return [`${sign}1`, `${sign}0.01`, `${sign}98765432.10`, ` ${sign}42.00 `];
}

describe('the pipeline memo of a sync batch', () => {
  it('keys on the amount’s sign alone because the pipeline reads nothing else of it', () => {
    expect(DEV_INPUTS.length).toBeGreaterThan(1000);
    for (const input of DEV_INPUTS) {
      const expected = enrich(input);
      for (const amount of otherAmounts(input.amount)) expect(enrich({ ...input, amount }), `${input.description} at ${amount}`).toEqual(expected);
    }
  });

  it('answers every line as the pipeline does, repeated lines included, whatever came before', () => {
    const memo = memoizedEnrich();
    // Each line three times, the second time with another amount of its sign and the third in the other direction.
    const inputs = DEV_INPUTS.flatMap((input) => [input, { ...input, amount: otherAmounts(input.amount)[2]! }, { ...input, amount: input.amount.startsWith('-') ? input.amount.slice(1) : `-${input.amount}` }]);
    for (const input of inputs) expect(memo(input), input.description).toEqual(enrich(input));
  });

  it('tells apart lines that differ only in a hint, the account’s kind or the currency', () => {
    const memo = memoizedEnrich();
    const line: EnrichmentInput = { description: 'POS PURCHASE SQ *CAFE ALMA 12/03', amount: '-4.50', currencyCode: 'USD', accountKind: 'DEPOSITORY', hints: NO_HINTS };
    const variants: EnrichmentInput[] = [
      line,
      { ...line, hints: { ...NO_HINTS, merchantName: 'Cafe Alma', website: 'cafealma.example' } },
      { ...line, hints: { ...NO_HINTS, merchantName: 'Cafe Alma', website: 'cafealma.example', logoUrl: 'https://cafealma.example/logo.png' } },
      { ...line, hints: { ...NO_HINTS, category: { primary: 'FOOD_AND_DRINK', detailed: 'FOOD_AND_DRINK_COFFEE' } } },
      { ...line, hints: { ...NO_HINTS, paymentChannel: 'ONLINE' } },
      { ...line, hints: { ...NO_HINTS, counterpartyName: 'ALMA KAFFEBAR AB' } },
      { ...line, hints: { ...NO_HINTS, mcc: '5814' } },
      { ...line, description: 'PAYROLL ACME TOOLS', amount: '2500.00', accountKind: 'CREDIT' },
      { ...line, description: 'PAYROLL ACME TOOLS', amount: '2500.00' },
    ];
    const answers = variants.map((input) => memo(input));
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size, 'each variant is answered as itself').toBeGreaterThan(5);
    // Asked again in reverse order, each is still its own pipeline answer.
    for (const input of [...variants].reverse()) expect(memo(input)).toEqual(enrich(input));
  });
});
