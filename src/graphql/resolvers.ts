import type { Resolvers } from '../../generated/graphql.ts';
import { accountPlainFields, accountQuery, accountsQuery, accountType, accountUpdate, balanceType } from '../modules/account/account.resolvers.ts';
import { connectionQuery, connectionsQuery, connectionType, connectionUpdate } from '../modules/connection/connection.resolvers.ts';
import { holdingConnectionType, holdingsQuery, holdingType, investmentTransactionConnectionType, investmentTransactionsQuery, investmentTransactionType } from '../modules/investment/investment.resolvers.ts';
import { liabilityType } from '../modules/liability/liability.resolvers.ts';
import { accountEventType, balanceEventType, connectionEventType, subscriptionRoot, transactionsChangedEventType } from '../modules/event/event.resolvers.ts';
import { profileQuery, profileType, profileUpdate } from '../modules/profile/profile.resolvers.ts';
import { recurringStreamConnectionType, recurringStreamsQuery, recurringStreamType } from '../modules/recurring/recurring.resolvers.ts';
import {
  pageInfoType,
  transactionConnectionType,
  transactionPlainFields,
  transactionQuery,
  transactionsQuery,
  transactionType,
  transactionUpdate,
} from '../modules/transaction/transaction.resolvers.ts';
import { securityType } from '../modules/security/security.resolvers.ts';
import { statementConnectionType, statementsQuery, statementType } from '../modules/statement/statement.resolvers.ts';
import type { PlainFields } from '../api-kit/plain-fields.ts';
import { scalars } from './scalars.ts';

/** Root and type resolvers; everything acts on the authenticated profile only. */
export const resolvers: Resolvers = {
  ...scalars,
  Query: {
    profile: profileQuery,
    account: accountQuery,
    accounts: accountsQuery,
    connection: connectionQuery,
    connections: connectionsQuery,
    transaction: transactionQuery,
    transactions: transactionsQuery,
    holdings: holdingsQuery,
    investmentTransactions: investmentTransactionsQuery,
    recurringStreams: recurringStreamsQuery,
    statements: statementsQuery,
  },
  Mutation: { profileUpdate, connectionUpdate, accountUpdate, transactionUpdate },
  Subscription: subscriptionRoot,
  ConnectionEvent: connectionEventType,
  AccountEvent: accountEventType,
  BalanceEvent: balanceEventType,
  TransactionsChangedEvent: transactionsChangedEventType,
  Profile: profileType,
  Connection: connectionType,
  Account: accountType,
  Balance: balanceType,
  Transaction: transactionType,
  TransactionConnection: transactionConnectionType,
  PageInfo: pageInfoType,
  Security: securityType,
  Holding: holdingType,
  HoldingConnection: holdingConnectionType,
  InvestmentTransaction: investmentTransactionType,
  InvestmentTransactionConnection: investmentTransactionConnectionType,
  Liability: liabilityType,
  RecurringStream: recurringStreamType,
  RecurringStreamConnection: recurringStreamConnectionType,
  Statement: statementType,
  StatementConnection: statementConnectionType,
};

/** Fields served as plain properties of presented objects rather than by resolvers (src/graphql/plain-fields.ts). */
export const plainFields: Record<string, PlainFields<never>> = {
  Transaction: transactionPlainFields,
  Account: accountPlainFields,
};
