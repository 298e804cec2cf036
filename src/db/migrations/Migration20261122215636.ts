import { Migration } from '@mikro-orm/migrations';

export class Migration20261122215636 extends Migration {

  override name = 'Migration20261122215636';

  override up(): void | Promise<void> {
    this.addSql(`alter table "connection" add "upstream_requests" jsonb null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "connection" drop column "upstream_requests";`);
  }

}
