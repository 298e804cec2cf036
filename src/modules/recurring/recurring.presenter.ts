import type { components } from '../../../generated/rest.ts';
import { encodeId } from '../../lib/ids.ts';
import { decimalOrNull } from '../account/account.presenter.ts';
import type { RecurringStreamRecord } from './recurring.store.ts';

type RestRecurringStream = components['schemas']['RecurringStream'];

/** A stream as `recurring_stream.*` events carry it: public ids, amounts as JSON numbers. */
export function presentStream(stream: Omit<RecurringStreamRecord, 'key'>): RestRecurringStream {
  return {
    id: encodeId('recurringStream', stream.id),
    accountId: encodeId('account', stream.accountId),
    direction: stream.direction,
    description: stream.description,
    merchantName: stream.merchantName,
    category: stream.category,
    frequency: stream.frequency,
    status: stream.status,
    averageAmount: decimalOrNull(stream.averageAmount)!,
    lastAmount: decimalOrNull(stream.lastAmount)!,
    currencyCode: stream.currencyCode,
    firstDate: stream.firstDate,
    lastDate: stream.lastDate,
    predictedNextDate: stream.predictedNextDate,
  };
}
