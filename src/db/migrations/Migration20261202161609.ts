import { Migration } from '@mikro-orm/migrations';

/* The statement table (issue #36), hashed by profile like the other tables of a profile's records. */
export class Migration20261202161609 extends Migration {

  override name = 'Migration20261202161609';

  override up(): void | Promise<void> {
    this.addSql(`create table "statement" ("profile_id" uuid not null, "id" uuid not null, "connection_id" uuid not null, "account_id" uuid not null, "remote_id" text not null, "start_on" date not null, "end_on" date not null, "issued_on" date null, "status" text not null, "failure_reason" text null, "refused_fetches" int not null default 0, "size" int null, "sha256" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("profile_id", "id")) partition by hash ("profile_id");`);
    this.addSql(`create index "statement_profile_id_end_on_id_index" on "statement" ("profile_id", "end_on", "id");`);
    this.addSql(`alter table "statement" add constraint "statement_profile_id_account_id_remote_id_unique" unique ("profile_id", "account_id", "remote_id");`);
    this.addSql(`create table "statement_0" partition of "statement" for values with (modulus 32, remainder 0);`);
    this.addSql(`create table "statement_1" partition of "statement" for values with (modulus 32, remainder 1);`);
    this.addSql(`create table "statement_2" partition of "statement" for values with (modulus 32, remainder 2);`);
    this.addSql(`create table "statement_3" partition of "statement" for values with (modulus 32, remainder 3);`);
    this.addSql(`create table "statement_4" partition of "statement" for values with (modulus 32, remainder 4);`);
    this.addSql(`create table "statement_5" partition of "statement" for values with (modulus 32, remainder 5);`);
    this.addSql(`create table "statement_6" partition of "statement" for values with (modulus 32, remainder 6);`);
    this.addSql(`create table "statement_7" partition of "statement" for values with (modulus 32, remainder 7);`);
    this.addSql(`create table "statement_8" partition of "statement" for values with (modulus 32, remainder 8);`);
    this.addSql(`create table "statement_9" partition of "statement" for values with (modulus 32, remainder 9);`);
    this.addSql(`create table "statement_10" partition of "statement" for values with (modulus 32, remainder 10);`);
    this.addSql(`create table "statement_11" partition of "statement" for values with (modulus 32, remainder 11);`);
    this.addSql(`create table "statement_12" partition of "statement" for values with (modulus 32, remainder 12);`);
    this.addSql(`create table "statement_13" partition of "statement" for values with (modulus 32, remainder 13);`);
    this.addSql(`create table "statement_14" partition of "statement" for values with (modulus 32, remainder 14);`);
    this.addSql(`create table "statement_15" partition of "statement" for values with (modulus 32, remainder 15);`);
    this.addSql(`create table "statement_16" partition of "statement" for values with (modulus 32, remainder 16);`);
    this.addSql(`create table "statement_17" partition of "statement" for values with (modulus 32, remainder 17);`);
    this.addSql(`create table "statement_18" partition of "statement" for values with (modulus 32, remainder 18);`);
    this.addSql(`create table "statement_19" partition of "statement" for values with (modulus 32, remainder 19);`);
    this.addSql(`create table "statement_20" partition of "statement" for values with (modulus 32, remainder 20);`);
    this.addSql(`create table "statement_21" partition of "statement" for values with (modulus 32, remainder 21);`);
    this.addSql(`create table "statement_22" partition of "statement" for values with (modulus 32, remainder 22);`);
    this.addSql(`create table "statement_23" partition of "statement" for values with (modulus 32, remainder 23);`);
    this.addSql(`create table "statement_24" partition of "statement" for values with (modulus 32, remainder 24);`);
    this.addSql(`create table "statement_25" partition of "statement" for values with (modulus 32, remainder 25);`);
    this.addSql(`create table "statement_26" partition of "statement" for values with (modulus 32, remainder 26);`);
    this.addSql(`create table "statement_27" partition of "statement" for values with (modulus 32, remainder 27);`);
    this.addSql(`create table "statement_28" partition of "statement" for values with (modulus 32, remainder 28);`);
    this.addSql(`create table "statement_29" partition of "statement" for values with (modulus 32, remainder 29);`);
    this.addSql(`create table "statement_30" partition of "statement" for values with (modulus 32, remainder 30);`);
    this.addSql(`create table "statement_31" partition of "statement" for values with (modulus 32, remainder 31);`);

    this.addSql(`alter table "statement" add constraint "statement_account_id_foreign" foreign key ("account_id") references "account" ("id") on delete cascade;`);
    this.addSql(`alter table "statement" add constraint "statement_status_check" check ("status" in ('PENDING', 'READY', 'FAILED'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "statement" cascade;`);
  }

}
