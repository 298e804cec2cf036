import { Migration } from '@mikro-orm/migrations';

export class Migration20261122144713 extends Migration {

  override name = 'Migration20261122144713';

  override up(): void | Promise<void> {
    this.addSql(`alter table "profile" add "ready_at" timestamptz null;`);

    this.addSql(`alter table "connection" add "sync_changes" jsonb null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "connection" drop column "sync_changes";`);

    this.addSql(`alter table "profile" drop column "ready_at";`);
  }

}
