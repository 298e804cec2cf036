import { useState } from 'react';
import { api, queryClient } from '../api.ts';
import { ErrorNotice, Field, onSubmit } from '../ui.tsx';

/** Email and password, then the TOTP code when the service asks for one (401 TOTP_REQUIRED). */
export function SignIn() {
  const [totp, setTotp] = useState(false);
  const signIn = api.useMutation('post', '/v1/console/sign-in', {
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['get', '/v1/console/session'] }),
    onError: (error) => setTotp((shown) => shown || error.code === 'TOTP_REQUIRED'),
  });
  const askedForTotp = signIn.error?.code === 'TOTP_REQUIRED';
  return (
    <main id="main" className="sign-in">
      <h1>Sign in to Tributary</h1>
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
