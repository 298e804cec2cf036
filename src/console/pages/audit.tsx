import { api } from '../api.ts';
import { Loaded, Status, Table, Time } from '../ui.tsx';

/** Who did what in the environment, from where and when, and how it was answered (owners only). */
export function AuditPage() {
  const entries = api.useQuery('get', '/v1/audit-log', { params: { query: { limit: 100 } } });
  return (
    <>
      <h1>Audit log</h1>
      <Loaded query={entries}>
        {(list) => (
          <Table caption="Operator actions, oldest first" head={['At', 'Operator', 'Action', 'Target', 'From', 'Outcome']}>
            {list.map((entry) => (
              <tr key={entry.id}>
                <td><Time at={entry.at} /></td>
                <td>{entry.email ?? '—'}</td>
                <td>{entry.action}</td>
                <td>{entry.targetId ? <code>{entry.targetId}</code> : '—'}</td>
                <td>{entry.clientAddress}</td>
                <td><Status value={`${entry.outcome}`} /> {entry.status}</td>
              </tr>
            ))}
          </Table>
        )}
      </Loaded>
    </>
  );
}
