import { Migration } from '@mikro-orm/migrations';

export class Migration20261126140546 extends Migration {

  override name = 'Migration20261126140546';

  override up(): void | Promise<void> {
    this.addSql(`create table "key_check" ("id" uuid not null, "secret" text not null, "key_id" text not null, "salt" text not null, "check_value" text not null, "encrypts" boolean not null default false, "recorded_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "key_check" add constraint "key_check_secret_key_id_unique" unique ("secret", "key_id");`);

    this.addSql(`alter table "key_check" add constraint "key_check_secret_check" check ("secret" in ('ENCRYPTION_KEYS', 'SESSION_SECRET'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "key_check" cascade;`);
  }

}
