import type { MikroORM } from '@mikro-orm/postgresql';
import type { Db, PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { BlobStore } from '../../blobs/blob-store.ts';
import type { JobDefinition } from '../../jobs/queue.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import type { Provider } from '../../providers/provider.ts';
import { ProviderError } from '../../providers/provider-errors.ts';
import type { StatementPeriod } from '../../providers/provider-statements.ts';
import type { ConnectionEntity } from '../connection/connection.entity.ts';
import { connectionById, INACTIVE } from '../connection/connection.store.ts';
import { applyListedStatements, fetchStatement } from './statement.service.ts';

const FETCH = 'statement.fetch';
const LIST = 'statement.list';
const REFRESH = 'statement.refresh';

interface ConnectionPayload {
  connectionId: string;
  profileId: string;
}

export interface StatementJobDependencies {
  orm: MikroORM;
  cipher: FieldCipher;
  blobs: BlobStore;
  logger: Logger;
  provider(name: string, environmentId: string): Promise<Provider>;
}

/**
 * The statements' background work on pg-boss: each statement's document fetched once (one job per
 * statement: `stately`, so a statement listed again while its fetch is queued joins it), a
 * connection's statements listed again (a provider's webhook said more are ready), and a statements
 * refresh of a period. `attach` gives it the started queue.
 */
export class StatementJobs {
  readonly #deps: StatementJobDependencies;
  #boss: PgBoss | undefined;

  constructor(deps: StatementJobDependencies) {
    this.#deps = deps;
  }

  attach(boss: PgBoss): void {
    this.#boss = boss;
  }

  definitions(): JobDefinition<object>[] {
    return [
      {
        name: FETCH,
        policy: 'stately',
        handle: ({ statementId, profileId }: { statementId: string; profileId: string }) => fetchStatement({ ...this.#deps, em: this.#deps.orm.em.fork() }, profileId, statementId),
      },
      { name: LIST, policy: 'stately', handle: ({ connectionId, profileId }: ConnectionPayload) => this.#withConnection(connectionId, profileId, (connection, provider, credential) => this.#list(connection, provider, credential)) },
      {
        name: REFRESH,
        policy: 'stately',
        handle: ({ connectionId, profileId, period }: ConnectionPayload & { period: StatementPeriod }) =>
          this.#withConnection(connectionId, profileId, async (connection, provider, credential) => {
            const next = provider.refreshStatements ? await provider.refreshStatements(credential, period) : 'LIST_NOW';
            if (next === 'LIST_NOW') await this.#list(connection, provider, credential);
          }),
      },
    ];
  }

  /** Queues the fetch of each statement's document (joining one already queued), in the caller's transaction. */
  queueFetches = async (statementIds: string[], profileId: string, db: Db): Promise<void> => {
    for (const statementId of statementIds) await this.#queue().send(FETCH, { statementId, profileId }, { singletonKey: statementId, db });
  };

  /** Queues a listing of the connection's statements (a provider said new ones are ready), in the caller's transaction. */
  async list(connectionId: string, profileId: string, db: Db): Promise<void> {
    await this.#queue().send(LIST, { connectionId, profileId }, { singletonKey: connectionId, db });
  }

  /** Queues a statements refresh of the period; false when one of the connection is already queued or running. */
  async refresh(connectionId: string, profileId: string, period: StatementPeriod): Promise<boolean> {
    const queued = await this.#queue().findJobs(REFRESH, { key: connectionId, queued: true });
    if (queued.length > 0) return false;
    await this.#queue().send(REFRESH, { connectionId, profileId, period }, { singletonKey: connectionId });
    return true;
  }

  async #list(connection: ConnectionEntity, provider: Provider, credential: string): Promise<void> {
    if (!provider.statements) return;
    await applyListedStatements(this.#deps.orm.em.fork(), connection, await provider.statements(credential), this.queueFetches);
  }

  /**
   * Runs `work` with a usable connection of the profile that has STATEMENTS from a provider that
   * offers them. An upstream failure that retrying cannot fix (the login needs repair) is logged and
   * ends the job: the connection's next sync finds it and puts the connection in its error state.
   */
  async #withConnection(connectionId: string, profileId: string, work: (connection: ConnectionEntity, provider: Provider, credential: string) => Promise<void>): Promise<void> {
    const connection = await connectionById(this.#deps.orm.em.fork(), connectionId, { profileId });
    if (!connection || INACTIVE.includes(connection.status) || connection.profile.deletingAt || !connection.products.includes('STATEMENTS')) return;
    const provider = await this.#deps.provider(connection.provider, connection.environment.id);
    if (!provider.capabilities.has('STATEMENTS')) return;
    try {
      await work(connection, provider, this.#deps.cipher.decrypt('credential', connection, connection.credentialEncrypted));
    } catch (error) {
      if (!(error instanceof ProviderError) || error.retryAfterSeconds !== undefined) throw error;
      this.#deps.logger.warn({ connectionId, provider: connection.provider, status: error.status, reason: error.message }, 'statements not listed: the provider refused');
    }
  }

  #queue(): PgBoss {
    if (!this.#boss) throw new Error('StatementJobs used before the queue started');
    return this.#boss;
  }
}
