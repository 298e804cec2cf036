import { Migration } from '@mikro-orm/migrations';

/**
 * sync_walk_page carries its connection's profile, so that the walk's statements name it
 * (docs/scaling.md, "Sharding by profile"). The table holds only the pages of walks in progress (a
 * few rows a syncing connection), so it is filled and made NOT NULL in one short transaction. A walk
 * page an instance of the version before writes after it (a rolling deploy) is refused: that page's
 * transaction rolls back with its cursor, and the sync's retry applies it again.
 */
export class Migration20261202134752 extends Migration {

  override name = 'Migration20261202134752';

  override up(): void | Promise<void> {
    this.addSql(`alter table "sync_walk_page" add "profile_id" uuid null;`);
    this.addSql(`update "sync_walk_page" p set "profile_id" = c."profile_id" from "connection" c where c."id" = p."connection_id";`);
    this.addSql(`alter table "sync_walk_page" alter column "profile_id" set not null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "sync_walk_page" drop column "profile_id";`);
  }

}
