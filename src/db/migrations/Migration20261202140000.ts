import { Migration } from '@mikro-orm/migrations';
import { migrationSession, underShortLocks } from '../online-move.ts';
import { partitionByTime } from '../partition-by-time.ts';

/*
 * The event log, webhook attempts and sync history become range-partitioned by id, a partition a week, so that
 * LOG_RETENTION_DAYS drops whole weeks (docs/decisions/logs-partitioned-by-time.md). No row is
 * copied: each table becomes its own first partition. An attempt no longer has a foreign key to its
 * event (a dropped week of events would take it, or be refused); the retention keeps an event while
 * an attempt of it is owed.
 */
export class Migration20261202140000 extends Migration {

  override name = 'Migration20261202140000';

  override isTransactional(): boolean {
    return false;
  }

  override async up(): Promise<void> {
    const session = migrationSession(this.driver.getConnection().getClient());
    await underShortLocks(session, async (sql) => void (await sql(`alter table "webhook_delivery" drop constraint if exists "webhook_delivery_event_id_foreign"`)));
    await partitionByTime(session, 'event');
    await partitionByTime(session, 'webhook_delivery');
    await partitionByTime(session, 'connection_sync');
  }

}
