import type { EntityManager } from '@mikro-orm/postgresql';
import { notFound, ValidationError } from '../../errors.ts';
import type { Credential } from '../../api-kit/credential.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import { encodeId } from '../../lib/ids.ts';
import { pageHeaders, pageOrCursor } from '../../api-kit/pagination.ts';
import type { Db } from 'pg-boss';
import { jobsIn } from '../../jobs/in-transaction.ts';
import type { Handlers } from '../../api-kit/rest-handler.ts';
import { presentProfile } from './profile.presenter.ts';
import { ProfileService } from './profile.service.ts';

export interface ProfileHandlerDeps {
  cipher: FieldCipher;
  /** Starts the background removal of a profile marked as deleting. */
  /** Queues the deletion job; `db` runs it in the caller's transaction. */
  scheduleDeletion: (profileId: string, db: Db) => Promise<void>;
}

type ProfileOperations = 'listProfiles' | 'createProfile' | 'getProfile' | 'updateProfile' | 'deleteProfile';

/** REST handlers for /v1/profiles. Basic Auth reaches only its own profile; any other id reads 404. */
export function profileHandlers({ cipher, scheduleDeletion }: ProfileHandlerDeps): Handlers<ProfileOperations> {
  const service = (em: EntityManager, { environmentId }: Credential) => new ProfileService(em, cipher, environmentId);
  return {
    async listProfiles({ query, credential, em }) {
      const { from, limit } = pageOrCursor(query, 'profile');
      const filters = { uuid: query.uuid, metadata: query.metadata === undefined ? undefined : metadataFilterOf(query.metadata) };
      const { items, total, page, nextAfter } = await service(em, credential).list(from, limit, filters);
      const headers = pageHeaders(page, limit, total, items.length, nextAfter && encodeId('profile', nextAfter));
      return { status: 200, body: items.map((profile) => presentProfile(profile, cipher)), headers };
    },
    async createProfile({ body, credential, em }) {
      const profile = await service(em, credential).create(body);
      return { status: 201, body: presentProfile(profile, cipher) };
    },
    async getProfile({ params, credential, em }) {
      const profile = await service(em, credential).view(ownProfileId(credential, params.profileId));
      return { status: 200, body: presentProfile(profile, cipher) };
    },
    async updateProfile({ params, body, credential, em }) {
      const profile = await service(em, credential).updateById(ownProfileId(credential, params.profileId), body);
      return { status: 200, body: presentProfile(profile, cipher) };
    },
    async deleteProfile({ params, credential, em }) {
      // The mark and its job commit together: a deletion can never be left without the job that finishes it.
      const profile = await em.transactional(async (tx) => {
        const marked = await service(tx, credential).markDeleting(params.profileId);
        await scheduleDeletion(marked.id, jobsIn(tx));
        return marked;
      });
      return { status: 202, body: { id: encodeId('profile', profile.id), status: 'DELETING' } };
    },
  };
}

/** `?metadata=` read as a JSON object of scalar values; anything else is a 422 naming the parameter. */
function metadataFilterOf(text: string): Record<string, string | number | boolean> {
  const problem = () => new ValidationError([{ path: ['metadata'], message: 'metadata must be a JSON object of string, number or boolean values' }]);
  let filter: unknown;
  try {
    filter = JSON.parse(text);
  } catch {
    throw problem();
  }
  if (!filter || typeof filter !== 'object' || Array.isArray(filter) || Object.keys(filter).length === 0) throw problem();
  if (Object.values(filter).some((value) => value === null || typeof value === 'object')) throw problem();
  return filter as Record<string, string | number | boolean>;
}

/** The profile id a credential may address: any in its environment for an API key, only its own for Basic Auth. */
function ownProfileId(credential: Credential, requested: string): string {
  if (credential.kind === 'basic' && encodeId('profile', credential.profileId) !== requested) throw notFound('Profile');
  return requested;
}
