import { Migration } from '@mikro-orm/migrations';

export class Migration20261122153215 extends Migration {

  override name = 'Migration20261122153215';

  override up(): void | Promise<void> {
    this.addSql(`create table "webhook_subscription" ("id" uuid not null, "environment_id" uuid not null, "name" text not null, "target_url" text not null, "event_types" jsonb not null, "disabled" boolean not null default false, "disabled_reason" text null, "secret_encrypted" text not null, "previous_secret_encrypted" text null, "previous_secret_expires_at" timestamptz null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "webhook_subscription_environment_id_created_at_index" on "webhook_subscription" ("environment_id", "created_at");`);

    this.addSql(`create table "webhook_delivery" ("id" uuid not null, "subscription_id" uuid not null, "event_id" uuid not null, "attempt" int not null, "redelivery" boolean not null default false, "status" text not null, "at" timestamptz not null, "response_status" int null, "duration_ms" int null, "response_excerpt" text null, "error" text null, "next_attempt_at" timestamptz null, "claimed_until" timestamptz null, primary key ("id"));`);
    this.addSql(`create index "webhook_delivery_subscription_id_event_id_index" on "webhook_delivery" ("subscription_id", "event_id");`);
    this.addSql(`create index "webhook_delivery_status_at_index" on "webhook_delivery" ("status", "at");`);

    this.addSql(`alter table "event" add "dispatched_at" timestamptz null;`);
    this.addSql(`create index "event_environment_id_type_index" on "event" ("environment_id", "type");`);
    this.addSql(`create index "event_dispatched_at_index" on "event" ("dispatched_at");`);

    this.addSql(`alter table "webhook_subscription" add constraint "webhook_subscription_environment_id_foreign" foreign key ("environment_id") references "environment" ("id");`);

    this.addSql(`alter table "webhook_delivery" add constraint "webhook_delivery_subscription_id_foreign" foreign key ("subscription_id") references "webhook_subscription" ("id") on delete cascade;`);
    this.addSql(`alter table "webhook_delivery" add constraint "webhook_delivery_event_id_foreign" foreign key ("event_id") references "event" ("id");`);
    this.addSql(`alter table "webhook_delivery" add constraint "webhook_delivery_status_check" check ("status" in ('PENDING', 'SUCCEEDED', 'FAILED'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "webhook_delivery" drop constraint "webhook_delivery_subscription_id_foreign";`);

    this.addSql(`drop table if exists "webhook_subscription" cascade;`);
    this.addSql(`drop table if exists "webhook_delivery" cascade;`);

    this.addSql(`drop index "event_environment_id_type_index";`);
    this.addSql(`drop index "event_dispatched_at_index";`);
    this.addSql(`alter table "event" drop column "dispatched_at";`);
  }

}
