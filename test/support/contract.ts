import { readFileSync } from 'node:fs';
import { OpenAPIBackend, type Document } from 'openapi-backend';
import { expect } from 'vitest';
import { parse } from 'yaml';
import { createRequire } from 'node:module';

/** ajv-formats (CommonJS): date, date-time, uuid, uri… checked as the contract says. */
const addFormats: <T>(ajv: T) => T = createRequire(import.meta.url)('ajv-formats');
import type { TestResponse } from './http-client.ts';

const definition = parse(readFileSync('contracts/rest.yaml', 'utf8')) as Document;
const api = new OpenAPIBackend({ definition, quick: true, customizeAjv: (ajv) => addFormats(ajv) });
await api.init();

/** The contract's error codes (components/schemas/ErrorCode): REST bodies' `code`, GraphQL errors' `extensions.code`. */
export const ERROR_CODES: readonly string[] = (definition.components!.schemas!.ErrorCode as { enum: string[] }).enum;

const ALWAYS = ['service-version', 'x-request-id'];
/** Answers of the transport (request too slow, headers too large), given before any operation runs; the contract documents them once, in its Transport section. */
const TRANSPORT = [408, 431];

/**
 * Every REST response a test sees must be one the contract documents for that operation: a listed
 * status, a body matching its schema, and the headers every response carries. Responses outside any
 * operation (unknown routes, refused plain HTTP, transport answers) and 501s of not-yet-offered
 * operations must still have the contract's error body.
 */
export function assertMatchesContract(method: string, path: string, response: TestResponse): void {
  for (const header of ALWAYS) expect(response.headers, `${method} ${path} → ${response.status} lacks ${header}`).toHaveProperty(header);
  // The path as sent: a URL object would resolve dot segments (`/x/%2e`), which the server does not.
  const pathname = path.split(/[?#]/)[0];
  const operation = api.matchOperation({ method, path: pathname, headers: {} });
  if (!operation || response.status === 501 || response.status === 415 && !operation.requestBody || TRANSPORT.includes(response.status)) {
    if (response.status >= 400) assertErrorBody(response);
    return;
  }
  const documented = Object.keys(operation.responses ?? {});
  expect(documented, `${method} ${path}: status ${response.status} is not documented for ${operation.operationId}`).toContain(String(response.status));
  if (response.status === 204) {
    expect(response.text).toBe('');
    return;
  }
  const result = api.validateResponse(response.body, operation, response.status);
  expect(result.errors ?? [], `${operation.operationId} ${response.status} body breaks the contract: ${JSON.stringify(response.body).slice(0, 500)}`).toEqual([]);
}

/** The contract's error body, with a code the contract lists. */
export function assertErrorBody(response: TestResponse): void {
  const said = `${response.status} ${response.text.slice(0, 500)}`;
  expect(response.body, said).toMatchObject({ code: expect.any(String), message: expect.any(String), requestId: expect.any(String), errorId: expect.any(String) });
  expect(ERROR_CODES, said).toContain(response.body.code);
}
