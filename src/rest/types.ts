import type { REST_OPERATIONS } from '../../generated/rest-operations.ts';
import type { operations } from '../../generated/rest.ts';
import type { Credential } from '../http/credentials.ts';
import type { AppContext } from '../http/state.ts';
import type { OperationId } from './routes.ts';

type Json<T> = T extends { content: { 'application/json': infer B } }
  ? B
  : T extends { content: { 'application/yaml': infer Y } }
    ? Y
    : T extends { content: { 'text/html': infer H } }
      ? H
      : T extends { content: { 'text/plain': infer P } }
        ? P
        : undefined;
// `query?:` when every query parameter is optional: read the property, do not match `Record<Where, …>`.
type Params<K extends OperationId, Where extends 'path' | 'query'> = [NonNullable<operations[K]['parameters'][Where]>] extends [never]
  ? Record<string, never>
  : NonNullable<operations[K]['parameters'][Where]>;
type Responses<K extends OperationId> = operations[K]['responses'];
type SuccessStatus<K extends OperationId> = Extract<keyof Responses<K>, 200 | 201 | 202 | 204 | 304>;

type AcceptedKind<K extends OperationId> = (typeof REST_OPERATIONS)[K]['credentials'][number];

/**
 * The caller of an operation: a credential of a kind its `security` accepts (the front door refuses
 * any other before the handler runs), or undefined for a public operation.
 */
export type CredentialOf<K extends OperationId> = [AcceptedKind<K>] extends [never] ? undefined : Extract<Credential, { kind: AcceptedKind<K> }>;

/** What a handler receives: the request as validated against the contract, and who sent it. */
export interface HandlerInput<K extends OperationId> {
  params: Params<K, 'path'>;
  query: Params<K, 'query'>;
  body: operations[K] extends { requestBody: infer R } ? Json<NonNullable<R>> : undefined;
  credential: CredentialOf<K>;
  ctx: AppContext;
}

/** A success response the contract documents for this operation; failures are thrown AppErrors. */
export type HandlerResult<K extends OperationId> = {
  [S in SuccessStatus<K>]: { status: S; body?: Json<Responses<K>[S]>; headers?: Record<string, string | number> };
}[SuccessStatus<K>];

export type Handler<K extends OperationId> = (input: HandlerInput<K>) => Promise<HandlerResult<K>> | HandlerResult<K>;

/** Handlers for some operations, each typed by its operationId. */
export type Handlers<K extends OperationId = OperationId> = { [Op in K]: Handler<Op> };
