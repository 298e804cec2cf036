import { Migration } from '@mikro-orm/migrations';

/**
 * The due-sync sweep's partial index on `connection`; and the session removal trigger leaves no tombstone for a session issued over a lifetime ago (its
 * tokens all expired): its function is replaced in place, so no delete runs without the trigger.
 */
export class Migration20261202093124 extends Migration {

  override name = 'Migration20261202093124';

  override up(): void | Promise<void> {
    this.addSql(`create index "connection_sync_due_index" on "connection" ("status", "last_synced_at") where status in ('SYNCED', 'ERROR_SERVICE', 'ERROR_PROVIDER', 'ERROR_INSTITUTION');`);
    this.addSql(`create or replace function "session_session_removed_fn"() returns trigger as \$\$ begin if old.created_at > now() - '24:00:00'::interval then insert into removed_session (id, issued_at) values (old.id, old.created_at) on conflict do nothing; perform pg_notify('tributary_revocations', 's:' || old.id::text); end if; return null; end; \$\$ language plpgsql;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "connection_sync_due_index";`);
    this.addSql(`create or replace function "session_session_removed_fn"() returns trigger as \$\$ begin insert into removed_session (id, issued_at) values (old.id, old.created_at) on conflict do nothing; perform pg_notify('tributary_revocations', 's:' || old.id::text); return null; end; \$\$ language plpgsql;`);
  }

}
