import { useState } from 'react';
import { api, requestContext, type Schemas } from '../api.ts';
import { ErrorNotice, Field, onSubmit, Status, Time } from '../ui.tsx';

/** How a subscription's endpoint has answered, as facts of a `dl.facts`. */
export function ReachabilityFacts({ reachability }: { reachability: Schemas['WebhookReachability'] }) {
  return (
    <>
      <dt>Last attempt</dt>
      <dd>{reachability.lastAttemptStatus ? <><Status value={reachability.lastAttemptStatus} /> <Time at={reachability.lastAttemptAt} /></> : 'None yet'}</dd>
      <dt>Last success</dt>
      <dd><Time at={reachability.lastSuccessAt} /></dd>
      <dt>Failures in a row</dt>
      <dd data-testid="consecutive-failures">{failures(reachability.consecutiveFailures)}</dd>
    </>
  );
}

/** The failures since the last success (counted up to 1,000). */
export function failures(count: number): string {
  return count >= 1000 ? '1,000 or more' : String(count);
}

/** The service's public URL, and where providers send the chosen environment's webhooks (or why they cannot). */
export function PublicUrlFacts() {
  const environments = api.useQuery('get', '/v1/environments');
  const environment = environments.data?.find((candidate) => candidate.id === requestContext.environmentId);
  if (!environment) return <ErrorNotice error={environments.error} />;
  return (
    <dl className="facts" aria-label="Public URL">
      <dt>Public URL</dt>
      <dd>{environment.publicUrl ? <code>{environment.publicUrl}</code> : <span className="muted">Not set (PUBLIC_URL)</span>}</dd>
      <dt>Provider webhooks</dt>
      <dd>
        {environment.providerWebhookUrl ? (
          <code>{environment.providerWebhookUrl}</code>
        ) : (
          <span className="muted">Off: set PUBLIC_URL to an address providers can reach; connections sync on schedule and on refresh only</span>
        )}
      </dd>
    </dl>
  );
}

/** Sends the subscription a `webhook.test` event; its attempt shows in the delivery log. */
export function SendTestEvent({ subscriptionId, onSent }: { subscriptionId: string; onSent: () => void }) {
  const send = api.useMutation('post', '/v1/webhooks/subscriptions/{subscriptionId}/test', { onSuccess: onSent });
  return (
    <>
      <button type="button" onClick={() => send.mutate({ params: { path: { subscriptionId } } })} disabled={send.isPending}>Send test event</button>
      {send.data && <span role="status">Test event <code>{send.data.eventId}</code> queued.</span>}
      <ErrorNotice error={send.error} />
    </>
  );
}

type Range = Schemas['WebhookRedeliveryRange'];

/** Delivers the events of a range again (the failed ones by default), a bounded batch per submit; "Go on" takes the next batch. */
export function RedeliverRange({ subscriptionId, onQueued }: { subscriptionId: string; onQueued: () => void }) {
  const redeliver = api.useMutation('post', '/v1/webhooks/subscriptions/{subscriptionId}/redeliver', { onSuccess: onQueued });
  const [range, setRange] = useState<Range>({ status: 'FAILED', limit: 100 });
  const send = (body: Range) => {
    setRange(body);
    redeliver.mutate({ params: { path: { subscriptionId } }, body });
  };
  const instant = (value: string) => (value ? new Date(value).toISOString() : undefined);
  return (
    <section aria-labelledby="redeliver-range">
      <h2 id="redeliver-range">Redeliver a range</h2>
      <form
        className="filters"
        onSubmit={onSubmit((field) =>
          send({ status: field('status') as Range['status'], since: instant(field('since')), until: instant(field('until')), limit: Number(field('limit')) }),
        )}
      >
        <Field label="Events whose latest attempt">
          {(id) => (
            <select id={id} name="status" defaultValue="FAILED">
              <option value="FAILED">failed</option>
              <option value="SUCCEEDED">succeeded</option>
            </select>
          )}
        </Field>
        <Field label="Recorded since">{(id) => <input id={id} name="since" type="datetime-local" />}</Field>
        <Field label="Recorded before">{(id) => <input id={id} name="until" type="datetime-local" />}</Field>
        <Field label="At most">{(id) => <input id={id} name="limit" type="number" min={1} max={1000} defaultValue={100} required />}</Field>
        <button type="submit" disabled={redeliver.isPending}>Redeliver range</button>
      </form>
      <ErrorNotice error={redeliver.error} />
      {redeliver.data && (
        <p role="status">
          {redeliver.data.queued === 1 ? '1 event queued' : `${redeliver.data.queued} events queued`}
          {redeliver.data.next ? '; more may match. ' : '; the whole range was looked at.'}
          {redeliver.data.next && (
            <button type="button" onClick={() => send({ ...range, after: redeliver.data.next ?? undefined })} disabled={redeliver.isPending}>Go on</button>
          )}
        </p>
      )}
    </section>
  );
}
