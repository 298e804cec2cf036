import { ApiKey } from '../modules/environment/api-key.entity.ts';
import { Environment } from '../modules/environment/environment.entity.ts';
import { Event } from '../modules/event/event.entity.ts';
import { Profile } from '../modules/profile/profile.entity.ts';
import { Session } from '../modules/session/session.entity.ts';

/** Every entity the ORM maps; the migrations check compares these to src/db/migrations. */
export const entities = [Environment, ApiKey, Profile, Session, Event];
