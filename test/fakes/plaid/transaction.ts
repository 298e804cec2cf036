import { CounterpartyType, TransactionPaymentChannelEnum, TransactionTransactionTypeEnum, type Location, type PaymentMeta, type Transaction } from 'plaid';
import { isoDay } from '../../../src/providers/sandbox/household.ts';
import type { Channel, Counterparty, CounterpartyKind } from '../../../src/providers/sandbox/merchants.ts';
import type { Activity } from './activity.ts';
import { plaidId } from './ids.ts';

const NO_LOCATION: Location = { address: null, city: null, region: null, postal_code: null, country: null, lat: null, lon: null, store_number: null };
const NO_PAYMENT_META: PaymentMeta = { reference_number: null, ppd_id: null, payee: null, by_order_of: null, payer: null, payment_method: null, payment_processor: null, reason: null };

const CHANNELS: Record<Channel, TransactionPaymentChannelEnum> = {
  'in store': TransactionPaymentChannelEnum.InStore,
  online: TransactionPaymentChannelEnum.Online,
  other: TransactionPaymentChannelEnum.Other,
};

const TRANSACTION_TYPES: Record<Channel, TransactionTransactionTypeEnum> = {
  'in store': TransactionTransactionTypeEnum.Place,
  online: TransactionTransactionTypeEnum.Digital,
  other: TransactionTransactionTypeEnum.Special,
};

const COUNTERPARTY_TYPES: Record<CounterpartyKind, CounterpartyType> = {
  merchant: CounterpartyType.Merchant,
  marketplace: CounterpartyType.Marketplace,
  income_source: CounterpartyType.IncomeSource,
  financial_institution: CounterpartyType.FinancialInstitution,
};

const logoOf = (counterparty: Counterparty) =>
  counterparty.website === null ? null : `https://plaid-merchant-logos.plaid.com/${counterparty.name.toLowerCase().replace(/[^a-z0-9]+/g, '_')}_${counterparty.name.length * 37}.png`;

const timeOf = (secondOfDay: number) => new Date(secondOfDay * 1000).toISOString().slice(11, 19);

/** Pending and posted transaction ids of an activity, stable for a given Item. */
export function transactionIds(itemId: string, activity: Activity) {
  return { pending: plaidId(itemId, activity.key, 'pending'), posted: plaidId(itemId, activity.key, 'posted') };
}

/**
 * The transaction Plaid reports for `activity`, pending (authorised amount, authorisation day) or
 * posted (settled amount, posting day, pointing at the pending transaction it replaces). The
 * `original_description` is filled per request (only when asked for).
 */
export function buildTransaction(itemId: string, accountId: string, activity: Activity, stage: 'pending' | 'posted'): Transaction {
  const { counterparty } = activity;
  const ids = transactionIds(itemId, activity);
  const pending = stage === 'pending';
  const card = counterparty.channel !== 'other';
  const authorizedDate = isoDay(activity.authorizedDay);
  const date = pending ? authorizedDate : isoDay(activity.postDay);
  const authorizedDatetime = card ? `${authorizedDate}T${timeOf(activity.secondOfDay)}Z` : null;
  const isMerchant = counterparty.kind === 'merchant' || counterparty.kind === 'marketplace';
  const entityId = plaidId('entity', counterparty.name);
  const logo = logoOf(counterparty);
  const ppd = /PPD ID: (\d+)/.exec(counterparty.descriptor)?.[1] ?? null;
  const store = counterparty.store;
  return {
    transaction_id: pending ? ids.pending : ids.posted,
    account_id: accountId,
    amount: (pending ? activity.pendingCents! : activity.cents) / 100,
    iso_currency_code: 'USD',
    unofficial_currency_code: null,
    check_number: null,
    date,
    authorized_date: authorizedDate,
    authorized_datetime: authorizedDatetime,
    datetime: pending ? authorizedDatetime : card ? `${date}T${timeOf(Math.min(activity.secondOfDay + 7200, 86_399))}Z` : null,
    name: counterparty.descriptor,
    merchant_name: isMerchant ? counterparty.name : null,
    merchant_entity_id: isMerchant ? entityId : null,
    original_description: null,
    logo_url: isMerchant ? logo : null,
    website: counterparty.website,
    location: store ? { address: store.address, city: store.city, region: store.region, postal_code: store.postalCode, country: 'US', lat: store.lat, lon: store.lon, store_number: store.number } : NO_LOCATION,
    payment_meta: { ...NO_PAYMENT_META, ppd_id: ppd },
    payment_channel: CHANNELS[counterparty.channel],
    pending,
    pending_transaction_id: !pending && activity.pendingCents !== null ? ids.pending : null,
    account_owner: null,
    transaction_type: TRANSACTION_TYPES[counterparty.channel],
    personal_finance_category: { primary: counterparty.pfc[0], detailed: counterparty.pfc[1], confidence_level: isMerchant ? 'VERY_HIGH' : 'HIGH' },
    personal_finance_category_icon_url: `https://plaid-category-icons.plaid.com/PFC_${counterparty.pfc[0]}.png`,
    // Plaid fills transaction_code only for European institutions.
    transaction_code: null,
    counterparties: [{ name: counterparty.name, type: COUNTERPARTY_TYPES[counterparty.kind], website: counterparty.website, logo_url: logo, entity_id: entityId, confidence_level: isMerchant ? 'VERY_HIGH' : 'HIGH', account_numbers: null }],
  };
}
