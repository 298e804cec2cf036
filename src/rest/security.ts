import { REST_OPERATIONS } from '../../generated/rest-operations.ts';
import { forbidden, unauthorized } from '../errors.ts';
import { WWW_AUTHENTICATE, type Credential } from '../api-kit/credential.ts';
import type { CredentialOf, OperationId } from '../api-kit/rest-handler.ts';

/**
 * The request's credential when its operation's `security` accepts that kind, typed as the handler
 * receives it (the one place a credential is narrowed); undefined for a public operation. Otherwise
 * the refusal: 401 without a credential, 403 for a kind the operation does not list.
 */
export function admittedCredential<K extends OperationId>(operationId: K, credential: Credential | undefined): CredentialOf<K> {
  const accepted: ReadonlyArray<Credential['kind']> = REST_OPERATIONS[operationId].credentials;
  if (accepted.length === 0) return undefined as CredentialOf<K>;
  if (credential && accepted.includes(credential.kind)) return credential as CredentialOf<K>;
  if (!credential) {
    throw unauthorized('This operation needs credentials', {
      instruction: 'Send an Authorization header; see the operation\'s security in /latest/rest.yaml.',
      headers: { 'WWW-Authenticate': WWW_AUTHENTICATE },
    });
  }
  // Without a valid API secret key, a server-to-server operation answers 401; a session
  // token or Basic credentials are valid, but not that.
  if (accepted.every((kind) => kind === 'apiKey')) {
    throw unauthorized('This operation needs an API secret key', {
      instruction: 'Call it from your server with Authorization: Bearer <API secret key>; session tokens and Basic credentials act as one profile and cannot.',
      headers: { 'WWW-Authenticate': WWW_AUTHENTICATE },
    });
  }
  throw forbidden('This credential cannot be used for this operation', {
    instruction: 'API keys administer the environment; Basic Auth and session tokens act as one profile. Use the kind this operation lists.',
  });
}
