import { api } from '../api.ts';
import { Loaded, Table } from '../ui.tsx';

function percent(failed: number, total: number): string {
  return total === 0 ? '—' : `${((100 * failed) / total).toFixed(1)} %`;
}

/** Syncs, queues and webhook deliveries, from the counters `/metrics` exports. */
export function HealthPage() {
  const health = api.useQuery('get', '/v1/metrics/summary', {}, { refetchInterval: 10_000 });
  return (
    <>
      <h1>Health</h1>
      <Loaded query={health}>
        {(data) => (
          <>
            <p className="muted">
              Counted by this process since it started at <time dateTime={data.since}>{new Date(data.since).toLocaleString()}</time>; queues cluster-wide.
            </p>
            <Table caption="Syncs by provider" head={['Provider', 'Synced', 'Failed', 'Deferred', 'Failed share']}>
              {data.syncs.map((row) => (
                <tr key={row.provider}>
                  <th scope="row">{row.provider}</th>
                  <td>{row.synced}</td>
                  <td>{row.failed}</td>
                  <td>{row.deferred}</td>
                  <td>{percent(row.failed, row.synced + row.failed)}</td>
                </tr>
              ))}
            </Table>
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
            <Table caption="Webhook attempts" head={['Outcome', 'Attempts']}>
              {data.webhookAttempts.map((row) => (
                <tr key={row.outcome}>
                  <th scope="row">{row.outcome}</th>
                  <td>{row.count}</td>
                </tr>
              ))}
            </Table>
            <p>
              Rate-limit fallbacks (Redis unreachable): <strong>{data.rateLimitFallbacks}</strong>
            </p>
          </>
        )}
      </Loaded>
    </>
  );
}
