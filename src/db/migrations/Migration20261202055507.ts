import { Migration } from '@mikro-orm/migrations';

export class Migration20261202055507 extends Migration {

  override name = 'Migration20261202055507';

  override up(): void | Promise<void> {
    this.addSql(`alter table "key_check" drop constraint "key_check_secret_check";`);
    this.addSql(`alter table "key_check" add "retired_at" timestamptz null;`);
    this.addSql(`alter table "key_check" add constraint "key_check_secret_check" check ("secret" in ('ENCRYPTION_KEYS', 'SESSION_KEYS', 'SESSION_SECRET'));`);
    // Until SESSION_KEYS existed, SESSION_SECRET signed every session token: a process must hold it until another key signs.
    this.addSql(`update "key_check" set "encrypts" = true where "secret" = 'SESSION_SECRET';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`delete from "key_check" where "secret" = 'SESSION_KEYS';`);
    this.addSql(`alter table "key_check" drop constraint "key_check_secret_check";`);
    this.addSql(`alter table "key_check" drop column "retired_at";`);
    this.addSql(`alter table "key_check" add constraint "key_check_secret_check" check ("secret" in ('ENCRYPTION_KEYS', 'SESSION_SECRET'));`);
  }

}
