import { Migration } from '@mikro-orm/migrations';

export class Migration20261126170517 extends Migration {

  override name = 'Migration20261126170517';

  override up(): void | Promise<void> {
    this.addSql(`create table "recurring_stream" ("id" uuid not null, "profile_id" uuid not null, "connection_id" uuid not null, "account_id" uuid not null, "direction" text not null, "key" text not null, "description" text not null, "merchant_name" text null, "category" text null, "frequency" text not null, "status" text not null, "average_amount" numeric(19,4) not null, "last_amount" numeric(19,4) not null, "currency_code" text not null, "first_date" date not null, "last_date" date not null, "predicted_next_date" date not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "recurring_stream_profile_id_first_date_id_index" on "recurring_stream" ("profile_id", "first_date", "id");`);
    this.addSql(`create index "recurring_stream_account_id_index" on "recurring_stream" ("account_id");`);

    this.addSql(`create table "recurring_stream_transaction" ("stream_id" uuid not null, "transaction_id" uuid not null, primary key ("stream_id", "transaction_id"));`);
    this.addSql(`create index "recurring_stream_transaction_transaction_id_index" on "recurring_stream_transaction" ("transaction_id");`);

    this.addSql(`alter table "recurring_stream" add constraint "recurring_stream_account_id_foreign" foreign key ("account_id") references "account" ("id") on delete cascade;`);
    this.addSql(`alter table "recurring_stream" add constraint "recurring_stream_direction_check" check ("direction" in ('INFLOW', 'OUTFLOW'));`);
    this.addSql(`alter table "recurring_stream" add constraint "recurring_stream_frequency_check" check ("frequency" in ('WEEKLY', 'BIWEEKLY', 'SEMI_MONTHLY', 'MONTHLY', 'ANNUALLY'));`);
    this.addSql(`alter table "recurring_stream" add constraint "recurring_stream_status_check" check ("status" in ('EARLY_DETECTION', 'MATURE', 'ENDED'));`);

    this.addSql(`alter table "recurring_stream_transaction" add constraint "recurring_stream_transaction_stream_id_foreign" foreign key ("stream_id") references "recurring_stream" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "recurring_stream_transaction" add constraint "recurring_stream_transaction_transaction_id_foreign" foreign key ("transaction_id") references "transaction" ("id") on update cascade on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "recurring_stream_transaction" drop constraint "recurring_stream_transaction_stream_id_foreign";`);

    this.addSql(`drop table if exists "recurring_stream" cascade;`);
    this.addSql(`drop table if exists "recurring_stream_transaction" cascade;`);
  }

}
