import { Migration } from '@mikro-orm/migrations';

export class Migration20261126152330 extends Migration {

  override name = 'Migration20261126152330';

  override up(): void | Promise<void> {
    this.addSql(`create table "liability" ("id" uuid not null, "profile_id" uuid not null, "connection_id" uuid not null, "account_id" uuid not null, "kind" text not null, "aprs" jsonb not null, "minimum_payment" numeric(19,4) null, "next_payment_due_date" date null, "last_statement_balance" numeric(19,4) null, "last_statement_date" date null, "last_payment_amount" numeric(19,4) null, "last_payment_date" date null, "is_overdue" boolean null, "interest_rate_type" text null, "interest_rate_percentage" numeric(38,10) null, "origination_date" date null, "origination_principal" numeric(19,4) null, "maturity_date" date null, "next_payment_amount" numeric(19,4) null, "next_payment_date" date null, "escrow_balance" numeric(19,4) null, "ytd_interest_paid" numeric(19,4) null, "ytd_principal_paid" numeric(19,4) null, "remote_data" jsonb not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "liability" add constraint "liability_account_id_unique" unique ("account_id");`);
    this.addSql(`create index "liability_connection_id_index" on "liability" ("connection_id");`);

    this.addSql(`create table "security" ("id" uuid not null, "identity" text not null, "name" text null, "ticker_symbol" text null, "isin" text null, "cusip" text null, "type" text not null, "currency_code" text not null, "close_price" numeric(38,10) null, "close_price_date" date null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "security" add constraint "security_identity_unique" unique ("identity");`);

    this.addSql(`create table "investment_transaction" ("id" uuid not null, "profile_id" uuid not null, "connection_id" uuid not null, "account_id" uuid not null, "security_id" uuid null, "remote_id" text not null, "date" date not null, "type" text not null, "subtype" text null, "quantity" numeric(38,10) not null, "price" numeric(38,10) not null, "fees" numeric(19,4) null, "amount" numeric(19,4) not null, "currency_code" text not null, "description" text not null, "remote_data" jsonb not null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "investment_transaction_profile_id_date_id_index" on "investment_transaction" ("profile_id", "date", "id");`);
    this.addSql(`create index "investment_transaction_connection_id_date_index" on "investment_transaction" ("connection_id", "date");`);
    this.addSql(`alter table "investment_transaction" add constraint "investment_transaction_account_id_remote_id_unique" unique ("account_id", "remote_id");`);

    this.addSql(`create table "holding" ("id" uuid not null, "profile_id" uuid not null, "connection_id" uuid not null, "account_id" uuid not null, "security_id" uuid not null, "quantity" numeric(38,10) not null, "price" numeric(38,10) not null, "price_date" date null, "value" numeric(19,4) not null, "cost_basis" numeric(19,4) null, "currency_code" text not null, "remote_data" jsonb not null, "last_seen_at" timestamptz not null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "holding_profile_id_id_index" on "holding" ("profile_id", "id");`);
    this.addSql(`alter table "holding" add constraint "holding_account_id_security_id_unique" unique ("account_id", "security_id");`);

    this.addSql(`alter table "liability" add constraint "liability_account_id_foreign" foreign key ("account_id") references "account" ("id") on delete cascade;`);
    this.addSql(`alter table "liability" add constraint "liability_kind_check" check ("kind" in ('CREDIT', 'MORTGAGE', 'STUDENT', 'AUTO', 'PERSONAL', 'OTHER'));`);
    this.addSql(`alter table "liability" add constraint "liability_interest_rate_type_check" check ("interest_rate_type" in ('FIXED', 'VARIABLE'));`);

    this.addSql(`alter table "security" add constraint "security_type_check" check ("type" in ('EQUITY', 'ETF', 'MUTUAL_FUND', 'FIXED_INCOME', 'CASH', 'CRYPTOCURRENCY', 'DERIVATIVE', 'OTHER'));`);

    this.addSql(`alter table "investment_transaction" add constraint "investment_transaction_account_id_foreign" foreign key ("account_id") references "account" ("id") on delete cascade;`);
    this.addSql(`alter table "investment_transaction" add constraint "investment_transaction_security_id_foreign" foreign key ("security_id") references "security" ("id") on delete set null;`);
    this.addSql(`alter table "investment_transaction" add constraint "investment_transaction_type_check" check ("type" in ('BUY', 'SELL', 'DIVIDEND', 'INTEREST', 'FEE', 'TRANSFER', 'CASH', 'CANCEL', 'OTHER'));`);

    this.addSql(`alter table "holding" add constraint "holding_account_id_foreign" foreign key ("account_id") references "account" ("id") on delete cascade;`);
    this.addSql(`alter table "holding" add constraint "holding_security_id_foreign" foreign key ("security_id") references "security" ("id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "investment_transaction" drop constraint "investment_transaction_security_id_foreign";`);
    this.addSql(`alter table "holding" drop constraint "holding_security_id_foreign";`);

    this.addSql(`drop table if exists "liability" cascade;`);
    this.addSql(`drop table if exists "security" cascade;`);
    this.addSql(`drop table if exists "investment_transaction" cascade;`);
    this.addSql(`drop table if exists "holding" cascade;`);
  }

}
