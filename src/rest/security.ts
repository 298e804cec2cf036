import { REST_OPERATIONS } from '../../generated/rest-operations.ts';
import { AppError, badRequest, forbidden, unauthorized } from '../errors.ts';
import { WWW_AUTHENTICATE, type Credential } from '../api-kit/credential.ts';
import type { CredentialOf, OperationId } from '../api-kit/rest-handler.ts';
import { roleAllows } from '../modules/operator/roles.ts';

/**
 * The request's credential when its operation's `security` accepts that kind, typed as the handler
 * receives it (the one place a credential is narrowed); undefined for a public operation. Otherwise
 * the refusal: 401 without a credential, 403 for a kind the operation does not list. An operator
 * session must also hold the operation's `x-operator-role` in the environment it names.
 */
export function admittedCredential<K extends OperationId>(operationId: K, credential: Credential | undefined): CredentialOf<K> {
  const accepted: ReadonlyArray<Credential['kind']> = REST_OPERATIONS[operationId].credentials;
  if (accepted.length === 0) return undefined as CredentialOf<K>;
  if (credential && accepted.includes(credential.kind)) {
    if (credential.kind === 'operator') assertOperatorMay(operationId, credential);
    return credential as CredentialOf<K>;
  }
  if (!credential) {
    throw unauthorized('This operation needs credentials', {
      instruction: 'Send an Authorization header; see the operation\'s security in /latest/rest.yaml.',
      headers: { 'WWW-Authenticate': WWW_AUTHENTICATE },
    });
  }
  // Without a valid API secret key, a server-to-server operation answers 401; a session
  // token or Basic credentials are valid, but not that. (The console's cookie is no Authorization header.)
  if (accepted.every((kind) => kind === 'apiKey' || kind === 'operator') && credential.kind !== 'operator') {
    throw unauthorized('This operation needs an API secret key', {
      instruction: 'Call it from your server with Authorization: Bearer <API secret key>; session tokens and Basic credentials act as one profile and cannot.',
      headers: { 'WWW-Authenticate': WWW_AUTHENTICATE },
    });
  }
  throw forbidden('This credential cannot be used for this operation', {
    instruction: 'API keys administer the environment; Basic Auth and session tokens act as one profile. Use the kind this operation lists.',
  });
}

/** Refuses an operator session the operation's least role (`x-operator-role`) in the environment the request names. */
function assertOperatorMay(operationId: OperationId, credential: Extract<Credential, { kind: 'operator' }>): void {
  const needed = REST_OPERATIONS[operationId].operatorRole;
  if (needed === 'SELF') return;
  if (credential.totpEnrolmentRequired) {
    throw new AppError(403, 'TOTP_ENROLMENT_REQUIRED', 'An owner requires you to use TOTP: turn it on first', { instruction: 'POST /v1/console/totp, then POST /v1/console/totp/confirm with a code of it.' });
  }
  if (!credential.environmentId) throw badRequest('Name the environment to act on in the Tributary-Environment header', { instruction: 'Send Tributary-Environment: env_… with every request the console makes on an environment.' });
  if (needed === null || !roleAllows(credential.role, needed)) {
    throw forbidden(credential.role ? `Your role in this environment is ${credential.role}; this needs ${needed}` : 'You have no role in this environment', {
      instruction: 'Ask an owner of the environment for the role this operation needs (its x-operator-role in /latest/rest.yaml).',
    });
  }
}
