/** Every event type Tributary records (the contract's EventType). */
export const EVENT_TYPES = [
  'profile.created',
  'profile.deleted',
  'profile.ready',
  'balance.created',
  'account.verified',
  'account.owners_verified',
  'connection.created',
  'connection.synced.successful',
  'connection.synced.errored.ERROR_REPAIRABLE',
  'connection.synced.errored.ERROR_SERVICE',
  'connection.synced.errored.ERROR_PROVIDER',
  'connection.synced.errored.ERROR_INSTITUTION',
  'connection.disconnected',
  'connection.accounts_available',
  'connection.consent_expiring',
  'holdings.updated',
  'liabilities.updated',
  'recurring_stream.created',
  'recurring_stream.amount_changed',
  'recurring_stream.ended',
  'statement.created',
  'statement.ready',
  'webhook.test',
] as const;

/** Whether `filter` names an event type exactly or is a prefix of whole dot-separated segments of one. */
export function isEventTypeFilter(filter: string): boolean {
  return EVENT_TYPES.some((type) => matchesEventType(type, filter));
}

export function matchesEventType(type: string, filter: string): boolean {
  return type === filter || type.startsWith(`${filter}.`);
}
