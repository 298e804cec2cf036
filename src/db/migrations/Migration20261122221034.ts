import { Migration } from '@mikro-orm/migrations';

export class Migration20261122221034 extends Migration {

  override name = 'Migration20261122221034';

  override up(): void | Promise<void> {
    this.addSql(`alter table "connection" add "sync_page_cursor" text null, add "sync_added" jsonb null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "connection" drop column "sync_page_cursor", drop column "sync_added";`);
  }

}
