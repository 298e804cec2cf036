import type { EntityManager } from '@mikro-orm/postgresql';
import { isCategory } from '../../enrichment/taxonomy.ts';
import { ValidationError } from '../../errors.ts';
import { jobsIn } from '../../jobs/in-transaction.ts';
import type { TransactionEntity } from '../transaction/transaction.entity.ts';
import { sourcesByIds } from '../transaction/transaction-enrichment.store.ts';
import type { CorrectionJobs } from './categorization.jobs.ts';
import { enricherFor, retrain } from './learning.ts';

export interface CategoryChoice {
  primary: string;
  detailed: string;
}

/** A category a client names, checked against the taxonomy: anything else is a user error at `["category"]`. */
export function checkedCategory(category: CategoryChoice | null): CategoryChoice | null {
  if (category === null || isCategory(category.primary, category.detailed)) return category;
  throw new ValidationError([
    { path: ['category'], message: 'category is not in the taxonomy (docs/categories.md): detailed must be one of the categories of primary, e.g. FOOD_AND_DRINK / FOOD_AND_DRINK_COFFEE' },
  ]);
}

/**
 * The end-user's correction of a transaction they hold locked, in their transaction: sets the
 * category (USER, confidence 1), or clears it back to the automatic one, which is computed at once
 * with the classifier as it stands without this correction. The profile's classifier is retrained
 * from its corrections, and its other transactions are reconsidered by a job queued with the change.
 */
export async function correctCategory(tx: EntityManager, transaction: TransactionEntity, category: CategoryChoice | null, jobs: CorrectionJobs): Promise<void> {
  const profileId = transaction.profile.id;
  transaction.categoryPrimary = category?.primary ?? null;
  transaction.categoryDetailed = category?.detailed ?? null;
  transaction.categorySource = category ? 'USER' : null;
  transaction.categoryConfidence = category ? '1.000' : null;
  await tx.flush();
  await retrain(tx, profileId);
  if (!category) {
    const [source] = await sourcesByIds(tx, profileId, [transaction.id]);
    Object.assign(transaction, (await enricherFor(tx, profileId))(source!.input));
  }
  await jobs.learned(profileId, jobsIn(tx));
}
