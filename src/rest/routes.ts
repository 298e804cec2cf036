import Router from '@koa/router';
import { REST_OPERATIONS } from '../../generated/rest-operations.ts';
import type { OperationId } from '../api-kit/rest-handler.ts';

/** Where a request falls in the contract. */
export interface Route<Id extends string = OperationId> {
  /** The path template it falls under: requests are labelled by it (metrics), never by the raw path. */
  template: string;
  /** The operation of that path for the request's method; absent when the path has none for it. */
  operationId?: Id;
  /** The operation's path parameters, percent-decoded. */
  params: Record<string, string>;
}

interface Operation {
  method: string;
  path: string;
}

/**
 * The contract's operations (generated/rest-operations.ts: method and path template) registered on
 * @koa/router, one route each, named by its operationId. Requests are matched by openapi-backend's
 * rules: case matters, trailing slashes are ignored, an exact path wins, else the most literal
 * template ("/a/{id}/b" before "/a/{id}/{part}"; of two as literal, the one listed first) that has
 * the request's method.
 */
export class RestRouter<Id extends string = OperationId> {
  readonly #router = new Router({ sensitive: true });
  readonly #operations: Record<Id, Operation>;

  constructor(operations: Record<Id, Operation>) {
    this.#operations = operations;
    // Least specific first, as the last route that matches is taken; reversed before the (stable)
    // sort so that of two equally literal templates, the one the contract lists first comes last.
    const ordered = (Object.entries(operations) as Array<[Id, Operation]>)
      .reverse()
      .sort(([, a], [, b]) => Number(!a.path.includes('{')) - Number(!b.path.includes('{')) || literalLength(a.path) - literalLength(b.path));
    for (const [operationId, { method, path }] of ordered) this.#router.register(routerPath(path), [method], [], { name: operationId });
  }

  /**
   * The route of a request, or undefined when its path falls under no template. A parameter that is
   * not valid percent-encoding is kept as sent (the REST front door refuses such a path with 400).
   */
  match(method: string, path: string): Route<Id> | undefined {
    const normalized = withoutTrailingSlashes(path);
    const verb = method.toLowerCase();
    const matched = this.#router.match(normalized, method);
    // Only a route of the request's own method: @koa/router also lets HEAD through to GET routes.
    const route = matched.pathAndMethod.findLast((layer) => this.#operation(layer.name).method === verb);
    if (route) {
      return { template: this.#operation(route.name).path, operationId: route.name as Id, params: route.params(normalized, route.captures(normalized)) };
    }
    const onPath = matched.path.at(-1);
    return onPath && { template: this.#operation(onPath.name).path, params: {} };
  }

  #operation(name: string | undefined): Operation {
    return this.#operations[name as Id];
  }
}

/** The contract's routes. */
export const REST_ROUTES = new RestRouter(REST_OPERATIONS);

/** "/v1/profiles/{profileId}" as @koa/router (path-to-regexp 8) writes it: "/v1/profiles/:"profileId"", its literals escaped. */
function routerPath(template: string): string {
  return template
    .split(/(\{[^}]+\})/)
    .map((part, index) => (index % 2 === 1 ? `:"${part.slice(1, -1)}"` : part.replace(/[{}()[\]+?!:*\\]/g, '\\$&')))
    .join('');
}

function literalLength(template: string): number {
  return template.replace(/\{[^}]*\}/g, '').length;
}

function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 1 && path[end - 1] === '/') end--;
  return path.slice(0, end);
}
