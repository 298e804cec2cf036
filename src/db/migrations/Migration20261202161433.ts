import { Migration } from '@mikro-orm/migrations';

/** Operators, their roles and console sessions, and their audit log (docs/decisions/operators-roles.md). */
export class Migration20261202161433 extends Migration {

  override name = 'Migration20261202161433';

  override up(): void | Promise<void> {
    this.addSql(`create table "operator_audit" ("id" uuid not null, "at" timestamptz not null, "operator_id" uuid null, "email" text null, "environment_id" uuid null, "action" text not null, "target_id" text null, "client_address" text not null, "user_agent" text null, "outcome" text not null, "status" int not null, primary key ("id"));`);
    this.addSql(`create index "operator_audit_environment_id_id_index" on "operator_audit" ("environment_id", "id");`);

    this.addSql(`create table "operator" ("id" uuid not null, "email" text not null, "password_hash" text not null, "disabled_at" timestamptz null, "totp_secret_encrypted" text null, "totp_pending_encrypted" text null, "totp_last_step" int null, "totp_required" boolean not null default false, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "operator" add constraint "operator_email_unique" unique ("email");`);

    this.addSql(`create table "operator_role" ("id" uuid not null, "operator_id" uuid not null, "environment_id" uuid null, "role" text not null, primary key ("id"));`);
    this.addSql(`create index "operator_role_environment_index" on "operator_role" ("environment_id");`);
    this.addSql(`create unique index "operator_role_operator_environment_unique" on "operator_role" ("operator_id", "environment_id") nulls not distinct;`);

    this.addSql(`create table "operator_session" ("id" uuid not null, "operator_id" uuid not null, "token_hash" text not null, "created_at" timestamptz not null, "last_seen_at" timestamptz not null, "expires_at" timestamptz not null, "ended_at" timestamptz null, primary key ("id"));`);
    this.addSql(`alter table "operator_session" add constraint "operator_session_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "operator_session_operator_id_index" on "operator_session" ("operator_id");`);

    this.addSql(`alter table "operator_audit" add constraint "operator_audit_outcome_check" check ("outcome" in ('SUCCEEDED', 'REFUSED', 'FAILED'));`);
    this.addSql(`create or replace function "operator_audit_operator_audit_append_only_fn"() returns trigger as \$\$ begin raise exception 'operator_audit is append-only'; return null; end; \$\$ language plpgsql;`);
    this.addSql(`create trigger "operator_audit_append_only" BEFORE UPDATE OR DELETE on "operator_audit" for each ROW execute function "operator_audit_operator_audit_append_only_fn"();`);

    this.addSql(`alter table "operator_role" add constraint "operator_role_operator_id_foreign" foreign key ("operator_id") references "operator" ("id") on delete cascade;`);
    this.addSql(`alter table "operator_role" add constraint "operator_role_environment_id_foreign" foreign key ("environment_id") references "environment" ("id") on delete cascade;`);
    this.addSql(`alter table "operator_role" add constraint "operator_role_role_check" check ("role" in ('OWNER', 'DEVELOPER', 'VIEWER'));`);

    this.addSql(`alter table "operator_session" add constraint "operator_session_operator_id_foreign" foreign key ("operator_id") references "operator" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "operator_audit" cascade;`);
    this.addSql(`drop function if exists "operator_audit_operator_audit_append_only_fn"();`);
    this.addSql(`drop table if exists "operator_session" cascade;`);
    this.addSql(`drop table if exists "operator_role" cascade;`);
    this.addSql(`drop table if exists "operator" cascade;`);
  }

}
