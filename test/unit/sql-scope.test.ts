import { describe, expect, it } from 'vitest';
import { isDataStatement, tableReferences } from '../support/sql-scope.ts';

const keys = new Map([
  ['profile', 'id'],
  ['connection', 'profile_id'],
  ['account', 'profile_id'],
  ['transaction', 'profile_id'],
  ['session', 'profile_id'],
]);
const refs = (sql: string) => tableReferences(sql, keys).map(({ table, keyed }) => `${table}:${keyed ? 'keyed' : 'NOT'}`);

describe('which profile tables a statement touches, and whether it names their profile', () => {
  it("reads MikroORM's quoted, aliased statements", () => {
    expect(refs('select "a0".* from "account" as "a0" where "a0"."profile_id" = $1 and "a0"."id" = $2 limit $3')).toEqual(['account:keyed']);
    expect(refs('select "c0".* from "connection" as "c0" where "c0"."id" = $1 limit $2')).toEqual(['connection:NOT']);
    expect(refs('insert into "session" ("id", "profile_id", "created_at") values ($1, $2, $3)')).toEqual(['session:keyed']);
    expect(refs('update "connection" set "status" = $1 where "id" = $2')).toEqual(['connection:NOT']);
    expect(refs('delete from "session" where "id" in ($1 /*, ... */)')).toEqual(['session:NOT']);
  });

  it("reads kysely's and hand-written statements, with bare aliases and comma lists", () => {
    expect(refs('select "account"."id" from "account" where "account"."profile_id" = $1')).toEqual(['account:keyed']);
    expect(refs('select t.id from transaction t, account a where t.account_id = a.id and a.profile_id = $1')).toEqual(['transaction:NOT', 'account:keyed']);
    expect(refs('select id from account where profile_id = any($1::uuid[])')).toEqual(['account:keyed']);
  });

  it('keys a joined table only through a join condition that names its profile', () => {
    const through = 'select t.* from account a join transaction t on t.profile_id = a.profile_id and t.account_id = a.id where a.profile_id = $1';
    expect(refs(through)).toEqual(['account:keyed', 'transaction:keyed']);
    const notThrough = 'select t.* from account a join transaction t on t.account_id = a.id where a.profile_id = $1';
    expect(refs(notThrough)).toEqual(['account:keyed', 'transaction:NOT']);
    expect(refs('select * from account a left join connection c using (profile_id) where a.id = $1')).toEqual(['account:keyed', 'connection:keyed']);
  });

  it('judges every subquery, CTE body and UNION arm by its own filters', () => {
    expect(refs('select * from transaction where id in (select transaction_id from account where profile_id = $1)')).toEqual(['account:keyed', 'transaction:NOT']);
    const cte = 'with mine as (select id from account where profile_id = $1) select t.* from mine join transaction t on t.account_id = mine.id';
    expect(refs(cte)).toEqual(['account:keyed', 'transaction:NOT']);
    expect(refs('select id from account where profile_id = $1 union all select id from connection')).toEqual(['account:keyed', 'connection:NOT']);
    expect(refs('select exists (select 1 from session s where s.profile_id = $1 and s.id = $2)')).toEqual(['session:keyed']);
  });

  it('does not count the key named where it filters nothing: the select list, SET, RETURNING', () => {
    expect(refs('select profile_id from connection where id = $1')).toEqual(['connection:NOT']);
    expect(refs('update connection set status = $1 where id = $2 returning profile_id')).toEqual(['connection:NOT']);
    expect(refs('select * from connection where extract(epoch from now()) > $1 and profile_id = $2')).toEqual(['connection:keyed']);
  });

  it("keys profile by its id, qualified when the block joins other tables", () => {
    expect(refs('select "p0".* from "profile" as "p0" where "p0"."id" = $1')).toEqual(['profile:keyed']);
    expect(refs('select * from profile where environment_id = $1 order by id limit $2')).toEqual(['profile:NOT']);
    expect(refs('select p.* from profile p join connection c on c.environment_id = p.environment_id where c.id = $1')).toEqual(['profile:NOT', 'connection:NOT']);
    // A join on the key is co-located (each shard joins its own rows), whether or not a value filters it.
    expect(refs('select p.* from profile p join connection c on c.profile_id = p.id where c.id = $1')).toEqual(['profile:keyed', 'connection:keyed']);
  });

  it("counts an INSERT's column list for its target only, never for the tables its SELECT reads", () => {
    expect(refs('insert into session (id, profile_id) select $1, a.profile_id from account a where a.id = $2')).toEqual(['session:keyed', 'account:NOT']);
    expect(refs('insert into session (id, profile_id) select $1, a.profile_id from account a where a.profile_id = $2')).toEqual(['session:keyed', 'account:keyed']);
    expect(refs('insert into session (id, profile_id) select $1, profile_id from account where profile_id = $2')).toEqual(['session:keyed', 'account:keyed']);
  });

  it('ignores strings, comments, functions, CTE names that shadow tables and other schemas', () => {
    expect(refs("select 'from account' as x -- from account\n from unnest($1::uuid[]) as u(id) /* from account */")).toEqual([]);
    expect(refs('with account as (select 1 as id) select * from account')).toEqual([]);
    expect(refs('select * from pgboss.job where name = $1')).toEqual([]);
    expect(refs('select * from public.account where profile_id = $1')).toEqual(['account:keyed']);
    expect(refs('select * from account for update of account skip locked')).toEqual(['account:NOT']);
    expect(refs('insert into account (id) values ($1) on conflict (id) do update set name = excluded.name')).toEqual(['account:NOT']);
  });

  it('applies to DML only', () => {
    expect(isDataStatement('WITH x AS (select 1) select * from x')).toBe(true);
    expect(isDataStatement('/* comment */ delete from account')).toBe(true);
    expect(isDataStatement('create index concurrently x on account (profile_id)')).toBe(false);
    expect(isDataStatement('BEGIN')).toBe(false);
  });
});
