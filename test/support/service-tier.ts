import { afterAll, beforeAll } from 'vitest';
import { builders, type Builders } from './builders.ts';
import { openTestDatabase, type TestDatabase } from './test-database.ts';

/**
 * A service-tier test file's setup: a database of its own, cloned from the migrated template before
 * its tests and dropped after them, and builders for it, handed to `use` once opened.
 */
export function withServiceTier(use: (tier: { db: TestDatabase; build: Builders }) => void): void {
  let db: TestDatabase | undefined;
  beforeAll(async () => {
    db = await openTestDatabase();
    use({ db, build: builders(db) });
  });
  afterAll(() => db?.close());
}
