import { api } from '../api.ts';
import { href } from '../router.tsx';
import { Loaded, Status, Table, Time } from '../ui.tsx';

/** The environment's webhook subscriptions. */
export function WebhooksPage() {
  const subscriptions = api.useQuery('get', '/v1/webhooks/subscriptions', { params: { query: { limit: 100 } } });
  return (
    <>
      <h1>Webhooks</h1>
      <Loaded query={subscriptions}>
        {(list) =>
          list.length === 0 ? (
            <p>No subscription yet.</p>
          ) : (
            <Table caption="Subscriptions" head={['Name', 'Target', 'Event types', 'State', 'Created']}>
              {list.map((subscription) => (
                <tr key={subscription.id}>
                  <th scope="row"><a href={href('webhooks', subscription.id)}>{subscription.name}</a></th>
                  <td><code>{subscription.targetUrl}</code></td>
                  <td>{subscription.eventTypes.join(', ')}</td>
                  <td><Status value={subscription.disabled ? 'DISABLED' : 'ENABLED'} /></td>
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
