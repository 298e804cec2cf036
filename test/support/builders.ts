import { randomBytes, randomUUID } from 'node:crypto';
import type { EntityManager, RequiredEntityData } from '@mikro-orm/postgresql';
import { CURRENT_VERSION } from '../../src/config.ts';
import { uuidv7 } from '../../src/lib/ids.ts';
import { Account, type AccountEntity } from '../../src/modules/account/account.entity.ts';
import { Balance, type BalanceEntity } from '../../src/modules/balance/balance.entity.ts';
import { Connection, type ConnectionEntity } from '../../src/modules/connection/connection.entity.ts';
import { ApiKey, type ApiKeyEntity } from '../../src/modules/environment/api-key.entity.ts';
import { CURRENT_KEY_PREFIX, hashSecret } from '../../src/modules/environment/api-key.service.ts';
import { Environment, type EnvironmentEntity } from '../../src/modules/environment/environment.entity.ts';
import { EventOutbox } from '../../src/modules/event/event-outbox.entity.ts';
import type { EventEntity } from '../../src/modules/event/event.entity.ts';
import { recordEvent } from '../../src/modules/event/event.service.ts';
import { AccountOwners } from '../../src/modules/owner/account-owners.entity.ts';
import { OWNERS_FIELD } from '../../src/modules/owner/account-owners.store.ts';
import { Profile, type ProfileEntity } from '../../src/modules/profile/profile.entity.ts';
import type { ProviderOwner } from '../../src/providers/provider-owners.ts';
import { Session, type SessionEntity } from '../../src/modules/session/session.entity.ts';
import { SESSION_LIFETIME_MS } from '../../src/modules/session/session-token.ts';
import { Transaction, type TransactionEntity } from '../../src/modules/transaction/transaction.entity.ts';
import { newWebhookSecret } from '../../src/modules/webhook/signing.ts';
import { WebhookDelivery, WebhookSubscription, type WebhookDeliveryEntity, type WebhookSubscriptionEntity } from '../../src/modules/webhook/webhook.entity.ts';
import { dayOf } from '../../src/providers/sandbox/household.ts';
import { findInstitution } from '../../src/providers/sandbox/institutions.ts';
import { SandboxProvider } from '../../src/providers/sandbox/sandbox-provider.ts';
import { buildProfile } from './factories.ts';
import type { BuildTarget } from './test-database.ts';

/*
 * Builders insert exactly the rows a test needs, in any state, through the entities (em.create and
 * one flush), with encrypted columns encrypted by the target's own FieldCipher: the state a test
 * starts from is built, not reached by driving syncs or by UPDATEs on internal tables. Each takes
 * partial overrides (plaintext for encrypted fields) and returns the stored row; a parent left out
 * (the connection of an account, the profile of a connection…) is built too. They record no events
 * and queue no jobs: what a test then calls does.
 */

/** Overrides of an entity's columns, with the parents as entities or stored ids. */
type Overrides<T extends object> = Partial<RequiredEntityData<T>>;

type ProfileOverrides = Overrides<ProfileEntity> & { email?: string | null; phone?: string | null; dateOfBirth?: string | null; address?: Record<string, string | null> | null };
type ConnectionOverrides = Omit<Overrides<ConnectionEntity>, 'profile'> & { profile?: { id: string }; credential?: string };
type AccountOverrides = Overrides<AccountEntity> & { connection?: ConnectionEntity };
type BalanceOverrides = Overrides<BalanceEntity> & { account?: AccountEntity; latest?: boolean };
type TransactionOverrides = Overrides<TransactionEntity> & { account?: AccountEntity };
type EventOverrides = Pick<Overrides<EventEntity>, 'id' | 'at'> & { type?: string; profile?: ProfileEntity | null; record?: Record<string, unknown>; inOutbox?: boolean };

/** The sandbox's access token for a login, as its connect flow issues it (history from `now`'s two years back). */
export async function sandboxCredential(login: { institutionId?: string; username?: string; password?: string; now?: Date } = {}): Promise<string> {
  const { institutionId = 'ins_first_platypus', username = 'user_good', password = 'pass_good', now } = login;
  const sandbox = new SandboxProvider(now ? { now: () => now } : {});
  return (await sandbox.completeLink({ institutionId, username, password, products: undefined, webhookUrl: '' })).credential;
}

