import { AccountSubtype, AccountType } from 'plaid';
import { describe, expect, it } from 'vitest';
import { toStatements } from '../../src/providers/plaid/transforms.ts';
import { actionsOf } from '../../src/providers/plaid/webhooks.ts';

describe('Plaid statements', () => {
  it('are calendar months, issued on the day Plaid posted them (when it says)', () => {
    const account = { account_mask: '0000', account_name: 'Plaid Checking', account_official_name: 'Plaid Gold Standard', account_subtype: AccountSubtype.Checking, account_type: AccountType.Depository };
    const statements = toStatements({
      accounts: [
        {
          ...account,
          account_id: 'acc-1',
          statements: [
            { statement_id: 'st-feb', month: 2, year: 2024, date_posted: '2024-03-01' },
            { statement_id: 'st-dec', month: 12, year: 2025, date_posted: null },
          ],
        },
        { ...account, account_id: 'acc-2', statements: [] },
      ],
      institution_id: 'ins_109508',
      institution_name: 'First Platypus Bank',
      item_id: 'item-1',
      request_id: 'req',
    });
    expect(statements).toEqual([
      { remoteId: 'st-feb', accountRemoteId: 'acc-1', startOn: '2024-02-01', endOn: '2024-02-29', issuedOn: '2024-03-01' },
      { remoteId: 'st-dec', accountRemoteId: 'acc-1', startOn: '2025-12-01', endOn: '2025-12-31', issuedOn: null },
    ]);
  });

  it('are listed again when STATEMENTS_REFRESH_COMPLETE says the refresh succeeded, and not when it failed', () => {
    const webhook = (result: string) => ({ webhook_type: 'STATEMENTS', webhook_code: 'STATEMENTS_REFRESH_COMPLETE', item_id: 'item-1', result, environment: 'sandbox' });
    expect(actionsOf(webhook('SUCCESS'))).toEqual([{ kind: 'STATEMENTS', remoteId: 'item-1' }]);
    expect(actionsOf(webhook('FAILURE'))).toEqual([]);
  });
});
