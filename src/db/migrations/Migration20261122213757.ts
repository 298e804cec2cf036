import { Migration } from '@mikro-orm/migrations';

export class Migration20261122213757 extends Migration {

  override name = 'Migration20261122213757';

  override up(): void | Promise<void> {
    this.addSql(`create table "provider_setting" ("id" uuid not null, "environment_id" uuid not null, "provider" text not null, "settings_encrypted" text not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "provider_setting" add constraint "provider_setting_environment_id_provider_unique" unique ("environment_id", "provider");`);

    this.addSql(`alter table "connection" add "remote_id" text null, add "sync_removals" jsonb null;`);
    this.addSql(`create index "connection_provider_remote_id_index" on "connection" ("provider", "remote_id");`);

    this.addSql(`alter table "provider_setting" add constraint "provider_setting_environment_id_foreign" foreign key ("environment_id") references "environment" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "provider_setting" cascade;`);

    this.addSql(`drop index "connection_provider_remote_id_index";`);
    this.addSql(`alter table "connection" drop column "remote_id", drop column "sync_removals";`);
  }

}
