import { badUserInput } from '../../errors.ts';
import type { Metadata } from './metadata.ts';

/** A MetadataFilter's values are compared by JSON type and value, so only scalars are allowed. */
export function checkMetadataFilter(filter: Record<string, unknown>): Record<string, string | number | boolean> {
  for (const [key, value] of Object.entries(filter)) {
    if (value === null || typeof value === 'object') throw badUserInput(`metadata filter value for "${key}" must be a string, number or boolean`);
  }
  return filter as Record<string, string | number | boolean>;
}

/** Whether stored metadata satisfies a filter: `null` selects records without metadata, `{}` every record. */
export function matchesMetadata(metadata: Metadata | null | undefined, filter: Record<string, unknown> | null): boolean {
  if (filter === null) return metadata == null;
  return Object.entries(checkMetadataFilter(filter)).every(([key, value]) => metadata?.[key] === value);
}
