import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // Node loads graphql's CommonJS entry (the package has no "exports"), and so do the libraries
    // that build and serve the schema; Vite would pick its ESM "module" entry for our own files,
    // giving two copies of graphql's classes. Resolve it the way Node does.
    alias: [{ find: /^graphql$/, replacement: createRequire(import.meta.url).resolve('graphql') }],
  },
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    // Two files at a time: most of a file's time is waiting on PostgreSQL, HTTPS and child processes,
    // so on two cores two workers finish well before one (each file has its own database).
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        // Every tier but test/unit: test/services, test/http, test/process, and test/fuzz (README, Development).
        // Run one by its folder: `npx vitest run test/unit`. Without isolation a worker imports the service
        // once for all its files (a fresh import cost each file 3–7 s, most of the run's idle time). Each
        // file still has its own database and service; none mocks a module or changes process-wide state.
        test: { name: 'tiers', include: ['test/**/*.test.ts'], exclude: ['test/statements/**', 'test/unit/**'], isolate: false, sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        // Unit tests start no service and hold no state between files: one worker runs many, importing once (a third of their time).
        test: { name: 'unit', include: ['test/unit/*.test.ts'], isolate: false, sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        // After every other file: it checks the statements they sent (test/statements/profile-scope.test.ts).
        test: { name: 'statements', include: ['test/statements/*.test.ts'], sequence: { groupOrder: 1 } },
      },
    ],
  },
});
