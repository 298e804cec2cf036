import { useEffect, useState } from 'react';
import { api, queryClient, requestContext, type Schemas } from './api.ts';
import { href, useRoute, type Route } from './router.tsx';
import { ThemeToggle } from './theme.tsx';
import { ErrorNotice } from './ui.tsx';
import { SignIn } from './pages/sign-in.tsx';
import { HealthPage } from './pages/health.tsx';
import { KeysPage } from './pages/keys.tsx';
import { ProvidersPage } from './pages/providers.tsx';
import { ProfilesPage } from './pages/profiles.tsx';
import { ProfilePage } from './pages/profile.tsx';
import { ConnectionPage } from './pages/connection.tsx';
import { WebhooksPage } from './pages/webhooks.tsx';
import { SubscriptionPage } from './pages/subscription.tsx';
import { EventPage, EventsPage } from './pages/events.tsx';
import { AuditPage } from './pages/audit.tsx';
import { OperatorsPage } from './pages/operators.tsx';

const ENVIRONMENT_KEY = 'tributary-environment';

const SECTIONS = [
  ['health', 'Health'],
  ['profiles', 'Profiles'],
  ['webhooks', 'Webhooks'],
  ['events', 'Events'],
  ['keys', 'API keys'],
  ['providers', 'Providers'],
  ['operators', 'Operators'],
  ['audit', 'Audit log'],
] as const;

/** The sections only an owner may use (the API refuses anyone else): not shown to other roles. */
const OWNERS_ONLY = new Set<string>(['operators', 'audit']);

/** The console: sign-in until there is a session, then the chosen environment's pages. */
export function App() {
  const session = api.useQuery('get', '/v1/console/session');
  if (session.isPending) return <p className="muted" aria-busy="true">Loading…</p>;
  if (session.error) return (session.error as { status?: number }).status === 401 ? <SignIn /> : <ErrorNotice error={session.error} />;
  requestContext.csrfToken = session.data.csrfToken;
  return <SignedIn session={session.data} />;
}

function SignedIn({ session }: { session: Schemas['OperatorSession'] }) {
  const route = useRoute();
  const environments = api.useQuery('get', '/v1/environments');
  const [environmentId, setEnvironmentId] = useState(() => localStorage.getItem(ENVIRONMENT_KEY) ?? '');
  const known = environments.data?.some((environment) => environment.id === environmentId);
  const chosen = known ? environmentId : environments.data?.[0]?.id;
  requestContext.environmentId = chosen;
  useEffect(() => {
    if (chosen) localStorage.setItem(ENVIRONMENT_KEY, chosen);
  }, [chosen]);
  const signOut = api.useMutation('delete', '/v1/console/session', { onSuccess: () => queryClient.resetQueries() });
  const section = route.path[0] ?? 'health';
  // Operators and the audit log are the owners'; every other page is open to every role, changes refused by the API where the role falls short.
  const role = roleIn(session.operator, chosen);
  return (
    <>
      <a className="skip" href="#main">Skip to content</a>
      <header className="top">
        <strong className="brand">Tributary</strong>
        <label className="environment">
          <span className="visually-hidden">Environment</span>
          <select
            value={chosen ?? ''}
            onChange={(event) => {
              setEnvironmentId(event.target.value);
              requestContext.environmentId = event.target.value;
              void queryClient.resetQueries({ predicate: (query) => query.queryKey[1] !== '/v1/console/session' && query.queryKey[1] !== '/v1/environments' });
            }}
          >
            {environments.data?.map((environment) => (
              <option key={environment.id} value={environment.id}>
                {environment.name} ({environment.mode.toLowerCase()})
              </option>
            ))}
          </select>
        </label>
        <span className="who">
          {session.operator.email} · {role}
        </span>
        <ThemeToggle />
        <button type="button" onClick={() => signOut.mutate({})}>Sign out</button>
      </header>
      <nav aria-label="Sections" className="sections">
        {SECTIONS.filter(([path]) => !OWNERS_ONLY.has(path) || role === 'owner').map(([path, title]) => (
          <a key={path} href={href(path)} aria-current={section === path ? 'page' : undefined}>
            {title}
          </a>
        ))}
      </nav>
      <main id="main" tabIndex={-1}>
        <ErrorNotice error={environments.error} />
        {chosen && <Page key={chosen} route={route} environmentId={chosen} selfId={session.operator.id} />}
      </main>
    </>
  );
}

/** The operator's role in the environment: the grant for it, else the one for every environment. */
function roleIn(operator: Schemas['Operator'], environmentId: string | undefined): string {
  const grant = operator.roles.find((role) => role.environmentId === environmentId) ?? operator.roles.find((role) => role.environmentId === null);
  return grant ? grant.role.toLowerCase() : 'no role';
}

function Page({ route, environmentId, selfId }: { route: Route; environmentId: string; selfId: string }) {
  const [section, id, sub, subId] = route.path;
  switch (section) {
    case 'profiles':
      if (id && sub === 'connections' && subId) return <ConnectionPage profileId={id} connectionId={subId} />;
      return id ? <ProfilePage profileId={id} /> : <ProfilesPage query={route.query} />;
    case 'webhooks':
      return id ? <SubscriptionPage subscriptionId={id} /> : <WebhooksPage />;
    case 'events':
      return id ? <EventPage eventId={id} /> : <EventsPage query={route.query} />;
    case 'keys':
      return <KeysPage />;
    case 'providers':
      return <ProvidersPage />;
    case 'operators':
      return <OperatorsPage environmentId={environmentId} selfId={selfId} />;
    case 'audit':
      return <AuditPage />;
    default:
      return <HealthPage />;
  }
}
