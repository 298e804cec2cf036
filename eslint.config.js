// @ts-check
import { defineConfig } from 'eslint/config';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

// Which rules are on, which are off and why: docs/decisions/lint-eslint-rules.md.
export default defineConfig(
  {
    files: ['src/**/*.ts', 'scripts/**/*.ts', 'test/**/*.ts', 'deploy/**/*.ts', 'codegen.ts', 'vitest.config.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    plugins: { 'import-x': importX },
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    settings: {
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [importX.createNodeResolver()],
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      // As tsc's noUnusedLocals: `const { id, ...rest } = x` leaves out `id` on purpose.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // The tree writes `!` on indexed reads as if noUncheckedIndexedAccess were on; this rule would strip them.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      // An async method that implements a Promise-returning interface needs no await; unawaited calls are no-floating-promises' job.
      '@typescript-eslint/require-await': 'off',
      // Passing on another promise's rejection reason as it came is fine; new rejections are Errors.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
    },
  },
  {
    // One data-access seam per table: the EntityManager's reads run only in a module's store (or in
    // src/db/, the stores' kit). An EntityManager is named `em` or `tx` (a transaction's), as a
    // variable, a parameter or a field (`this.#em`, `ctx.state.em`); `orm.em.fork()` counts too.
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.store.ts', 'src/db/**'],
    rules: {
      'no-restricted-syntax': ['error', ...entityManagerReadsOutsideStores()],
    },
  },
  {
    // Test response bodies are `any` (checked against rest.yaml at run time, not typed per operation).
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
);

/** Selectors of an EntityManager read (`em.find(…)`, `this.#em.count(…)`, `orm.em.fork().findOne(…)`), each with its message. */
function entityManagerReadsOutsideStores() {
  const read = "CallExpression > MemberExpression.callee[property.name=/^(find|findOne|findOneOrFail|findAndCount|findAll|count|createQueryBuilder|qb)$/]";
  const message = 'EntityManager reads belong in the owning module\'s store (<module>.store.ts): call a named function of it.';
  return [
    `${read}[object.type='Identifier'][object.name=/^(em|tx)$/]`,
    `${read}[object.type='MemberExpression'][object.property.name=/^(em|tx)$/]`,
    `${read}[object.type='CallExpression'][object.callee.property.name='fork']`,
  ].map((selector) => ({ selector, message }));
}
