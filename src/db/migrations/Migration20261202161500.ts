import { Migration } from '@mikro-orm/migrations';
import { migrationSession } from '../online-move.ts';
import { partitionByTime } from '../partition-by-time.ts';

/*
 * The operators' audit log is range-partitioned by id a week at a time, like the other logs, so that
 * AUDIT_RETENTION_DAYS drops whole weeks (docs/decisions/operators-audit-log.md). It is new and empty:
 * the move copies nothing.
 */
export class Migration20261202161500 extends Migration {

  override name = 'Migration20261202161500';

  override isTransactional(): boolean {
    return false;
  }

  override async up(): Promise<void> {
    await partitionByTime(migrationSession(this.driver.getConnection().getClient()), 'operator_audit');
  }

}
