import type { components } from '../../../generated/rest.ts';
import { encodeId } from '../../lib/ids.ts';
import type { StatementRecord } from './statement.store.ts';

type RestStatement = components['schemas']['Statement'];

/** A statement as events carry it: never a download URL (those are read over GraphQL, each for an hour). */
export function presentStatement(statement: StatementRecord): RestStatement {
  return {
    id: encodeId('statement', statement.id),
    accountId: encodeId('account', statement.accountId),
    startOn: statement.startOn,
    endOn: statement.endOn,
    issuedOn: statement.issuedOn,
    status: statement.status,
    failureReason: statement.failureReason,
    size: statement.size,
    sha256: statement.sha256,
    at: statement.createdAt.toISOString(),
  };
}
