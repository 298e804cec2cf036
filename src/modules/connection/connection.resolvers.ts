import type { ConnectionResolvers, MutationResolvers, QueryResolvers } from '../../../generated/graphql.ts';
import { notFound } from '../../errors.ts';
import { mutationPayload, RecordNotFound } from '../../api-kit/mutation-payload.ts';
import { decodeId, encodeId } from '../../lib/ids.ts';
import { mergeMetadata } from '../metadata/metadata.ts';
import { matchesMetadata } from '../metadata/metadata-filter.ts';
import { connectionsOfProfile, updateProfileConnection } from './connection.store.ts';

/** `Connection` fields from the stored entity; credentials and sync state never leave it. */
export const connectionType: ConnectionResolvers = {
  id: (connection) => encodeId('connection', connection.id),
  institution: (connection) => ({ id: connection.institutionId, name: connection.institutionName }),
  lastSyncedAt: (connection) => connection.lastSyncedAt ?? null,
  errorCode: (connection) => connection.errorCode ?? null,
  consentExpiresAt: (connection) => connection.consentExpiresAt ?? null,
  metadata: (connection) => connection.metadata ?? null,
  at: (connection) => connection.createdAt,
  accounts: (connection, _args, { loaders }) => loaders.accountsOfConnection.load(connection.id),
};

export const connectionQuery: NonNullable<QueryResolvers['connection']> = async (_root, { id }, { loaders }) => {
  const uuid = decodeId('connection', id);
  const connection = uuid && (await loaders.connection.load(uuid));
  if (!connection) throw notFound('Connection');
  return connection;
};

export const connectionsQuery: NonNullable<QueryResolvers['connections']> = async (_root, { filter }, { em, profileId }) => {
  const connections = await connectionsOfProfile(em, profileId);
  return connections.filter(
    (connection) =>
      (!filter?.status || filter.status.includes(connection.status)) &&
      (!filter || filter.metadata === undefined || matchesMetadata(connection.metadata, filter.metadata)),
  );
};

/** Merges metadata under the row's lock, so concurrent merges all land. */
export const connectionUpdate: NonNullable<MutationResolvers['connectionUpdate']> = (_root, { input }, { em, profileId }) =>
  mutationPayload(input, () => {
    const id = decodeId('connection', input.id);
    if (!id) throw new RecordNotFound('Connection');
    return updateProfileConnection(em, id, profileId, () => new RecordNotFound('Connection'), (connection) => {
      connection.metadata = mergeMetadata(connection.metadata, input.metadata);
      return connection;
    });
  });
