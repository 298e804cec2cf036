import { afterAll, beforeAll, describe, inject, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { assertGraphQLAnswer } from './graphql-answers.ts';
import { graphqlRequest } from './graphql-requests.ts';
import { fuzz } from './run.ts';
import { fuzzSettings } from './settings.ts';
import { World } from './world.ts';

const settings = fuzzSettings(1_200);
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

describe('GraphQL fuzzing from contracts/schema.graphql', () => {
  it(`answers ${settings.runs} generated requests below 500, as well-formed GraphQL, and stays healthy`, { timeout: 120_000 + settings.runs * 300 }, async () => {
    await fuzz({
      name: 'GraphQL fuzz',
      file: 'test/fuzz/graphql.test.ts',
      world,
      settings,
      requests: graphqlRequest,
      check: (_request, _path, response) => assertGraphQLAnswer(response),
    });
  });
});
