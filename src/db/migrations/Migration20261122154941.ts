import { Migration } from '@mikro-orm/migrations';

export class Migration20261122154941 extends Migration {

  override name = 'Migration20261122154941';

  override up(): void | Promise<void> {
    this.addSql(`alter table "transaction" drop constraint "transaction_connection_id_foreign";`);
    this.addSql(`alter table "transaction" drop constraint "transaction_profile_id_foreign";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "transaction" add constraint "transaction_connection_id_foreign" foreign key ("connection_id") references "connection" ("id") on update no action on delete cascade;`);
    this.addSql(`alter table "transaction" add constraint "transaction_profile_id_foreign" foreign key ("profile_id") references "profile" ("id") on update no action on delete cascade;`);
  }

}
