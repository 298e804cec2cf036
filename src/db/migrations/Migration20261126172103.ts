import { Migration } from '@mikro-orm/migrations';

export class Migration20261126172103 extends Migration {

  override name = 'Migration20261126172103';

  override up(): void | Promise<void> {
    this.addSql(`create table "link_state" ("id" uuid not null, "environment_id" uuid not null, "profile_id" uuid not null, "session_id" uuid not null, "state_hash" text not null, "browser_hash" text not null, "provider" text not null, "institution_id" text null, "connection_id" uuid null, "products" jsonb null, "created_at" timestamptz not null, "expires_at" timestamptz not null, "used_at" timestamptz null, primary key ("id"));`);
    this.addSql(`alter table "link_state" add constraint "link_state_state_hash_unique" unique ("state_hash");`);
    this.addSql(`create index "link_state_expires_at_index" on "link_state" ("expires_at");`);

    this.addSql(`alter table "link_state" add constraint "link_state_environment_id_foreign" foreign key ("environment_id") references "environment" ("id");`);
    this.addSql(`alter table "link_state" add constraint "link_state_profile_id_foreign" foreign key ("profile_id") references "profile" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "link_state" cascade;`);
  }

}
