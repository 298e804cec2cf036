import { REST_OPERATIONS } from '../../generated/rest-operations.ts';
import type { OperationId } from './types.ts';

/** Where a request falls in the contract. */
export interface Route<Id extends string = OperationId> {
  /** The path template it falls under: requests are labelled by it (metrics), never by the raw path. */
  template: string;
  /** The operation of that path for the request's method; absent when the path has none for it. */
  operationId?: Id;
  /** The operation's path parameters, percent-decoded. */
  params: Record<string, string>;
}

interface Template<Id> {
  template: string;
  pattern: RegExp;
  names: string[];
  methods: Map<string, Id>;
}

/**
 * Matches requests to the contract's operations, built once from their methods and path templates
 * (generated/rest-operations.ts). The rules are openapi-backend's: trailing slashes are ignored; an
 * exact path wins; else the templates are tried most literal first ("/a/{id}/b" before "/a/{id}/{part}"),
 * and the first that has the request's method is the operation.
 */
export class RestRouter<Id extends string = OperationId> {
  readonly #exact = new Map<string, Map<string, Id>>();
  readonly #templated: Array<Template<Id>> = [];

  constructor(operations: Record<Id, { method: string; path: string }>) {
    const templates = new Map<string, Template<Id>>();
    for (const [operationId, { method, path }] of Object.entries(operations) as Array<[Id, { method: string; path: string }]>) {
      if (!path.includes('{')) {
        this.#exact.set(path, (this.#exact.get(path) ?? new Map<string, Id>()).set(method, operationId));
        continue;
      }
      const template = templates.get(path) ?? { template: path, ...templatePattern(path), methods: new Map() };
      template.methods.set(method, operationId);
      templates.set(path, template);
    }
    this.#templated = [...templates.values()].sort((a, b) => literalLength(b.template) - literalLength(a.template));
  }

  /**
   * The route of a request, or undefined when its path falls under no template. A parameter that is
   * not valid percent-encoding is kept as sent (the REST front door refuses such a path with 400).
   */
  match(method: string, path: string): Route<Id> | undefined {
    const normalized = withoutTrailingSlashes(path);
    const verb = method.toLowerCase();
    const exact = this.#exact.get(normalized);
    const exactId = exact?.get(verb);
    if (exactId) return { template: normalized, operationId: exactId, params: {} };
    let pathOnly: Route<Id> | undefined = exact && { template: normalized, params: {} };
    for (const { template, pattern, names, methods } of this.#templated) {
      const found = pattern.exec(normalized);
      if (!found) continue;
      const operationId = methods.get(verb);
      if (operationId) return { template, operationId, params: Object.fromEntries(names.map((name, i) => [name, decoded(found[i + 1]!)])) };
      pathOnly ??= { template, params: {} };
    }
    return pathOnly;
  }
}

/** The contract's routes. */
export const REST_ROUTES = new RestRouter(REST_OPERATIONS);

/** "/v1/profiles/{profileId}" as a pattern capturing each parameter's segment, and the parameters' names. */
function templatePattern(template: string): { pattern: RegExp; names: string[] } {
  const names = [...template.matchAll(/\{([^}]+)\}/g)].map((found) => found[1]!);
  const literals = template.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return { pattern: new RegExp(`^${literals.join('([^/]+)')}$`), names };
}

function literalLength(template: string): number {
  return template.replace(/\{[^}]*\}/g, '').length;
}

function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 1 && path[end - 1] === '/') end--;
  return path.slice(0, end);
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
