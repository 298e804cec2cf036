import { api } from '../api.ts';
import { href, navigate } from '../router.tsx';
import { Field, Loaded, onSubmit, Table, Time } from '../ui.tsx';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `key=value` as the contract's metadata filter, a JSON object: the value read as JSON when it is (`tier=2`, `vip=true`), else as a string (`plan=gold`). */
function metadataFilter(term: string): string {
  const [key = '', ...rest] = term.split('=');
  const raw = rest.join('=');
  let value: unknown = raw;
  try {
    value = JSON.parse(raw);
  } catch {
    // a plain string
  }
  return JSON.stringify({ [key.trim()]: value });
}

/** Profiles, found by id (opens it), uuid, or a metadata entry (`key=value`). */
export function ProfilesPage({ query }: { query: URLSearchParams }) {
  const term = query.get('q')?.trim() ?? '';
  const filter = UUID.test(term) ? { uuid: term.toLowerCase() } : term.includes('=') ? { metadata: metadataFilter(term) } : {};
  const profiles = api.useQuery('get', '/v1/profiles', { params: { query: { limit: 50, ...filter } } });
  return (
    <>
      <h1>Profiles</h1>
      <form
        role="search"
        className="inline"
        onSubmit={onSubmit((field) => {
          const value = field('q').trim();
          navigate(/^p_/.test(value) ? href('profiles', value) : href('profiles', { q: value }));
        })}
      >
        <Field label="Find by id, uuid or metadata (key=value)">{(id) => <input id={id} name="q" type="search" defaultValue={term} placeholder="p_…, a uuid, or plan=gold" />}</Field>
        <button type="submit">Search</button>
      </form>
      <Loaded query={profiles}>
        {(list) =>
          list.length === 0 ? (
            <p>No profile matches.</p>
          ) : (
            <Table caption={term ? `Profiles matching ${term}` : 'Profiles, oldest first'} head={['Id', 'Uuid', 'Name', 'Metadata', 'Created']}>
              {list.map((profile) => (
                <tr key={profile.id}>
                  <th scope="row"><a href={href('profiles', profile.id)}><code>{profile.id}</code></a></th>
                  <td><code>{profile.uuid}</code></td>
                  <td>{profile.name ?? '—'}</td>
                  <td><code>{profile.metadata ? JSON.stringify(profile.metadata) : '—'}</code></td>
                  <td><Time at={profile.at} /></td>
                </tr>
              ))}
            </Table>
          )
        }
      </Loaded>
    </>
  );
}
