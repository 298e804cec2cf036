import { Migration } from '@mikro-orm/migrations';

export class Migration20261126181800 extends Migration {

  override name = 'Migration20261126181800';

  override up(): void | Promise<void> {
    this.addSql(`create or replace function "api_key_api_key_revoked_fn"() returns trigger as \$\$ begin if old.revoked_at is distinct from new.revoked_at or old.secret_hash is distinct from new.secret_hash or old.generation is distinct from new.generation or old.api_version is distinct from new.api_version or old.environment_id is distinct from new.environment_id then perform pg_notify('tributary_revocations', 'k:' || old.id::text); end if; return null; end; \$\$ language plpgsql;`);
    this.addSql(`create trigger "api_key_revoked" AFTER UPDATE on "api_key" for each ROW execute function "api_key_api_key_revoked_fn"();`);
    this.addSql(`create or replace function "api_key_api_key_removed_fn"() returns trigger as \$\$ begin perform pg_notify('tributary_revocations', 'k:' || old.id::text); return null; end; \$\$ language plpgsql;`);
    this.addSql(`create trigger "api_key_removed" AFTER DELETE on "api_key" for each ROW execute function "api_key_api_key_removed_fn"();`);

    this.addSql(`create or replace function "profile_profile_revoked_fn"() returns trigger as \$\$ begin if old.deleting_at is distinct from new.deleting_at or old.environment_id is distinct from new.environment_id then perform pg_notify('tributary_revocations', 'p:' || old.id::text); end if; return null; end; \$\$ language plpgsql;`);
    this.addSql(`create trigger "profile_revoked" AFTER UPDATE on "profile" for each ROW execute function "profile_profile_revoked_fn"();`);
    this.addSql(`create or replace function "profile_profile_removed_fn"() returns trigger as \$\$ begin perform pg_notify('tributary_revocations', 'p:' || old.id::text); return null; end; \$\$ language plpgsql;`);
    this.addSql(`create trigger "profile_removed" AFTER DELETE on "profile" for each ROW execute function "profile_profile_removed_fn"();`);

    this.addSql(`create or replace function "session_session_revoked_fn"() returns trigger as \$\$ begin if old.revoked_at is distinct from new.revoked_at or old.expires_at is distinct from new.expires_at or old.profile_id is distinct from new.profile_id or old.environment_id is distinct from new.environment_id then perform pg_notify('tributary_revocations', 's:' || old.id::text); end if; return null; end; \$\$ language plpgsql;`);
    this.addSql(`create trigger "session_revoked" AFTER UPDATE on "session" for each ROW execute function "session_session_revoked_fn"();`);
    this.addSql(`create or replace function "session_session_removed_fn"() returns trigger as \$\$ begin perform pg_notify('tributary_revocations', 's:' || old.id::text); return null; end; \$\$ language plpgsql;`);
    this.addSql(`create trigger "session_removed" AFTER DELETE on "session" for each ROW execute function "session_session_removed_fn"();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "api_key_revoked" on "api_key";`);
    this.addSql(`drop function if exists "api_key_api_key_revoked_fn"();`);
    this.addSql(`drop trigger if exists "api_key_removed" on "api_key";`);
    this.addSql(`drop function if exists "api_key_api_key_removed_fn"();`);

    this.addSql(`drop trigger if exists "profile_revoked" on "profile";`);
    this.addSql(`drop function if exists "profile_profile_revoked_fn"();`);
    this.addSql(`drop trigger if exists "profile_removed" on "profile";`);
    this.addSql(`drop function if exists "profile_profile_removed_fn"();`);

    this.addSql(`drop trigger if exists "session_revoked" on "session";`);
    this.addSql(`drop function if exists "session_session_revoked_fn"();`);
    this.addSql(`drop trigger if exists "session_removed" on "session";`);
    this.addSql(`drop function if exists "session_session_removed_fn"();`);
  }

}
