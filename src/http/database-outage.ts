import { AppError } from '../errors.ts';

/** Seconds a client is asked to wait while the database does not answer (src/db/database-outage.ts probes it every second meanwhile). */
const RETRY_AFTER_SECONDS = 5;

/** 503 NOT_READY: the request needed the database, which did not answer; nothing was read or changed. */
export const databaseUnavailable = () =>
  new AppError(503, 'NOT_READY', 'The service cannot reach its database', {
    instruction: `Retry after ${RETRY_AFTER_SECONDS} seconds; nothing was read or changed.`,
    headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
  });
