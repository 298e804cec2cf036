import { useQuery } from '@tanstack/react-query';
import { api, fetchClient, withCursor } from '../api.ts';
import { href, navigate } from '../router.tsx';
import { Field, Loaded, onSubmit, Table, Time } from '../ui.tsx';

const FILTERS = ['type', 'profileId', 'since', 'until', 'after'] as const;

/** The environment's event log, oldest first, filtered by type prefix, profile and time. */
export function EventsPage({ query }: { query: URLSearchParams }) {
  const filters = Object.fromEntries(FILTERS.flatMap((name) => (query.get(name) ? [[name, query.get(name)!]] : [])));
  const since = filters.since && new Date(filters.since).toISOString();
  const until = filters.until && new Date(filters.until).toISOString();
  const events = useQuery({
    queryKey: ['get', '/v1/events', filters],
    queryFn: () => withCursor(fetchClient.GET('/v1/events', { params: { query: { ...filters, since, until, limit: 50 } } })),
  });
  return (
    <>
      <h1>Events</h1>
      <form className="filters" onSubmit={onSubmit((field) => navigate(href('events', Object.fromEntries(FILTERS.slice(0, 4).map((name) => [name, field(name)])))))}>
        <Field label="Type or prefix">{(id) => <input id={id} name="type" defaultValue={filters.type} placeholder="connection.synced" />}</Field>
        <Field label="Profile">{(id) => <input id={id} name="profileId" defaultValue={filters.profileId} placeholder="p_…" />}</Field>
        <Field label="Since">{(id) => <input id={id} name="since" type="datetime-local" defaultValue={filters.since} />}</Field>
        <Field label="Until">{(id) => <input id={id} name="until" type="datetime-local" defaultValue={filters.until} />}</Field>
        <button type="submit">Filter</button>
      </form>
      <Loaded query={events}>
        {({ items, next }) => (
          <>
            <Table caption="Events, oldest first" head={['Id', 'Type', 'Profile', 'At']}>
              {items.map((event) => (
                <tr key={event.id}>
                  <th scope="row"><a href={href('events', event.id)}><code>{event.id}</code></a></th>
                  <td>{event.type}</td>
                  <td>{event.profile ? <a href={href('profiles', event.profile.id)}><code>{event.profile.id}</code></a> : '—'}</td>
                  <td><Time at={event.at} /></td>
                </tr>
              ))}
            </Table>
            {next && <a className="button" href={href('events', { ...filters, after: next })}>Later events</a>}
          </>
        )}
      </Loaded>
    </>
  );
}

/** One event, exactly as webhooks deliver it. */
export function EventPage({ eventId }: { eventId: string }) {
  const event = api.useQuery('get', '/v1/events/{eventId}', { params: { path: { eventId } } });
  return (
    <>
      <p className="crumbs"><a href={href('events')}>Events</a> /</p>
      <h1><code>{eventId}</code></h1>
      <Loaded query={event}>{(data) => <pre className="json">{JSON.stringify(data, null, 2)}</pre>}</Loaded>
    </>
  );
}
