import type { SecurityResolvers } from '../../../generated/graphql.ts';
import { encodeId } from '../../lib/ids.ts';

export const securityType: SecurityResolvers = {
  id: (security) => encodeId('security', security.id),
};
