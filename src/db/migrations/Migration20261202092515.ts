import { Migration } from '@mikro-orm/migrations';

export class Migration20261202092515 extends Migration {

  override name = 'Migration20261202092515';

  override up(): void | Promise<void> {
    // An insert-only event log: the events still to relay move to an outbox table the relay deletes
    // from. The lock comes first, so that no relay of the version before marks an event between the
    // copy and the column's removal (it would be relayed twice).
    this.addSql(`lock table "event" in share row exclusive mode;`);
    this.addSql(`create table "event_outbox" ("event_id" uuid not null, primary key ("event_id"));`);
    this.addSql(`insert into "event_outbox" ("event_id") select "id" from "event" where "dispatched_at" is null;`);

    this.addSql(`drop index "event_dispatched_at_index";`);
    this.addSql(`drop index "event_profile_id_index";`);
    this.addSql(`alter table "event" drop column "dispatched_at";`);
    // Only the collation changes: no table rewrite, the (environment_id, type) index is rebuilt in byte order.
    this.addSql(`alter table "event" alter column "type" type text collate "C";`);
    this.addSql(`create index "event_profile_id_id_index" on "event" ("profile_id", "id");`);
    // since/until are id ranges of (environment_id, id); the index on at goes.
    this.addSql(`create index "event_environment_id_id_index" on "event" ("environment_id", "id");`);
    this.addSql(`drop index "event_environment_id_at_id_index";`);

    // GET /v1/profiles pages in id order, by page or after a cursor.
    this.addSql(`drop index "profile_environment_id_created_at_id_index";`);
    this.addSql(`create index "profile_environment_id_id_index" on "profile" ("environment_id", "id");`);
    // A subscription's attempts newest first, by page or after a cursor.
    this.addSql(`create index "webhook_delivery_subscription_id_id_index" on "webhook_delivery" ("subscription_id", "id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "webhook_delivery_subscription_id_id_index";`);
    this.addSql(`drop index "profile_environment_id_id_index";`);
    this.addSql(`create index "profile_environment_id_created_at_id_index" on "profile" ("environment_id", "created_at", "id");`);
    this.addSql(`drop index "event_profile_id_id_index";`);
    this.addSql(`create index "event_environment_id_at_id_index" on "event" ("environment_id", "at", "id");`);
    this.addSql(`drop index "event_environment_id_id_index";`);
    this.addSql(`alter table "event" add "dispatched_at" timestamptz(6) null;`);
    this.addSql(`update "event" set "dispatched_at" = now() where "id" not in (select "event_id" from "event_outbox");`);
    this.addSql(`drop table if exists "event_outbox" cascade;`);
    this.addSql(`alter table "event" alter column "type" type text collate "default";`);
    this.addSql(`create index "event_dispatched_at_index" on "event" ("dispatched_at");`);
    this.addSql(`create index "event_profile_id_index" on "event" ("profile_id");`);
  }

}
