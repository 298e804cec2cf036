import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { AppError } from '../errors.ts';
import type { CredentialResolver } from '../http/credentials.ts';

/** How often: the credential cache's own re-check interval, so a revocation is seen within about two. */
const RECHECK_MS = 1000;

/**
 * Re-checks the credentials of long-lived live-update connections once a second, one check per
 * distinct credential however many connections present it (through the resolver's cache, which
 * holds an answer until the revocation feed evicts it, or rechecks once a second while the feed
 * cannot vouch for it), and tells each connection of one that
 * is no longer valid (revoked, expired, its profile deleted). A check that fails for another reason
 * (the database unreachable) closes nothing: the feed's own outage handling covers that.
 */
export class CredentialWatch {
  readonly #credentials: CredentialResolver;
  readonly #orm: MikroORM;
  readonly #logger: Logger;
  readonly #watchers = new Map<string, Set<() => void>>();
  readonly #timer: NodeJS.Timeout;

  constructor(credentials: CredentialResolver, orm: MikroORM, logger: Logger) {
    this.#credentials = credentials;
    this.#orm = orm;
    this.#logger = logger;
    this.#timer = setInterval(() => void this.#recheck(), RECHECK_MS);
    this.#timer.unref();
  }

  /** Calls `invalid` once `header` stops being valid; until the returned function is called. */
  watch(header: string, invalid: () => void): () => void {
    let watchers = this.#watchers.get(header);
    if (!watchers) this.#watchers.set(header, (watchers = new Set()));
    watchers.add(invalid);
    return () => {
      watchers.delete(invalid);
      if (watchers.size === 0 && this.#watchers.get(header) === watchers) this.#watchers.delete(header);
    };
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  async #recheck(): Promise<void> {
    for (const [header, watchers] of [...this.#watchers]) {
      try {
        await (await this.#credentials.claim(header)).resolve(() => this.#orm.em.fork(), async () => {});
      } catch (error) {
        if (!(error instanceof AppError)) {
          this.#logger.warn({ err: error }, 'Could not re-check a live-update credential');
          continue;
        }
        this.#watchers.delete(header);
        for (const invalid of watchers) invalid();
      }
    }
  }
}
