import type { Job, PgBoss } from 'pg-boss';
import { JOB_SCHEMA } from '../../jobs/queue.ts';
import { JOB_EXPIRY_SECONDS } from './attempt-deadlines.ts';
import { GroupWriter } from './group-writer.ts';
import type { WebhookDeliveryEntity } from './webhook.entity.ts';

const DELIVER = 'webhook.deliver';
/** A group limit that never binds: a subscription's one attempt per instance is kept by `ignoreGroups`. */
const UNLIMITED = 2_147_483_647;

/**
 * Puts fetched jobs back as pg-boss's own restore does (its `restoreJobs` statement, which the pg-boss
 * class does not expose): created again, unstarted, so that the next fetch does not count a retry.
 * Only jobs still active: one that expired meanwhile is pg-boss's again.
 */
const RESTORE = `update ${JOB_SCHEMA}.job set state = 'created', started_on = null, heartbeat_on = null, upsert_by_key = null
  where name = $1 and id = any($2::uuid[]) and state = 'active'`;

/** An attempt to queue: the job `jobId` makes the attempt of row `deliveryId` at `at`. */
export interface QueuedAttempt {
  deliveryId: string;
  subscriptionId: string;
  environmentId: string;
  at: Date;
  jobId: string;
}

/** What an attempt job carries. Jobs queued before environments were fair-shared carry no environment. */
export type AttemptJob = Pick<QueuedAttempt, 'deliveryId' | 'subscriptionId'> & Partial<Pick<QueuedAttempt, 'environmentId'>>;

/** Queues attempts (pg-boss in the service; tests capture them). */
export type Enqueue = (attempts: QueuedAttempt[]) => Promise<void>;

/** Which attempt jobs a fetch passes over: those of these subscriptions and of these environments. */
export interface Skipped {
  subscriptions: string[];
  environments: string[];
}

/** The pg-boss queue of attempt jobs, as the relay, the attempts and the dispatcher use it. */
export interface AttemptQueue {
  name: string;
  add: Enqueue;
  /** Up to `limit` of the oldest due jobs outside `skipped`, oldest first, marked active. */
  fetch(skipped: Skipped, limit: number): Promise<Job<AttemptJob>[]>;
  /** Puts fetched jobs back, due as they were, for any instance to fetch. */
  restore(jobs: Job<AttemptJob>[]): Promise<void>;
  complete(job: Job<AttemptJob>): Promise<void>;
  fail(job: Job<AttemptJob>, message: string): Promise<void>;
}

/** A new row's attempt: its job id is the row's id, so queuing it again is a no-op. */
export function queued(delivery: WebhookDeliveryEntity): QueuedAttempt {
  const { subscription } = delivery;
  return { deliveryId: delivery.id, subscriptionId: subscription.id, environmentId: subscription.environment.id, at: delivery.at, jobId: delivery.id };
}

/**
 * Creates the attempt queue on the started pg-boss. A job's pg-boss group is its subscription, and
 * the group's tier its environment: a fetch passes over subscriptions by group and environments by
 * giving their tier a limit of 0.
 */
export async function openAttemptQueue(boss: PgBoss): Promise<AttemptQueue> {
  // An attempt that throws (not one the endpoint fails) is retried. Attempts send no heartbeats, and
  // end within their deadline: a job still active past JOB_EXPIRY_SECONDS belongs to a worker that died.
  const settings = { retryLimit: 10, retryDelay: 5, retryBackoff: true, expireInSeconds: JOB_EXPIRY_SECONDS };
  await boss.createQueue(DELIVER, settings);
  // createQueue leaves a queue that exists as it was: this build's settings apply to it too.
  await boss.updateQueue(DELIVER, { ...settings, heartbeatSeconds: null });
  // Attempts end many at a time under load: their jobs are completed a group per statement.
  const completions = new GroupWriter<string>(async (ids) => {
    await boss.complete(DELIVER, ids);
  });
  return {
    name: DELIVER,
    async add(attempts) {
      if (attempts.length === 0) return;
      await boss.insert(
        DELIVER,
        attempts.map(({ deliveryId, subscriptionId, environmentId, at, jobId }) => ({
          id: jobId,
          data: { deliveryId, subscriptionId, environmentId },
          startAfter: at,
          group: { id: subscriptionId, tier: environmentId },
        })),
      );
    },
    async fetch({ subscriptions, environments }, limit) {
      const tiers = Object.fromEntries(environments.map((environmentId) => [environmentId, 0]));
      return boss.fetch<AttemptJob>(DELIVER, {
        batchSize: limit,
        ignoreGroups: subscriptions,
        ...(environments.length > 0 ? { groupConcurrency: { default: UNLIMITED, tiers } } : {}),
      });
    },
    async restore(jobs) {
      if (jobs.length > 0) await boss.getDb().executeSql(RESTORE, [DELIVER, jobs.map((job) => job.id)]);
    },
    complete(job) {
      return completions.write(job.id);
    },
    async fail(job, message) {
      await boss.fail(DELIVER, job.id, { message });
    },
  };
}
