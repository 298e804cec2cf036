import type { FieldIssue } from '../errors.ts';

/** What openapi-backend's ajv reports for one failed check. */
export interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/** An ajv error as a field issue: the path below the request part ("email", "metadata.plan", "limit"). */
export function toIssue(error: AjvError): FieldIssue {
  const path = error.instancePath.split('/').slice(1).map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
  if (['requestBody', 'query', 'path', 'header', 'params'].includes(path[0] ?? '')) path.shift();
  if (error.keyword === 'required') return { path: [...path, String(error.params.missingProperty)], message: 'is required' };
  if (error.keyword === 'additionalProperties') {
    return { path: [...path, String(error.params.additionalProperty)], message: 'is not a known field' };
  }
  return { path, message: error.message ?? 'is invalid' };
}
