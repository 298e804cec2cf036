import type { EntityManager } from '@mikro-orm/postgresql';
import type { IdOrderPage } from '../../db/list-page.ts';
import { conflict, notFound, ValidationError, type FieldIssue } from '../../errors.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import { isRealDate } from '../../lib/dates.ts';
import { decodeId, uuidv7 } from '../../lib/ids.ts';
import { recordEvent } from '../event/event.service.ts';
import { mergeMetadata } from '../metadata/metadata.ts';
import { Profile, type ProfileEntity, type ProfileNames, type ProfileView } from './profile.entity.ts';
import { presentProfileSummary, type Address } from './profile.presenter.ts';
import { liveProfile, liveProfilePage, liveProfileView, lockProfile, profileByIdOrUuid, updateLiveProfile, uuidTaken, type ProfileFilters } from './profile.store.ts';


/** Profile attributes as callers send them; `undefined` leaves a field alone, `null` clears it. */
export interface ProfileAttributes {
  name?: string | null;
  names?: Partial<ProfileNames> | null;
  email?: string | null;
  phone?: string | null;
  dateOfBirth?: string | null;
  address?: Partial<Address> | null;
  metadata?: unknown;
}

const EMAIL = /^[^\s@"(),:;<>[\\\]]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,}$/;
const E164 = /^\+[1-9]\d{6,14}$/;

/** Profiles of one environment. Every query is scoped by environment; deleting profiles read as absent. */
export class ProfileService {
  readonly #em: EntityManager;
  readonly #cipher: FieldCipher;
  readonly #environmentId: string;

  constructor(em: EntityManager, cipher: FieldCipher, environmentId: string) {
    this.#em = em;
    this.#cipher = cipher;
    this.#environmentId = environmentId;
  }

  list(from: { page: number } | { afterId: string }, limit: number, filters?: ProfileFilters): Promise<IdOrderPage<ProfileEntity>> {
    return liveProfilePage(this.#em, this.#environmentId, from, limit, filters);
  }

  /** The live profile with this public id; 404 when absent, in another environment, or being deleted. */
  get(publicId: string): Promise<ProfileEntity> {
    return this.#live(publicId, liveProfile);
  }

  /** The live profile with this public id as REST presents it, read without an entity (the GET path); 404 as `get`. */
  view(publicId: string): Promise<ProfileView> {
    return this.#live(publicId, liveProfileView);
  }

  async #live<T>(publicId: string, read: (em: EntityManager, id: string, environmentId: string) => Promise<T | undefined>): Promise<T> {
    const id = decodeId('profile', publicId);
    const found = id && (await read(this.#em, id, this.#environmentId));
    if (!found) throw notFound('Profile');
    return found;
  }

  /** Looks a profile up by public id or by its uuid (session issuing accepts either). */
  async findByIdOrUuid(idOrUuid: string): Promise<ProfileEntity | null> {
    const id = decodeId('profile', idOrUuid);
    const key = id ? { id } : isUuid(idOrUuid) ? { uuid: idOrUuid.toLowerCase() } : undefined;
    return key ? profileByIdOrUuid(this.#em, this.#environmentId, key) : null;
  }

  async create(attributes: ProfileAttributes & { uuid?: string }): Promise<ProfileEntity> {
    const uuid = (attributes.uuid ?? crypto.randomUUID()).toLowerCase();
    if (await uuidTaken(this.#em, this.#environmentId, uuid)) {
      throw conflict(`A profile with uuid ${uuid} already exists in this environment`, {
        instruction: 'Use a different uuid, or omit it to have one generated.',
      });
    }
    const profile = this.#em.create(Profile, {
      id: uuidv7(),
      environment: this.#environmentId,
      uuid,
      name: null,
      names: null,
      emailEncrypted: null,
      phoneEncrypted: null,
      dateOfBirthEncrypted: null,
      addressEncrypted: null,
      metadata: null,
      deletingAt: null,
      readyAt: null,
    });
    this.#apply(profile, attributes);
    recordEvent(this.#em, this.#environmentId, 'profile.created', profile, presentProfileSummary(profile));
    await this.#em.flush();
    return profile;
  }

  /**
   * Updates the live profile with this public id (404 when absent, in another environment, or being
   * deleted) holding its row lock, so that concurrent metadata merges all land.
   */
  async updateById(publicId: string, attributes: ProfileAttributes): Promise<ProfileEntity> {
    const id = decodeId('profile', publicId);
    if (!id) throw notFound('Profile');
    return updateLiveProfile(this.#em, this.#environmentId, id, () => notFound('Profile'), (profile) => {
      this.#apply(profile, attributes);
      return profile;
    });
  }

  /** The profile read again under its row lock, held until the caller's transaction ends (session issuing counts tokens under it). */
  lock(profile: ProfileEntity): Promise<ProfileEntity> {
    return lockProfile(this.#em, profile.id);
  }

  /** Updates a profile the caller read under its row lock (session issuing does); `updateById` takes the lock itself. */
  async update(profile: ProfileEntity, attributes: ProfileAttributes): Promise<ProfileEntity> {
    this.#apply(profile, attributes);
    await this.#em.flush();
    return profile;
  }

  /** Marks the profile as being deleted; it reads as absent from now on. Row removal runs in the background. */
  async markDeleting(publicId: string): Promise<ProfileEntity> {
    const profile = await this.get(publicId);
    profile.deletingAt = new Date();
    await this.#em.flush();
    return profile;
  }

  /** Validates every attribute first (reporting all problems at once), then applies them. */
  #apply(profile: ProfileEntity, attributes: ProfileAttributes): void {
    const issues = checkAttributes(attributes);
    let metadata = profile.metadata;
    try {
      metadata = mergeMetadata(profile.metadata, attributes.metadata);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      issues.push(...error.issues);
    }
    if (issues.length > 0) throw new ValidationError(issues);
    const cipher = this.#cipher;
    if (attributes.name !== undefined) profile.name = attributes.name;
    if (attributes.names !== undefined) profile.names = attributes.names && { first: null, middle: null, last: null, ...attributes.names };
    if (attributes.email !== undefined) profile.emailEncrypted = cipher.encrypt('email', profile, attributes.email);
    if (attributes.phone !== undefined) profile.phoneEncrypted = cipher.encrypt('phone', profile, attributes.phone);
    if (attributes.dateOfBirth !== undefined) profile.dateOfBirthEncrypted = cipher.encrypt('dateOfBirth', profile, attributes.dateOfBirth);
    if (attributes.address !== undefined) {
      const address = attributes.address && { line1: null, line2: null, city: null, region: null, postalCode: null, country: null, ...attributes.address };
      profile.addressEncrypted = cipher.encrypt('address', profile, address && JSON.stringify(address));
    }
    profile.metadata = metadata;
  }
}

/**
 * Marks a profile ready, with `profile.ready`, the first time one of its connections finishes a sync
 * (enrichment runs inside it); in the caller's unit of work. Later calls change nothing.
 */
export function markProfileReady(em: EntityManager, profile: ProfileEntity): void {
  if (profile.readyAt) return;
  profile.readyAt = new Date();
  recordEvent(em, profile.environment.id, 'profile.ready', profile, presentProfileSummary(profile));
}

/** Domain rules on profile attributes beyond the contract's shapes (GraphQL input reaches here unchecked). */
function checkAttributes(attributes: ProfileAttributes): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const { email, phone, dateOfBirth } = attributes;
  if (email != null && (email.length > 254 || !EMAIL.test(email))) issues.push({ path: ['email'], message: 'email must be a valid email address' });
  if (phone != null && !E164.test(phone)) issues.push({ path: ['phone'], message: 'phone must be in E.164 format, e.g. +14155550123' });
  if (dateOfBirth != null && !isPastDate(dateOfBirth)) {
    issues.push({ path: ['dateOfBirth'], message: 'dateOfBirth must be a real date (YYYY-MM-DD) after 1900-01-01 and not in the future' });
  }
  return issues;
}

function isPastDate(value: string): boolean {
  return isRealDate(value) && value >= '1900-01-01' && new Date(`${value}T00:00:00Z`).getTime() <= Date.now();
}

function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}
