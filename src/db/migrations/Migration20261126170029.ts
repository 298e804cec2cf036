import { Migration } from '@mikro-orm/migrations';

export class Migration20261126170029 extends Migration {

  override name = 'Migration20261126170029';

  override up(): void | Promise<void> {
    this.addSql(`alter table "connection" add "next_read_at" timestamptz null, add "refresh_presence_encrypted" text null, add "consent_expires_at" timestamptz null, add "consent_warned_for" timestamptz null, add "error_code" text null;`);
    this.addSql(`create index "connection_consent_expires_at_index" on "connection" ("consent_expires_at");`);
    this.addSql(`alter table "connection" add constraint "connection_error_code_check" check ("error_code" in ('CONSENT_EXPIRED'));`);

    this.addSql(`alter table "account" add "identifier_hash" text null;`);

    this.addSql(`alter table "transaction" add "original_amount" numeric(19,4) null, add "original_currency_code" text null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "account" drop column "identifier_hash";`);

    this.addSql(`drop index "connection_consent_expires_at_index";`);
    this.addSql(`alter table "connection" drop constraint "connection_error_code_check";`);
    this.addSql(`alter table "connection" drop column "next_read_at", drop column "refresh_presence_encrypted", drop column "consent_expires_at", drop column "consent_warned_for", drop column "error_code";`);

    this.addSql(`alter table "transaction" drop column "original_amount", drop column "original_currency_code";`);
  }

}
