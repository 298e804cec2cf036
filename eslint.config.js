// @ts-check
import { defineConfig } from 'eslint/config';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const FRONT_DOORS = ['./src/http', './src/rest', './src/graphql', './src/pages'];
const COMPOSITION = ['./src/service.ts', './src/main.ts'];
const ABOVE_MODULES = ['./src/orm', ...FRONT_DOORS, ...COMPOSITION];
const ABOVE_API_KIT = ['./src/enrichment', './src/modules', ...ABOVE_MODULES];
const ABOVE_PROVIDERS = ['./src/api-kit', ...ABOVE_API_KIT];
const ABOVE_JOBS = ['./src/providers', ...ABOVE_PROVIDERS];
const ABOVE_METRICS = ['./src/jobs', ...ABOVE_JOBS];
const ABOVE_DB = ['./src/metrics', ...ABOVE_METRICS];
const ABOVE_LIB = ['./src/db', ...ABOVE_DB];
const LAYER_ZONES = [
  { target: ['./src/lib', './src/errors.ts', './src/config.ts', './src/logger.ts', './src/secrets.ts'], from: ABOVE_LIB },
  { target: './src/db', from: ABOVE_DB },
  { target: './src/metrics', from: ABOVE_METRICS },
  { target: './src/jobs', from: ABOVE_JOBS },
  // Providers speak to upstreams only: they know no module, no job and no front door.
  { target: './src/providers', from: ['./src/jobs', ...ABOVE_PROVIDERS] },
  // The kit sits below the modules and knows only lib, errors and generated/.
  { target: './src/api-kit', from: ['./src/db', './src/metrics', './src/jobs', './src/providers', './src/config.ts', './src/logger.ts', './src/secrets.ts', ...ABOVE_API_KIT] },
  // Enrichment is pure (no I/O): it knows only lib and errors, and modules call it.
  { target: './src/enrichment', from: './src', except: ['./lib', './errors.ts', './enrichment'] },
  { target: './src/modules', from: ABOVE_MODULES },
  { target: './src/orm', from: [...FRONT_DOORS, ...COMPOSITION] },
  { target: FRONT_DOORS, from: COMPOSITION },
];

// Which rules are on, which are off and why: docs/decisions/lint-eslint-rules.md.
export default defineConfig(
  {
    files: ['src/**/*.ts', 'scripts/**/*.ts', 'test/**/*.ts', 'deploy/**/*.ts', 'codegen.ts', 'vitest.config.ts'],
    ignores: ['src/console/**'],
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
      // Layers, bottom up (docs/decisions/structure-layers.md): lib, errors, config, logger, secrets;
      // db; metrics; jobs; providers; api-kit (the front doors' shared types and helpers); modules;
      // orm (every module's entity); the front doors http, rest, graphql, pages; service and main.
      // Enrichment (pure, deterministic) imports only lib and errors; modules and above may import it.
      // A file imports its own layer and those below it, never one above.
      'import-x/no-restricted-paths': ['error', { zones: LAYER_ZONES }],
      // The tree writes `!` on indexed reads as if noUncheckedIndexedAccess were on; this rule would strip them.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      // An async method that implements a Promise-returning interface needs no await; unawaited calls are no-floating-promises' job.
      '@typescript-eslint/require-await': 'off',
      // Passing on another promise's rejection reason as it came is fine; new rejections are Errors.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
    },
  },
  {
    // The operator console: browser code (src/console/tsconfig.json), bundled by scripts/console-build.ts.
    files: ['src/console/**/*.{ts,tsx}'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
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
