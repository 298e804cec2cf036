import type { IncomingHttpHeaders } from 'node:http';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { REST_OPERATIONS } from '../../generated/rest-operations.ts';
import type { operations } from '../../generated/rest.ts';
import type { Credential } from './credential.ts';

/** Every operationId of contracts/rest.yaml. */
export type OperationId = keyof operations;

/** An optional request body's JSON, or undefined; operations without a body (`requestBody?: never`) have none. */
type OptionalBody<R> = [NonNullable<R>] extends [never] ? undefined : Json<NonNullable<R>> | undefined;

type Json<T> = T extends { content: { 'application/json': infer B } }
  ? B
  : T extends { content: { 'application/yaml': infer Y } }
    ? Y
    : T extends { content: { 'text/html': infer H } }
      ? H
      : T extends { content: { 'text/plain': infer P } }
        ? P
        : T extends { content: { 'application/pdf': unknown } }
          ? Buffer
          : undefined;
// `query?:` when every query parameter is optional: read the property, do not match `Record<Where, …>`.
type Params<K extends OperationId, Where extends 'path' | 'query'> = [NonNullable<operations[K]['parameters'][Where]>] extends [never]
  ? Record<string, never>
  : NonNullable<operations[K]['parameters'][Where]>;
type Responses<K extends OperationId> = operations[K]['responses'];
type SuccessStatus<K extends OperationId> = Extract<keyof Responses<K>, 200 | 201 | 202 | 204 | 303 | 304>;

type AcceptedKind<K extends OperationId> = (typeof REST_OPERATIONS)[K]['credentials'][number];

/**
 * The caller of an operation: a credential of a kind its `security` accepts (the front door refuses
 * any other before the handler runs), or undefined for a public operation.
 */
export type CredentialOf<K extends OperationId> = [AcceptedKind<K>] extends [never] ? undefined : Extract<Credential, { kind: AcceptedKind<K> }>;

/**
 * What a handler receives: the request as validated against the contract, who sent it, and what it
 * works with. Never the transport itself: a handler answers with a HandlerResult.
 */
export interface HandlerInput<K extends OperationId> {
  params: Params<K, 'path'>;
  query: Params<K, 'query'>;
  /** A body the contract makes optional (`required: false`) may be absent: undefined. */
  body: operations[K] extends { requestBody: infer R } ? Json<NonNullable<R>> : operations[K] extends { requestBody?: infer R } ? OptionalBody<R> : undefined;
  credential: CredentialOf<K>;
  /** The EntityManager to work through: the primary's, or the read replica's for most GETs (src/rest/dispatch.ts). */
  em: EntityManager;
  /** The request's log (it carries the requestId). */
  log: Logger;
  requestId: string;
  /** The API version the request is answered in (src/http/version.ts). */
  version: string;
  /** The request's headers, by lower-case name. */
  headers: IncomingHttpHeaders;
  /** The client's address as the HTTP layer sees it: the outermost trusted proxy's word, else the socket's peer (src/http/app.ts). */
  clientAddress: string;
  /** The body's exact bytes, when one was sent (signatures of inbound provider webhooks cover them). */
  rawBody: Buffer | undefined;
}

/**
 * A success response the contract documents for this operation; failures are thrown AppErrors.
 * `headers` may set Content-Type, which the front door otherwise infers from the body.
 */
export type HandlerResult<K extends OperationId> = {
  [S in SuccessStatus<K>]: { status: S; body?: Json<Responses<K>[S]>; headers?: Record<string, string | number> };
}[SuccessStatus<K>];

export type Handler<K extends OperationId> = (input: HandlerInput<K>) => Promise<HandlerResult<K>> | HandlerResult<K>;

/** Handlers for some operations, each typed by its operationId. */
export type Handlers<K extends OperationId = OperationId> = { [Op in K]: Handler<Op> };
