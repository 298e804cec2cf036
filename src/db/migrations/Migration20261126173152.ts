import { Migration } from '@mikro-orm/migrations';

export class Migration20261126173152 extends Migration {

  override name = 'Migration20261126173152';

  override up(): void | Promise<void> {
    this.addSql(`create index "recurring_stream_status_predicted_next_date_index" on "recurring_stream" ("status", "predicted_next_date");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "recurring_stream_status_predicted_next_date_index";`);
  }

}
