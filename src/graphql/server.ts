import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { GraphQLError, type GraphQLSchema } from 'graphql';
import { createHandler } from 'graphql-http';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { forbidden, unauthorized } from '../errors.ts';
import { WWW_AUTHENTICATE } from '../http/credentials.ts';
import type { AppContext, AppState } from '../http/state.ts';
import type { FieldCipher } from '../lib/field-cipher.ts';
import type { GraphQLContext } from './context.ts';
import { formatGraphQLError } from './errors.ts';
import { resolvers } from './resolvers.ts';

const GRAPHQL_SCHEMA_PATH = fileURLToPath(new URL('../../contracts/schema.graphql', import.meta.url));

function buildSchema(): GraphQLSchema {
  return makeExecutableSchema({ typeDefs: readFileSync(GRAPHQL_SCHEMA_PATH, 'utf8'), resolvers });
}

/**
 * The GraphQL front door (GraphQL over HTTP via graphql-http). Only a credential that acts as a
 * profile may execute: none → 401, an API key → 403, both before any execution.
 */
export function graphqlApi(cipher: FieldCipher, logger: Logger): Middleware<AppState> {
  const handler = createHandler<unknown, AppContext, GraphQLContext>({
    schema: buildSchema(),
    context: (req) => {
      const { state } = req.context;
      const credential = state.credential!;
      return { profileId: (credential as { profileId: string }).profileId, environmentId: credential.environmentId, em: state.em, cipher, log: state.log, requestId: state.requestId };
    },
    formatError: (error) => {
      // Duck-typed: graphql-http and the schema may hold different copies of graphql's classes.
      const graphqlError = 'locations' in error ? (error as GraphQLError) : new GraphQLError(error.message, { originalError: error });
      const formatted = formatGraphQLError(graphqlError, logger);
      return new GraphQLError(formatted.message, { path: formatted.path, extensions: formatted.extensions, nodes: graphqlError.nodes });
    },
  });
  return async (ctx) => {
    const credential = ctx.state.credential;
    if (!credential) {
      throw unauthorized('GraphQL needs a credential that acts as a profile', {
        instruction: 'Send Basic base64(<profile id>:<API secret key>) or Bearer <session token>.',
        headers: { 'WWW-Authenticate': WWW_AUTHENTICATE },
      });
    }
    if (credential.kind === 'apiKey') {
      throw forbidden('An API key cannot query GraphQL: it acts as no profile', {
        instruction: 'Use Basic Auth with a profile id and your API key, or a session token from POST /v1/users/sessions.',
      });
    }
    const [body, init] = await handler({
      method: ctx.method,
      url: ctx.url,
      headers: { get: (name) => ctx.get(name) || null },
      body: (ctx.state.body ?? null) as Record<string, unknown> | null,
      raw: ctx.req,
      context: ctx,
    });
    ctx.status = init.status;
    for (const [name, value] of Object.entries(init.headers ?? {})) ctx.set(name, value);
    ctx.body = body ?? '';
  };
}
