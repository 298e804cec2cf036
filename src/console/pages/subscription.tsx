import { api, queryClient, type Schemas } from '../api.ts';
import { href } from '../router.tsx';
import { ConfirmButton, ErrorNotice, Loaded, ShownOnce, Status, Table, Time } from '../ui.tsx';
import { ReachabilityFacts, RedeliverRange, SendTestEvent } from './webhook-tools.tsx';

const refetch = () => queryClient.invalidateQueries({ predicate: (query) => String(query.queryKey[1]).startsWith('/v1/webhooks/') });

/**
 * One subscription: its endpoint's reachability; enable or disable it, rotate its secret, send it a
 * test event; redeliver a range of events; and its delivery log with every attempt, each event redeliverable.
 */
export function SubscriptionPage({ subscriptionId }: { subscriptionId: string }) {
  const path = { params: { path: { subscriptionId } } };
  const subscription = api.useQuery('get', '/v1/webhooks/subscriptions/{subscriptionId}', path, { refetchInterval: 3_000 });
  const deliveries = api.useQuery('get', '/v1/webhooks/subscriptions/{subscriptionId}/deliveries', { params: { path: { subscriptionId }, query: { limit: 100 } } }, { refetchInterval: 3_000 });
  const update = api.useMutation('patch', '/v1/webhooks/subscriptions/{subscriptionId}', { onSuccess: refetch });
  const rotate = api.useMutation('post', '/v1/webhooks/subscriptions/{subscriptionId}/rotate-secret');
  const redeliver = api.useMutation('post', '/v1/webhooks/subscriptions/{subscriptionId}/events/{eventId}/redeliver', { onSuccess: refetch });
  return (
    <>
      <p className="crumbs"><a href={href('webhooks')}>Webhooks</a> /</p>
      <Loaded query={subscription}>
        {(data) => (
          <>
            <h1>{data.name}</h1>
            <dl className="facts">
              <dt>Target</dt><dd><code>{data.targetUrl}</code></dd>
              <dt>Event types</dt><dd>{data.eventTypes.join(', ')}</dd>
              <dt>State</dt><dd><Status value={data.disabled ? 'DISABLED' : 'ENABLED'} /> {data.disabledReason}</dd>
              <ReachabilityFacts reachability={data.reachability} />
            </dl>
            <div className="actions" role="group" aria-label="Actions">
              <button type="button" onClick={() => update.mutate({ ...path, body: { disabled: !data.disabled } })} disabled={update.isPending}>
                {data.disabled ? 'Enable' : 'Disable'}
              </button>
              <ConfirmButton label="Rotate secret" question="Rotate the signing secret? The old one keeps signing for 24 hours." onConfirm={() => rotate.mutate(path)} />
              <SendTestEvent subscriptionId={subscriptionId} onSent={() => void refetch()} />
            </div>
          </>
        )}
      </Loaded>
      <ErrorNotice error={update.error ?? rotate.error ?? redeliver.error} />
      {rotate.data && <ShownOnce label="New signing secret" secret={rotate.data.secret} />}
      <RedeliverRange subscriptionId={subscriptionId} onQueued={() => void refetch()} />
      <h2>Delivery log</h2>
      <Loaded query={deliveries}>
        {(attempts) =>
          attempts.length === 0 ? (
            <p>No delivery yet.</p>
          ) : (
            <DeliveryLog attempts={attempts} onRedeliver={(eventId) => redeliver.mutate({ params: { path: { subscriptionId, eventId } } })} />
          )
        }
      </Loaded>
    </>
  );
}

/** Attempts grouped by event, newest event first, each group with its attempts in order and one redeliver button. */
function DeliveryLog({ attempts, onRedeliver }: { attempts: Array<Schemas['WebhookDelivery']>; onRedeliver: (eventId: string) => void }) {
  const byEvent = Map.groupBy(attempts, (attempt) => attempt.eventId);
  return (
    <Table caption="Attempts by event" head={['Event', 'Attempt', 'At', 'Status', 'HTTP', 'Latency', 'Response or error', 'Next attempt', '']}>
      {[...byEvent].flatMap(([eventId, ofEvent]) =>
        ofEvent.map((attempt, index) => (
          <tr key={attempt.id} data-event={eventId}>
            {index === 0 && (
              <th scope="rowgroup" rowSpan={ofEvent.length}>
                <a href={href('events', eventId)}><code>{eventId}</code></a>
              </th>
            )}
            <td>{attempt.attempt}</td>
            <td><Time at={attempt.at} /></td>
            <td><Status value={attempt.status} /></td>
            <td>{attempt.responseStatus ?? '—'}</td>
            <td>{attempt.durationMs === null ? '—' : `${attempt.durationMs} ms`}</td>
            <td className="excerpt">{attempt.error ?? attempt.responseExcerpt ?? '—'}</td>
            <td><Time at={attempt.nextAttemptAt} /></td>
            {index === 0 && (
              <td rowSpan={ofEvent.length}>
                <button type="button" onClick={() => onRedeliver(eventId)}>Redeliver</button>
              </td>
            )}
          </tr>
        )),
      )}
    </Table>
  );
}
