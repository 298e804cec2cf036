import { useState } from 'react';
import { api, queryClient } from '../api.ts';
import { useRoute } from '../router.tsx';
import { ErrorNotice, Field, onSubmit } from '../ui.tsx';

/**
 * Why a sign-in through the identity provider opened no session, as the service's redirect says it
 * (`#/?sign_in_error=…`, contracts/rest.yaml completeOidcSignIn). `refused` says no more than a
 * password refusal: not which of an unknown email, an unverified one or a disabled operator.
 */
const OIDC_ERRORS: Record<string, string> = {
  refused: 'Sign-in was refused: the account you signed in with at your identity provider is not an enabled operator here, or its email is not verified. An owner adds operators by email.',
  expired: 'That sign-in was not finished in time, or was started in another browser. Start again.',
  cancelled: 'Sign-in was cancelled at your identity provider.',
  rate_limited: 'Too many sign-in attempts: wait a few minutes, then start again.',
  unavailable: 'Your identity provider could not be reached, or reported an error. Try again later, or sign in with your password.',
  not_configured: 'Sign-in through an identity provider is not configured on this service.',
};

/** Email and password, then the TOTP code when the service asks for one (401 TOTP_REQUIRED); or the identity provider, when configured. */
export function SignIn() {
  const [totp, setTotp] = useState(false);
  const options = api.useQuery('get', '/v1/console/sign-in');
  const oidcError = useRoute().query.get('sign_in_error');
  const signIn = api.useMutation('post', '/v1/console/sign-in', {
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['get', '/v1/console/session'] }),
    onError: (error) => setTotp((shown) => shown || error.code === 'TOTP_REQUIRED'),
  });
  const askedForTotp = signIn.error?.code === 'TOTP_REQUIRED';
  const oidc = options.data?.oidc;
  return (
    <main id="main" className="sign-in">
      <h1>Sign in to Tributary</h1>
      {oidcError && !signIn.error && (
        <p role="alert" className="error">
          {OIDC_ERRORS[oidcError] ?? 'Sign-in through your identity provider did not succeed. Start again.'}
        </p>
      )}
      {oidc && (
        <p>
          {/* A navigation, not a call: the service sends the browser on to the provider. */}
          <a className="button primary" href="/v1/console/oidc/start">
            Sign in with {oidc.name}
          </a>
        </p>
      )}
      <form
        onSubmit={onSubmit((field) => {
          const code = field('totpCode');
          signIn.mutate({ body: { email: field('email'), password: field('password'), ...(code ? { totpCode: code } : {}) } });
        })}
      >
        <Field label="Email">{(id) => <input id={id} name="email" type="email" autoComplete="username" required autoFocus />}</Field>
        <Field label="Password">{(id) => <input id={id} name="password" type="password" autoComplete="current-password" required />}</Field>
        {totp && (
          <Field label="Code from your authenticator app">
            {(id) => <input id={id} name="totpCode" inputMode="numeric" pattern="[0-9]{6}" autoComplete="one-time-code" required autoFocus />}
          </Field>
        )}
        {askedForTotp ? <p role="alert">Enter the six-digit code from your authenticator app.</p> : <ErrorNotice error={signIn.error} />}
        <button type="submit" className="primary" disabled={signIn.isPending}>
          Sign in
        </button>
      </form>
    </main>
  );
}
