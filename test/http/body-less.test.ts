import { readFileSync } from 'node:fs';
import { request, type Agent } from 'node:https';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { decodeId, encodeId } from '../../src/lib/ids.ts';
import { assertMatchesContract } from '../support/contract.ts';
import { builders } from '../support/builders.ts';
import { asOperator, signIn } from '../support/console.ts';
import { createProfile } from '../support/factories.ts';
import { testAgent, type TestResponse } from '../support/http-client.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

interface Operation {
  operationId: string;
  method: string;
  path: string;
  /** The scheme the test authenticates with: an API key where accepted, else a session token, else an operator's console session, else none. */
  credential: 'apiKey' | 'sessionToken' | 'operatorSession' | 'none';
  success: number;
}

interface ContractOperation {
  operationId?: string;
  requestBody?: { required?: boolean };
  parameters?: Array<{ in?: string; required?: boolean }>;
  security?: Array<Record<string, unknown>>;
  responses: Record<string, unknown>;
}

const contract = parse(readFileSync('contracts/rest.yaml', 'utf8')) as {
  security: Array<Record<string, unknown>>;
  paths: Record<string, Record<string, ContractOperation>>;
};

/**
 * Every operation of the contract that can be called without a body (nor a required query
 * parameter, such as the sandbox bank's `state`), read from contracts/rest.yaml. Success is the
 * first 2xx or 3xx (the redirect callback's is a 303).
 */
const BODY_LESS: Operation[] = Object.entries(contract.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([, operation]) => operation.operationId && !operation.requestBody?.required && !operation.parameters?.some((parameter) => parameter.in === 'query' && parameter.required))
    .map(([method, operation]) => {
      const schemes = (operation.security ?? contract.security).flatMap((requirement) => Object.keys(requirement));
      const credential = (['apiKey', 'sessionToken', 'operatorSession'] as const).find((scheme) => schemes.includes(scheme)) ?? 'none';
      const success = Number(Object.keys(operation.responses).find((status) => /^[23]/.test(status)));
      return { operationId: operation.operationId!, method: method.toUpperCase(), path, credential, success } as Operation;
    }),
);

/**
 * Deleting operations run last, the profile's deletion after every other, so each operation finds
 * the records it needs.
 */
const rank = (operation: Operation) => (operation.method !== 'DELETE' ? 0 : operation.path.startsWith('/v1/profiles') ? 2 : 1);
const IN_ORDER = [...BODY_LESS].sort((a, b) => rank(a) - rank(b));

let app: TestApp;
let agent: Agent;
beforeAll(async () => {
  app = await startTestApp();
  // The test client's connections (dropped when idle before the service closes them), without its framing.
  agent = testAgent(readFileSync(inject('tls').certFile, 'utf8'));
});
afterAll(async () => {
  agent?.destroy();
  await app?.stop();
});

interface Bodiless {
  auth?: string;
  /** Other headers: an operator session's cookie, Origin and CSRF token. */
  headers?: Record<string, string>;
  contentType?: string;
  /** `none`: neither Content-Length nor Transfer-Encoding, as curl -X POST and most clients' DELETE send; `empty`: Content-Length: 0, as fetch sends. */
  framing: 'none' | 'empty';
}

/** A request without a body, framed as asked (Node's own client would pick a framing itself); its answer is checked against the contract. */
async function sendBodiless(method: string, path: string, { auth, headers = {}, contentType, framing }: Bodiless): Promise<TestResponse> {
  const response = await new Promise<TestResponse>((resolve, reject) => {
    const req = request(`https://localhost:${app.service.port}${path}`, { method, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode!, headers: res.headers, text, body: (res.headers['content-type'] ?? '').includes('json') && text ? JSON.parse(text) : text });
      });
    });
    req.on('error', reject);
    if (auth) req.setHeader('Authorization', auth);
    for (const [name, value] of Object.entries(headers)) req.setHeader(name, value);
    if (contentType) req.setHeader('Content-Type', contentType);
    if (framing === 'empty') req.setHeader('Content-Length', '0');
    else {
      req.removeHeader('Content-Length');
      req.removeHeader('Transfer-Encoding');
    }
    req.end();
  });
  assertMatchesContract(method, path, response);
  return response;
}

/**
 * A profile with a sandbox connection (built as its first sync leaves it), a session token, a webhook
 * subscription, an event, a categorization rule, an API key, provider settings, and the first
 * operator signed in beside a second one: what the path parameters name.
 */
