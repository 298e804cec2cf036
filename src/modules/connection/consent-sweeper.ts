import type { MikroORM } from '@mikro-orm/postgresql';
import type { JobDefinition } from '../../jobs/queue.ts';
import { applyConsentRules, type ConsentRules } from './consent.ts';
import { consentsDue } from './connection.store.ts';
import { DAY_MS } from '../../lib/dates.ts';

const SWEEP = 'connection.consent-sweep';

export interface ConsentSweepDependencies extends ConsentRules {
  orm: MikroORM;
}

/**
 * Every hour (a consent's end is known days ahead: an hour late is fine, and the sweep costs one
 * indexed query), applies the consent rules (consent.ts) to each connection of every provider whose
 * consent has ended or is about to.
 */
export function consentSweepJob(deps: ConsentSweepDependencies): JobDefinition<object> {
  return {
    name: SWEEP,
    cron: '7 * * * *',
    async handle() {
      await sweepConsents(deps);
    },
  };
}

/** One sweep at `now`; resolves to the ids of the connections it looked at. */
export async function sweepConsents({ orm, ...rules }: ConsentSweepDependencies, now = new Date()): Promise<string[]> {
  const due = await consentsDue(orm.em.fork(), now, new Date(now.getTime() + rules.warningDays * DAY_MS));
  for (const key of due) await applyConsentRules(orm.em.fork(), key, rules, now);
  return due.map((key) => key.id);
}
