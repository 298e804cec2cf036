import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { DatabaseOutage } from '../../src/db/database-outage.ts';

/** The outage's log lines, as the service writes them. */
function recorded(): { outage: DatabaseOutage; lines: Array<{ level: number; msg: string }> } {
  const lines: Array<{ level: number; msg: string }> = [];
  const log = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { outage: new DatabaseOutage(() => Promise.reject(new Error('still down')), log), lines };
}

/** What a job's query meets when PostgreSQL ends its session ("terminating connection due to administrator command"). */
const terminated = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });

describe('a database outage', () => {
  it('is logged once, as an error, while the service runs', () => {
    const { outage, lines } = recorded();
    outage.notice(terminated);
    outage.notice(terminated);
    expect(lines).toMatchObject([{ level: 50, msg: 'PostgreSQL does not answer: requests that need it get 503 NOT_READY until it does' }]);
    outage.close();
  });

  it('is not reported once the service closes its databases: a job cut off at the stop loses its connection on purpose', () => {
    const { outage, lines } = recorded();
    outage.closing();
    outage.notice(terminated);
    outage.report(terminated, pino({ enabled: false }), 'relay failed');
    expect(lines).toEqual([]);
  });
});
