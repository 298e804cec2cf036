import type { MikroORM } from '@mikro-orm/postgresql';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import { OperatorAccounts } from './operator.service.ts';
import { hasOperators } from './operator.store.ts';

/** The first operator's sign-in, shown once by the start that created them. */
export interface FirstOperator {
  email: string;
  password: string;
}

/**
 * On a database without operators (a first start, or the first start of a version with the console):
 * creates one, owner of every environment (those made later too), with a random password returned
 * to be printed once. It is never logged or written anywhere: lost, it is replaced with
 * `npm run cli -- operators reset <email>`.
 */
export async function createFirstOperator(orm: MikroORM, cipher: FieldCipher, email: string): Promise<FirstOperator | undefined> {
  const em = orm.em.fork();
  if (await hasOperators(em)) return undefined;
  const { operator, password } = await new OperatorAccounts(em, cipher).create(email, 'OWNER', null);
  return { email: operator.email, password };
}
