import { PgBoss, type JobResult, type QueuePolicy } from 'pg-boss';
import type { Logger } from 'pino';

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
 * jobs over every instance and never runs one job twice at once; a job that throws is retried.
 */
export async function startQueue(databaseUrl: string, jobs: JobDefinition<any>[], logger: Logger): Promise<PgBoss> {
  // LISTEN/NOTIFY wakes a worker the moment a job is sent; polling stays on as the fallback.
  const boss = new PgBoss({ connectionString: databaseUrl, schema: 'pgboss', max: 4, useListenNotify: true });
  boss.on('error', (error) => logger.error({ err: error }, 'job queue error'));
  await boss.start();
  for (const job of jobs) {
    await boss.createQueue(job.name, { policy: job.policy ?? 'standard', notify: true, retryLimit: 10, retryDelay: 5, retryBackoff: true });
    // Batches of up to 10, fetched again at once while they come back full: with LISTEN/NOTIFY alone
    // a backlog (a cron tick enqueuing many syncs) would drain one job per polling interval.
    await boss.work<object>(job.name, { batchSize: 10, burstWhenBatchFull: true, perJobResults: true }, async (batch) => {
      const results: JobResult[] = [];
      for (const { id, data } of batch) {
        try {
          await job.handle(data);
          results.push({ id, status: 'completed' });
        } catch (error) {
          logger.error({ err: error, job: job.name, jobId: id }, 'job failed; it will be retried');
          results.push({ id, status: 'failed', output: { message: error instanceof Error ? error.message : String(error) } });
        }
      }
      return results;
    });
    if (job.cron) await boss.schedule(job.name, job.cron, {});
  }
  return boss;
}
