import { Migration } from '@mikro-orm/migrations';
import { migrationSession, underShortLocks } from '../online-move.ts';

/*
 * Who named a transaction's merchant and how sure it is (`merchant_source`, `merchant_confidence`),
 * filled by the re-enrichment that ENRICHMENT_VERSION 2 starts. Both columns are nullable with no
 * default, so adding them rewrites no row; the allowed sources are checked by a constraint added
 * `not valid` and validated after, under a lock that lets writes through
 * (docs/decisions/migrations-large-tables.md). Every step can run again.
 */
export class Migration20261202171644 extends Migration {

  override name = 'Migration20261202171644';

  override isTransactional(): boolean {
    return false;
  }

  override async up(): Promise<void> {
    const session = migrationSession(this.driver.getConnection().getClient());
    await underShortLocks(session, async (sql) => {
      await sql(`alter table "transaction" add column if not exists "merchant_source" text null, add column if not exists "merchant_confidence" numeric(4,3) null`);
      await sql(`alter table "transaction" drop constraint if exists "transaction_merchant_source_check"`);
      await sql(`alter table "transaction" add constraint "transaction_merchant_source_check" check ("merchant_source" in ('PROVIDER', 'DIRECTORY', 'DESCRIPTION')) not valid`);
    });
    await session.sql(`alter table "transaction" validate constraint "transaction_merchant_source_check"`);
  }

}
