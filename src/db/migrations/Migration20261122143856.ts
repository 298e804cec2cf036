import { Migration } from '@mikro-orm/migrations';

export class Migration20261122143856 extends Migration {

  override name = 'Migration20261122143856';

  override up(): void | Promise<void> {
    this.addSql(`create table "connection" ("id" uuid not null, "environment_id" uuid not null, "profile_id" uuid not null, "provider" text not null, "institution_id" text not null, "institution_name" text not null, "status" text not null, "products" jsonb not null, "credential_encrypted" text not null, "generation" int not null default 1, "sync_cursor" text null, "last_synced_at" timestamptz null, "refresh_started_at" timestamptz null, "last_refresh_at" timestamptz null, "metadata" jsonb null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "connection_profile_id_created_at_index" on "connection" ("profile_id", "created_at");`);
    this.addSql(`create index "connection_environment_id_status_index" on "connection" ("environment_id", "status");`);

    this.addSql(`create table "account" ("id" uuid not null, "connection_id" uuid not null, "profile_id" uuid not null, "remote_id" text not null, "name" text not null, "name_override" text null, "kind" text not null, "subtype" text null, "state" text not null, "verified" boolean not null default false, "mask" text null, "currency_code" text not null, "latest_balance_id" uuid null, "metadata" jsonb null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "account_profile_id_created_at_index" on "account" ("profile_id", "created_at");`);
    this.addSql(`alter table "account" add constraint "account_connection_id_remote_id_unique" unique ("connection_id", "remote_id");`);

    this.addSql(`create table "balance" ("id" uuid not null, "account_id" uuid not null, "profile_id" uuid not null, "at" timestamptz not null, "source" text not null, "available" numeric(19,4) null, "current" numeric(19,4) null, "limit" numeric(19,4) null, "currency_code" text not null, primary key ("id"));`);
    this.addSql(`create index "balance_account_id_at_index" on "balance" ("account_id", "at");`);
    this.addSql(`create index "balance_profile_id_index" on "balance" ("profile_id");`);

    this.addSql(`create table "transaction" ("id" uuid not null, "profile_id" uuid not null, "connection_id" uuid not null, "account_id" uuid not null, "remote_id" text not null, "date" date not null, "description" text not null, "amount" numeric(19,4) not null, "status" text not null, "currency_code" text not null, "metadata" jsonb null, "remote_data" jsonb not null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "transaction_profile_id_date_id_index" on "transaction" ("profile_id", "date", "id");`);
    this.addSql(`create index "transaction_account_id_date_id_index" on "transaction" ("account_id", "date", "id");`);
    this.addSql(`alter table "transaction" add constraint "transaction_connection_id_remote_id_unique" unique ("connection_id", "remote_id");`);

    this.addSql(`alter table "environment" add "transactions_refresh_beta" boolean not null default false;`);

    this.addSql(`alter table "connection" add constraint "connection_environment_id_foreign" foreign key ("environment_id") references "environment" ("id");`);
    this.addSql(`alter table "connection" add constraint "connection_profile_id_foreign" foreign key ("profile_id") references "profile" ("id") on delete cascade;`);
    this.addSql(`alter table "connection" add constraint "connection_status_check" check ("status" in ('INITIALIZING', 'SYNCING', 'SYNCED', 'ERROR_REPAIRABLE', 'ERROR_SERVICE', 'ERROR_PROVIDER', 'ERROR_INSTITUTION', 'DISCONNECTING', 'DISCONNECTED'));`);

    this.addSql(`alter table "account" add constraint "account_connection_id_foreign" foreign key ("connection_id") references "connection" ("id") on delete cascade;`);
    this.addSql(`alter table "account" add constraint "account_profile_id_foreign" foreign key ("profile_id") references "profile" ("id") on delete cascade;`);
    this.addSql(`alter table "account" add constraint "account_kind_check" check ("kind" in ('DEPOSITORY', 'CREDIT', 'LOAN', 'INVESTMENT'));`);
    this.addSql(`alter table "account" add constraint "account_state_check" check ("state" in ('OPEN', 'CLOSED'));`);

    this.addSql(`alter table "balance" add constraint "balance_account_id_foreign" foreign key ("account_id") references "account" ("id") on delete cascade;`);
    this.addSql(`alter table "balance" add constraint "balance_profile_id_foreign" foreign key ("profile_id") references "profile" ("id") on delete cascade;`);
    this.addSql(`alter table "balance" add constraint "balance_source_check" check ("source" in ('SYNC', 'REFRESH'));`);

    this.addSql(`alter table "transaction" add constraint "transaction_profile_id_foreign" foreign key ("profile_id") references "profile" ("id") on delete cascade;`);
    this.addSql(`alter table "transaction" add constraint "transaction_connection_id_foreign" foreign key ("connection_id") references "connection" ("id") on delete cascade;`);
    this.addSql(`alter table "transaction" add constraint "transaction_account_id_foreign" foreign key ("account_id") references "account" ("id") on delete cascade;`);
    this.addSql(`alter table "transaction" add constraint "transaction_status_check" check ("status" in ('PENDING', 'POSTED'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "account" drop constraint "account_connection_id_foreign";`);
    this.addSql(`alter table "transaction" drop constraint "transaction_connection_id_foreign";`);
    this.addSql(`alter table "balance" drop constraint "balance_account_id_foreign";`);
    this.addSql(`alter table "transaction" drop constraint "transaction_account_id_foreign";`);

    this.addSql(`drop table if exists "connection" cascade;`);
    this.addSql(`drop table if exists "account" cascade;`);
    this.addSql(`drop table if exists "balance" cascade;`);
    this.addSql(`drop table if exists "transaction" cascade;`);

    this.addSql(`alter table "environment" drop column "transactions_refresh_beta";`);
  }

}
