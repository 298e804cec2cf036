import { api } from '../api.ts';
import { href } from '../router.tsx';
import { Loaded, Status, Table, Time } from '../ui.tsx';
import { failures, PublicUrlFacts } from './webhook-tools.tsx';

/** The environment's webhook subscriptions with their endpoints' reachability, and the service's public URL. */
export function WebhooksPage() {
  const subscriptions = api.useQuery('get', '/v1/webhooks/subscriptions', { params: { query: { limit: 100 } } });
  return (
    <>
      <h1>Webhooks</h1>
      <PublicUrlFacts />
      <Loaded query={subscriptions}>
        {(list) =>
          list.length === 0 ? (
            <p>No subscription yet.</p>
          ) : (
            <Table caption="Subscriptions" head={['Name', 'Target', 'Event types', 'State', 'Last attempt', 'Last success', 'Failures in a row', 'Created']}>
              {list.map((subscription) => (
                <tr key={subscription.id}>
                  <th scope="row"><a href={href('webhooks', subscription.id)}>{subscription.name}</a></th>
                  <td><code>{subscription.targetUrl}</code></td>
                  <td>{subscription.eventTypes.join(', ')}</td>
                  <td><Status value={subscription.disabled ? 'DISABLED' : 'ENABLED'} /></td>
                  <td>{subscription.reachability.lastAttemptStatus ? <><Status value={subscription.reachability.lastAttemptStatus} /> <Time at={subscription.reachability.lastAttemptAt} /></> : '—'}</td>
                  <td><Time at={subscription.reachability.lastSuccessAt} /></td>
                  <td>{failures(subscription.reachability.consecutiveFailures)}</td>
                  <td><Time at={subscription.at} /></td>
                </tr>
              ))}
            </Table>
          )
        }
      </Loaded>
    </>
  );
}
