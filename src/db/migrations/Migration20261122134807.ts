import { Migration } from '@mikro-orm/migrations';

export class Migration20261122134807 extends Migration {

  override name = 'Migration20261122134807';

  override up(): void | Promise<void> {
    this.addSql(`create table "environment" ("id" uuid not null, "name" text not null, "mode" text not null, "created_at" timestamptz not null, primary key ("id"));`);

    this.addSql(`create table "api_key" ("id" uuid not null, "environment_id" uuid not null, "name" text not null, "secret_hash" text not null, "last_four" text not null, "generation" text not null, "api_version" text not null, "created_at" timestamptz not null, "revoked_at" timestamptz null, primary key ("id"));`);
    this.addSql(`create index "api_key_environment_id_index" on "api_key" ("environment_id");`);
    this.addSql(`alter table "api_key" add constraint "api_key_secret_hash_unique" unique ("secret_hash");`);

    this.addSql(`create table "event" ("id" uuid not null, "environment_id" uuid not null, "profile_id" uuid null, "type" text not null, "at" timestamptz not null, "payload" jsonb not null, primary key ("id"));`);
    this.addSql(`create index "event_profile_id_index" on "event" ("profile_id");`);
    this.addSql(`create index "event_environment_id_at_id_index" on "event" ("environment_id", "at", "id");`);

    this.addSql(`create table "profile" ("id" uuid not null, "environment_id" uuid not null, "uuid" uuid not null, "name" text null, "names" jsonb null, "email_encrypted" text null, "phone_encrypted" text null, "date_of_birth_encrypted" text null, "address_encrypted" text null, "metadata" jsonb null, "created_at" timestamptz not null, "deleting_at" timestamptz null, primary key ("id"));`);
    this.addSql(`create index "profile_environment_id_created_at_id_index" on "profile" ("environment_id", "created_at", "id");`);
    this.addSql(`alter table "profile" add constraint "profile_environment_id_uuid_unique" unique ("environment_id", "uuid");`);

    this.addSql(`create table "session" ("id" uuid not null, "environment_id" uuid not null, "profile_id" uuid not null, "api_version" text not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, "revoked_at" timestamptz null, primary key ("id"));`);
    this.addSql(`create index "session_profile_id_created_at_index" on "session" ("profile_id", "created_at");`);

    this.addSql(`alter table "environment" add constraint "environment_mode_check" check ("mode" in ('SANDBOX', 'PRODUCTION'));`);

    this.addSql(`alter table "api_key" add constraint "api_key_environment_id_foreign" foreign key ("environment_id") references "environment" ("id");`);
    this.addSql(`alter table "api_key" add constraint "api_key_generation_check" check ("generation" in ('CURRENT', 'LEGACY'));`);

    this.addSql(`alter table "event" add constraint "event_environment_id_foreign" foreign key ("environment_id") references "environment" ("id");`);

    this.addSql(`alter table "profile" add constraint "profile_environment_id_foreign" foreign key ("environment_id") references "environment" ("id");`);

    this.addSql(`alter table "session" add constraint "session_environment_id_foreign" foreign key ("environment_id") references "environment" ("id");`);
    this.addSql(`alter table "session" add constraint "session_profile_id_foreign" foreign key ("profile_id") references "profile" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "api_key" drop constraint "api_key_environment_id_foreign";`);
    this.addSql(`alter table "event" drop constraint "event_environment_id_foreign";`);
    this.addSql(`alter table "profile" drop constraint "profile_environment_id_foreign";`);
    this.addSql(`alter table "session" drop constraint "session_environment_id_foreign";`);
    this.addSql(`alter table "session" drop constraint "session_profile_id_foreign";`);

    this.addSql(`drop table if exists "environment" cascade;`);
    this.addSql(`drop table if exists "api_key" cascade;`);
    this.addSql(`drop table if exists "event" cascade;`);
    this.addSql(`drop table if exists "profile" cascade;`);
    this.addSql(`drop table if exists "session" cascade;`);
  }

}
