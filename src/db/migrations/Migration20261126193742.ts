import { Migration } from '@mikro-orm/migrations';

export class Migration20261126193742 extends Migration {

  override name = 'Migration20261126193742';

  override up(): void | Promise<void> {
    this.addSql(`create table "removed_session" ("id" uuid not null, "issued_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "removed_session_issued_at_index" on "removed_session" ("issued_at");`);
    // Sessions removed before now left no tombstone: the one that stands for every session issued
    // before now keeps their tokens from being answered from memory (pruned once they have expired).
    this.addSql(`insert into "removed_session" ("id", "issued_at") values ('00000000-0000-0000-0000-000000000000', now());`);

    this.addSql(`drop trigger if exists "session_removed" on "session";`);
    this.addSql(`drop function if exists "session_session_removed_fn"();`);
    this.addSql(`create index "session_created_at_index" on "session" ("created_at");`);
    // Not declared on the entity (the schema diff cannot see TRUNCATE triggers): see session.entity.ts.
    this.addSql(`create or replace function "session_session_truncated_fn"() returns trigger as \$\$ begin insert into removed_session (id, issued_at) values ('00000000-0000-0000-0000-000000000000', now()) on conflict (id) do update set issued_at = excluded.issued_at; return null; end; \$\$ language plpgsql;`);
    this.addSql(`create trigger "session_truncated" BEFORE TRUNCATE on "session" for each STATEMENT execute function "session_session_truncated_fn"();`);
    this.addSql(`create or replace function "session_session_removed_fn"() returns trigger as \$\$ begin insert into removed_session (id, issued_at) values (old.id, old.created_at) on conflict do nothing; perform pg_notify('tributary_revocations', 's:' || old.id::text); return null; end; \$\$ language plpgsql;`);
    this.addSql(`create trigger "session_removed" AFTER DELETE on "session" for each ROW execute function "session_session_removed_fn"();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "removed_session" cascade;`);

    this.addSql(`drop index "session_created_at_index";`);
    this.addSql(`drop trigger if exists "session_truncated" on "session";`);
    this.addSql(`drop function if exists "session_session_truncated_fn"();`);
    this.addSql(`drop trigger if exists "session_removed" on "session";`);
    this.addSql(`drop function if exists "session_session_removed_fn"();`);
    this.addSql(`create or replace function "session_session_removed_fn"() returns trigger as \$\$ begin perform pg_notify('tributary_revocations', 's:' || old.id::text); return null; end; \$\$ language plpgsql;`);
    this.addSql(`create trigger "session_removed" AFTER DELETE on "session" for each ROW execute function "session_session_removed_fn"();`);
  }

}
