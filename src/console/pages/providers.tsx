import { api, queryClient, type Schemas } from '../api.ts';
import { ConfirmButton, ErrorNotice, Field, Loaded, onSubmit, Table, Time } from '../ui.tsx';

/** The providers that take settings (the sandbox is built in). */
const CONFIGURABLE: Array<Schemas['ProviderName']> = ['plaid', 'simplefin', 'enablebanking'];

const invalidate = () => queryClient.invalidateQueries({ queryKey: ['get', '/v1/provider-settings'] });

/** Each upstream's settings for the environment: names only are shown back, never values. */
export function ProvidersPage() {
  const settings = api.useQuery('get', '/v1/provider-settings');
  const save = api.useMutation('put', '/v1/provider-settings/{provider}', { onSuccess: invalidate });
  const remove = api.useMutation('delete', '/v1/provider-settings/{provider}', { onSuccess: invalidate });
  return (
    <>
      <h1>Provider settings</h1>
      <Loaded query={settings}>
        {(list) => (
          <Table caption="Configured providers" head={['Provider', 'Settings set', 'Changed', '']}>
            {list.map((setting) => (
              <tr key={setting.provider}>
                <th scope="row">{setting.provider}</th>
                <td>{setting.names.join(', ')}</td>
                <td><Time at={setting.at} /></td>
                <td><ConfirmButton label="Remove" question={`Remove ${setting.provider}'s settings?`} onConfirm={() => remove.mutate({ params: { path: { provider: setting.provider } } })} /></td>
              </tr>
            ))}
          </Table>
        )}
      </Loaded>
      <h2>Set a provider's settings</h2>
      <p className="muted">
        Replaces every setting of the provider. One <code>name=value</code> per line: Plaid <code>clientId</code>, <code>secret</code>, <code>plaidEnv</code>; SimpleFIN <code>allowedHosts</code>; Enable Banking <code>applicationId</code>, <code>privateKey</code>, <code>baseUrl</code>.
      </p>
      <form
        onSubmit={onSubmit((field) => {
          const entries = field('settings')
            .split('\n')
            .map((line) => line.trim())
            .filter(Boolean)
            .map((line) => [line.slice(0, line.indexOf('=')).trim(), line.slice(line.indexOf('=') + 1).trim()]);
          const provider = field('provider') as Schemas['ProviderName'];
          save.mutate({ params: { path: { provider } }, body: Object.fromEntries(entries) as Schemas['ProviderSettingsInput'] });
        })}
      >
        <Field label="Provider">
          {(id) => (
            <select id={id} name="provider">
              {CONFIGURABLE.map((name) => <option key={name}>{name}</option>)}
            </select>
          )}
        </Field>
        <Field label="Settings">{(id) => <textarea id={id} name="settings" rows={4} required autoComplete="off" spellCheck={false} />}</Field>
        <ErrorNotice error={save.error ?? remove.error} />
        {save.isSuccess && <p role="status">Saved.</p>}
        <button type="submit" className="primary" disabled={save.isPending}>Save</button>
      </form>
    </>
  );
}
