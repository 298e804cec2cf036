import type { EntityManager } from '@mikro-orm/postgresql';
import { conflict, forbidden, notFound } from '../../errors.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { Operator, OperatorGrant, type OperatorEntity, type OperatorGrantEntity, type OperatorRole } from './operator.entity.ts';
import { endOperatorSessions, grantOf, grantsOf, operatorByEmail, operatorById } from './operator.store.ts';
import { hashPassword, randomPassword } from './password.ts';
import { acceptedStep, newTotpSecret } from './totp.ts';

/** The field name the TOTP secret is encrypted under (bound to the operator's row). */
export const TOTP_FIELD = 'totpSecret';

/** Emails compare case-insensitively: stored and looked up lower case, without surrounding spaces. */
export function normalEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** An operator and every role they hold. */
export interface OperatorWithGrants {
  operator: OperatorEntity;
  grants: OperatorGrantEntity[];
}

/** Who asks for a change to operators: the roles they hold (an owner may change only what their roles cover). */
export type Authority = { kind: 'cli' } | { kind: 'operator'; grants: OperatorGrantEntity[] };

/**
 * Operators' accounts: creation, roles, disabling, password resets and TOTP, for the REST handlers
 * and the CLI alike. One flush per operation.
 */
export class OperatorAccounts {
  readonly #em: EntityManager;
  readonly #cipher: FieldCipher;
  readonly #now: () => Date;

  constructor(em: EntityManager, cipher: FieldCipher, now: () => Date = () => new Date()) {
    this.#em = em;
    this.#cipher = cipher;
    this.#now = now;
  }

  /** A new operator with `role` in `environmentId` (null: every environment) and a random password, returned once. */
  async create(email: string, role: OperatorRole, environmentId: string | null): Promise<OperatorWithGrants & { password: string }> {
    const normal = normalEmail(email);
    if (await operatorByEmail(this.#em, normal)) throw conflict(`An operator with the email ${normal} exists already`, { instruction: 'Give them a role with PATCH /v1/operators/{operatorId}, or choose another email.' });
    const password = randomPassword();
    const operator = this.#em.create(Operator, { id: uuidv7(), email: normal, passwordHash: await hashPassword(password), disabledAt: null, totpSecretEncrypted: null, totpPendingEncrypted: null, totpLastStep: null, totpRequired: false });
    const grant = this.#em.create(OperatorGrant, { id: uuidv7(), operator, environment: environmentId, role });
    await this.#em.flush();
    return { operator, grants: [grant], password };
  }

  /** The operator with this id (or, for the CLI, this email), with their roles; 404 when there is none. */
  async find(idOrEmail: string): Promise<OperatorWithGrants> {
    const operator = idOrEmail.includes('@') ? await operatorByEmail(this.#em, normalEmail(idOrEmail)) : await operatorById(this.#em, idOrEmail);
    if (!operator) throw notFound('Operator');
    return { operator, grants: (await grantsOf(this.#em, [operator.id])).get(operator.id) ?? [] };
  }

  /** Sets the operator's role in one environment; null takes it away. */
  async setRole(target: OperatorWithGrants, environmentId: string, role: OperatorRole | null): Promise<void> {
    const grant = await grantOf(this.#em, target.operator.id, environmentId);
    if (role === null) {
      if (grant) this.#em.remove(grant);
    } else if (grant) grant.role = role;
    else this.#em.create(OperatorGrant, { id: uuidv7(), operator: target.operator, environment: environmentId, role });
    await this.#em.flush();
  }

  /** Disables (ending every session at once) or enables an operator everywhere. */
  async setDisabled(authority: Authority, target: OperatorWithGrants, disabled: boolean): Promise<void> {
    assertCovers(authority, target);
    if (disabled === (target.operator.disabledAt !== null)) return;
    target.operator.disabledAt = disabled ? this.#now() : null;
    await this.#em.transactional(async (tx) => {
      await tx.flush();
      if (disabled) await endOperatorSessions(tx, target.operator.id, this.#now());
    });
  }

  async setTotpRequired(authority: Authority, target: OperatorWithGrants, required: boolean): Promise<void> {
    assertCovers(authority, target);
    target.operator.totpRequired = required;
    await this.#em.flush();
  }

  /** A new random password, returned once; TOTP goes off (a lost authenticator is the usual reason) and every session ends. */
  async resetPassword(authority: Authority, target: OperatorWithGrants): Promise<string> {
    assertCovers(authority, target);
    const password = randomPassword();
    Object.assign(target.operator, { passwordHash: await hashPassword(password), totpSecretEncrypted: null, totpPendingEncrypted: null, totpLastStep: null });
    await this.#em.transactional(async (tx) => {
      await tx.flush();
      await endOperatorSessions(tx, target.operator.id, this.#now());
    });
    return password;
  }

  /** Starts TOTP enrolment: a new secret, kept encrypted until a code confirms it, returned once. */
  async startTotp(operator: OperatorEntity): Promise<{ secret: string; uri: string }> {
    if (operator.totpSecretEncrypted !== null) throw conflict('TOTP is on already', { instruction: 'An owner resets your password to turn it off, if your authenticator is lost.' });
    const enrolment = newTotpSecret(operator.email);
    operator.totpPendingEncrypted = this.#cipher.encrypt(TOTP_FIELD, operator, enrolment.secret);
    await this.#em.flush();
    return enrolment;
  }

  /** Turns TOTP on with the pending secret, when `code` is a current code of it; false when it is not. */
  async confirmTotp(operator: OperatorEntity, code: string): Promise<boolean> {
    if (operator.totpSecretEncrypted !== null) throw conflict('TOTP is on already');
    const pending = operator.totpPendingEncrypted;
    if (!pending) throw conflict('No TOTP enrolment was started', { instruction: 'Start one with POST /v1/console/totp.' });
    const step = acceptedStep(this.#cipher.decrypt(TOTP_FIELD, operator, pending), code, this.#now(), null);
    if (step === undefined) return false;
    Object.assign(operator, { totpSecretEncrypted: pending, totpPendingEncrypted: null, totpLastStep: step });
    await this.#em.flush();
    return true;
  }
}

/**
 * Refuses a change to an operator everywhere (disable, reset, TOTP) unless the caller owns every
 * environment the operator has a role in: an owner of one environment cannot lock out an owner of
 * another. An every-environment owner covers everyone; the CLI (the machine's administrator) too.
 */
function assertCovers(authority: Authority, target: OperatorWithGrants): void {
  if (authority.kind === 'cli') return;
  const owned = new Set(authority.grants.filter((grant) => grant.role === 'OWNER').map((grant) => grant.environment?.id ?? null));
  if (owned.has(null)) return;
  if (target.grants.every((grant) => grant.environment && owned.has(grant.environment.id))) return;
  throw forbidden('This operator has roles in environments you do not own', { instruction: 'Ask an owner of every environment they have a role in (or of all environments).' });
}
