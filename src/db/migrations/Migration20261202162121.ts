import { Migration } from '@mikro-orm/migrations';

/** Account owners (#36): one row per account, the owners one FieldCipher value bound to the row. */
export class Migration20261202162121 extends Migration {

  override name = 'Migration20261202162121';

  override up(): void | Promise<void> {
    this.addSql(`create table "account_owners" ("profile_id" uuid not null, "id" uuid not null, "connection_id" uuid not null, "account_id" uuid not null, "owners_encrypted" text not null, "verified_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("profile_id", "id"));`);
    this.addSql(`create index "account_owners_profile_id_connection_id_index" on "account_owners" ("profile_id", "connection_id");`);
    this.addSql(`alter table "account_owners" add constraint "account_owners_profile_id_account_id_unique" unique ("profile_id", "account_id");`);

    this.addSql(`alter table "account_owners" add constraint "account_owners_account_id_foreign" foreign key ("account_id") references "account" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "account_owners" cascade;`);
  }

}
