import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { isSessionNotOpened } from './session-guard.ts';

/** How often an outage's end is looked for. */
const PROBE_INTERVAL_MS = 1000;

/** The socket failing: PostgreSQL stopped, unreachable, or its host unknown. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);
/**
 * SQLSTATEs that say the database is unavailable whatever statement met them: class 08 (connection
 * exceptions), class 57P (the session ended by the server: shut down or terminated, crashed, starting
 * up, database dropped, idle timeout), 53300 (too many connections) and 25006 (a read-only
 * transaction: a primary demoted to a standby, or a database an operator made read-only).
 */
const UNAVAILABLE_STATE = /^08[0-9A-Z]{3}$|^57P[0-9A-Z]{2}$|^53300$|^25006$/;
/**
 * Where PostgreSQL refuses a session as it starts (the database disallows connections, no longer
 * exists, or refuses the login): the error's `routine`, which is never translated. It tells a pool
 * other than the ORM's (pg-boss's) that the session was not opened, where the SQLSTATE alone would
 * not: PostgreSQL raises 55000 for statements too.
 */
const SESSION_START_ROUTINES = new Set(['CheckMyDatabase', 'InitPostgres', 'auth_failed']);
/**
 * What pg and pg-pool say, without a code, when a connection ends or cannot be had in time; and what
 * pg-boss says when its LISTEN connection ends or stops answering.
 */
const CONNECTION_LOST =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|LISTEN\/NOTIFY (connection ended|heartbeat timed out))/;
const MAX_CAUSES = 5;

/**
 * Whether `error` (or one of its causes) says the database cannot be used, rather than that a
 * statement failed: a session that could not be opened, for any reason (SessionNotOpened: this
 * covers the SQLSTATEs PostgreSQL also raises for statements, such as 55000 from a database that
 * disallows connections), a session PostgreSQL refused as it started, a socket error, an
 * unavailable SQLSTATE, or a connection lost. An error may come as a plain object copied from one:
 * pg-boss reports a failed refresh of its queue cache as `{ ...error, message, stack }`.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let cause = error;
  for (let depth = 0; typeof cause === 'object' && cause !== null && depth < MAX_CAUSES; depth++, cause = (cause as { cause?: unknown }).cause) {
    if (isSessionNotOpened(cause)) return true;
    const { code, routine, message } = cause as { code?: unknown; routine?: unknown; message?: unknown };
    if (typeof routine === 'string' && SESSION_START_ROUTINES.has(routine)) return true;
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_STATE.test(code))) return true;
    if (typeof message === 'string' && CONNECTION_LOST.test(message)) return true;
  }
  return false;
}

/**
 * The outage's probe: the database takes writes again. `select 1` alone would end the outage of a
 * primary demoted to a standby (25006), which still answers reads.
 */
export async function takesWrites(orm: MikroORM): Promise<void> {
  const [row] = await orm.em.getConnection().execute<Array<{ writable: boolean }>>("select current_setting('transaction_read_only') = 'off' as writable");
  if (!row?.writable) throw new Error('the database takes no writes');
}

/**
 * Logs a database outage once when a request first meets it and once when it ends, rather than an
 * error with a stack per refused request: after the first, `probe` runs every PROBE_INTERVAL_MS
 * until it succeeds.
 */
export class DatabaseOutage {
  readonly #probe: () => Promise<unknown>;
  readonly #log: Logger;
  #since: number | undefined;
  #timer: NodeJS.Timeout | undefined;
  #probing = false;
  #closing = false;

  constructor(probe: () => Promise<unknown>, log: Logger) {
    this.#probe = probe;
    this.#log = log;
  }

  /**
   * A background loop's failure (a relay, a poll, the job queue): an unavailable database is the
   * outage's to log, once; any other failure is logged as `message`, with its stack.
   */
  report(error: unknown, log: Logger, message: string, fields: Record<string, unknown> = {}): void {
    if (isDatabaseUnavailable(error)) this.notice(error);
    else log.error({ ...fields, err: error }, message);
  }

  /**
   * Records that the database did not answer; the first notice of an outage logs it and starts
   * probing. Once the service closes its databases (closing), a job still running past the queue's
   * graceful stop loses its connection by design: that is no outage, and it is not reported.
   */
  notice(error: unknown): void {
    if (this.#since !== undefined || this.#closing) return;
    this.#since = Date.now();
    const { code } = error as { code?: unknown };
    this.#log.error(
      { reason: typeof code === 'string' ? code : error instanceof Error ? error.message : String(error) },
      'PostgreSQL does not answer: requests that need it get 503 NOT_READY until it does',
    );
    this.#timer = setInterval(() => void this.#check(), PROBE_INTERVAL_MS).unref();
  }

  async #check(): Promise<void> {
    // A probe can hang as long as a connection attempt does: one at a time.
    if (this.#probing) return;
    this.#probing = true;
    try {
      await this.#probe();
    } catch {
      return;
    } finally {
      this.#probing = false;
    }
    this.#log.info({ outageMs: Date.now() - this.#since! }, 'PostgreSQL answers again');
    this.close();
  }

  close(): void {
    clearInterval(this.#timer);
    this.#since = undefined;
  }

  /** The service is closing its databases: from now on their connections end on purpose (see notice). */
  closing(): void {
    this.close();
    this.#closing = true;
  }
}
