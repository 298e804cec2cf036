import { Migration } from '@mikro-orm/migrations';

export class Migration20261202132648 extends Migration {

  override name = 'Migration20261202132648';

  override up(): void | Promise<void> {
    this.addSql(`create table "connection_sync" ("id" uuid not null, "profile_id" uuid not null, "connection_id" uuid not null, "environment_id" uuid not null, "trigger" text not null, "started_at" timestamptz not null, "ended_at" timestamptz not null, "outcome" text not null, "status" text not null, "error_code" text null, "error_message" text null, "provider_request_id" text null, "added" int null, "modified" int null, "removed" int null, primary key ("id"));`);
    this.addSql(`create index "connection_sync_profile_id_connection_id_id_index" on "connection_sync" ("profile_id", "connection_id", "id");`);

    this.addSql(`alter table "connection" add "sync_run" jsonb null;`);

    this.addSql(`alter table "connection_sync" add constraint "connection_sync_connection_id_foreign" foreign key ("connection_id") references "connection" ("id") on delete cascade;`);
    this.addSql(`alter table "connection_sync" add constraint "connection_sync_trigger_check" check ("trigger" in ('LINK', 'REPAIR', 'REFRESH', 'SCHEDULED', 'WEBHOOK', 'RETRY'));`);
    this.addSql(`alter table "connection_sync" add constraint "connection_sync_outcome_check" check ("outcome" in ('SUCCEEDED', 'FAILED', 'DEFERRED', 'CANCELLED'));`);
    this.addSql(`alter table "connection_sync" add constraint "connection_sync_status_check" check ("status" in ('INITIALIZING', 'SYNCING', 'SYNCED', 'ERROR_REPAIRABLE', 'ERROR_SERVICE', 'ERROR_PROVIDER', 'ERROR_INSTITUTION', 'DISCONNECTING', 'DISCONNECTED'));`);
    this.addSql(`alter table "connection_sync" add constraint "connection_sync_error_code_check" check ("error_code" in ('CONSENT_EXPIRED'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "connection_sync" cascade;`);

    this.addSql(`alter table "connection" drop column "sync_run";`);
  }

}
