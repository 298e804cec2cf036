import { Migration } from '@mikro-orm/migrations';
import { clearMoveSchema, hashPartitions, migrationSession, MOVE_SCHEMA, moveTableOnline, type MigrationSession } from '../online-move.ts';

/*
 * transaction, balance, holding and investment_transaction hashed by profile into 32 partitions,
 * keyed by (profile_id, id), moved while the service keeps writing (src/db/online-move.ts,
 * docs/decisions/partitions-by-profile.md); recurring_stream_transaction carries its transaction's
 * profile, to point at that key. Outside a transaction: each step commits on its own, indexes on
 * existing tables are built concurrently; a run stopped halfway can be run again (each step skips
 * what is done, or redoes what it left half done).
 */

const PARTITIONS = 32;
const moved = (table: string) => `"${MOVE_SCHEMA}"."${table}"`;
const MEMBERS = '"recurring_stream_transaction"';

export class Migration20261202092522 extends Migration {

  override name = 'Migration20261202092522';

  override isTransactional(): boolean {
    return false;
  }

  override async up(): Promise<void> {
    const session = migrationSession(this.driver.getConnection().getClient());
    await clearMoveSchema(session);
    await giveMembersTheirProfile(session);

    await moveTableOnline(session, {
      table: 'balance',
      create: [
        `create table ${moved('balance')} ("profile_id" uuid not null, "id" uuid not null, "account_id" uuid not null, "at" timestamptz not null, "source" text not null, "available" numeric(19,4) null, "current" numeric(19,4) null, "limit" numeric(19,4) null, "currency_code" text not null, constraint "balance_pkey" primary key ("profile_id", "id")) partition by hash ("profile_id")`,
        ...hashPartitions('balance', PARTITIONS),
        `create index "balance_account_id_at_index" on ${moved('balance')} ("account_id", "at")`,
        `alter table ${moved('balance')} add constraint "balance_profile_id_foreign" foreign key ("profile_id") references "profile" ("id") on delete cascade`,
        `alter table ${moved('balance')} add constraint "balance_account_id_foreign" foreign key ("account_id") references "account" ("id") on delete cascade`,
      ],
    });
    await moveTableOnline(session, {
      table: 'holding',
      create: [
        `create table ${moved('holding')} ("profile_id" uuid not null, "id" uuid not null, "connection_id" uuid not null, "account_id" uuid not null, "security_id" uuid not null, "quantity" numeric not null, "price" numeric not null, "price_date" date null, "value" numeric not null, "cost_basis" numeric null, "currency_code" text not null, "remote_data" jsonb not null, "last_seen_at" timestamptz not null, "created_at" timestamptz not null, constraint "holding_pkey" primary key ("profile_id", "id")) partition by hash ("profile_id")`,
        ...hashPartitions('holding', PARTITIONS),
        `alter table ${moved('holding')} add constraint "holding_profile_id_account_id_security_id_unique" unique ("profile_id", "account_id", "security_id")`,
        `alter table ${moved('holding')} add constraint "holding_account_id_foreign" foreign key ("account_id") references "account" ("id") on delete cascade`,
        `alter table ${moved('holding')} add constraint "holding_security_id_foreign" foreign key ("security_id") references "security" ("id")`,
      ],
    });
    await moveTableOnline(session, {
      table: 'investment_transaction',
      create: [
        `create table ${moved('investment_transaction')} ("profile_id" uuid not null, "id" uuid not null, "connection_id" uuid not null, "account_id" uuid not null, "security_id" uuid null, "remote_id" text not null, "date" date not null, "type" text not null, "subtype" text null, "quantity" numeric not null, "price" numeric not null, "fees" numeric null, "amount" numeric not null, "currency_code" text not null, "description" text not null, "remote_data" jsonb not null, "created_at" timestamptz not null, constraint "investment_transaction_pkey" primary key ("profile_id", "id")) partition by hash ("profile_id")`,
        ...hashPartitions('investment_transaction', PARTITIONS),
        `create index "investment_transaction_profile_id_date_id_index" on ${moved('investment_transaction')} ("profile_id", "date", "id")`,
        `create index "investment_transaction_connection_id_date_index" on ${moved('investment_transaction')} ("connection_id", "date")`,
        `alter table ${moved('investment_transaction')} add constraint "investment_transaction_profile_id_account_id_remote_id_unique" unique ("profile_id", "account_id", "remote_id")`,
        `alter table ${moved('investment_transaction')} add constraint "investment_transaction_account_id_foreign" foreign key ("account_id") references "account" ("id") on delete cascade`,
        `alter table ${moved('investment_transaction')} add constraint "investment_transaction_security_id_foreign" foreign key ("security_id") references "security" ("id") on delete set null`,
      ],
    });
    await moveTableOnline(session, {
      table: 'transaction',
      create: [
        `create table ${moved('transaction')} ("profile_id" uuid not null, "id" uuid not null, "connection_id" uuid not null, "account_id" uuid not null, "remote_id" text not null, "date" date not null, "description" text not null, "amount" numeric(19,4) not null, "status" text not null, "currency_code" text not null, "original_amount" numeric(19,4) null, "original_currency_code" text null, "metadata" jsonb null, "clean_description" text null, "merchant_name" text null, "merchant_website" text null, "merchant_logo_url" text null, "category_primary" text null, "category_detailed" text null, "category_source" text null, "category_confidence" numeric(4,3) null, "payment_channel" text not null default 'OTHER', "enrichment_version" int not null default 0, "remote_data" jsonb not null, "created_at" timestamptz not null, constraint "transaction_pkey" primary key ("profile_id", "id")) partition by hash ("profile_id")`,
        // Sync upserts rewrite rows in place: room on each page keeps those updates HOT (docs/scaling.md).
        ...hashPartitions('transaction', PARTITIONS, 'fillfactor = 90'),
        `create index "transaction_profile_id_date_id_index" on ${moved('transaction')} ("profile_id", "date", "id")`,
        `create index "transaction_account_id_date_id_index" on ${moved('transaction')} ("account_id", "date", "id")`,
        `create index "transaction_user_category_index" on ${moved('transaction')} ("profile_id") where "category_source" = 'USER'`,
        `alter table ${moved('transaction')} add constraint "transaction_profile_id_connection_id_remote_id_unique" unique ("profile_id", "connection_id", "remote_id")`,
        `alter table ${moved('transaction')} add constraint "transaction_account_id_foreign" foreign key ("account_id") references "account" ("id") on delete cascade`,
      ],
      beforeSwap: [
        `drop trigger if exists "recurring_stream_transaction_profile" on ${MEMBERS}`,
        `alter table ${MEMBERS} drop constraint if exists "recurring_stream_transaction_transaction_id_foreign"`,
      ],
      // Checked once the swap has committed, without stopping writes (validate takes a weaker lock).
      afterSwap: [
        `alter table ${MEMBERS} add constraint "recurring_stream_transaction_profile_id_transaction_id_foreign" foreign key ("profile_id", "transaction_id") references "transaction" ("profile_id", "id") on update cascade on delete cascade not valid`,
      ],
    });
    await session.sql(`alter table ${MEMBERS} validate constraint "recurring_stream_transaction_profile_id_transaction_id_foreign"`);
    await session.sql(`drop index concurrently if exists "recurring_stream_transaction_transaction_id_index"`);
    await session.sql(`drop schema "${MOVE_SCHEMA}" cascade`);
  }

}

