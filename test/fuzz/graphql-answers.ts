import { expect } from 'vitest';
import { assertErrorBody, ERROR_CODES } from '../support/contract.ts';
import type { TestResponse } from '../support/http-client.ts';

/**
 * What contracts/schema.graphql promises about any answer of /v1/graphql: the headers every response
 * carries; HTTP 200 with a GraphQL result (or, for a batch, an array of them); any other status with
 * either a GraphQL result holding only errors or, for refusals before GraphQL runs, the REST error
 * body. Every GraphQL error has a message and an `extensions.code` from the contract's list, never
 * INTERNAL_SERVER_ERROR.
 */
export function assertGraphQLAnswer(response: TestResponse): void {
  const said = `→ ${response.status} ${response.text.slice(0, 500)}`;
  expect(response.headers, said).toHaveProperty('service-version');
  expect(response.headers, said).toHaveProperty('x-request-id');
  const body = response.body;
  if (response.status === 200) {
    const results = Array.isArray(body) ? body : [body];
    expect(results.length, said).toBeGreaterThan(0);
    for (const result of results) assertResult(result, said);
    return;
  }
  if (body && typeof body === 'object' && 'errors' in body) {
    assertResult(body, said);
    expect(body, said).not.toHaveProperty('data');
    return;
  }
  assertErrorBody(response);
}

function assertResult(result: unknown, said: string): void {
  expect(result, said).toBeTypeOf('object');
  expect(result, said).not.toBeNull();
  const { data, errors, extensions, ...rest } = result as Record<string, unknown>;
  expect(rest, `a GraphQL result holds only data, errors and extensions ${said}`).toEqual({});
  expect(data !== undefined || errors !== undefined, `a GraphQL result has data or errors ${said}`).toBe(true);
  if (data !== undefined) expect(data === null || typeof data === 'object', said).toBe(true);
  if (extensions !== undefined) expect(extensions, said).toBeTypeOf('object');
  if (errors === undefined) return;
  expect(Array.isArray(errors) && errors.length > 0, `errors is a non-empty list ${said}`).toBe(true);
  for (const error of errors as Array<{ extensions: { code: unknown } }>) {
    expect(error, said).toMatchObject({ message: expect.any(String), extensions: { code: expect.any(String) } });
    expect(ERROR_CODES, said).toContain(error.extensions.code);
    expect(error.extensions.code, `an internal error ${said}`).not.toBe('INTERNAL_SERVER_ERROR');
  }
}
