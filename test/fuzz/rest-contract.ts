import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

/** A JSON Schema (OpenAPI 3.1 dialect) as the contract writes it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed YAML read keyword by keyword; a type per keyword would only restate JSON Schema.
export type Schema = Record<string, any>;

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description: string;
  schema: Schema;
}

export interface Operation {
  operationId: string;
  method: string;
  /** The path template, e.g. `/v1/profiles/{profileId}`. */
  path: string;
  parameters: Parameter[];
  /** The JSON request body's schema, when the operation takes one. */
  body: { schema: Schema; required: boolean } | undefined;
  /** The security schemes it accepts (`apiKey`, `basicAuth`, `sessionToken`); empty: none needed. */
  security: string[];
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** contracts/rest.yaml, parsed. */
const restDocument: Schema = parse(readFileSync('contracts/rest.yaml', 'utf8'));

/** Follows a local `$ref` (`#/components/…`) until it reaches a value that is not one. */
export function resolve<T = Schema>(value: T): T {
  let current = value as Schema;
  while (current && typeof current === 'object' && typeof current.$ref === 'string') {
    current = (current.$ref as string).slice(2).split('/').reduce((node: Schema, key) => node[key], restDocument);
  }
  return current as T;
}

/** Every operation the contract lists, with its parameters and body resolved. */
export function restOperations(): Operation[] {
  return Object.entries(restDocument.paths as Record<string, Schema>).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => {
      const operation = item[method];
      const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((parameter) => resolve(parameter) as Parameter);
      const body = resolve(operation.requestBody);
      const security: Schema[] = operation.security ?? restDocument.security ?? [];
      return {
        operationId: operation.operationId,
        method: method.toUpperCase(),
        path,
        parameters: parameters.map((parameter) => ({ ...parameter, required: Boolean(parameter.required), description: parameter.description ?? '', schema: parameter.schema ?? {} })),
        body: body ? { schema: body.content['application/json'].schema, required: Boolean(body.required) } : undefined,
        security: security.flatMap((requirement) => Object.keys(requirement)),
      };
    }),
  );
}
