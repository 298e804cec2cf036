import type { EntityManager } from '@mikro-orm/postgresql';
import type { Credential } from '../../api-kit/credential.ts';
import { pageHeaders, pageOf } from '../../api-kit/pagination.ts';
import type { Handlers } from '../../api-kit/rest-handler.ts';
import { ValidationError } from '../../errors.ts';
import { assertCursorKept } from '../../db/log-retention.ts';
import { decodeId, encodeId } from '../../lib/ids.ts';
import { AUDIT_TABLE, auditPage } from './audit.store.ts';
import { clearedSessionCookie, csrfTokenOf, sessionCookie } from './console-cookie.ts';
import { OperatorAccounts, type OperatorWithGrants } from './operator.service.ts';
import { operatorsOfEnvironment, grantsOf } from './operator.store.ts';
import { oidcHandlers, type SignInHandlerDeps } from './oidc.handlers.ts';
import { presentAuditEntry, presentOperator } from './operator.presenter.ts';
import { signIn } from './sign-in.ts';

type OperatorOperations =
  | 'signInOperator'
  | 'getOperatorSession'
  | 'signOutOperator'
  | 'startTotpEnrolment'
  | 'confirmTotpEnrolment'
  | 'listOperators'
  | 'createOperator'
  | 'updateOperator'
  | 'resetOperatorPassword'
  | 'listAuditEntries'
  | 'getSignInOptions'
  | 'startOidcSignIn'
  | 'completeOidcSignIn';

export interface OperatorHandlerDeps extends SignInHandlerDeps {
  /** AUDIT_RETENTION_DAYS. */
  auditRetentionDays: number;
}

type OperatorCredential = Extract<Credential, { kind: 'operator' }>;

/** REST handlers for the console's sign-in and session (/v1/console), operators (/v1/operators) and the audit log. */
export function operatorHandlers(deps: OperatorHandlerDeps): Handlers<OperatorOperations> {
  const { cipher, sessions, signInLimiter, addressKey, auditRetentionDays } = deps;
  const accounts = (em: EntityManager) => new OperatorAccounts(em, cipher, sessions.now);
  const sessionBody = (operator: OperatorWithGrants, csrfToken: string, expiresAt: Date) => ({
    operator: presentOperator(operator),
    csrfToken,
    ...isoTerms(sessions.terms(expiresAt)),
    totpEnrolmentRequired: operator.operator.totpRequired && operator.operator.totpSecretEncrypted === null,
  });
  /** The operator a path names; 404 for a malformed id. */
  const target = (em: EntityManager, operatorId: string) => accounts(em).find(decodeId('operator', operatorId) ?? '00000000-0000-0000-0000-000000000000');
  const caller = async (em: EntityManager, credential: OperatorCredential) => ({ kind: 'operator' as const, grants: (await accounts(em).find(credential.operatorId)).grants });
  return {
    ...oidcHandlers(deps),
    async signInOperator({ body, em, clientAddress, headers }) {
      const origin = { addressKey: addressKey(clientAddress), clientAddress, userAgent: headers['user-agent'] ?? null };
      const { operator, token, session } = await signIn(em, { cipher, sessions, limiter: signInLimiter }, body, origin);
      const withGrants = await accounts(em).find(operator.id);
      return {
        status: 200,
        body: sessionBody(withGrants, csrfTokenOf(token), session.expiresAt),
        headers: { 'Set-Cookie': sessionCookie(token, (session.expiresAt.getTime() - session.createdAt.getTime()) / 1000) },
      };
    },
    async getOperatorSession({ credential, em }) {
      return { status: 200, body: sessionBody(await accounts(em).find(credential.operatorId), credential.csrfToken, credential.expiresAt) };
    },
    async signOutOperator({ credential, em }) {
      await sessions.end(em, credential.sessionId);
      return { status: 204, headers: { 'Set-Cookie': clearedSessionCookie() } };
    },
    async startTotpEnrolment({ credential, em }) {
      const { operator } = await accounts(em).find(credential.operatorId);
      return { status: 201, body: await accounts(em).startTotp(operator) };
    },
    async confirmTotpEnrolment({ body, credential, em }) {
      const operator = await accounts(em).find(credential.operatorId);
      if (!(await accounts(em).confirmTotp(operator.operator, body.code))) throw new ValidationError([{ path: ['code'], message: 'is not a current code of the secret being enrolled' }]);
      return { status: 200, body: sessionBody(operator, credential.csrfToken, credential.expiresAt) };
    },
    async listOperators({ query, credential, em }) {
      const { page, limit } = pageOf(query);
      const { items, total } = await operatorsOfEnvironment(em, credential.environmentId, page, limit);
      const grants = await grantsOf(em, items.map((operator) => operator.id));
      return { status: 200, body: items.map((operator) => presentOperator({ operator, grants: grants.get(operator.id) ?? [] })), headers: pageHeaders(page, limit, total, items.length) };
    },
    async createOperator({ body, credential, em }) {
      const { password, ...created } = await accounts(em).create(body.email, body.role, credential.environmentId);
      return { status: 201, body: { operator: presentOperator(created), password } };
    },
    async updateOperator({ params, body, credential, em }) {
      const operators = accounts(em);
      const operator = await target(em, params.operatorId);
      if (body.role !== undefined) await operators.setRole(operator, credential.environmentId, body.role);
      if (body.disabled !== undefined) await operators.setDisabled(await caller(em, credential), operator, body.disabled);
      if (body.totpRequired !== undefined) await operators.setTotpRequired(await caller(em, credential), operator, body.totpRequired);
      return { status: 200, body: presentOperator(await operators.find(operator.operator.id)) };
    },
    async resetOperatorPassword({ params, credential, em }) {
      const operator = await target(em, params.operatorId);
      const password = await accounts(em).resetPassword(await caller(em, credential), operator);
      return { status: 200, body: { operator: presentOperator(operator), password } };
    },
    async listAuditEntries({ query, credential, em }) {
      const limit = query.limit ?? 25;
      const afterId = query.after === undefined ? null : decodeId('auditEntry', query.after);
      if (afterId === undefined) throw new ValidationError([{ path: ['after'], message: 'must be an audit entry id, as the Next-Cursor header gives it' }]);
      if (afterId) await assertCursorKept(em, AUDIT_TABLE, afterId, auditRetentionDays, sessions.now().getTime(), 'AUDIT_RETENTION_DAYS');
      const everyEnvironment = (await caller(em, credential)).grants.some((grant) => grant.environment === null && grant.role === 'OWNER');
      const items = await auditPage(em, credential.environmentId, everyEnvironment, afterId, limit);
      const next = items.length === limit ? encodeId('auditEntry', items.at(-1)!.id) : undefined;
      return { status: 200, body: items.map(presentAuditEntry), headers: pageHeaders(undefined, limit, undefined, items.length, next) };
    },
  };
}

function isoTerms({ expiresAt, idleExpiresAt }: { expiresAt: Date; idleExpiresAt: Date }) {
  return { expiresAt: expiresAt.toISOString(), idleExpiresAt: idleExpiresAt.toISOString() };
}
