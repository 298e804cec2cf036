import { fileURLToPath } from 'node:url';

/** The REST contract: the operations served, and the document published at /latest/rest.yaml. */
export const REST_CONTRACT_PATH = fileURLToPath(new URL('../../contracts/rest.yaml', import.meta.url));

/** The hand-maintained SDL: the schema served, and the document published at /latest/schema.graphql. */
export const GRAPHQL_SCHEMA_PATH = fileURLToPath(new URL('../../contracts/schema.graphql', import.meta.url));
