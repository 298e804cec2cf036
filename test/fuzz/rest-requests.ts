import fc from 'fast-check';
import { mutated } from './hostile-values.ts';
import { idFor, prefixIn } from './id-values.ts';
import { authFor, anyJsonBody, brokenBody, contentType, extraHeaders, headerSafe, percentEncode, rawUrlJunk, urlText, type AuthChoice, type Body, type FuzzRequest } from './requests.ts';
import type { Operation, Parameter } from './rest-contract.ts';
import { validValue } from './schema-values.ts';

const SCHEMES: Record<string, AuthChoice> = { apiKey: 'apiKey', basicAuth: 'basic', sessionToken: 'session' };

/** Requests for any operation of the contract, each aimed at it: its path, parameters, body and credentials. */
export function restRequest(operations: Operation[]): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(...operations.map(requestFor));
}

function requestFor(operation: Operation): fc.Arbitrary<FuzzRequest> {
  const byPlace = (place: Parameter['in']) => operation.parameters.filter((parameter) => parameter.in === place);
  return fc
    .record({
      path: fc.tuple(...byPlace('path').map(pathValue)),
      // Often every query parameter is absent or valid, so list operations get past validation.
      query: fc.oneof(fc.tuple(...byPlace('query').map((parameter) => queryPairs(parameter, true))), fc.tuple(...byPlace('query').map((parameter) => queryPairs(parameter, false)))),
      extraQuery: fc.oneof({ weight: 9, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fc.array(fc.tuple(urlText.map(percentEncode), urlText.map(percentEncode)), { minLength: 1, maxLength: 3 }) }),
      headers: fc.tuple(...byPlace('header').map(headerValue)),
      extraHeaders,
      auth: authFor(operation.security.map((scheme) => SCHEMES[scheme])),
      body: bodyFor(operation),
      contentType,
      // Now and then a method the path does not offer.
      method: fc.oneof({ weight: 30, arbitrary: fc.constant(operation.method) }, { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE') }),
    })
    .map(({ path, query, extraQuery, headers, extraHeaders: extra, auth, body, contentType: type, method }) => {
      const pathParameters = byPlace('path');
      const filled = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => path[pathParameters.findIndex((parameter) => parameter.name === name)]);
      const pairs = [...query.flat(), ...extraQuery].map(([name, value]) => `${name}=${value}`);
      const request: FuzzRequest = {
        operation: operation.operationId,
        method,
        path: pairs.length > 0 ? `${filled}?${pairs.join('&')}` : filled,
        headers: { ...Object.fromEntries(headers.filter((header): header is [string, string] => header !== undefined)), ...extra },
        auth,
      };
      if (body) {
        request.body = body;
        if (type) request.headers['Content-Type'] = type;
      }
      return request;
    });
}

/** A path segment: mostly an id aimed at the parameter's kind (the prefix its description names), or junk. */
function pathValue(parameter: Parameter): fc.Arbitrary<string> {
  const aimed = parameter.schema.enum ? validValue(parameter.schema).map(String) : idFor(prefixIn(parameter.description));
  return fc.oneof(
    { weight: 10, arbitrary: aimed },
    { weight: 3, arbitrary: urlText.map(percentEncode) },
    { weight: 1, arbitrary: rawUrlJunk },
    { weight: 1, arbitrary: fc.constantFrom(300, 3_000, 3_000, 20_000).map((length) => 'a'.repeat(length)) },
  );
}

/** A query parameter's `name=value` pairs: absent or valid per its schema, or (unless `clean`) out of it or repeated. */
function queryPairs(parameter: Parameter, clean: boolean): fc.Arbitrary<Array<[string, string]>> {
  const name = parameter.name;
  const absent = { weight: parameter.required ? 1 : 4, arbitrary: fc.constant<Array<[string, string]>>([]) };
  const valid = validValue(parameter.schema).map((value) => percentEncode(String(value)));
  if (clean) return fc.oneof(absent, { weight: 4, arbitrary: valid.map((value): Array<[string, string]> => [[name, value]]) });
  const invalid = fc.oneof(
    fc.constantFrom('', '0', '-1', '1.5', '1e400', '1e3', '9007199254740993', '0x10', 'abc', 'true', 'null', '[]', '1,2').map(percentEncode),
    urlText.map(percentEncode),
    rawUrlJunk,
  );
  const one = fc.oneof({ weight: 3, arbitrary: valid }, { weight: 2, arbitrary: invalid });
  return fc.oneof(
    absent,
    { weight: 6, arbitrary: one.map((value): Array<[string, string]> => [[name, value]]) },
    { weight: 1, arbitrary: fc.array(one, { minLength: 2, maxLength: 3 }).map((values) => values.map((value): [string, string] => [name, value])) },
    { weight: 1, arbitrary: one.map((value): Array<[string, string]> => [[`${name}[]`, value]]) },
  );
}

/** A header parameter of the contract (Service-Version, X-Request-Id): mostly absent, else valid or not. */
function headerValue(parameter: Parameter): fc.Arbitrary<[string, string] | undefined> {
  const value = fc.oneof(
    { weight: 4, arbitrary: validValue(parameter.schema).map(String) },
    { weight: 2, arbitrary: urlText },
    { weight: 1, arbitrary: fc.constantFrom(201, 201, 20_000).map((length) => 'x'.repeat(length)) },
  );
  return fc.oneof({ weight: 20, arbitrary: fc.constant(undefined) }, { weight: 3, arbitrary: value.map((text): [string, string] => [parameter.name, headerSafe(text)]) });
}

/** The body: valid per the contract, valid with one place broken, of the wrong type, not JSON, or absent. */
function bodyFor(operation: Operation): fc.Arbitrary<Body | undefined> {
  if (!operation.body) {
    return fc.oneof({ weight: 10, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: anyJsonBody }, { weight: 1, arbitrary: brokenBody });
  }
  const valid = validValue(operation.body.schema);
  return fc.oneof(
    { weight: 4, arbitrary: valid.map((json) => ({ json })) },
    { weight: 6, arbitrary: mutated(valid).map((json) => (json === undefined ? undefined : { json })) },
    { weight: 1, arbitrary: anyJsonBody },
    { weight: 1, arbitrary: brokenBody },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}
