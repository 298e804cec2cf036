import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { generate } from '@graphql-codegen/cli';
import { getIntrospectionQuery } from 'graphql';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { basicAuth, createProfile } from '../support/factories.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const run = promisify(execFile);
const TSC = path.resolve('node_modules/typescript/bin/tsc');

let app: TestApp;
let dir: string;

beforeAll(async () => {
  app = await startTestApp();
  // Generated code lives outside the repository; it resolves its packages through this link.
  dir = mkdtempSync(path.join(tmpdir(), 'tributary-clients-'));
  symlinkSync(path.resolve('node_modules'), path.join(dir, 'node_modules'), 'dir');
});
afterAll(async () => {
  await app?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** What a developer writes against the generated clients: a profile, a session, then GraphQL as that session. */
const CLIENT = `
import createClient from 'openapi-fetch';
import type { paths } from './rest.ts';
import { graphql } from './gql/index.ts';
import type { TypedDocumentString } from './gql/graphql.ts';

const [baseUrl, apiKey] = process.argv.slice(2) as [string, string];
const rest = createClient<paths>({ baseUrl, headers: { Authorization: \`Bearer \${apiKey}\` } });

const ProfileQuery = graphql(\`
  query TypedClientProfile {
    profile { id name metadata }
  }
\`);
const TransactionsQuery = graphql(\`
  query TypedClientTransactions($first: Int!) {
    transactions(first: $first, sort: DATE_DESC) { count nodes { id amount entryType date } }
  }
\`);

async function execute<Result, Variables>(token: string, document: TypedDocumentString<Result, Variables>, variables: Variables): Promise<Result> {
  const response = await fetch(\`\${baseUrl}/v1/graphql\`, {
    method: 'POST',
    headers: { Authorization: \`Bearer \${token}\`, 'Content-Type': 'application/json', Accept: 'application/graphql-response+json' },
    body: JSON.stringify({ query: document.toString(), variables }),
  });
  const body = (await response.json()) as { data?: Result; errors?: unknown[] };
  if (!body.data || body.errors) throw new Error(\`GraphQL answered \${response.status}: \${JSON.stringify(body.errors)}\`);
  return body.data;
}

const created = await rest.POST('/v1/profiles', { body: { name: 'Typed Client', metadata: { plan: 'gold' } } });
if (!created.data) throw new Error(\`createProfile answered \${created.response.status}\`);
const profileId: string = created.data.id;
const session = await rest.POST('/v1/users/sessions', { body: { userId: profileId } });
if (!session.data) throw new Error(\`createSession answered \${session.response.status}\`);
const token: string = session.data.token;
const connection = await rest.POST('/v1/sandbox/connections', {
  body: { profileId, institutionId: 'ins_first_platypus', username: 'user_good', password: 'pass_good' },
});
if (!connection.data) throw new Error(\`createSandboxConnection answered \${connection.response.status}\`);

// The first sync runs in the background: ask until the page holds its transactions (at most 30 s).
// The count is read in a statement of its own, so while the sync writes it may run ahead of the page.
let transactions = (await execute(token, TransactionsQuery, { first: 5 })).transactions;
for (let attempt = 0; transactions.nodes.length < 5 && attempt < 150; attempt++) {
  await new Promise((resolve) => setTimeout(resolve, 200));
  transactions = (await execute(token, TransactionsQuery, { first: 5 })).transactions;
}
const { profile } = await execute(token, ProfileQuery, {});
console.log(JSON.stringify({ profileId, profile, count: transactions.count, nodes: transactions.nodes }));
`;

/** Misuses of the generated types, one a line after the imports: each line must be a compile error. */
const MISUSE_LINES = [
  `await rest.POST('/v1/profiles', { body: { name: 42 } });`,
  `await rest.GET('/v1/no-such-path', {});`,
  `export const id: number = (await rest.GET('/v1/profiles/{profileId}', { params: { path: { profileId: 'p_x' } } })).data!.id;`,
  `export const nickname = (result: TypedClientProfileQuery): string => result.profile.nickname;`,
];
const MISUSE_HEADER = [
  `import createClient from 'openapi-fetch';`,
  `import type { paths } from './rest.ts';`,
  `import type { TypedClientProfileQuery } from './gql/graphql.ts';`,
  `const rest = createClient<paths>({ baseUrl: 'https://localhost' });`,
];

async function tsc(files: string[]): Promise<{ ok: boolean; output: string }> {
  const config = path.join(dir, `tsconfig.${files[0]}.json`);
  writeFileSync(
    config,
    JSON.stringify({
      compilerOptions: {
        strict: true,
        target: 'es2023',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        allowImportingTsExtensions: true,
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
      },
      files,
    }),
  );
  try {
    const { stdout } = await run(process.execPath, [TSC, '-p', config], { cwd: dir });
    return { ok: true, output: stdout };
  } catch (error) {
    return { ok: false, output: String((error as { stdout?: string }).stdout ?? error) };
  }
}

describe('clients generated from what the service publishes', () => {
  it('are typed, compile, and work against the running service', async () => {
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
    writeFileSync(path.join(dir, 'client.ts'), CLIENT);
    writeFileSync(path.join(dir, 'misuse.ts'), [...MISUSE_HEADER, ...MISUSE_LINES].join('\n'));

    // REST: openapi-typescript types from the served /latest/rest.yaml, for openapi-fetch.
    const contract = await app.http.get('/latest/rest.yaml');
    expect(contract.status).toBe(200);
    writeFileSync(path.join(dir, 'rest.ts'), astToString(await openapiTS(parse(contract.text))));

    // GraphQL: the schema from introspection, then the client preset over the documents client.ts holds.
    const profile = await createProfile(app);
    const introspection = await app.http.post('/v1/graphql', { auth: basicAuth(profile.id, app.apiKey), json: { query: getIntrospectionQuery() } });
    expect(introspection.status).toBe(200);
    writeFileSync(path.join(dir, 'schema.json'), JSON.stringify(introspection.body.data));
    await generate(
      {
        schema: path.join(dir, 'schema.json'),
        documents: [path.join(dir, 'client.ts')],
        generates: {
          [`${path.join(dir, 'gql')}/`]: {
            preset: 'client',
            config: { documentMode: 'string', useTypeImports: true, importExtension: '.ts' },
          },
        },
        silent: true,
      },
      true,
    );

    const compiled = await tsc(['client.ts']);
    expect(compiled.output).toBe('');
    expect(compiled.ok).toBe(true);
    const misuse = await tsc(['misuse.ts']);
    expect(misuse.ok).toBe(false);
    const failing = new Set([...misuse.output.matchAll(/^misuse\.ts\((\d+),/gm)].map(([, line]) => Number(line)));
    expect([...failing].sort((a, b) => a - b)).toEqual(MISUSE_LINES.map((_line, index) => MISUSE_HEADER.length + index + 1));

    const { stdout } = await run(process.execPath, ['client.ts', `https://localhost:${app.service.port}`, app.apiKey], {
      cwd: dir,
      env: { ...process.env, NODE_EXTRA_CA_CERTS: inject('tls').certFile },
    });
    const result = JSON.parse(stdout);
    expect(result.profile).toEqual({ id: result.profileId, name: 'Typed Client', metadata: { plan: 'gold' } });
    expect(result.count).toBeGreaterThan(0);
    expect(result.nodes).toHaveLength(5);
    expect(result.nodes[0]).toEqual({ id: expect.stringMatching(/^txn_/), amount: expect.any(Number), entryType: expect.stringMatching(/^(CREDIT|DEBIT)$/), date: expect.any(String) });
  }, 180_000);
});
