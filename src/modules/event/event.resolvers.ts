import type { AccountEventResolvers, BalanceEventResolvers, ConnectionEventResolvers, ConnectionStatus, SubscriptionResolvers, TransactionsChangedEventResolvers } from '../../../generated/graphql.ts';
import { notFound } from '../../errors.ts';
import { decodeId, encodeId, type Resource } from '../../lib/ids.ts';
import { matchesEventType } from './event.types.ts';
import type { EventEntity } from './event.entity.ts';

/** What a live-update transport's context offers (see GraphQLContext.follow). */
type Following = { follow?: (wants: (type: string) => boolean) => AsyncIterableIterator<EventEntity> };
type EventField = { subscribe: (root: unknown, args: unknown, context: Following) => AsyncIterableIterator<EventEntity>; resolve: (event: EventEntity) => EventEntity };

/**
 * A Subscription field: the profile's events of `type` (a type or a prefix of whole segments), each
 * the field's value. (The generated types expect each event wrapped in `{ <field>: value }`, as with
 * no `resolve`; `resolve` unwraps nothing here, so the type is stated as what it is.)
 */
function eventsOf(type: string): EventField {
  return {
    subscribe: (_root, _args, { follow }) => {
      // Only the live-update transports give a context that follows; graphql-http refuses subscriptions before they run.
      if (!follow) throw new Error('Subscriptions run over the live-update transports only');
      return follow((candidate) => matchesEventType(candidate, type));
    },
    resolve: (event: EventEntity) => event,
  };
}

export const subscriptionRoot = {
  connectionCreated: eventsOf('connection.created'),
  connectionSynced: eventsOf('connection.synced.successful'),
  connectionErrored: eventsOf('connection.synced.errored'),
  accountVerified: eventsOf('account.verified'),
  balanceCreated: eventsOf('balance.created'),
  transactionsChanged: eventsOf('connection.synced.successful'),
} satisfies Record<keyof SubscriptionResolvers, EventField> as unknown as SubscriptionResolvers;

/** The stored id of the event's record (its payload holds the public one). */
function recordId(event: EventEntity, kind: Resource): string {
  const id = decodeId(kind, String(event.payload.record.id));
  if (!id) throw notFound('Record');
  return id;
}

const eventFields = {
  eventId: (event: EventEntity) => encodeId('event', event.id),
  at: (event: EventEntity) => event.at,
};

const connectionField: Pick<ConnectionEventResolvers & TransactionsChangedEventResolvers, 'connection'> = {
  connection: async (event, _args, { loaders }) => (await loaders.connection.load(recordId(event, 'connection'))) ?? Promise.reject(notFound('Connection')),
};

export const connectionEventType: ConnectionEventResolvers = {
  ...eventFields,
  ...connectionField,
  status: (event) => event.payload.record.status as ConnectionStatus,
  changes: (event) => (event.payload.metadata.changes as { added: number; modified: number; removed: number } | undefined) ?? null,
};

type TransactionIds = { added: string[]; modified: string[]; removed: string[]; truncated: boolean };
/** The sync's transaction ids (see presentSyncChanges); an event recorded before they were kept has none, so says truncated. */
const transactionIds = (event: EventEntity): TransactionIds =>
  (event.payload.metadata.transactions as TransactionIds | undefined) ?? { added: [], modified: [], removed: [], truncated: true };

export const transactionsChangedEventType: TransactionsChangedEventResolvers = {
  ...eventFields,
  ...connectionField,
  added: (event) => transactionIds(event).added,
  modified: (event) => transactionIds(event).modified,
  removed: (event) => transactionIds(event).removed,
  truncated: (event) => transactionIds(event).truncated,
};

export const accountEventType: AccountEventResolvers = {
  ...eventFields,
  account: async (event, _args, { loaders }) => (await loaders.account.load(recordId(event, 'account'))) ?? Promise.reject(notFound('Account')),
};

export const balanceEventType: BalanceEventResolvers = {
  ...eventFields,
  balance: async (event, _args, { loaders }) => (await loaders.balance.load(recordId(event, 'balance'))) ?? Promise.reject(notFound('Balance')),
};
