import { AppError, conflict, notFound, ValidationError } from '../../errors.ts';
import type { Handlers } from '../../api-kit/rest-handler.ts';
import type { BlobStore } from '../../blobs/blob-store.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import { decodeId } from '../../lib/ids.ts';
import type { ProviderDirectory } from '../../providers/directory.ts';
import { assertServes, providerOffering } from '../connection/capabilities.ts';
import { ConnectionService } from '../connection/connection.service.ts';
import { checkDownload } from './statement-links.ts';
import { statementPeriodIssues } from './statement-period.ts';
import type { StatementJobs } from './statement.jobs.ts';
import { statementBlobKey } from './statement.service.ts';
import { downloadableStatement } from './statement.store.ts';

export interface StatementHandlerDeps {
  cipher: FieldCipher;
  blobs: BlobStore;
  providers: ProviderDirectory;
  jobs: StatementJobs;
}

/** REST handlers of statements: a connection's statements refresh, and the signed download. */
export function statementHandlers({ cipher, blobs, providers, jobs }: StatementHandlerDeps): Handlers<'refreshConnectionStatements' | 'downloadStatement'> {
  return {
    async refreshConnectionStatements({ params, body, credential, em }) {
      const connection = await new ConnectionService(em, cipher, { environmentId: credential.environmentId }).get(params.connectionId);
      await providerOffering(providers, connection, 'STATEMENTS');
      assertServes(connection, 'STATEMENTS', 'a statements refresh');
      const issues = statementPeriodIssues(body, new Date());
      if (issues.length > 0) throw new ValidationError(issues);
      const period = { startOn: body.startOn, endOn: body.endOn };
      if (!(await jobs.refresh(connection.id, connection.profile.id, period))) {
        throw conflict('A statements refresh of this connection is already queued or running', { instruction: 'Wait for its statement.created events, then ask again for another period.' });
      }
      return { status: 202, body: { connectionId: params.connectionId, status: 'QUEUED', ...period } };
    },

    async downloadStatement({ params, query, em }) {
      const claim = { statementId: params.statementId, profileId: query.profile, expires: query.expires };
      const verdict = checkDownload(cipher, claim, query.signature, new Date());
      if (verdict !== 'VALID') {
        throw new AppError(403, 'DOWNLOAD_URL_INVALID', verdict === 'EXPIRED' ? 'The download URL has expired' : 'The download URL is not valid: it was altered, or is not this statement\'s', {
          instruction: 'Read Statement.url over GraphQL again for a fresh URL; each is valid for one hour.',
        });
      }
      const statementId = decodeId('statement', claim.statementId);
      const profileId = decodeId('profile', claim.profileId);
      const statement = statementId && profileId && (await downloadableStatement(em, profileId, statementId));
      if (!statement) throw notFound('Statement');
      const bytes = await blobs.get(statementBlobKey(profileId!, statement.id));
      // A READY statement's document is in the store: one missing was lost there, a failure for the operator.
      if (!bytes) throw new Error(`statement ${claim.statementId} is READY but its document is not in the blob store`);
      const name = `statement-${(statement.mask ?? '').replace(/[^A-Za-z0-9]/g, '') || 'account'}-${statement.endOn}.pdf`;
      return {
        status: 200,
        body: bytes,
        headers: {
          'Content-Type': 'application/pdf',
          'Cache-Control': 'private, no-store',
          'Content-Disposition': `attachment; filename="${name}"`,
          'Repr-Digest': `sha-256=:${Buffer.from(statement.sha256!, 'hex').toString('base64')}:`,
        },
      };
    },
  };
}
