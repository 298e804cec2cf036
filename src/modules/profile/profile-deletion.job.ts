import type { MikroORM } from '@mikro-orm/postgresql';
import { profileBlobPrefix } from '../../blobs/blob-keys.ts';
import type { BlobStore } from '../../blobs/blob-store.ts';
import type { JobDefinition } from '../../jobs/queue.ts';
import { recordEvent } from '../event/event.service.ts';
import { presentProfileSummary } from './profile.presenter.ts';
import { profilesBeingDeleted, removeProfile } from './profile.store.ts';

export const PROFILE_DELETION = 'profile.delete';

/**
 * Removes the blobs (statements) and then the rows of profiles marked as deleting, the rows in one
 * transaction with the `profile.deleted` event. Blobs go first: should their removal fail, the
 * profile is still marked and the next run tries again. Enqueued by DELETE /v1/profiles/{id}; also swept every minute so a
 * deletion whose enqueue was lost (a crash right after the 202) still completes.
 */
export function profileDeletionJob(orm: MikroORM, blobs: BlobStore): JobDefinition<{ profileId?: string }> {
  return {
    name: PROFILE_DELETION,
    cron: '* * * * *',
    async handle({ profileId }) {
      const em = orm.em.fork();
      const doomed = await profilesBeingDeleted(em, profileId);
      for (const profile of doomed) {
        await blobs.deletePrefix(profileBlobPrefix(profile.id));
        await em.transactional(async (tx) => {
          recordEvent(tx, profile.environment.id, 'profile.deleted', profile, presentProfileSummary(profile));
          await removeProfile(tx, profile.id);
        });
      }
    },
  };
}
