import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REST_OPERATIONS } from '../../generated/rest-operations.ts';
import { encodeId, uuidv7, type Resource } from '../../src/lib/ids.ts';
import { asOperator, signIn, type ConsoleSession } from '../support/console.ts';
import { createEnvironmentWithKey } from '../support/environments.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

/*
 * The tenancy suite's operator roles as credential kinds: each operation that accepts the console
 * session, sent by a viewer, a developer, an owner of the environment, and an owner of another one.
 * A refusal by role is a 403 before the request's parameters or body are read, so made-up ids and an
 * empty body show what the role decides. Each operator sends from an address of their own (behind a
 * trusted proxy): a console session is checked against the database on every request, in its
 * address's budget of 100 lookups a second, which one address sending all four operators' requests
 * back to back could pass on a fast machine (a 429 in place of the role's answer).
 */

const PARAMETER_RESOURCES: Record<string, Resource> = {
  profileId: 'profile',
  accountId: 'account',
  connectionId: 'connection',
  eventId: 'event',
  ruleId: 'categorizationRule',
  subscriptionId: 'webhookSubscription',
  operatorId: 'operator',
  keyId: 'apiKey',
};
/** Path parameters that are names, not ids. */
const PARAMETER_NAMES: Record<string, string> = { provider: 'plaid' };

const OPERATOR_OPERATIONS = Object.entries(REST_OPERATIONS).filter(([, operation]) => operation.operatorRole !== null && operation.operatorRole !== 'SELF');

let app: TestApp;
let environmentId: string;
const sessions: Record<'viewer' | 'developer' | 'owner' | 'otherOwner', ConsoleSession> = {} as never;
const ADDRESSES = { viewer: '198.51.100.1', developer: '198.51.100.2', owner: '198.51.100.3', otherOwner: '198.51.100.4' } as const;

beforeAll(async () => {
  app = await startTestApp({ TRUST_PROXY: 'true' });
  environmentId = encodeId('environment', app.environmentId);
  const first = await signIn(app, app.service.firstOperator!.email, app.service.firstOperator!.password);
  const { environmentId: otherEnvironment } = await createEnvironmentWithKey(app);
  const make = async (role: string, inEnvironment: string) => {
    const email = `${role.toLowerCase()}-${uuidv7()}@example.com`;
    const created = await app.http.post('/v1/operators', asOperator(first, inEnvironment, { json: { email, role } }));
    return signIn(app, email, created.body.password);
  };
  sessions.viewer = await make('VIEWER', environmentId);
  sessions.developer = await make('DEVELOPER', environmentId);
  sessions.owner = await make('OWNER', environmentId);
  sessions.otherOwner = await make('OWNER', otherEnvironment);
});
afterAll(() => app?.stop());

/** The operation sent by `who` on the bootstrap environment, from their own address, with made-up ids and an empty body. */
function send(operationId: string, who: keyof typeof sessions) {
  const { method, path } = REST_OPERATIONS[operationId as keyof typeof REST_OPERATIONS];
  const url = path.replace(/\{(\w+)\}/g, (_, name: string) => PARAMETER_NAMES[name] ?? encodeId(PARAMETER_RESOURCES[name]!, uuidv7()));
  const headers = { 'X-Forwarded-For': ADDRESSES[who] };
  return app.http.send(method.toUpperCase(), url, asOperator(sessions[who], environmentId, method === 'get' || method === 'delete' ? { headers } : { headers, json: {} }));
}

describe('operator roles, enforced by the API', () => {
  it('covers every administration operation of the contract', () => {
    expect(OPERATOR_OPERATIONS.map(([id]) => id)).toEqual(expect.arrayContaining(['listProfiles', 'deleteProfile', 'createWebhookSubscription', 'refreshConnectionTransactions', 'listEvents', 'createOperator', 'listAuditEntries']));
  });

  it.each(OPERATOR_OPERATIONS)('%s: a viewer may only read, a developer all but operator management, an owner everything', async (operationId, { method, operatorRole }) => {
    const expectations = {
      viewer: method === 'get' && operatorRole === 'VIEWER',
      developer: operatorRole !== 'OWNER',
      owner: true,
    } as const;
    for (const [who, allowed] of Object.entries(expectations)) {
      const response = await send(operationId, who as keyof typeof expectations);
      if (allowed) expect([401, 403], `${who} ${operationId}: ${response.text}`).not.toContain(response.status);
      else {
        expect(response.status, `${who} ${operationId}`).toBe(403);
        expect(response.body.code).toBe('FORBIDDEN');
      }
    }
  });

  it.each(OPERATOR_OPERATIONS)('%s: an owner of another environment reaches nothing of this one', async (operationId) => {
    const response = await send(operationId, 'otherOwner');
    expect(response.status).toBe(403);
    expect(response.body.message).toBe('You have no role in this environment');
  });

  it('writes a refused change to the audit log', async () => {
    await send('deleteProfile', 'viewer');
    const rows = await app.sql(`select outcome, status from operator_audit where action = 'deleteProfile' and outcome = 'REFUSED'`);
    expect(rows.length).toBeGreaterThan(0);
  });
});
