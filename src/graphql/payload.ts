import { ValidationError, type FieldIssue } from '../errors.ts';

/** The record a mutation names does not exist for this profile: reported at path ["id"]. */
export class RecordNotFound extends ValidationError {
  constructor(what: string) {
    super([{ path: ['id'], message: `${what} not found` }]);
  }
}

/**
 * Runs a mutation and shapes its payload: rule violations are data (`success: false`, each issue at
 * `["attributes", …]`, or `["id"]` when the record is not the profile's), anything else is an error.
 */
export async function mutationPayload<R>(apply: () => Promise<R>): Promise<{ success: boolean; record: R | null; errors: FieldIssue[] | null }> {
  try {
    return { success: true, record: await apply(), errors: null };
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const errors = error instanceof RecordNotFound ? error.issues : error.issues.map((issue) => ({ path: ['attributes', ...issue.path], message: issue.message }));
    return { success: false, record: null, errors };
  }
}
