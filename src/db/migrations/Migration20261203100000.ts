import { Migration } from '@mikro-orm/migrations';
import { createIndexConcurrently, migrationSession } from '../online-move.ts';

/*
 * Webhook reachability: a subscription's latest success, latest failure and the failures since are
 * short reads of a (subscription_id, status, id) index on the attempts. Built concurrently, partition
 * by partition (docs/decisions/migrations-large-tables.md); every step can run again.
 */
export class Migration20261203100000 extends Migration {

  override name = 'Migration20261203100000';

  override isTransactional(): boolean {
    return false;
  }

  override async up(): Promise<void> {
    const session = migrationSession(this.driver.getConnection().getClient());
    await createIndexConcurrently(session, { name: 'webhook_delivery_subscription_id_status_id_index', table: 'webhook_delivery', definition: '("subscription_id", "status", "id")' });
  }

  override async down(): Promise<void> {
    const session = migrationSession(this.driver.getConnection().getClient());
    // A partitioned table's index cannot be dropped concurrently: dropping it drops its partitions' too.
    await session.sql(`drop index if exists "webhook_delivery_subscription_id_status_id_index"`);
  }

}
