import type { MikroORM } from '@mikro-orm/postgresql';
import type { Db, PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import { ENRICHMENT_VERSION } from '../../enrichment/pipeline.ts';
import type { JobDefinition } from '../../jobs/queue.ts';
import { enrichedVersion, markEnriched, profilesOf } from './categorization.store.ts';
import type { RowPosition } from '../transaction/transaction-enrichment.store.ts';
import { FIRST_ID, FIRST_ROW, reenrichBehind, reenrichProfile } from './reenrichment.ts';

export const REENRICH = 'enrichment.reenrich';
export const RECATEGORIZE = 'categorization.recategorize';

/** Batches of one re-enrichment run; a longer history goes on in the next run (a job that ends, so a deploy never waits on it). */
const BATCHES_PER_RUN = 100;
/** After a correction, the classifier reconsiders this many of the profile's latest transactions, no more. */
export const LEARNED_REACH = 5_000;
/** Profiles read at once by the rules job. */
const PROFILES_PER_READ = 100;

/** What a correction needs of the jobs: to queue the profile's recategorization with the correction's own transaction. */
export interface CorrectionJobs {
  learned(profileId: string, db: Db): Promise<void>;
}

/**
 * Enrichment's background work on pg-boss: re-enrichment of history when ENRICHMENT_VERSION goes up
 * (one run at a time, started at boot), and recategorization of existing transactions after a
 * profile's correction (its classifier changed) or an environment's rule change. Every job is
 * `stately` by its scope: a change while one is queued joins it.
 */
export class CategorizationJobs implements CorrectionJobs {
  readonly #orm: MikroORM;
  readonly #logger: Logger;
  #boss: PgBoss | undefined;

  constructor(orm: MikroORM, logger: Logger) {
    this.#orm = orm;
    this.#logger = logger;
  }

  attach(boss: PgBoss): void {
    this.#boss = boss;
  }

  definitions(): JobDefinition<object>[] {
    return [
      // A run queued by a version that walked by id alone ({ after: id }) starts over: rows already at this version are passed by.
      { name: REENRICH, policy: 'stately', handle: ({ after }: { after?: RowPosition | string }) => this.#reenrich(typeof after === 'object' ? after : FIRST_ROW) },
      { name: RECATEGORIZE, policy: 'stately', handle: (scope: { profileId?: string; environmentId?: string }) => this.#recategorize(scope) },
    ];
  }

  /** Queues re-enrichment when stored transactions may be behind ENRICHMENT_VERSION (one row read when none are). */
  async reenrichIfBehind(): Promise<void> {
    if ((await enrichedVersion(this.#orm.em.fork())) < ENRICHMENT_VERSION) await this.#queue().send(REENRICH, {}, { singletonKey: REENRICH });
  }

  async learned(profileId: string, db: Db): Promise<void> {
    await this.#queue().send(RECATEGORIZE, { profileId }, { singletonKey: `profile:${profileId}`, db });
  }

  async rulesChanged(environmentId: string, db: Db): Promise<void> {
    await this.#queue().send(RECATEGORIZE, { environmentId }, { singletonKey: `environment:${environmentId}`, db });
  }

  #queue(): PgBoss {
    if (!this.#boss) throw new Error('CategorizationJobs used before the queue started');
    return this.#boss;
  }

  async #reenrich(after: RowPosition): Promise<void> {
    const em = this.#orm.em.fork();
    const { rewritten, next } = await reenrichBehind(em, after, BATCHES_PER_RUN);
    if (next) {
      await this.#queue().send(REENRICH, { after: next }, { singletonKey: REENRICH });
      return;
    }
    await markEnriched(em, ENRICHMENT_VERSION);
    this.#logger.info({ version: ENRICHMENT_VERSION, rewritten }, 'stored transactions are enriched at the current version');
  }

  async #recategorize({ profileId, environmentId }: { profileId?: string; environmentId?: string }): Promise<void> {
    const em = this.#orm.em.fork();
    if (profileId) await reenrichProfile(em, profileId, LEARNED_REACH);
    if (!environmentId) return;
    for (let after = FIRST_ID; ; ) {
      const profiles = await profilesOf(em, environmentId, after, PROFILES_PER_READ);
      for (const id of profiles) await reenrichProfile(em, id);
      if (profiles.length < PROFILES_PER_READ) return;
      after = profiles.at(-1)!;
    }
  }
}
