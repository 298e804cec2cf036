import { inject } from 'vitest';
import { DatabaseOutage } from '../../src/db/database-outage.ts';
import { createLogger } from '../../src/logger.ts';
import type { QueuedAttempt } from '../../src/modules/webhook/attempt-queue.ts';
import { WebhookDeliveries } from '../../src/modules/webhook/delivery.ts';
import type { Resolve } from '../../src/modules/webhook/target.ts';
import type { TestDatabase } from './test-database.ts';

/**
 * A delivery engine on the test database with a clock the test moves; the attempts it queues are
 * captured, not run. `resolve` replaces the system resolver for target hosts; `attemptTimeoutMs` shortens
 * an attempt's deadline.
 */
export function controlledDeliveries(db: TestDatabase, options: { allowPrivate?: boolean; now?: Date; resolve?: Resolve; attemptTimeoutMs?: number } = {}) {
  let now = options.now ?? new Date();
  const queued: QueuedAttempt[] = [];
  const logger = createLogger('silent');
  const deliveries = new WebhookDeliveries({
    orm: db.orm,
    cipher: db.cipher,
    logger,
    outage: new DatabaseOutage(() => db.sql('select 1'), logger),
    allowPrivate: options.allowPrivate ?? true,
    caFile: inject('tls').certFile,
    now: () => now,
    resolve: options.resolve,
    attemptTimeoutMs: options.attemptTimeoutMs,
    enqueue: async (attempts) => void queued.push(...attempts),
  });
  return { deliveries, queued, advanceTo: (at: Date) => (now = at), now: () => now };
}
