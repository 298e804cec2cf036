import { KeyCheck } from '../db/key-check.entity.ts';
import { CategorizationRule, CategoryModel, EnrichmentProgress } from '../modules/categorization/categorization.entity.ts';
import { Account } from '../modules/account/account.entity.ts';
import { ApiKey } from '../modules/environment/api-key.entity.ts';
import { Balance } from '../modules/balance/balance.entity.ts';
import { Connection } from '../modules/connection/connection.entity.ts';
import { SyncWalkPage } from '../modules/connection/sync-walk-page.entity.ts';
import { Environment } from '../modules/environment/environment.entity.ts';
import { ProviderSetting } from '../modules/environment/provider-setting.entity.ts';
import { Event } from '../modules/event/event.entity.ts';
import { EventOutbox } from '../modules/event/event-outbox.entity.ts';
import { Holding } from '../modules/investment/holding.entity.ts';
import { InvestmentTransaction } from '../modules/investment/investment-transaction.entity.ts';
import { Liability } from '../modules/liability/liability.entity.ts';
import { LinkState } from '../modules/linking/link-state.entity.ts';
import { Profile } from '../modules/profile/profile.entity.ts';
import { RecurringStream, RecurringStreamTransaction } from '../modules/recurring/recurring-stream.entity.ts';
import { Security } from '../modules/security/security.entity.ts';
import { Statement } from '../modules/statement/statement.entity.ts';
import { RemovedSession } from '../modules/session/removed-session.entity.ts';
import { Session } from '../modules/session/session.entity.ts';
import { ConnectionSync } from '../modules/sync/connection-sync.entity.ts';
import { Transaction } from '../modules/transaction/transaction.entity.ts';
import { WebhookDelivery, WebhookSubscription } from '../modules/webhook/webhook.entity.ts';

/** Every entity the ORM maps; the migrations check compares these to src/db/migrations. */
export const entities = [Environment, ApiKey, ProviderSetting, Profile, Session, RemovedSession, Event, EventOutbox, Connection, SyncWalkPage, ConnectionSync, Account, Balance, Transaction, RecurringStream, RecurringStreamTransaction, Security, Holding, InvestmentTransaction, Liability, Statement, LinkState, WebhookSubscription, WebhookDelivery, KeyCheck, CategorizationRule, CategoryModel, EnrichmentProgress];