/**
 * recurring_stream_transaction gains `profile_id` (its transaction's), filled for the rows there and,
 * by a trigger until the transaction table's swap, for the rows added meanwhile; then its key becomes
 * (stream_id, profile_id, transaction_id), built concurrently and swapped in.
 */
async function giveMembersTheirProfile(session: MigrationSession): Promise<void> {
  const [done] = await session.sql(`select 1 from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
      where i.indexrelid = '"recurring_stream_transaction_pkey"'::regclass and a.attname = 'profile_id'`);
  if (done) return;
  await session.transaction(async (sql) => {
    await sql(`alter table ${MEMBERS} add column if not exists "profile_id" uuid null`);
    await sql(`create function "${MOVE_SCHEMA}"."member_profile"() returns trigger language plpgsql as $$
      begin
        if new.profile_id is null then select t.profile_id into new.profile_id from public."transaction" t where t.id = new.transaction_id; end if;
        return new;
      end $$`);
    await sql(`create trigger "recurring_stream_transaction_profile" before insert on ${MEMBERS} for each row execute function "${MOVE_SCHEMA}"."member_profile"()`);
  });
  let after = { stream: '00000000-0000-0000-0000-000000000000', transaction: '00000000-0000-0000-0000-000000000000' };
  for (;;) {
    const [batch] = await session.sql<{ stream: string | null; transaction: string | null; rows: number }>(
      `with batch as (select stream_id, transaction_id from ${MEMBERS} where (stream_id, transaction_id) > ($1::uuid, $2::uuid) order by stream_id, transaction_id limit 5000),
            filled as (update ${MEMBERS} m set profile_id = t.profile_id from batch b, "transaction" t
                        where m.stream_id = b.stream_id and m.transaction_id = b.transaction_id and t.id = b.transaction_id and m.profile_id is null),
            last as (select stream_id, transaction_id from batch order by stream_id desc, transaction_id desc limit 1)
       select (select stream_id::text from last) as stream, (select transaction_id::text from last) as transaction, (select count(*) from batch)::int as rows`,
      [after.stream, after.transaction],
    );
    if (!batch?.stream || !batch.transaction) break;
    after = { stream: batch.stream, transaction: batch.transaction };
    if (batch.rows < 5000) break;
  }
  // NOT NULL proven by a check validated under a weak lock; setting it then needs no scan.
  await session.sql(`alter table ${MEMBERS} drop constraint if exists "recurring_stream_transaction_profile_id_present"`);
  await session.sql(`alter table ${MEMBERS} add constraint "recurring_stream_transaction_profile_id_present" check ("profile_id" is not null) not valid`);
  await session.sql(`alter table ${MEMBERS} validate constraint "recurring_stream_transaction_profile_id_present"`);
  await session.sql(`alter table ${MEMBERS} alter column "profile_id" set not null`);
  await session.sql(`alter table ${MEMBERS} drop constraint "recurring_stream_transaction_profile_id_present"`);
  // An index a stopped build left behind is invalid: built again.
  await session.sql(`drop index concurrently if exists "recurring_stream_transaction_key"`);
  await session.sql(`drop index concurrently if exists "recurring_stream_transaction_profile_id_transaction_id_index"`);
  await session.sql(`create unique index concurrently "recurring_stream_transaction_key" on ${MEMBERS} ("stream_id", "profile_id", "transaction_id")`);
  await session.sql(`create index concurrently "recurring_stream_transaction_profile_id_transaction_id_index" on ${MEMBERS} ("profile_id", "transaction_id")`);
  await session.sql(`alter table ${MEMBERS} drop constraint "recurring_stream_transaction_pkey", add constraint "recurring_stream_transaction_pkey" primary key using index "recurring_stream_transaction_key"`);
}
