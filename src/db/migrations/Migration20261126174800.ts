import { Migration } from '@mikro-orm/migrations';

export class Migration20261126174800 extends Migration {

  override name = 'Migration20261126174800';

  override up(): void | Promise<void> {
    this.addSql(`alter table "connection" add "upstream_refuses_until" timestamptz null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "connection" drop column "upstream_refuses_until";`);
  }

}
