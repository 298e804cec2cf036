import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProfile } from '../support/factories.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.stop());

describe('transport', () => {
  it('serves HTTPS with health, readiness and the published contract', async () => {
    expect((await app.http.get('/healthz')).body).toEqual({ status: 'ok' });
    expect((await app.http.get('/readyz')).body).toEqual({ status: 'ready', rateLimits: 'local' });
    const contract = await app.http.get('/latest/rest.yaml');
    expect(contract.headers['content-type']).toMatch(/yaml/);
    expect(contract.text).toMatch(/^openapi: 3\.1/m);
  });

  it('refuses plain HTTP on the same port before any handler runs', async () => {
    const response = await app.http.post('/v1/profiles', { plain: true, auth: app.apiKey, json: buildProfile() });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('HTTPS_REQUIRED');
    expect(response.body.message).toMatch(/HTTPS only/);
    expect(response.body.instruction).toMatch(/^Send the request to https:\/\//);
    expect(response.headers['ratelimit-limit']).toBe('25');
    expect(await app.sql('select id from profile')).toEqual([]);
  });

  it('echoes a caller request id and makes one otherwise', async () => {
    expect((await app.http.get('/healthz', { headers: { 'X-Request-Id': 'trace-123' } })).headers['x-request-id']).toBe('trace-123');
    expect((await app.http.get('/healthz')).headers['x-request-id']).toMatch(/^req_[0-9a-f]{32}$/);
    expect((await app.http.get('/healthz', { headers: { 'X-Request-Id': 'bad id with spaces' } })).headers['x-request-id']).toMatch(/^req_/);
  });

  it('names the version on every response and refuses unknown ones with the supported list', async () => {
    expect((await app.http.get('/healthz')).headers['service-version']).toBe('2026-04-01');
    expect((await app.http.get('/v1/nothing-here')).headers['service-version']).toBe('2026-04-01');
    const ok = await app.http.get('/v1/profiles', { auth: app.apiKey, headers: { 'Service-Version': '2026-04-01' } });
    expect(ok.status).toBe(200);
    const unknown = await app.http.get('/v1/profiles', { auth: app.apiKey, headers: { 'Service-Version': '2019-01-01' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('UNSUPPORTED_VERSION');
    expect(unknown.body.message).toMatch(/Unsupported Service-Version "2019-01-01"; supported versions: 2026-04-01/);
    expect(unknown.headers['service-version']).toBe('2026-04-01');
  });

  it('answers unknown routes with a 404 in the error shape', async () => {
    const response = await app.http.get('/v1/nothing-here', { auth: app.apiKey });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ code: 'NOT_FOUND', message: expect.stringMatching(/not found/), requestId: response.headers['x-request-id'], errorId: expect.stringMatching(/^err_/) });
  });

  it('wants JSON bodies: 415 for another media type, 400 for malformed JSON', async () => {
    const wrongType = await app.http.post('/v1/profiles', { auth: app.apiKey, raw: 'name=Jane', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(wrongType.status).toBe(415);
    expect(wrongType.body).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', message: expect.stringMatching(/application\/json/) });
    const noType = await app.http.post('/v1/profiles', { auth: app.apiKey, raw: '{"name":"Jane"}' });
    expect(noType.status).toBe(415);
    const malformed = await app.http.post('/v1/profiles', { auth: app.apiKey, raw: '{"name":', headers: { 'Content-Type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/not valid JSON/) });
  });
});

describe('behind a TLS-terminating proxy (TRUST_PROXY=true)', () => {
  let proxied: TestApp;
  beforeAll(async () => {
    proxied = await startTestApp({ TRUST_PROXY: 'true' });
  });
  afterAll(() => proxied?.stop());

  it('lets X-Forwarded-Proto decide', async () => {
    const forwarded = await proxied.http.get('/healthz', { plain: true, headers: { 'X-Forwarded-Proto': 'https' } });
    expect(forwarded.status).toBe(200);
    const plain = await proxied.http.get('/healthz', { plain: true, headers: { 'X-Forwarded-Proto': 'http' } });
    expect(plain.status).toBe(403);
  });
});
