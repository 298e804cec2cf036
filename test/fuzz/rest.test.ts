import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { assertMatchesContract } from '../support/contract.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { restOperations } from './rest-contract.ts';
import { restRequest } from './rest-requests.ts';
import { fuzz } from './run.ts';
import { fuzzSettings } from './settings.ts';
import { World } from './world.ts';

const settings = fuzzSettings(2_000);
let app: TestApp;
let world: World;

beforeAll(async () => {
  app = await startTestApp({ WEBHOOK_CA_FILE: inject('tls').certFile });
  world = await World.create(app);
});
afterAll(async () => {
  await world?.close();
  await app?.stop();
});

describe('REST fuzzing from contracts/rest.yaml', () => {
  const operations = restOperations();

  it('derives requests for every operation of the contract', () => {
    expect(operations.length).toBeGreaterThan(25);
    expect(operations.every((operation) => operation.operationId && operation.method)).toBe(true);
  });

  it(`answers ${settings.runs} generated requests below 500, in the contract's shapes, and stays healthy`, { timeout: 120_000 + settings.runs * 200 }, async () => {
    await fuzz({
      name: 'REST fuzz',
      file: 'test/fuzz/rest.test.ts',
      world,
      settings,
      requests: restRequest(operations),
      check: (request, path, response) => {
        assertMatchesContract(request.method, path, response);
        if (request.auth === 'foreignApiKey' && response.status < 300) {
          expect(world.recordsIn(path.split('?')[0]), `another environment's key reached these records: ${request.method} ${path}`).toEqual([]);
        }
      },
    });
  });
});
