/**
 * The one error shape of API.md §7 / DECISIONS.md §Errors: `{ error, message, details }`.
 * Services throw `AppError`; the app's error handler turns it (and anything else) into the envelope.
 */
import { z } from '@hono/zod-openapi';

export const ERROR_KINDS = {
  BadRequest: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  Conflict: 409,
  PayloadTooLarge: 413,
  UnprocessableEntity: 422,
  TooManyRequests: 429,
  InternalServerError: 500,
  ServiceUnavailable: 503,
} as const;

export type ErrorKind = keyof typeof ERROR_KINDS;
export type ErrorStatus = (typeof ERROR_KINDS)[ErrorKind];

export const FieldIssueSchema = z.object({ path: z.string(), message: z.string() });
export type FieldIssue = z.infer<typeof FieldIssueSchema>;

export const ErrorBodySchema = z
  .object({
    error: z.enum(Object.keys(ERROR_KINDS) as [ErrorKind, ...ErrorKind[]]),
    message: z.string(),
    details: z.array(FieldIssueSchema).nullable(),
  })
  .openapi('Error');
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export class AppError extends Error {
  readonly kind: ErrorKind;
  readonly details: FieldIssue[] | null;
  /** Extra response headers, e.g. Retry-After on 429. */
  readonly headers: Record<string, string>;

  constructor(
    kind: ErrorKind,
    message: string,
    options: { details?: FieldIssue[] | null; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.kind = kind;
    this.details = options.details ?? null;
    this.headers = options.headers ?? {};
  }

  get status(): ErrorStatus {
    return ERROR_KINDS[this.kind];
  }

  toBody(): ErrorBody {
    return { error: this.kind, message: this.message, details: this.details };
  }
}

/**
 * A write that tests the caller's credential in its own statements (docs/ARCHITECTURE.md, "The credential
 * check beside the request") found it no longer granting what the request assumed, and wrote nothing.
 * Made before the check, the request is made again as the checked caller; made after it (the change fell
 * between the check and the write), the caller is asked to send it again.
 */
export class CredentialChangedError extends AppError {
  constructor() {
    super('Conflict', 'Your access changed while this request was made; nothing was written. Send it again.');
    this.name = 'CredentialChangedError';
  }
}

export const badRequest = (message: string, details?: FieldIssue[]) =>
  new AppError('BadRequest', message, { details: details ?? null });
export const unauthorized = (message = 'Authentication required') => new AppError('Unauthorized', message);
export const forbidden = (message: string) => new AppError('Forbidden', message);
export const notFound = (what: string) => new AppError('NotFound', `${what} not found`);
export const conflict = (message: string, details?: FieldIssue[]) =>
  new AppError('Conflict', message, { details: details ?? null });

/**
 * The error and the driver error under it: drizzle wraps a single statement's failure ("Failed query: …")
 * with D1's or libSQL's own error, which names the constraint, as its `cause` (a batch's is not wrapped).
 */
const messagesOf = (error: unknown) => `${error} ${(error as { cause?: unknown } | null)?.cause ?? ''}`;

/** The database refused a write for a unique index. */
export const isUniqueViolation = (error: unknown) => messagesOf(error).includes('UNIQUE');

/** The database refused a write for a foreign key (a row it names is gone). */
export const isForeignKeyViolation = (error: unknown) => messagesOf(error).includes('FOREIGN KEY');

/**
 * A write a unique index may refuse, answered as a 409 with this message. The caller's own check before it
 * gives the clear message first; two concurrent writes can both pass that check, and the index decides.
 */
export async function savedUnlessTaken<T>(save: () => Promise<T>, message: string): Promise<T> {
  try {
    return await save();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(message);
    throw error;
  }
}

/** Turns zod issues into the `details` array: `[{ path: "email", message: "Invalid email address" }]`. */
export function issuesToDetails(issues: readonly z.core.$ZodIssue[], prefix?: string): FieldIssue[] {
  return issues.map((issue) => {
    const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
    if (issue.code === 'unrecognized_keys') {
      return { path: path || '(root)', message: `Unknown field(s): ${issue.keys.join(', ')}` };
    }
    return { path: path || '(root)', message: issue.message };
  });
}

/** A one-line summary of validation issues, for the envelope's `message`. */
export function summarizeIssues(where: string, details: FieldIssue[]): string {
  const first = details[0];
  if (!first) return `Invalid ${where}`;
  const more = details.length > 1 ? ` (and ${details.length - 1} more)` : '';
  return `Invalid ${where}: ${first.path}: ${first.message}${more}`;
}
