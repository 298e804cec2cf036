import { PgBoss } from 'pg-boss';
import { inject } from 'vitest';
import { JOB_SCHEMA } from '../../src/jobs/queue.ts';
import { DatabaseOutage } from '../../src/db/database-outage.ts';
import { createLogger } from '../../src/logger.ts';
import { openAttemptQueue, type AttemptQueue } from '../../src/modules/webhook/attempt-queue.ts';
import { WebhookDeliveries } from '../../src/modules/webhook/delivery.ts';
import type { TestDatabase } from './test-database.ts';

/**
 * One worker process's webhook delivery: its own pg-boss on the test database, relaying and making
 * attempts. `observe` sees the attempt queue's calls (it returns the queue the worker uses). Resolves to its stop.
 */
export async function startWebhookWorker(db: TestDatabase, observe: (queue: AttemptQueue) => AttemptQueue = (queue) => queue): Promise<() => Promise<void>> {
  const boss = new PgBoss({ connectionString: db.url, schema: JOB_SCHEMA, max: 4, supervise: false, schedule: false, migrate: false });
  await boss.start();
  const queue = observe(await openAttemptQueue(boss));
  const logger = createLogger('silent');
  const outage = new DatabaseOutage(() => db.sql('select 1'), logger);
  const deliveries = new WebhookDeliveries({ orm: db.orm, cipher: db.cipher, logger, outage, allowPrivate: true, caFile: inject('tls').certFile, enqueue: queue.add });
  deliveries.start(queue);
  return async () => {
    await deliveries.stop();
    await boss.stop({ graceful: false, close: true });
  };
}
