import { createSecretKey, type KeyObject } from 'node:crypto';
import { secretCheckValue } from './secret-check-value.ts';

/** A named session key as SESSION_KEYS lists it: `<id>:<secret>`. */
export interface NamedSessionKey {
  id: string;
  secret: string;
}

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
export const MIN_SESSION_SECRET_LENGTH = 32;

/**
 * Parses SESSION_KEYS, `<id>:<secret>[,<id>:<secret>…]` (newest first; a secret is everything after
 * its first colon and holds no comma), into its keys, or the problems that keep it from being one
 * (which name ids, never secrets).
 */
export function parseSessionKeys(list: string): { keys: NamedSessionKey[]; problems: string[] } {
  const keys: NamedSessionKey[] = [];
  const problems: string[] = [];
  for (const [index, entry] of list.split(',').entries()) {
    const separator = entry.indexOf(':');
    const id = separator < 0 ? '' : entry.slice(0, separator).trim();
    const secret = separator < 0 ? '' : entry.slice(separator + 1).trim();
    if (!KEY_ID.test(id)) problems.push(`SESSION_KEYS entry ${index + 1} must be <id>:<secret>, the id 1-32 of [A-Za-z0-9_-]`);
    else if (keys.some((key) => key.id === id)) problems.push(`SESSION_KEYS names the id "${id}" twice`);
    else if (secret.length < MIN_SESSION_SECRET_LENGTH) problems.push(`SESSION_KEYS key "${id}" must be at least ${MIN_SESSION_SECRET_LENGTH} characters`);
    else keys.push({ id, secret });
  }
  return { keys, problems };
}

/**
 * The keys session tokens are signed (HS256) and verified with. `named` is SESSION_KEYS, newest first:
 * its first key signs and names itself in the token's `kid` header; every one verifies the tokens
 * that name it. `unnamed` is SESSION_SECRET, the key of tokens that name none (every token issued
 * before SESSION_KEYS existed); it signs only while no named key is configured, and then without a
 * `kid`, as before. So an operator rotates by listing keys, never by replacing one (which signed
 * everyone out), and a deployment that sets only SESSION_SECRET runs as it always did.
 */
export class SessionKeyRing {
  /** KeyObjects, made once: jose imports raw key bytes anew on every call, but keeps the key it derives from a KeyObject. */
  readonly #named: Map<string, KeyObject>;
  readonly #unnamed: KeyObject | undefined;
  readonly #secrets: Map<string, string>;
  readonly #signingId: string | undefined;

  constructor(named: NamedSessionKey[], unnamed: string | undefined) {
    if (named.length === 0 && unnamed === undefined) throw new Error('SessionKeyRing needs SESSION_KEYS or SESSION_SECRET');
    for (const { id, secret } of named) {
      if (!KEY_ID.test(id)) throw new Error(`session key id "${id}" must be 1-32 of [A-Za-z0-9_-]`);
      if (secret.length < MIN_SESSION_SECRET_LENGTH) throw new Error(`session key "${id}" must be at least ${MIN_SESSION_SECRET_LENGTH} characters`);
    }
    this.#named = new Map(named.map(({ id, secret }) => [id, createSecretKey(secret, 'utf8')]));
    this.#secrets = new Map(named.map(({ id, secret }) => [id, secret]));
    this.#unnamed = unnamed === undefined ? undefined : createSecretKey(unnamed, 'utf8');
    if (unnamed !== undefined) this.#secrets.set('', unnamed);
    this.#signingId = named[0]?.id;
  }

  /** A ring of SESSION_SECRET alone (tools, tests, a deployment without SESSION_KEYS). */
  static ofSecret(secret: string): SessionKeyRing {
    return new SessionKeyRing([], secret);
  }

  /** The key new tokens are signed with, and the `kid` they carry (undefined: SESSION_SECRET, no `kid`). */
  get signing(): { kid: string | undefined; key: KeyObject } {
    return this.#signingId === undefined ? { kid: undefined, key: this.#unnamed! } : { kid: this.#signingId, key: this.#named.get(this.#signingId)! };
  }

  /**
   * The key a token naming `kid` (or none) verifies with; undefined when this ring does not hold it.
   * A ring of SESSION_SECRET alone verifies every token with it, whatever key the token names, as
   * before SESSION_KEYS existed: so while a deployment moves to SESSION_KEYS by naming its current
   * secret (`s1:<SESSION_SECRET>`), an instance not yet restarted verifies what a restarted one signs.
   */
  verifying(kid: string | undefined): KeyObject | undefined {
    if (this.#named.size === 0 || kid === undefined) return this.#unnamed;
    return this.#named.get(kid);
  }

  /** Ids of SESSION_KEYS, the signing one first. */
  get keyIds(): string[] {
    return [...this.#named.keys()];
  }

  /** Whether SESSION_SECRET is configured (tokens without a `kid` verify). */
  get hasUnnamed(): boolean {
    return this.#unnamed !== undefined;
  }

  /** The check value (src/db/key-check.ts) of SESSION_KEYS key `keyId`, or of SESSION_SECRET for `''`: never the key itself. */
  checkValueOf(keyId: string, salt: Buffer): Promise<string> {
    const secret = this.#secrets.get(keyId);
    if (secret === undefined) throw new Error(`session key "${keyId}" is not configured`);
    return secretCheckValue(secret, salt);
  }
}
