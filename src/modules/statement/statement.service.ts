import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Db } from 'pg-boss';
import type { Logger } from 'pino';
import { profileBlobPrefix } from '../../blobs/blob-keys.ts';
import type { BlobStore } from '../../blobs/blob-store.ts';
import { jobsIn } from '../../jobs/in-transaction.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import type { Provider } from '../../providers/provider.ts';
import type { ProviderStatement, StatementDocument } from '../../providers/provider-statements.ts';
import type { ConnectionEntity } from '../connection/connection.entity.ts';
import { connectionById, connectionOrFail, INACTIVE, keyOf } from '../connection/connection.store.ts';
import { recordEvent } from '../event/event.service.ts';
import { presentStatement } from './statement.presenter.ts';
import { countRefusal, insertListed, markReady, pendingOfConnection, statementToFetch, type StatementToFetch } from './statement.store.ts';

/** The largest statement PDF Tributary keeps (bank statements weigh kilobytes to a few megabytes). */
export const MAX_STATEMENT_BYTES = 20 * 1024 * 1024;
/** Documents refused (too large, not a PDF, a digest that did not match) before a statement is FAILED. */
export const ALLOWED_REFUSALS = 3;

/** Where a statement's PDF is kept: under its profile's prefix, which the profile's deletion removes. */
export function statementBlobKey(profileId: string, statementId: string): string {
  return `${profileBlobPrefix(profileId)}statements/${statementId}.pdf`;
}

/** Queues the fetch of these statements' documents, in the caller's transaction (`db` from jobsIn). */
export type QueueFetches = (statementIds: string[], profileId: string, db: Db) => Promise<void>;

/**
 * Records what the provider lists of a connection's statements, under the connection's row lock:
 * each one not stored yet becomes PENDING with `statement.created`, and the fetch of every statement
 * of the connection still PENDING (the new ones, and any whose fetch was lost) is queued in the same
 * transaction. Listing again changes nothing. How many it recorded.
 */
export async function applyListedStatements(em: EntityManager, connection: ConnectionEntity, listed: ProviderStatement[], queueFetches: QueueFetches): Promise<number> {
  return em.transactional(async (tx) => {
    const locked = await connectionOrFail(tx, keyOf(connection), { lock: true, profile: true });
    const owner = { connectionId: connection.id, profileId: connection.profile.id };
    const created = await insertListed(tx, owner, listed);
    for (const statement of created) recordEvent(tx, locked.environment.id, 'statement.created', locked.profile, presentStatement(statement));
    const pending = await pendingOfConnection(tx, owner);
    if (pending.length > 0) await queueFetches(pending, owner.profileId, jobsIn(tx));
    return created.length;
  });
}

/** What fetching a statement's document works with. */
export interface FetchDependencies {
  em: EntityManager;
  cipher: FieldCipher;
  blobs: BlobStore;
  logger: Logger;
  provider(name: string, environmentId: string): Promise<Provider>;
}

/** A document Tributary refuses to keep: the job tries again later, up to ALLOWED_REFUSALS times in all. */
export class DocumentRefused extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'DocumentRefused';
  }
}

/**
 * Fetches a PENDING statement's document once, checks it (at most 20 MB, a PDF, and the provider's
 * SHA-256 when it gives one), stores it in the blob store (encrypted there) and marks the statement
 * READY with `statement.ready`. A refused document is counted and logged and thrown, so the job tries
 * again; the last allowed refusal makes the statement FAILED instead. A statement no longer PENDING,
 * or whose connection is gone, is left as it is.
 */
export async function fetchStatement(deps: FetchDependencies, profileId: string, statementId: string): Promise<void> {
  const statement = await statementToFetch(deps.em, profileId, statementId);
  if (statement?.status !== 'PENDING') return;
  const connection = await connectionById(deps.em, statement.connectionId, { profileId });
  if (!connection || INACTIVE.includes(connection.status) || connection.profile.deletingAt) return;
  const provider = await deps.provider(connection.provider, connection.environment.id);
  if (!provider.statementDocument) return;
  const credential = deps.cipher.decrypt('credential', connection, connection.credentialEncrypted);
  const document = await provider.statementDocument(credential, statement);
  const digest = createHash('sha256').update(document.bytes).digest('hex');
  const refusal = refusalOf(document, digest);
  if (refusal) return refuse(deps, connection, statement, refusal);
  await deps.blobs.put(statementBlobKey(profileId, statementId), document.bytes);
  await deps.em.transactional(async (tx) => {
    const ready = await markReady(tx, profileId, statementId, { size: document.bytes.length, sha256: digest });
    if (ready) recordEvent(tx, connection.environment.id, 'statement.ready', connection.profile, presentStatement(ready));
  });
}

/** Why a document is refused, or undefined when it is kept. */
function refusalOf(document: StatementDocument, digest: string): string | undefined {
  if (document.bytes.length > MAX_STATEMENT_BYTES) return `the document is larger than ${MAX_STATEMENT_BYTES / 1024 / 1024} MB`;
  if (!document.bytes.subarray(0, 5).equals(Buffer.from('%PDF-'))) return 'the document is not a PDF';
  if (document.sha256 !== null && document.sha256.toLowerCase() !== digest) return "the document's SHA-256 does not match the provider's";
  return undefined;
}

async function refuse(deps: FetchDependencies, connection: ConnectionEntity, statement: StatementToFetch, reason: string): Promise<void> {
  const after = await countRefusal(deps.em, connection.profile.id, statement.id, ALLOWED_REFUSALS, reason);
  const failed = after?.status === 'FAILED';
  deps.logger.warn({ statementId: statement.id, connectionId: connection.id, provider: connection.provider, reason, refusals: statement.refusedFetches + 1, failed }, 'statement document refused');
  if (!failed) throw new DocumentRefused(reason);
}
