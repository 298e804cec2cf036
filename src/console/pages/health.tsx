import { api, type Schemas } from '../api.ts';
import { Loaded, Table, Time } from '../ui.tsx';

/** The share of a window's runs that failed, of those that succeeded or failed (deferred and cancelled runs are neither). */
function failedShare({ succeeded, failed }: Schemas['SyncRunTally']): string {
  return succeeded + failed === 0 ? '—' : `${((100 * failed) / (succeeded + failed)).toFixed(1)} %`;
}

function runs({ succeeded, failed, deferred, cancelled }: Schemas['SyncRunTally']): number {
  return succeeded + failed + deferred + cancelled;
}

/** The environment's syncs and webhook backlog, the job queues and rate-limit fallbacks: the figures `/metrics` exports. */
export function HealthPage() {
  const health = api.useQuery('get', '/v1/metrics/summary', {}, { refetchInterval: 10_000 });
  return (
    <>
      <h1>Health</h1>
      <Loaded query={health}>
        {(data) => (
          <>
            <p className="muted">
              As of <Time at={data.at} />, from the database (every instance shows the same); queues cluster-wide.
            </p>
            <Table caption="Syncs by provider, last hour and last day" head={['Provider', 'Runs (1 h)', 'Failed (1 h)', 'Failed share (1 h)', 'Runs (24 h)', 'Failed (24 h)', 'Failed share (24 h)']}>
              {data.syncs.map((row) => (
                <tr key={row.provider}>
                  <th scope="row">{row.provider}</th>
                  <td>{runs(row.lastHour)}</td>
                  <td>{row.lastHour.failed}</td>
                  <td>{failedShare(row.lastHour)}</td>
                  <td>{runs(row.lastDay)}</td>
                  <td>{row.lastDay.failed}</td>
                  <td>{failedShare(row.lastDay)}</td>
                </tr>
              ))}
            </Table>
            {data.syncs.length === 0 && <p className="muted">No sync ran in the last day.</p>}
            <p>
              Webhook attempts owed: <strong>{data.webhookBacklog.due}</strong> due now, <strong>{data.webhookBacklog.scheduled}</strong> retries scheduled
            </p>
            <Table caption="Job queues" head={['Queue', 'Ready', 'Deferred', 'Running']}>
              {data.queues.map((queue) => (
                <tr key={queue.name}>
                  <th scope="row">{queue.name}</th>
                  <td>{queue.ready}</td>
                  <td>{queue.deferred}</td>
                  <td>{queue.active}</td>
                </tr>
              ))}
            </Table>
            <p>
              Rate-limit fallbacks (Redis unreachable): <strong>{data.rateLimitFallbacks.count}</strong>{' '}
              <span className="muted">
                counted by the instance that answered, since it started at <Time at={data.rateLimitFallbacks.since} />
              </span>
            </p>
          </>
        )}
      </Loaded>
    </>
  );
}
