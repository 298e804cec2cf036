import { Migration } from '@mikro-orm/migrations';

export class Migration20261123010032 extends Migration {

  override name = 'Migration20261123010032';

  override up(): void | Promise<void> {
    this.addSql(`create table "sync_walk_page" ("id" uuid not null, "connection_id" uuid not null, "added" jsonb not null, primary key ("id"));`);
    this.addSql(`create index "sync_walk_page_connection_id_index" on "sync_walk_page" ("connection_id");`);

    // A walk in progress keeps what its pages added, as one page.
    this.addSql(`insert into "sync_walk_page" ("id", "connection_id", "added") select gen_random_uuid(), "id", "sync_added" from "connection" where "sync_added" is not null;`);
    this.addSql(`alter table "connection" drop column "sync_added";`);

    this.addSql(`alter table "sync_walk_page" add constraint "sync_walk_page_connection_id_foreign" foreign key ("connection_id") references "connection" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "connection" add "sync_added" jsonb null;`);
    this.addSql(`update "connection" c set "sync_added" = (select jsonb_agg(a.remote_id) from "sync_walk_page" p, jsonb_array_elements(p."added") as a(remote_id) where p."connection_id" = c."id") where exists (select 1 from "sync_walk_page" p where p."connection_id" = c."id");`);

    this.addSql(`drop table if exists "sync_walk_page" cascade;`);
  }

}
