import { PgBoss, type JobResult, type QueuePolicy } from 'pg-boss';
import type { Logger } from 'pino';
import type { RecoveryTimings } from '../config.ts';
import { isDatabaseUnavailable, type DatabaseOutage } from '../db/database-outage.ts';
import type { Metrics } from '../metrics/metrics.ts';

/** The database schema pg-boss keeps its queues and jobs in. */
export const JOB_SCHEMA = 'pgboss';

/** Creates (or upgrades) pg-boss's schema, for `npm run migrate`: processes that do not migrate find it ready. */
export async function prepareQueueSchema(databaseUrl: string): Promise<void> {
  const boss = new PgBoss({ connectionString: databaseUrl, schema: JOB_SCHEMA, max: 1, supervise: false, schedule: false });
  await boss.start();
  await boss.stop({ graceful: false, close: true });
}

/** A background job: its queue name and what a worker does with one job's data. */
export interface JobDefinition<Data extends object> {
  name: string;
  handle(data: Data): Promise<void>;
  /** Also run on this cron schedule (pg-boss schedules are cluster-wide: one run per tick). */
  cron?: string;
  /** pg-boss queue policy; `stately` with a singletonKey lets a request join a job already queued. */
  policy?: QueuePolicy;
}

/**
 * Starts pg-boss on the service's database (schema `pgboss`) and a worker per job. pg-boss spreads
 * jobs over every instance and never runs one job twice at once; a job that throws is retried, and
 * so is a job whose worker stopped sending heartbeats (its process died), within
 * `jobHeartbeatSeconds` and a supervisor pass.
 */
export async function startQueue(
  databaseUrl: string,
  jobs: JobDefinition<object>[],
  logger: Logger,
  timings: Pick<RecoveryTimings, 'jobHeartbeatSeconds' | 'jobTimeoutSeconds' | 'jobRetryDelaySeconds'>,
  options: { work: boolean; poolMax: number; migrate: boolean; metrics: Metrics; outage: DatabaseOutage },
): Promise<PgBoss> {
  // The supervisor fails jobs whose heartbeats stopped on its monitor pass, run twice per heartbeat
  // period: a dead worker's job is failed, to be retried after its retry delay, at most one and a
  // half periods after its last heartbeat.
  const passSeconds = Math.max(1, Math.floor(timings.jobHeartbeatSeconds / 2));
  const boss = new PgBoss({
    connectionString: databaseUrl,
    schema: JOB_SCHEMA,
    max: options.poolMax,
    // An `api` process only sends jobs: no maintenance, no cron, no schema changes of its own.
    supervise: options.work,
    schedule: options.work,
    // Told not to migrate: pg-boss's schema is `npm run migrate`'s to change too.
    migrate: options.migrate,
    // LISTEN/NOTIFY wakes a worker the moment a job is sent; polling stays on as the fallback.
    useListenNotify: true,
    superviseIntervalSeconds: passSeconds,
    monitorIntervalSeconds: passSeconds,
  });
  // pg-boss's polling meets a database outage every few seconds per queue: the outage logs it once.
  boss.on('error', (error) => options.outage.report(error, logger, 'job queue error'));
  await boss.start();
  // Heartbeats, not a short expiry, find dead workers: a first sync of 100k transactions may run for
  // long, so the expiry only catches a job that hangs while its process lives on.
  const settings = {
    notify: true,
    retryLimit: 10,
    retryDelay: timings.jobRetryDelaySeconds,
    retryBackoff: true,
    heartbeatSeconds: timings.jobHeartbeatSeconds,
    expireInSeconds: timings.jobTimeoutSeconds,
  };
  for (const job of jobs) {
    await boss.createQueue(job.name, { policy: job.policy ?? 'standard', ...settings });
    // createQueue leaves a queue that exists as it was: this build's settings apply to it too.
    await boss.updateQueue(job.name, settings);
    if (!options.work) continue;
    // Batches of up to 10, fetched again at once while they come back full: with LISTEN/NOTIFY alone
    // a backlog (a cron tick enqueuing many syncs) would drain one job per polling interval.
    // Polling also finds the jobs no NOTIFY announces (retries and delayed jobs coming due): every
    // 2 s, pg-boss's base interval, rather than the 30 s it keeps while LISTEN/NOTIFY works.
    await boss.work<object>(job.name, { batchSize: 10, burstWhenBatchFull: true, perJobResults: true, notifyPollingIntervalSeconds: 2 }, async (batch) => {
      const results: JobResult[] = [];
      for (const { id, data } of batch) {
        const started = performance.now();
        let outcome: 'completed' | 'failed' = 'completed';
        try {
          await job.handle(data);
          results.push({ id, status: 'completed' });
        } catch (error) {
          outcome = 'failed';
          if (isDatabaseUnavailable(error)) {
            // Not a failure of the job's own: the outage is logged once, the job named without a stack.
            options.outage.notice(error);
            logger.info({ job: job.name, jobId: id }, 'job met a database outage; it will be retried');
          } else logger.error({ err: error, job: job.name, jobId: id }, 'job failed; it will be retried');
          results.push({ id, status: 'failed', output: { message: error instanceof Error ? error.message : String(error) } });
        }
        options.metrics.jobFinished(job.name, outcome, (performance.now() - started) / 1000);
      }
      return results;
    });
    if (job.cron) await boss.schedule(job.name, job.cron, {});
  }
  return boss;
}
