import { readFileSync } from 'node:fs';
import { OpenAPIRouter, type Document } from 'openapi-backend';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REST_OPERATIONS } from '../../generated/rest-operations.ts';
import { REST_CONTRACT_PATH } from '../../src/api-kit/contract-paths.ts';
import { REST_ROUTES, RestRouter } from '../../src/rest/routes.ts';

const OPERATIONS = {
  listItems: { method: 'get', path: '/items' },
  createItem: { method: 'post', path: '/items' },
  getItem: { method: 'get', path: '/items/{itemId}' },
  getItemPart: { method: 'get', path: '/items/{itemId}/{part}' },
  getItemOwner: { method: 'get', path: '/items/{itemId}/owner' },
  deleteLatest: { method: 'delete', path: '/items/latest' },
  getFile: { method: 'get', path: '/files/{name}.json' },
  getPairByFirst: { method: 'get', path: '/pairs/{first}/same' },
  getPairBySecond: { method: 'get', path: '/pairs/same/{second}' },
};
const router = new RestRouter(OPERATIONS);

describe('the REST router', () => {
  it('matches exact paths, and templates with their parameters percent-decoded', () => {
    expect(router.match('GET', '/items')).toEqual({ template: '/items', operationId: 'listItems', params: {} });
    expect(router.match('POST', '/items')).toEqual({ template: '/items', operationId: 'createItem', params: {} });
    expect(router.match('GET', '/items/caf%C3%A9%2Fx')).toEqual({ template: '/items/{itemId}', operationId: 'getItem', params: { itemId: 'café/x' } });
    expect(router.match('GET', '/items/a/b')).toEqual({ template: '/items/{itemId}/{part}', operationId: 'getItemPart', params: { itemId: 'a', part: 'b' } });
  });

  it('tries the most literal template first, and of two as literal the one listed first', () => {
    expect(router.match('GET', '/items/a/owner')).toMatchObject({ template: '/items/{itemId}/owner', operationId: 'getItemOwner', params: { itemId: 'a' } });
    // Equally literal: the one listed first.
    expect(router.match('GET', '/pairs/same/same')).toMatchObject({ operationId: 'getPairByFirst', params: { first: 'same' } });
  });

  it('prefers an exact path, and falls back to a template that has the method', () => {
    expect(router.match('DELETE', '/items/latest')).toMatchObject({ operationId: 'deleteLatest' });
    expect(router.match('GET', '/items/latest')).toEqual({ template: '/items/{itemId}', operationId: 'getItem', params: { itemId: 'latest' } });
  });

  it('knows the path but no operation for a method the path does not have', () => {
    expect(router.match('PUT', '/items')).toEqual({ template: '/items', params: {} });
    expect(router.match('DELETE', '/items/a/owner')).toEqual({ template: '/items/{itemId}/owner', params: {} });
    expect(router.match('HEAD', '/items/a')).toEqual({ template: '/items/{itemId}', params: {} });
  });

  it('ignores trailing slashes, and matches nothing else', () => {
    expect(router.match('GET', '/items//')).toMatchObject({ operationId: 'listItems' });
    expect(router.match('GET', '/items/a/')).toMatchObject({ operationId: 'getItem', params: { itemId: 'a' } });
    expect(router.match('GET', '/')).toBeUndefined();
    expect(router.match('GET', '/items/a/b/c')).toBeUndefined();
    expect(router.match('GET', '/items//owner')).toBeUndefined();
    expect(router.match('GET', '/itemsx')).toBeUndefined();
  });

  it('matches letter case exactly', () => {
    expect(router.match('GET', '/Items')).toBeUndefined();
    expect(router.match('GET', '/items/a/OWNER')).toEqual({ template: '/items/{itemId}/{part}', operationId: 'getItemPart', params: { itemId: 'a', part: 'OWNER' } });
  });

  it('treats template literals literally, and keeps a parameter that is not valid percent-encoding as sent', () => {
    expect(router.match('GET', '/files/report.json')).toMatchObject({ operationId: 'getFile', params: { name: 'report' } });
    expect(router.match('GET', '/files/reportxjson')).toBeUndefined();
    expect(router.match('GET', '/items/%E0%A4%A')).toMatchObject({ operationId: 'getItem', params: { itemId: '%E0%A4%A' } });
  });

  it('routes as openapi-backend does, for these operations and for the contract', () => {
    const samples = (templates: string[]) =>
      templates.flatMap((template) => {
        const filled = template.replace(/\{[^}]+\}/g, 'x%20y');
        return [filled, `${filled}/`, template.replace(/\{[^}]+\}/g, 'latest'), `${filled}/extra`, filled.replace(/\/[^/]*$/, ''), filled.toUpperCase()];
      });
    const contract = parse(readFileSync(REST_CONTRACT_PATH, 'utf8')) as Document;
    expect(disagreements(router, definitionOf(OPERATIONS), [...samples(Object.values(OPERATIONS).map(({ path }) => path)), '/pairs/same/same'])).toEqual([]);
    const compared = samples(Object.values(REST_OPERATIONS).map(({ path }) => path));
    expect(compared.length).toBeGreaterThan(100);
    expect(disagreements(REST_ROUTES, contract, compared)).toEqual([]);
  });
});

/** The requests (every method on each path) that `ours` routes differently from openapi-backend's router over `definition`. */
function disagreements(ours: RestRouter<string>, definition: Document, paths: string[]): string[] {
  const oracle = new OpenAPIRouter({ definition });
  const answerOf = (method: string, path: string) => {
    try {
      return oracle.matchOperation({ method, path, headers: {} }, true).operationId!;
    } catch (error) {
      return (error as Error).message.slice(0, 3); // 404: no such path; 405: no such method
    }
  };
  return [...new Set(paths)].flatMap((path) =>
    ['get', 'post', 'patch', 'put', 'delete', 'head'].flatMap((method) => {
      const route = ours.match(method.toUpperCase(), path);
      const answer = route === undefined ? '404' : (route.operationId ?? '405');
      const expected = answerOf(method, path);
      return answer === expected ? [] : [`${method} ${path}: ${answer}, openapi-backend ${expected}`];
    }),
  );
}

function definitionOf(operations: Record<string, { method: string; path: string }>): Document {
  const paths: Record<string, Record<string, { operationId: string }>> = {};
  for (const [operationId, { method, path }] of Object.entries(operations)) paths[path] = { ...paths[path], [method]: { operationId } };
  return { openapi: '3.1.0', info: { title: 'routes', version: '1' }, paths } as Document;
}
