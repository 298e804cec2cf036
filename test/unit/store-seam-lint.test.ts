import path from 'node:path';
import { ESLint, Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });
const linter = new Linter({ configType: 'flat' });

/** The lines of `code` the seam rule flags when it sits in `file`: the rule as eslint.config.js sets it for that file, on the parser alone (no type information). */
async function flagged(file: string, code: string): Promise<number[]> {
  const { rules } = (await eslint.calculateConfigForFile(file)) as Linter.Config;
  const seam = rules?.['no-restricted-syntax'];
  if (!seam) return [];
  const messages = linter.verify(code, [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser }, rules: { 'no-restricted-syntax': seam } }], 'code.ts');
  return messages.map((message) => message.line);
}

const READS = [
  'em.find(Profile, {});',
  'tx.findOne(Profile, { id });',
  'this.#em.findOneOrFail(Profile, { id });',
  'this.#em.findAndCount(Profile, {});',
  'ctx.state.em.count(Profile, {});',
  'orm.em.fork().findAll(Profile);',
  'em.createQueryBuilder(Profile);',
  'tx.qb(Profile);',
].join('\n');

describe('the store seam (eslint.config.js)', () => {
  it('flags every read of an EntityManager named em or tx outside a store, whatever holds it', async () => {
    expect(await flagged('src/modules/profile/profile.service.ts', READS)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(await flagged('src/http/credentials.ts', READS)).toHaveLength(8);
  });

  it("leaves stores and the stores' kit (src/db/) alone", async () => {
    expect(await flagged('src/modules/profile/profile.store.ts', READS)).toEqual([]);
    expect(await flagged('src/db/locked-update.ts', READS)).toEqual([]);
  });

  it('leaves arrays, other receivers and the unit of work alone', async () => {
    const code = ['items.find((item) => item.id === id);', 'node.arguments?.find(Boolean);', 'em.create(Profile, {});', 'em.flush();', 'em.map(Profile, row);', 'system.count(1);'].join('\n');
    expect(await flagged('src/modules/profile/profile.service.ts', code)).toEqual([]);
  });
});
