import { Migration } from '@mikro-orm/migrations';
import { createIndexConcurrently, migrationSession } from '../online-move.ts';

/*
 * The event log becomes insert-only (an outbox table the relay deletes from), its filters get the
 * indexes that keep them flat (profile, id range, type prefix in byte order), and the profiles and
 * webhook attempts lists page in id order. Outside a transaction, as every migration on a large table
 * (docs/decisions/migrations-large-tables.md): indexes are built and dropped concurrently; the one
 * step that must hold the event table, the outbox's creation, holds it for a copy of the undispatched
 * events only.
 */
export class Migration20261202104500 extends Migration {

  override name = 'Migration20261202104500';

  override isTransactional(): boolean {
    return false;
  }

  override async up(): Promise<void> {
    const session = migrationSession(this.driver.getConnection().getClient());
    // The lock comes first, so that no relay of the version before marks an event between the copy
    // and the column's removal (it would be relayed twice). A run stopped after it finds the column gone.
    await session.transaction(async (sql) => {
      const [column] = await sql(`select 1 from information_schema.columns where table_schema = current_schema() and table_name = 'event' and column_name = 'dispatched_at'`);
      if (!column) return;
      await sql(`lock table "event" in share row exclusive mode`);
      await sql(`create table "event_outbox" ("event_id" uuid not null, primary key ("event_id"))`);
      await sql(`insert into "event_outbox" ("event_id") select "id" from "event" where "dispatched_at" is null`);
      await sql(`drop index "event_dispatched_at_index"`);
      await sql(`alter table "event" drop column "dispatched_at"`);
    });

    // Type prefixes in byte order: the (environment_id, type) index goes first, so that the change of
    // collation (no table rewrite) rebuilds nothing under its lock; it is built again concurrently.
    const [collated] = await session.sql(`select 1 from information_schema.columns where table_schema = current_schema() and table_name = 'event' and column_name = 'type' and collation_name = 'C'`);
    if (!collated) {
      await session.sql(`drop index concurrently if exists "event_environment_id_type_index"`);
      await session.sql(`alter table "event" alter column "type" type text collate "C"`);
    }
    await createIndexConcurrently(session, { name: 'event_environment_id_type_index', table: 'event', definition: '("environment_id", "type")' });
    await createIndexConcurrently(session, { name: 'event_profile_id_id_index', table: 'event', definition: '("profile_id", "id")' });
    // since/until are id ranges of (environment_id, id); the index on at goes.
    await createIndexConcurrently(session, { name: 'event_environment_id_id_index', table: 'event', definition: '("environment_id", "id")' });
    // GET /v1/profiles pages in id order, by page or after a cursor; a subscription's attempts newest
    // first, by page or after a cursor.
    await createIndexConcurrently(session, { name: 'profile_environment_id_id_index', table: 'profile', definition: '("environment_id", "id")' });
    await createIndexConcurrently(session, { name: 'webhook_delivery_subscription_id_id_index', table: 'webhook_delivery', definition: '("subscription_id", "id")' });
    for (const index of ['event_profile_id_index', 'event_environment_id_at_id_index', 'profile_environment_id_created_at_id_index']) {
      await session.sql(`drop index concurrently if exists "${index}"`);
    }
  }

  override async down(): Promise<void> {
    const session = migrationSession(this.driver.getConnection().getClient());
    for (const index of ['webhook_delivery_subscription_id_id_index', 'profile_environment_id_id_index', 'event_profile_id_id_index', 'event_environment_id_id_index', 'event_environment_id_type_index']) {
      await session.sql(`drop index concurrently if exists "${index}"`);
    }
    await session.sql(`alter table "event" alter column "type" type text collate "default"`);
    await createIndexConcurrently(session, { name: 'event_environment_id_type_index', table: 'event', definition: '("environment_id", "type")' });
    await createIndexConcurrently(session, { name: 'profile_environment_id_created_at_id_index', table: 'profile', definition: '("environment_id", "created_at", "id")' });
    await createIndexConcurrently(session, { name: 'event_environment_id_at_id_index', table: 'event', definition: '("environment_id", "at", "id")' });
    await createIndexConcurrently(session, { name: 'event_profile_id_index', table: 'event', definition: '("profile_id")' });
    await session.transaction(async (sql) => {
      await sql(`lock table "event" in share row exclusive mode`);
      await sql(`alter table "event" add "dispatched_at" timestamptz(6) null`);
      await sql(`update "event" set "dispatched_at" = now() where "id" not in (select "event_id" from "event_outbox")`);
      await sql(`drop table "event_outbox"`);
      await sql(`create index "event_dispatched_at_index" on "event" ("dispatched_at")`);
    });
  }

}
