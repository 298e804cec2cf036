import type { EntityManager } from '@mikro-orm/postgresql';
import type { FieldCipher } from '../../src/lib/field-cipher.ts';
import { decodeId, encodeId } from '../../src/lib/ids.ts';
import { OperatorError } from '../../src/modules/environment/environment.service.ts';
import { OPERATOR_ROLES, type OperatorRole } from '../../src/modules/operator/operator.entity.ts';
import { OperatorAccounts, type OperatorWithGrants } from '../../src/modules/operator/operator.service.ts';
import { allOperators, grantsOf } from '../../src/modules/operator/operator.store.ts';
import type { OptionValues } from './commands.ts';

const describe = ({ operator, grants }: OperatorWithGrants) =>
  `${encodeId('operator', operator.id)}  ${operator.disabledAt ? 'disabled' : 'active  '}  ${operator.totpSecretEncrypted ? 'totp' : '    '}  ${operator.email}  ${grants.map((grant) => `${grant.environment ? encodeId('environment', grant.environment.id) : 'every environment'}:${grant.role}`).join(' ')}`;

/** `operators list|create|disable|reset`: the console's operator accounts, for the machine's administrator. */
export async function operatorsCommand(em: EntityManager, cipher: FieldCipher, verb: string, args: string[], values: OptionValues): Promise<void> {
  const accounts = new OperatorAccounts(em, cipher);
  const target = async () => {
    const [idOrEmail] = args;
    if (!idOrEmail) throw new OperatorError('an operator id (op_…) or email is required');
    const id = idOrEmail.includes('@') ? idOrEmail : decodeId('operator', idOrEmail);
    if (!id) throw new OperatorError(`${idOrEmail} is not an operator id (op_…) or an email`);
    return accounts.find(id).catch(() => {
      throw new OperatorError(`no operator ${idOrEmail}`);
    });
  };
  switch (verb) {
    case 'list': {
      const operators = await allOperators(em);
      const grants = await grantsOf(em, operators.map((operator) => operator.id));
      for (const operator of operators) console.log(describe({ operator, grants: grants.get(operator.id) ?? [] }));
      return;
    }
    case 'create': {
      if (!values.email) throw new OperatorError('--email is required');
      const role = values.role as OperatorRole;
      if (!OPERATOR_ROLES.includes(role)) throw new OperatorError(`--role must be one of ${OPERATOR_ROLES.join(', ')}`);
      const environmentId = values.environment === undefined ? null : decodeId('environment', values.environment);
      if (environmentId === undefined) throw new OperatorError(`${values.environment} is not an environment id (env_…)`);
      const { password, ...created } = await accounts.create(values.email, role, environmentId).catch((error: Error) => {
        throw new OperatorError(error.message);
      });
      console.log(`created ${describe(created)}\n\nPassword (shown this once; give it to them now):\n\n  ${password}\n`);
      return;
    }
    case 'disable': {
      const operator = await target();
      await accounts.setDisabled({ kind: 'cli' }, operator, true);
      console.log(`disabled ${describe(operator)}; their console sessions have ended`);
      return;
    }
    case 'reset': {
      const operator = await target();
      const password = await accounts.resetPassword({ kind: 'cli' }, operator);
      console.log(`reset ${describe(operator)}; TOTP is off and their sessions have ended\n\nNew password (shown this once):\n\n  ${password}\n`);
    }
  }
}
