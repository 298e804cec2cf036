import { ValidationError, type FieldIssue } from '../errors.ts';
import { unstorableText } from '../lib/storable-text.ts';

/** The record a mutation names does not exist for this profile: reported at path ["id"]. */
export class RecordNotFound extends ValidationError {
  constructor(what: string) {
    super([{ path: ['id'], message: `${what} not found` }]);
  }
}

/**
 * Runs a mutation and shapes its payload: rule violations are data (`success: false`, each issue at
 * `["attributes", …]`, or `["id"]` when the record is not the profile's), anything else is an error.
 * Text the database cannot store anywhere in `input` is such a violation, found before `apply` runs.
 */
export async function mutationPayload<R>(input: object, apply: () => Promise<R>): Promise<{ success: boolean; record: R | null; errors: FieldIssue[] | null }> {
  try {
    refuseUnstorableText(input);
    return { success: true, record: await apply(), errors: null };
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const errors = error instanceof RecordNotFound ? error.issues : error.issues.map((issue) => ({ path: ['attributes', ...issue.path], message: issue.message }));
    return { success: false, record: null, errors };
  }
}

/** The record's `id` is only decoded, never stored (a bad one reads as not found); the other fields are. */
function refuseUnstorableText(input: object): void {
  const { id: _id, ...attributes } = input as { id?: unknown };
  const issues = unstorableText(attributes);
  if (issues.length > 0) throw new ValidationError(issues);
}
