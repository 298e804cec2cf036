import { Migration } from '@mikro-orm/migrations';

export class Migration20261126204557 extends Migration {

  override name = 'Migration20261126204557';

  override up(): void | Promise<void> {
    this.addSql(`create index "profile_deleting_index" on "profile" ("id") where deleting_at is not null;`);

    this.addSql(`drop index "session_created_at_index";`);
    this.addSql(`create index "session_revoked_created_at_index" on "session" ("created_at") where revoked_at is not null;`);
    this.addSql(`create index "session_expiry_moved_created_at_index" on "session" ("created_at") where expires_at - created_at < '24:00:00'::interval;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "profile_deleting_index";`);

    this.addSql(`drop index "session_revoked_created_at_index";`);
    this.addSql(`drop index "session_expiry_moved_created_at_index";`);
    this.addSql(`create index "session_created_at_index" on "session" ("created_at");`);
  }

}