async function world() {
  const profile = await createProfile(app);
  const { connection, accounts } = await builders(app).sandboxConnection({ profile: { id: decodeId('profile', profile.id)! } });
  const connectionId = encodeId('connection', connection.id);
  const checking = accounts.find((account) => account.subtype === 'checking')!;
  const session = await app.http.post('/v1/users/sessions', { auth: app.apiKey, json: { userId: profile.id } });
  const subscription = await app.http.post('/v1/webhooks/subscriptions', { auth: app.apiKey, json: { name: 'Body-less', targetUrl: 'https://127.0.0.1:9/hooks' } });
  const events = await app.http.get(`/v1/events?profileId=${profile.id}&limit=1`, { auth: app.apiKey });
  const rule = await app.http.post('/v1/categorization/rules', { auth: app.apiKey, json: { merchantName: 'Body-less', category: { primary: 'INCOME', detailed: 'INCOME_WAGES' } } });
  const key = await app.http.post('/v1/api-keys', { auth: app.apiKey, json: { name: 'Body-less' } });
  await app.http.send('PUT', '/v1/provider-settings/simplefin', { auth: app.apiKey, json: { allowedHosts: 'bridge.example.com' } });
  const [environment] = (await app.http.get('/v1/environments', { auth: app.apiKey })).body;
  const first = await signIn(app, app.service.firstOperator!.email, app.service.firstOperator!.password);
  const operator = await app.http.post('/v1/operators', asOperator(first, environment.id, { json: { email: `body-less-${key.body.id}@example.com`, role: 'VIEWER' } }));
  return {
    token: session.body.token as string,
    operator: asOperator(first, environment.id).headers as Record<string, string>,
    params: {
      profileId: profile.id as string,
      connectionId,
      accountId: encodeId('account', checking.id),
      subscriptionId: subscription.body.id as string,
      eventId: events.body[0].id as string,
      ruleId: rule.body.id as string,
      keyId: key.body.id as string,
      provider: 'simplefin',
      operatorId: operator.body.operator.id as string,
    } as Record<string, string>,
  };
}

describe('requests without a body', () => {
  it('finds the body-less operations in the contract', () => {
    expect(BODY_LESS.map((operation) => operation.operationId)).toEqual(
      expect.arrayContaining(['deleteSession', 'refreshAccountBalance', 'refreshConnectionTransactions', 'deleteProfile', 'startLink']),
    );
    expect(BODY_LESS.every((operation) => operation.success >= 200 && operation.success < 400)).toBe(true);
  });

  it.each([
    ['with Content-Type: application/json, unframed', { contentType: 'application/json', framing: 'none' }],
    ['with Content-Type: application/json, Content-Length: 0', { contentType: 'application/json', framing: 'empty' }],
    ['without Content-Type, unframed', { framing: 'none' }],
    ['without Content-Type, Content-Length: 0', { framing: 'empty' }],
  ] as const)('succeed for every body-less operation %s', async (_label, variant: Omit<Bodiless, 'auth'>) => {
    const { token, operator, params } = await world();
    const answers = [];
    for (const operation of IN_ORDER) {
      const path = operation.path.replace(/\{(\w+)\}/g, (_match, name: string) => params[name]!);
      const auth = operation.credential === 'apiKey' ? `Bearer ${app.apiKey}` : operation.credential === 'sessionToken' ? `Bearer ${token}` : undefined;
      const response = await sendBodiless(operation.method, path, { ...variant, auth, headers: operation.credential === 'operatorSession' ? operator : {} });
      answers.push(`${operation.operationId} ${response.status}${response.status === operation.success ? '' : ` ${response.text.slice(0, 200)}`}`);
    }
    expect(answers).toEqual(IN_ORDER.map((operation) => `${operation.operationId} ${operation.success}`));
  });

  it('still follow the body rules once a body is sent', async () => {
    const { params } = await world();
    const refresh = `/v1/accounts/${params.accountId}/balances/refresh`;
    const plain = await app.http.post(refresh, { auth: app.apiKey, raw: 'refresh please', headers: { 'Content-Type': 'text/plain' } });
    expect(plain.status).toBe(415);
    expect(plain.body.message).toBe('Content-Type must be application/json, got "text/plain"');
    expect((await app.http.post(refresh, { auth: app.apiKey, raw: '{"oops"', headers: { 'Content-Type': 'application/json' } })).status).toBe(400);
    // An operation that needs a body names what is missing rather than the media type.
    const empty = await app.http.post('/v1/profiles', { auth: app.apiKey, headers: { 'Content-Type': 'application/json' } });
    expect(empty.status).not.toBe(415);
    expect(empty.status).toBeLessThan(500);
  });
});
