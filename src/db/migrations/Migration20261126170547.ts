import { Migration } from '@mikro-orm/migrations';

export class Migration20261126170547 extends Migration {

  override name = 'Migration20261126170547';

  override up(): void | Promise<void> {
    this.addSql(`create table "enrichment_progress" ("id" int not null, "version" int not null, primary key ("id"));`);

    this.addSql(`create table "categorization_rule" ("id" uuid not null, "environment_id" uuid not null, "merchant_name" text null, "description_contains" text null, "amount_sign" text null, "category_primary" text not null, "category_detailed" text not null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "categorization_rule_environment_id_created_at_index" on "categorization_rule" ("environment_id", "created_at");`);

    this.addSql(`create table "category_model" ("profile_id" uuid not null, "counts" jsonb not null, "trained_at" timestamptz not null, primary key ("profile_id"));`);

    this.addSql(`alter table "transaction" add "clean_description" text null, add "merchant_name" text null, add "merchant_website" text null, add "merchant_logo_url" text null, add "category_primary" text null, add "category_detailed" text null, add "category_source" text null, add "category_confidence" numeric(4,3) null, add "payment_channel" text not null default 'OTHER', add "enrichment_version" int not null default 0;`);
    this.addSql(`create index "transaction_user_category_index" on "transaction" ("profile_id") where "category_source" = 'USER';`);
    this.addSql(`alter table "transaction" add constraint "transaction_category_source_check" check ("category_source" in ('PROVIDER', 'RULES', 'LEARNED', 'USER'));`);
    this.addSql(`alter table "transaction" add constraint "transaction_payment_channel_check" check ("payment_channel" in ('ONLINE', 'IN_STORE', 'OTHER'));`);

    this.addSql(`alter table "categorization_rule" add constraint "categorization_rule_environment_id_foreign" foreign key ("environment_id") references "environment" ("id") on delete cascade;`);
    this.addSql(`alter table "categorization_rule" add constraint "categorization_rule_amount_sign_check" check ("amount_sign" in ('IN', 'OUT'));`);

    this.addSql(`alter table "category_model" add constraint "category_model_profile_id_foreign" foreign key ("profile_id") references "profile" ("id") on update cascade on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "enrichment_progress" cascade;`);
    this.addSql(`drop table if exists "categorization_rule" cascade;`);
    this.addSql(`drop table if exists "category_model" cascade;`);

    this.addSql(`drop index "transaction_user_category_index";`);
    this.addSql(`alter table "transaction" drop constraint "transaction_category_source_check";`);
    this.addSql(`alter table "transaction" drop constraint "transaction_payment_channel_check";`);
    this.addSql(`alter table "transaction" drop column "clean_description", drop column "merchant_name", drop column "merchant_website", drop column "merchant_logo_url", drop column "category_primary", drop column "category_detailed", drop column "category_source", drop column "category_confidence", drop column "payment_channel", drop column "enrichment_version";`);
  }

}
