import { Migration } from '@mikro-orm/migrations';

export class Migration20261126153457 extends Migration {

  override name = 'Migration20261126153457';

  override up(): void | Promise<void> {
    this.addSql(`create or replace function "event_event_announced_fn"() returns trigger as \$\$ begin if new.profile_id is not null then perform pg_notify('tributary_events', new.profile_id::text || ':' || new.id::text); end if; return null; end; \$\$ language plpgsql;`);
    this.addSql(`create trigger "event_announced" AFTER INSERT on "event" for each ROW execute function "event_event_announced_fn"();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "event_announced" on "event";`);
    this.addSql(`drop function if exists "event_event_announced_fn"();`);
  }

}