export function builders(target: BuildTarget) {
  const { orm, cipher } = target;
  let sequence = 0;
  /** Creates one row and flushes it on an EntityManager of its own. */
  const insert = async <T extends object>(make: (em: EntityManager) => T): Promise<T> => {
    const em = orm.em.fork();
    const row = make(em);
    await em.flush();
    return row;
  };
  /** The environment of a stored profile (a profile given as a bare reference carries only its id). */
  const environmentOf = async (profile: { id: string }) => (await orm.em.fork().findOneOrFail(Profile, { id: profile.id })).environment.id;

  const build = {
    environment: (overrides: Overrides<EnvironmentEntity> = {}) =>
      insert((em) => em.create(Environment, { id: uuidv7(), name: `Environment ${++sequence}`, mode: 'SANDBOX', transactionsRefreshBeta: true, ...overrides })),

    /** An API key and its secret (current generation `sk_…` unless `generation: 'LEGACY'`). */
    async apiKey(overrides: Overrides<ApiKeyEntity> & { secret?: string } = {}): Promise<{ key: ApiKeyEntity; secret: string }> {
      const { secret: given, ...columns } = overrides;
      const legacy = columns.generation === 'LEGACY';
      const secret = given ?? `${legacy ? '' : CURRENT_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
      const key = await insert((em) =>
        em.create(ApiKey, {
          id: uuidv7(),
          environment: target.environmentId,
          name: `Key ${++sequence}`,
          secretHash: hashSecret(secret),
          lastFour: secret.slice(-4),
          generation: 'CURRENT',
          apiVersion: CURRENT_VERSION,
          revokedAt: null,
          ...columns,
        }),
      );
      return { key, secret };
    },

    /** A profile; `email`, `phone`, `dateOfBirth` and `address` are given in plaintext and stored encrypted. */
    async profile(overrides: ProfileOverrides = {}): Promise<ProfileEntity> {
      const { email, phone, dateOfBirth, address, ...columns } = { ...buildProfile(), ...overrides };
      const id = (columns.id as string | undefined) ?? uuidv7();
      return insert((em) =>
        em.create(Profile, {
          id,
          environment: target.environmentId,
          names: null,
          deletingAt: null,
          readyAt: null,
          ...columns,
          emailEncrypted: cipher.encrypt('email', { id }, email),
          phoneEncrypted: cipher.encrypt('phone', { id }, phone),
          dateOfBirthEncrypted: cipher.encrypt('dateOfBirth', { id }, dateOfBirth),
          addressEncrypted: cipher.encrypt('address', { id }, address && JSON.stringify(address)),
        }),
      );
    },

    /**
     * A connection (SYNCED, sandbox, First Platypus unless told otherwise) of `profile` (or of a new
     * one); `credential` is the upstream token in plaintext, by default a real sandbox login.
     */
    async connection(overrides: ConnectionOverrides = {}): Promise<ConnectionEntity> {
      const { credential, profile: given, ...columns } = overrides;
      const profile = given ?? (await build.profile({ environment: columns.environment ?? target.environmentId }));
      const environmentId = await environmentOf(profile);
      const id = (columns.id as string | undefined) ?? uuidv7();
      const institution = findInstitution((columns.institutionId as string | undefined) ?? 'ins_first_platypus');
      const plaintext = credential ?? (await sandboxCredential({ institutionId: institution?.id }));
      return insert((em) =>
        em.create(Connection, {
          id,
          environment: environmentId,
          profile: profile.id,
          provider: 'sandbox',
          remoteId: null,
          institutionId: 'ins_first_platypus',
          institutionName: institution?.name ?? 'Unknown institution',
          status: 'SYNCED',
          products: institution?.products ?? ['TRANSACTIONS', 'BALANCES'],
          credentialEncrypted: cipher.encrypt('credential', { id }, plaintext),
          generation: 1,
          syncCursor: null,
          syncPageCursor: null,
          syncChanges: null,
          syncRemovals: null,
          syncAdded: null,
          upstreamRequests: null,
          lastSyncedAt: columns.status === undefined || columns.status === 'SYNCED' ? new Date() : null,
          refreshStartedAt: null,
          lastRefreshAt: null,
          metadata: null,
          ...columns,
        }),
      );
    },

    /**
     * A sandbox connection as its first sync leaves it, transactions aside: SYNCED just now with the cursor at
     * `now`'s day (a later sync walks only what changed since), and the accounts the sandbox reports
     * under their upstream ids (so refreshes and ACH numbers reach them), depository accounts
     * verified where the institution offers ACCOUNT_NUMBERS.
     */
    async sandboxConnection(overrides: Omit<ConnectionOverrides, 'credential'> & { now?: Date } = {}): Promise<{ connection: ConnectionEntity; accounts: AccountEntity[] }> {
      const { now = new Date(), ...columns } = overrides;
      const credential = await sandboxCredential({ institutionId: columns.institutionId as string | undefined, now });
      const connection = await build.connection({ syncCursor: String(dayOf(now.getTime())), ...columns, credential });
      const verifiable = connection.products.includes('ACCOUNT_NUMBERS');
      const accounts: AccountEntity[] = [];
      for (const { remoteId, name, kind, subtype, state, mask, currencyCode } of await new SandboxProvider({ now: () => now }).accounts(credential)) {
        accounts.push(await build.account({ connection, remoteId, name, kind, subtype, state, mask, currencyCode, verified: verifiable && kind === 'DEPOSITORY' }));
      }
      return { connection, accounts };
    },

    /** An account (open, unverified checking in USD unless told otherwise) of `connection` (or of a new one). */
    async account(overrides: AccountOverrides = {}): Promise<AccountEntity> {
      const { connection: given, ...columns } = overrides;
      const connection = given ?? (await build.connection());
      return insert((em) =>
        em.create(Account, {
          id: uuidv7(),
          connection: connection.id,
          profile: connection.profile.id,
          remoteId: `acct-${randomUUID()}`,
          name: 'Everyday Checking',
          nameOverride: null,
          kind: 'DEPOSITORY',
          subtype: 'checking',
          state: 'OPEN',
          verified: false,
          mask: String(1000 + (++sequence % 9000)),
          currencyCode: 'USD',
          latestBalanceId: null,
          metadata: null,
          ...columns,
        }),
      );
    },

    /** The owners of `account` (or of a new one), stored as a sync stores them (encrypted, bound to the row). */
    async accountOwners(owners: ProviderOwner[], given?: AccountEntity): Promise<{ id: string; account: AccountEntity }> {
      const account = given ?? (await build.account());
      const id = uuidv7();
      const now = new Date();
      await insert((em) =>
        em.create(AccountOwners, {
          profile: account.profile.id,
          id,
          connection: account.connection.id,
          account: account.id,
          ownersEncrypted: cipher.encrypt(OWNERS_FIELD, { id }, JSON.stringify(owners)),
          verifiedAt: now,
          updatedAt: now,
        }),
      );
      return { id, account };
    },

    /** A balance (exact decimal strings) of `account` (or of a new one), made its latest unless `latest: false`. */
    async balance(overrides: BalanceOverrides = {}): Promise<BalanceEntity> {
      const { account: given, latest = true, ...columns } = overrides;
      const account = given ?? (await build.account());
      const balance = await insert((em) =>
        em.create(Balance, {
          id: uuidv7(),
          account: account.id,
          profile: account.profile.id,
          at: new Date(),
          source: 'SYNC',
          available: '1250.00',
          current: '1250.00',
          limit: null,
          currencyCode: account.currencyCode,
          ...columns,
        }),
      );
      if (latest) {
        await orm.em.fork().nativeUpdate(Account, { id: account.id }, { latestBalanceId: balance.id });
        account.latestBalanceId = balance.id;
      }
      return balance;
    },

    /**
     * Transactions in one flush, each row's overrides over `common`'s, on `common.account` (or a new
     * account). Amounts are exact decimal strings; unless given, row i is dated i days before 2026-05-01.
     */
    async transactions(rows: TransactionOverrides[], common: TransactionOverrides = {}): Promise<TransactionEntity[]> {
      const account = common.account ?? (await build.account());
      return insert((em) =>
        rows.map((row, index) => {
          const { account: own, ...columns } = { ...common, ...row };
          const on = own ?? account;
          return em.create(Transaction, {
            id: uuidv7(),
            profile: on.profile.id,
            connection: on.connection.id,
            account: on.id,
            remoteId: `txn-${randomUUID()}`,
            date: new Date(Date.UTC(2026, 4, 1 - index)).toISOString().slice(0, 10),
            description: 'Blue Bottle Coffee',
            amount: '-4.75',
            status: 'POSTED',
            currencyCode: on.currencyCode,
            metadata: null,
            remoteData: {},
            ...columns,
          });
        }),
      );
    },

    /** An issued session of `profile`, active unless told otherwise (the token is not signed: SessionTokens does that). */
    async session(profile: { id: string }, overrides: Overrides<SessionEntity> = {}): Promise<SessionEntity> {
      const environmentId = await environmentOf(profile);
      const createdAt = overrides.createdAt instanceof Date ? overrides.createdAt : new Date();
      return insert((em) =>
        em.create(Session, {
          id: uuidv7(),
          environment: environmentId,
          profile: profile.id,
          apiVersion: CURRENT_VERSION,
          createdAt,
          expiresAt: new Date(createdAt.getTime() + SESSION_LIFETIME_MS),
          revokedAt: null,
          ...overrides,
        }),
      );
    },

    /** A webhook subscription (all event types, enabled) and its secret in plaintext. */
    async webhookSubscription(
      overrides: Overrides<WebhookSubscriptionEntity> & { secret?: string; previousSecret?: string } = {},
    ): Promise<{ subscription: WebhookSubscriptionEntity; secret: string }> {
      const { secret = newWebhookSecret(), previousSecret, ...columns } = overrides;
      const id = (columns.id as string | undefined) ?? uuidv7();
      const subscription = await insert((em) =>
        em.create(WebhookSubscription, {
          id,
          environment: target.environmentId,
          name: `Subscription ${++sequence}`,
          targetUrl: 'https://hooks.example.com/tributary',
          eventTypes: [],
          disabled: false,
          disabledReason: null,
          secretEncrypted: cipher.encrypt('webhookSecret', { id }, secret),
          previousSecretEncrypted: previousSecret === undefined ? null : cipher.encrypt('webhookSecret', { id }, previousSecret),
          previousSecretExpiresAt: null,
          ...columns,
        }),
      );
      return { subscription, secret };
    },

    /**
     * An event of the target's environment, in the envelope `recordEvent` writes. Already relayed (out
     * of the outbox, in the same transaction) unless `inOutbox: true` (a running service's relay then
     * fans it out).
     */
    event: (overrides: EventOverrides = {}) =>
      orm.em.fork().transactional(async (tx) => {
        const { profile = null, record = { id: `p_${'0'.repeat(26)}` }, type = 'profile.created', inOutbox = false, ...columns } = overrides;
        const event = Object.assign(recordEvent(tx, target.environmentId, type, profile, record), columns);
        await tx.flush();
        if (!inOutbox) await tx.nativeDelete(EventOutbox, { eventId: event.id });
        return event;
      }),

    /** An attempt of `event` owed to `subscription` (PENDING, first attempt, due now unless told otherwise). */
    delivery: (subscription: WebhookSubscriptionEntity, event: EventEntity, overrides: Overrides<WebhookDeliveryEntity> = {}) =>
      insert((em) =>
        em.create(WebhookDelivery, { id: uuidv7(), subscription: subscription.id, event: event.id, attempt: 1, redelivery: false, status: 'PENDING', at: new Date(), ...overrides }),
      ),
  };
  return build;
}

export type Builders = ReturnType<typeof builders>;
