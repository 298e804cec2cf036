/**
 * Typed domain errors with stable codes. Services throw these; one middleware (src/http/errors.ts)
 * maps them to the contract's error body, and the GraphQL layer maps them to errors as data.
 */
import type { components } from '../generated/rest.ts';

/** The contract's list of error codes (ErrorCode in rest.yaml), the same in REST bodies and GraphQL `extensions.code`: a code it does not list does not compile. */
export type ErrorCode = components['schemas']['ErrorCode'];

export interface FieldIssue {
  /** Path of the offending input field, e.g. ['email'] or ['metadata', 'favourite']. */
  path: string[];
  message: string;
}

export class AppError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly instruction: string | undefined;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: ErrorCode,
    message: string,
    options: { instruction?: string; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.instruction = options.instruction;
    this.headers = options.headers ?? {};
  }
}

type Options = ConstructorParameters<typeof AppError>[3];

export const badRequest = (message: string, options?: Options) => new AppError(400, 'BAD_REQUEST', message, options);
export const unauthorized = (message: string, options?: Options) => new AppError(401, 'UNAUTHENTICATED', message, options);
export const forbidden = (message: string, options?: Options) => new AppError(403, 'FORBIDDEN', message, options);
export const notFound = (what: string) => new AppError(404, 'NOT_FOUND', `${what} not found`);
export const conflict = (message: string, options?: Options) => new AppError(409, 'CONFLICT', message, options);
export const unsupportedMediaType = (message: string) =>
  new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', message, { instruction: 'Send the body as JSON with Content-Type: application/json.' });
export const payloadTooLarge = (message: string) => new AppError(413, 'PAYLOAD_TOO_LARGE', message);
/** A GraphQL argument value that breaks a rule (REST checks its arguments against the contract: 422). */
export const badUserInput = (message: string) => new AppError(400, 'BAD_USER_INPUT', message);

/** Input that breaks a rule: 422 in REST, `success: false` with `errors` in GraphQL mutations. */
export class ValidationError extends AppError {
  readonly issues: FieldIssue[];

  constructor(issues: FieldIssue[]) {
    super(422, 'VALIDATION_FAILED', describe(issues), { instruction: 'Correct the fields listed in `errors` and retry.' });
    this.issues = issues;
  }
}

function describe(issues: FieldIssue[]): string {
  const fields = [...new Set(issues.map((issue) => issue.path.join('.') || 'body'))];
  return `Invalid ${fields.join(', ')}: ${issues[0]?.message ?? 'invalid input'}`;
}
